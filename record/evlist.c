// SPDX-License-Identifier: GPL-2.0-or-later
/* perf's event list grammar. See evlist.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "evlist.h"
#include "evname.h"
#include "opt.h"
#include "tracefs.h"
#include "xalloc.h"

/* mem:ADDR[/LEN][:ACCESS]: a hardware breakpoint, as perf spells it. */
static int parse_mem(const char *spec, struct perf_event_attr *a, const char **mods,
		     char *err, size_t len)
{
	const char *p = spec + 4;
	char *end;
	unsigned long long addr, blen = 0;

	errno = 0;
	addr = strtoull(p, &end, 0);
	if (errno || end == p)
		return opt_fail(err, len, "-e %s: give mem:ADDRESS[/LENGTH][:rwx]", spec);
	p = end;
	if (*p == '/') {
		blen = strtoull(p + 1, &end, 0);
		if (end == p + 1 || (blen != 1 && blen != 2 && blen != 4 && blen != 8))
			return opt_fail(err, len, "-e %s: a breakpoint's length is 1, 2, 4 or 8", spec);
		p = end;
	}
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_addr = addr;
	a->bp_type = HW_BREAKPOINT_RW;
	*mods = "";
	if (*p == ':') {
		size_t n = strspn(p + 1, "rwx");

		if (n && (p[1 + n] == '\0' || p[1 + n] == ':')) {
			a->bp_type = 0;
			for (size_t i = 1; i <= n; i++)
				a->bp_type |= p[i] == 'r' ? HW_BREAKPOINT_R : p[i] == 'w' ? HW_BREAKPOINT_W
					      : HW_BREAKPOINT_X;
			p += 1 + n;
		}
		if (*p == ':')
			*mods = p + 1;
		else if (*p)
			return opt_fail(err, len, "-e %s: give mem:ADDRESS[/LENGTH][:rwx]", spec);
	} else if (*p) {
		return opt_fail(err, len, "-e %s: give mem:ADDRESS[/LENGTH][:rwx]", spec);
	}
	if ((a->bp_type & HW_BREAKPOINT_X) && a->bp_type != HW_BREAKPOINT_X)
		return opt_fail(err, len, "-e %s: an execute breakpoint (x) cannot also be r or w", spec);
	a->bp_len = blen ? blen : a->bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	return 0;
}

int evlist_base(const char *spec, struct perf_event_attr *a, size_t *name_len,
		const char **mods, char *err, size_t len)
{
	char name[256];
	const char *colon;
	const struct evname *ev;
	uint64_t config;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	*mods = "";
	if (!strncmp(spec, "mem:", 4)) {
		if (parse_mem(spec, a, mods, err, len))
			return -1;
		/* the name is all before the modifiers' ':' */
		*name_len = **mods ? (size_t)(*mods - 1 - spec) : strlen(spec);
		return 0;
	}
	colon = strchr(spec, ':');
	*name_len = colon ? (size_t)(colon - spec) : strlen(spec);
	snprintf(name, sizeof(name), "%.*s", (int)*name_len, spec);
	if ((ev = evname_lookup(name))) {
		a->type = ev->type;
		a->config = ev->config;
	} else if (evname_cache(name, &config) == 0) {
		a->type = PERF_TYPE_HW_CACHE;
		a->config = config;
	} else if (name[0] == 'r' && name[1] && strspn(name + 1, "0123456789abcdefABCDEF") ==
		   strlen(name + 1) && strlen(name + 1) <= 16) {
		a->type = PERF_TYPE_RAW;
		a->config = strtoull(name + 1, NULL, 16);
	} else if (colon) {
		*name_len = strlen(spec);
		return 1;	/* SYSTEM:NAME, a tracepoint */
	} else {
		return opt_fail(err, len, "-e: unknown event '%s'; known: %s; the cache events "
			        "(L1-dcache-load-misses...), rNNN, mem:ADDR, SYSTEM:TRACEPOINT", name,
			        evname_list());
	}
	*mods = colon ? colon + 1 : "";
	return 0;
}

/* One event (no braces, no commas) into a. */
static int parse_one(const char *spec, struct perf_event_attr *a, char *err, size_t len)
{
	const char *mods;
	size_t name_len;
	uint64_t config;
	int ret = evlist_base(spec, a, &name_len, &mods, err, len);

	if (ret < 0)
		return -1;
	a->exclude_guest = 1;	/* perf's default: the host's counts */
	if (ret > 0) {
		if (tracefs_event_id(spec, &config, err, len))
			return -1;
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = config;
		return 0;
	}
	if (evname_apply_mods(a, mods))
		return opt_fail(err, len, "-e %s: unknown modifier '%s': u (user), k (kernel), h "
			        "(hypervisor), G (guest), H (host), p (precise), D (pinned), I (not the idle "
			        "task)", spec, mods);
	return 0;
}

static int add_event(struct evlist *o, const char *spec, size_t n, const char *gmods,
		     int leader, char *err, size_t len)
{
	struct evspec *e;
	char *s;

	if (o->n >= EVLIST_MAX)
		return opt_fail(err, len, "-e: more than %d events", EVLIST_MAX);
	s = xmalloc(n + 1);
	memcpy(s, spec, n);
	s[n] = '\0';
	e = &o->ev[o->n];
	memset(e, 0, sizeof(*e));
	if (parse_one(s, &e->attr, err, len)) {
		free(s);
		return -1;
	}
	if (gmods && gmods[0] && evname_apply_mods(&e->attr, gmods)) {
		free(s);
		return opt_fail(err, len, "-e: unknown group modifier '%s'", gmods);
	}
	if (gmods && gmods[0]) {
		e->name = xmalloc(n + strlen(gmods) + 2);
		sprintf(e->name, "%s:%s", s, gmods);
		free(s);
	} else {
		e->name = s;
	}
	e->leader = leader < 0 ? o->n : leader;
	o->n++;
	return 0;
}

int evlist_parse(struct evlist *o, const char *arg, char *err, size_t len)
{
	const char *p = arg;

	if (!*p)
		return opt_fail(err, len, "-e: an empty list of events; give one or more, as -e "
			        "task-clock,page-faults (prof stat --help)");
	while (*p) {
		if (*p == '{') {
			const char *close = strchr(p, '}'), *q = p + 1, *gm = "";
			char gmods[32] = "";
			int leader = o->n;

			if (!close)
				return opt_fail(err, len, "-e %s: a '{' without its '}'", arg);
			if (close == q)
				return opt_fail(err, len, "-e %s: an empty group", arg);
			if (close[1] == ':') {
				size_t m = strcspn(close + 2, ",");

				if (m >= sizeof(gmods))
					return opt_fail(err, len, "-e %s: group modifiers too long", arg);
				memcpy(gmods, close + 2, m);
				gmods[m] = '\0';
				gm = gmods;
			}
			while (q < close) {
				size_t n = strcspn(q, ",}");

				if (!n || q + n > close)
					return opt_fail(err, len, "-e %s: an empty event in a group", arg);
				if (memchr(q, '{', n))
					return opt_fail(err, len, "-e %s: groups do not nest", arg);
				if (add_event(o, q, n, gm, leader, err, len))
					return -1;
				q += n + (q[n] == ',');
			}
			p = close + 1;
			if (*p == ':')
				p += 1 + strcspn(p + 1, ",");
		} else {
			size_t n = strcspn(p, ",");

			if (!n)
				return opt_fail(err, len, "-e %s: an empty event", arg);
			if (memchr(p, '}', n))
				return opt_fail(err, len, "-e %s: a '}' without its '{'", arg);
			if (add_event(o, p, n, NULL, -1, err, len))
				return -1;
			p += n;
		}
		if (*p == ',') {
			p++;
			if (!*p)
				return opt_fail(err, len, "-e %s: an empty event", arg);
		} else if (*p) {
			return opt_fail(err, len, "-e %s: expected ',' after a group", arg);
		}
	}
	return 0;
}

void evlist_release(struct evlist *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->ev[i].name);
	l->n = 0;
}
