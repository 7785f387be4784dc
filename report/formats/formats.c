// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of output formats. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "format.h"

extern const struct format format_text, format_folded, format_svg, format_json, format_pprof;

const struct format *const formats[] = {
	&format_text, &format_folded, &format_svg, &format_json, &format_pprof, NULL,
};

const struct format *format_find(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const struct profile_event *format_one_event(const struct profile *p, const char *what)
{
	size_t others;
	const struct profile_event *e = profile_first_event(p, &others);

	if (e && others)
		fprintf(stderr, "prof: warning: '%s' has %zu more events; the %s shows '%s' "
			"only (--format json has them all)\n", p->input, others, what, e->ev->name);
	return e;
}
