/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where files are kept by build id, as perf and the debug directory lay
 * them out: DIR/.build-id/ab/cdef...TAIL, the first byte's two hex digits a
 * directory, the rest the name ("/elf" and "/debug" in perf's cache,
 * ".debug" in /usr/lib/debug). The recorder keeps files there, the
 * symbolizer looks for them, prof archive packs them.
 */
#ifndef PROF_BUILDID_H
#define PROF_BUILDID_H

#include <stddef.h>

/*
 * perf's build-id cache: $PERF_BUILDID_DIR, else $HOME/.debug, into buf;
 * 0, or -1 when neither is set (or it does not fit).
 */
int buildid_cache_dir(char *buf, size_t len);

/*
 * dir (NULL for none: a relative ".build-id/...") /.build-id/ab/cdef...tail
 * for the len bytes of id, into buf. 0, or -1 when id is shorter than 2
 * bytes or the path does not fit.
 */
int buildid_path(char *buf, size_t buflen, const char *dir, const unsigned char *id, size_t len,
		 const char *tail);

/* The len bytes of id as lowercase hex into hex, which holds 2 * len + 1 bytes. */
void buildid_hex(char *hex, const unsigned char *id, size_t len);

/*
 * The GNU build id note of an open ELF file of this machine's class and
 * byte order, from its PT_NOTE segments, into id (20 bytes); its length,
 * 0 when there is none. The kernel reads it the same way for MMAP2 with
 * attr.build_id.
 */
size_t buildid_read(int fd, unsigned char *id);

#endif
