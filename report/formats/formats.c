// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of output formats, and what the formats share. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "xalloc.h"

extern const struct format format_text, format_folded, format_svg, format_json, format_pprof,
	format_otlp, format_speedscope, format_firefox, format_html;

const struct format *const formats[] = {
	&format_text, &format_folded, &format_svg, &format_json, &format_pprof, &format_otlp,
	&format_speedscope, &format_firefox, &format_html, NULL,
};

int format_key_pieces(enum hist_key k, const char *text, unsigned flags, const char *inl_in,
		      const char *p[5])
{
	p[0] = text ? text : "";
	if (k != HIST_SYM)
		return 1;
	p[1] = p[0];
	p[0] = flags & FRAME_KERNEL ? "[k] " : "[.] ";
	if (inl_in) {
		p[2] = " (inlined in ";
		p[3] = inl_in;
		p[4] = ")";
		return 5;
	}
	p[2] = flags & FRAME_INLINED ? " (inlined)" : "";
	return 3;
}

char *format_key(enum hist_key k, const char *text, unsigned flags, const char *inl_in)
{
	const char *p[5];
	int n = format_key_pieces(k, text, flags, inl_in, p);
	size_t l[5], len = 1;
	char *s, *at;

	for (int i = 0; i < n; i++)
		len += l[i] = strlen(p[i]);
	s = at = xmalloc(len);
	for (int i = 0; i < n; i++) {
		memcpy(at, p[i], l[i]);
		at += l[i];
	}
	*at = '\0';
	return s;
}

char *format_sym(const char *name, unsigned flags, const char *inl_in)
{
	return format_key(HIST_SYM, name, flags, inl_in);
}

const struct format *format_find(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

void format_names(int diff, char *buf, size_t len)
{
	size_t n = 0, k = 0, at = 0;

	for (size_t i = 0; formats[i]; i++)
		n += !diff || formats[i]->write_diff;
	buf[0] = '\0';
	for (size_t i = 0; formats[i] && at < len; i++) {
		if (diff && !formats[i]->write_diff)
			continue;
		k++;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", k == 1 ? "" : k == n ? " or " : ", ",
				       formats[i]->name);
	}
}

const char *format_change_word(const struct diff_value *x)
{
	return !x->significant ? "noise" : x->delta > 0 ? "grew" : "shrank";
}

int format_diff_shown(const struct format_view *v, const struct diff_value *x, double min)
{
	double larger = x->pct[0] > x->pct[1] ? x->pct[0] : x->pct[1];

	return (x->v[0] || x->v[1]) && larger >= (v->has_limit ? v->percent_limit : min);
}

int diff_selected(const struct format_view *v, const struct diff_entry *e)
{
	return !v->symbol || (e->text[HIST_SYM] && !regexec(v->symbol, e->text[HIST_SYM], 0, NULL, 0));
}

int format_diff_trips(const struct format_view *v, const struct diff_entry *e)
{
	return e->d.significant && e->d.delta > v->fail_above && diff_selected(v, e);
}

char *diff_entry_name(const struct format_view *v, const struct diff_entry *e)
{
	size_t len = 1;
	char *s;

	if (e->text[HIST_SYM])
		return xstrdup(e->text[HIST_SYM]);
	for (int k = 0; k < v->ho->nkeys; k++)
		len += strlen(e->text[v->ho->keys[k]] ? e->text[v->ho->keys[k]] : "") + 3;
	s = xmalloc(len);
	s[0] = '\0';
	for (int k = 0; k < v->ho->nkeys; k++) {
		if (k)
			strcat(s, " / ");
		strcat(s, e->text[v->ho->keys[k]] ? e->text[v->ho->keys[k]] : "");
	}
	return s;
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
	return evkind_time(e->name, e->attr.config);
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
