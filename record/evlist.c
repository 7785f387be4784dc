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
#include "parse.h"
#include "pmu.h"
#include "probe.h"
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

/* A PMU's name: what its directory may be called, no '/' or "..". */
static int pmu_name_ok(const char *name, size_t n)
{
	return n && n < 64 && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_-.") >= n && !(n <= 2 && name[0] == '.');
}

/*
 * Put value v into a's field as the PMU's format spec fmt says
 * ("config:0-7,21", "config1:0-63"): bits taken from v's lowest up. 0, or
 * -1 when fmt is not a format or v does not fit.
 */
static int pmu_put(struct perf_event_attr *a, const char *fmt, uint64_t v)
{
	__u64 *field;
	const char *p;
	unsigned used = 0;

	if (!strncmp(fmt, "config:", 7))
		field = &a->config, p = fmt + 7;
	else if (!strncmp(fmt, "config1:", 8))
		field = &a->config1, p = fmt + 8;
	else if (!strncmp(fmt, "config2:", 8))
		field = &a->config2, p = fmt + 8;
	else
		return -1;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1 || hi > 63 || hi < lo)
				return -1;
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++, used++)
			if (used < 64 && (v >> used & 1))
				*field |= 1ULL << b;
			else if (used < 64)
				*field &= ~(1ULL << b);
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return used < 64 && v >> used ? -1 : 0;
}

/* A term's value, decimal or 0x hexadecimal, of 64 bits: 0, or -1. */
static int term_value(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

/* Terms "t=v,t,..." of PMU pmu into a; depth: aliases expand once. 0, or -1 with a reason. */
static int pmu_terms(const char *spec, const char *pmu, const char *terms, size_t n,
		     struct perf_event_attr *a, int depth, char *err, size_t len)
{
	while (n) {
		size_t t = strcspn(terms, ","), k;
		char term[128], rel[192], fmt[256];
		const char *eq;
		uint64_t v = 1;

		if (t > n)
			t = n;
		if (!t || t >= sizeof(term))
			return opt_fail(err, len, "-e %s: an empty or too long term", spec);
		memcpy(term, terms, t);
		term[t] = '\0';
		eq = strchr(term, '=');
		k = eq ? (size_t)(eq - term) : t;
		if (eq && term_value(eq + 1, &v))
			return opt_fail(err, len, "-e %s: '%s' is not a number of 64 bits", spec, eq + 1);
		term[k] = '\0';
		if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
			*(term[6] == '1' ? &a->config1 : term[6] == '2' ? &a->config2 : &a->config) = v;
		} else if (!strcmp(term, "period")) {
			a->sample_period = v;
		} else if (snprintf(rel, sizeof(rel), "format/%s", term) < (int)sizeof(rel) &&
			   pmu_name_ok(term, k) && !pmu_read(pmu, rel, fmt, sizeof(fmt))) {
			if (pmu_put(a, fmt, v))
				return opt_fail(err, len, "-e %s: %s=%s does not fit the PMU's format %s",
						spec, term, eq ? eq + 1 : "1", fmt);
		} else if (!eq && depth == 0 && pmu_name_ok(term, k) &&
			   snprintf(rel, sizeof(rel), "events/%s", term) < (int)sizeof(rel) &&
			   !pmu_read(pmu, rel, fmt, sizeof(fmt))) {
			/* an alias: the terms its events/ file holds ("event=0x3c,umask=0x1") */
			if (pmu_terms(spec, pmu, fmt, strlen(fmt), a, 1, err, len))
				return -1;
		} else {
			return opt_fail(err, len, "-e %s: PMU %s has no term or event '%s' (%s/%s/format "
					"and events list them; prof list %s)", spec, pmu, term,
					pmu_source(), pmu, pmu);
		}
		terms += t;
		n -= t;
		if (n) {
			terms++;
			n--;
		}
	}
	return 0;
}

/* PMU/terms/[:mods]: 0, its name's length and mods set; or -1 with a reason. */
static int parse_pmu(const char *spec, const char *slash, struct perf_event_attr *a,
		     size_t *name_len, const char **mods, char *err, size_t len)
{
	const char *close = strchr(slash + 1, '/');
	char pmu[64], buf[32];
	uint64_t type;

	if (!close)
		return opt_fail(err, len, "-e %s: a PMU's terms end with '/': PMU/term=value,.../", spec);
	if (!pmu_name_ok(spec, (size_t)(slash - spec)))
		return opt_fail(err, len, "-e %s: not a PMU's name", spec);
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - spec), spec);
	if (pmu_read(pmu, "type", buf, sizeof(buf)) || parse_u64(buf, 0, UINT32_MAX, &type))
		return opt_fail(err, len, "-e %s: no PMU '%s' in %s (prof list pmu)", spec, pmu,
				pmu_source());
	a->type = (uint32_t)type;
	if (pmu_terms(spec, pmu, slash + 1, (size_t)(close - slash - 1), a, 0, err, len))
		return -1;
	*name_len = (size_t)(close + 1 - spec);
	/* modifiers right after the '/', as perf takes them (cpu/.../u), or after a ':' */
	*mods = close[1] == ':' ? close + 2 : close + 1;
	return 0;
}

size_t evlist_event_len(const char *p, const char *stops)
{
	const char *q = p + strcspn(p, ":/"), *close;

	/* PMU/term,term/: the terms' commas are the event's own (not mem:ADDR/LEN) */
	if (*q != '/' || (size_t)(q - p) > strcspn(p, stops))
		return strcspn(p, stops);
	close = strchr(q + 1, '/');
	if (!close)
		return strlen(p);	/* unclosed: the parser says so */
	return (size_t)(close + 1 - p) + strcspn(close + 1, stops);
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
	if (probe_spec(spec)) {
		if (probe_parse(spec, a, err, len))
			return -1;
		*name_len = strlen(spec);
		return 2;
	}
	if (!strncmp(spec, "mem:", 4)) {
		if (parse_mem(spec, a, mods, err, len))
			return -1;
		/* the name is all before the modifiers' ':' */
		*name_len = **mods ? (size_t)(*mods - 1 - spec) : strlen(spec);
		return 0;
	}
	colon = strchr(spec, ':');
	{
		const char *slash = strchr(spec, '/');

		if (slash && (!colon || slash < colon))
			return parse_pmu(spec, slash, a, name_len, mods, err, len);
	}
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
			        "(L1-dcache-load-misses...), rNNN, mem:ADDR, PMU/TERM=VALUE/, "
			        "uprobe:PATH:FUNCTION, kprobe:FUNCTION, SYSTEM:TRACEPOINT (prof list)", name,
			        evname_list());
	}
	*mods = colon ? colon + 1 : "";
	return 0;
}

/*
 * One event as written (no braces, no commas) into e: its attr, its
 * kind, its name's length and its modifiers (gmods, its group's, after
 * its own). 0, or -1 with a reason.
 */
static int parse_one(const char *spec, const char *gmods, unsigned flags, struct evspec *e,
		     char *err, size_t len)
{
	struct perf_event_attr *a = &e->attr;
	const char *mods;
	uint64_t config;
	int ret = evlist_base(spec, a, &e->name_len, &mods, err, len);

	if (ret < 0)
		return -1;
	if (ret > 0 && *gmods)
		return opt_fail(err, len, "-e %s: a tracepoint or probe takes no modifiers, nor a "
				"group's ('%s')", spec, gmods);
	if (ret == 2) {
		e->kind = EVLIST_PROBE;	/* the kernel's, every hit, in whichever level */
		return 0;
	}
	if (ret == 1) {
		e->kind = EVLIST_TRACEPOINT;
		if (flags & EVLIST_LATE_TRACEPOINTS)
			return 0;	/* its id looked up when opened */
		if (tracefs_event_id(spec, &config, err, len))
			return -1;
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = config;
		return 0;
	}
	/* perf's default: the host's counts; a PMU of sysfs (msr) may refuse the bit */
	a->exclude_guest = a->type < PERF_TYPE_MAX;
	{
		size_t m = strlen(mods), g = strlen(gmods);

		if (m + g >= sizeof(e->mods))
			return opt_fail(err, len, "-e %s: too many modifiers", spec);
		memcpy(e->mods, mods, m);
		memcpy(e->mods + m, gmods, g + 1);
	}
	if (evname_apply_mods(a, e->mods))
		return opt_fail(err, len, "-e: unknown modifier in '%s'%s%s%s; modifiers are u "
			        "(user), k (kernel), h (hypervisor), G (guest), H (host), p (precise), P "
			        "(the most precise there is), D (pinned), I (not the idle task), e (the PMU "
			        "alone); a group's also S (its leader samples, the others are read)", spec,
			        *gmods ? " (its group's: '" : "", gmods, *gmods ? "')" : "");
	return 0;
}

static int add_event(struct evlist *o, const char *spec, size_t n, const char *gmods,
		     int leader, int sample_read, unsigned flags, char *err, size_t len)
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
	if (parse_one(s, gmods, flags, e, err, len)) {
		free(s);
		return -1;
	}
	if (gmods[0]) {
		e->name = xmalloc(n + strlen(gmods) + 2);
		sprintf(e->name, "%s:%s", s, gmods);
		free(s);
	} else {
		e->name = s;
	}
	e->leader = leader < 0 ? o->n : leader;
	e->sample_read = sample_read;
	pmu_alias_scale(e->name, &e->scale, e->unit, sizeof(e->unit));
	o->n++;
	return 0;
}

int evlist_parse(struct evlist *o, const char *arg, unsigned flags, char *err, size_t len)
{
	const char *p = arg;

	if (!*p)
		return opt_fail(err, len, "-e: an empty list of events; give one or more, as -e "
			        "task-clock,page-faults");
	while (*p) {
		if (*p == '{') {
			const char *close = strchr(p, '}'), *q = p + 1;
			char gmods[16] = "", *sp;
			int leader = o->n, sample_read = 0;

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
			}
			/* S is the group's own: its leader samples, reading the others */
			while ((sp = strchr(gmods, 'S'))) {
				memmove(sp, sp + 1, strlen(sp));
				sample_read = 1;
			}
			while (q < close) {
				size_t n = evlist_event_len(q, ",}");

				if (!n || q + n > close)
					return opt_fail(err, len, "-e %s: an empty event in a group", arg);
				if (memchr(q, '{', n))
					return opt_fail(err, len, "-e %s: groups do not nest", arg);
				if (add_event(o, q, n, gmods, leader, sample_read, flags, err, len))
					return -1;
				q += n + (q[n] == ',');
			}
			p = close + 1;
			if (*p == ':')
				p += 1 + strcspn(p + 1, ",");
		} else {
			size_t n = evlist_event_len(p, ",");

			if (!n)
				return opt_fail(err, len, "-e %s: an empty event", arg);
			if (memchr(p, '}', n))
				return opt_fail(err, len, "-e %s: a '}' without its '{'", arg);
			if (add_event(o, p, n, "", -1, 0, flags, err, len))
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
