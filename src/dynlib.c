// SPDX-License-Identifier: GPL-2.0-or-later
/* Libraries opened when first needed: see dynlib.h. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dynlib.h"

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
