/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This kernel's vDSO, the code it maps into every process as "[vdso]"
 * (clock_gettime, gettimeofday, getcpu), as a file: the image prof's own
 * process has, copied once into a memory file that libelf opens by its
 * /proc/self/fd path, and its build id. Every 64-bit process of this
 * kernel maps the same image; a compat process (i386, x32, aarch32)
 * maps another, below 4 GiB. The recorder puts its build id into the
 * [vdso] maps and keeps the image in the build-id cache; a report names
 * the vDSO's code from the cache, or from this image when the build ids
 * match.
 */
#ifndef PROF_VDSO_H
#define PROF_VDSO_H

#include <stddef.h>
#include <stdint.h>

/* The image and its build id; NULL when this process has no vDSO (or it could not be copied). */
struct vdso_image {
	const char *path;		/* "/proc/self/fd/N": open it, never close N */
	const unsigned char *id;
	size_t id_len;			/* 0: it has no build id */
};
const struct vdso_image *vdso_own(void);

/* Whether name (name_len bytes, not NUL-terminated) is a vDSO's map's, "[vdso]". */
int vdso_named(const char *name, size_t name_len);

/*
 * Whether a process's "[vdso]" map at start (name of name_len bytes, not
 * NUL-terminated) is of this kernel's native image, vdso_own()'s: a
 * 64-bit process's, mapped above 4 GiB.
 */
int vdso_is_native(const char *name, size_t name_len, uint64_t start);

#endif
