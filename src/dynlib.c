// SPDX-License-Identifier: GPL-2.0-or-later
/* Libraries opened when first needed: see dynlib.h. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynlib.h"

int dynlib_debuginfod_wanted(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && urls[0];
}

/*
 * libdw (0.188) dlopen()s libdebuginfod the first time a module's debug
 * file or ELF is not on disk (dwfl_standard_find_debuginfo(),
 * dwfl_build_id_find_elf()), whether or not DEBUGINFOD_URLS names a
 * server. With libcurl, gnutls, krb5 and ldap that is 30 libraries and a
 * twentieth of a small report's CPU, spent to learn that there is no server
 * to ask: libdebuginfod asks none when DEBUGINFOD_URLS is unset or empty.
 * The executable's dlopen() comes first in the lookup order, libdw's calls
 * included: this one refuses libdebuginfod then, as if it were not
 * installed, which libdw takes quietly; everything else goes on to the C
 * library's (or a sanitizer's) dlopen().
 */
void *dlopen(const char *file, int mode)
{
	static void *(*next)(const char *, int);
	void *(*fn)(const char *, int) = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
	const char *base = file ? strrchr(file, '/') : NULL;

	base = base ? base + 1 : file;
	if (base && !strncmp(base, "libdebuginfod", 13) && !dynlib_debuginfod_wanted())
		return NULL;
	if (!fn) {
		void *p = dlsym(RTLD_NEXT, "dlopen");

		memcpy(&fn, &p, sizeof(fn));
		if (!fn)
			return NULL;
		__atomic_store_n(&next, fn, __ATOMIC_RELEASE);
	}
	return fn(file, mode);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

int dynlib_open(const char *soname, const char *pkg, const char *const *names, void *fns,
		size_t n, char *err, size_t errlen)
{
	void **out = fns;	/* POSIX: function pointers convert to and from void * */
	void *h;
	int rc = 0;

	pthread_mutex_lock(&mu);
	if (out[0])		/* opened before */
		goto done;
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "cannot load %s: %s (install %s)", soname, dlerror(), pkg);
		rc = -1;
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		out[i] = dlsym(h, names[i]);
		if (!out[i]) {
			snprintf(err, errlen, "%s has no %s (install %s)", soname, names[i], pkg);
			memset(out, 0, n * sizeof(*out));
			rc = -1;
			break;
		}
	}
done:
	pthread_mutex_unlock(&mu);
	return rc;
}
