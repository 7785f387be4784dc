// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of output formats. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "xalloc.h"

extern const struct format format_text, format_folded, format_svg, format_json, format_pprof;

const struct format *const formats[] = {
	&format_text, &format_folded, &format_svg, &format_json, &format_pprof, NULL,
};

char *format_sym(const char *name, unsigned flags, const char *inl_in)
{
	size_t len = strlen(name) + (inl_in ? strlen(inl_in) : 0) + 32;
	char *s = xmalloc(len);

	snprintf(s, len, "[%c] %s%s%s%s", flags & FRAME_KERNEL ? 'k' : '.', name,
		 inl_in ? " (inlined in " : flags & FRAME_INLINED ? " (inlined)" : "",
		 inl_in ? inl_in : "", inl_in ? ")" : "");
	return s;
}

char *format_key(enum hist_key k, const char *text, unsigned flags, const char *inl_in)
{
	return k == HIST_SYM ? format_sym(text, flags, inl_in) : xstrdup(text ? text : "");
}

const struct format *format_find(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

int format_thread_time_cmp(const void *a, const void *b)
{
	const struct profile_thread_time *x = a, *y = b;
	uint64_t tx = x->running + x->preempted + x->blocked;
	uint64_t ty = y->running + y->preempted + y->blocked;

	return tx != ty ? (tx < ty ? 1 : -1) : (x->tid > y->tid) - (x->tid < y->tid);
}

int format_time_event(const struct evdesc *e)
{
	return profile_time_event(e->name, e->attr.config);
}

const struct profile_event *format_one_event(const struct profile *p, const struct format_view *v,
					    const char *what)
{
	size_t others;
	const struct profile_event *e = profile_first_event(p, &others);

	if (e && others && !v->quiet)
		fprintf(stderr, "prof: warning: '%s' has %zu more events; the %s shows '%s' "
			"only (--format json has them all)\n", p->input, others, what, e->ev->name);
	return e;
}
