// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prof list: the events -e takes, as perf list prints them: hardware and
 * software events (with their aliases), the generalized cache events,
 * the syntax of raw events, PMU terms and breakpoints, each PMU's named
 * events (sysfs: PMU/events/), and the kernel's tracepoints (tracefs).
 * Words choose: a kind (hw, sw, cache, pmu, tracepoint), or a glob over
 * the names; --json prints an array of {name, kind, aliases, pmu}.
 */
#include "config.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "pmu.h"
#include "evname.h"
#include "list.h"
#include "opt.h"
#include "tracefs.h"
#include "utf8.h"
#include "xalloc.h"

struct list_args {
	int json;
};

static const struct opt list_options[] = {
	OPT_SET(0, "json", struct list_args, json, 1, "one JSON array of the events"),
	OPT_HELP(),
	OPT_END(),
};

/* The kinds, in perf list's order, and what it calls them. */
enum { K_HW, K_SW, K_CACHE, K_RAW, K_PMU, K_TP, NKINDS };
static const struct {
	const char *word, *alias, *json, *label;
} kinds[NKINDS] = {
	[K_HW] = { "hw", "hardware", "hardware", "Hardware event" },
	[K_SW] = { "sw", "software", "software", "Software event" },
	[K_CACHE] = { "cache", "hwcache", "cache", "Hardware cache event" },
	[K_RAW] = { "raw", "syntax", "syntax", "Raw event descriptor" },
	[K_PMU] = { "pmu", "pmus", "pmu", "Kernel PMU event" },
	[K_TP] = { "tracepoint", "tracepoints", "tracepoint", "Tracepoint event" },
};

struct lister {
	int json, first;
	int want[NKINDS];	/* the kinds asked for (all when no word is a kind) */
	char **globs;		/* the other words */
	int nglobs;
	size_t shown;
};

/* Whether name (or one of its aliases) matches a glob, when globs were given. */
static int matches(const struct lister *l, const char *name, const char *const *aliases, size_t na)
{
	if (!l->nglobs)
		return 1;
	for (int g = 0; g < l->nglobs; g++) {
		if (!fnmatch(l->globs[g], name, 0))
			return 1;
		for (size_t i = 0; i < na; i++)
			if (!fnmatch(l->globs[g], aliases[i], 0))
				return 1;
	}
	return 0;
}

/* One event: name, its aliases (na), its kind, its PMU (or NULL). */
static void show(struct lister *l, int kind, const char *name, const char *const *aliases,
		 size_t na, const char *pmu)
{
	if (!l->want[kind] || !matches(l, name, aliases, na))
		return;
	l->shown++;
	if (l->json) {
		fputs(l->first ? "[\n  {\"name\": " : ",\n  {\"name\": ", stdout);
		utf8_put_json(stdout, name, strlen(name));
		printf(", \"kind\": \"%s\", \"aliases\": [", kinds[kind].json);
		for (size_t i = 0; i < na; i++) {
			fputs(i ? ", " : "", stdout);
			utf8_put_json(stdout, aliases[i], strlen(aliases[i]));
		}
		fputs("]", stdout);
		if (pmu) {
			fputs(", \"pmu\": ", stdout);
			utf8_put_json(stdout, pmu, strlen(pmu));
		}
		fputs("}", stdout);
	} else {
		char line[512];
		size_t n = (size_t)snprintf(line, sizeof(line), "  %s", name);

		for (size_t i = 0; i < na && n < sizeof(line); i++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " OR %s", aliases[i]);
		/* names from sysfs and tracefs go out as text: no control bytes */
		for (char *p = line; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		printf("%-52s [%s]\n", line, kinds[kind].label);
	}
	l->first = 0;
}

static void list_named(struct lister *l)
{
	size_t n;
	const struct evname *t = evname_table(&n);

	for (int kind = K_HW; kind <= K_SW; kind++)
		for (size_t i = 0; i < n; i++) {
			const char *aliases[4];
			size_t na = 0;
			uint32_t type = kind == K_HW ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;

			if (t[i].type != type || evname_of(t[i].type, t[i].config) != t[i].name)
				continue;	/* another kind, or an alias: listed with its name */
			for (size_t j = i + 1; j < n && na < 4; j++)
				if (t[j].type == t[i].type && t[j].config == t[i].config)
					aliases[na++] = t[j].name;
			show(l, kind, t[i].name, aliases, na, NULL);
		}
}

static void list_cache(struct lister *l)
{
	uint64_t configs[64];
	size_t n = evname_caches(configs, 64);

	for (size_t i = 0; i < n; i++) {
		char name[64];

		if (evname_cache_of(configs[i], name, sizeof(name)))
			show(l, K_CACHE, name, NULL, 0, NULL);
	}
}

static void list_syntax(struct lister *l)
{
	show(l, K_RAW, "rNNN", NULL, 0, NULL);
	show(l, K_RAW, "PMU/term=value,.../[:modifiers]", NULL, 0, NULL);
	show(l, K_RAW, "mem:<addr>[/len][:access]", NULL, 0, NULL);
	show(l, K_RAW, "SYSTEM:TRACEPOINT", NULL, 0, NULL);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of directory path but . and .., sorted; NULL when it cannot be read. */
static char **entries(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			v = xgrow(v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = xstrdup(e->d_name);
		}
	closedir(d);
	qsort(v, *n, sizeof(*v), by_name);
	return v;
}

static void free_entries(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Each PMU's named events, PMU/EVENT/: not the .scale, .unit and the like beside them. */
static void list_pmus(struct lister *l)
{
	size_t npmu;
	char **pmus = entries(pmu_source(), &npmu);

	for (size_t p = 0; p < npmu; p++) {
		char dir[512], name[512];
		size_t nev;
		char **evs;

		snprintf(dir, sizeof(dir), "%s/%s/events", pmu_source(), pmus[p]);
		evs = entries(dir, &nev);
		for (size_t i = 0; i < nev; i++) {
			if (strchr(evs[i], '.'))
				continue;
			snprintf(name, sizeof(name), "%s/%s/", pmus[p], evs[i]);
			show(l, K_PMU, name, NULL, 0, pmus[p]);
		}
		free_entries(evs, nev);
	}
	free_entries(pmus, npmu);
}

/*
 * 0; or -1 when the tracepoints cannot be read and were asked for (asked:
 * 1). Not read, they are said on stderr when everything was asked for
 * (asked: -1), and left out silently from a list of other kinds or globs.
 */
static int list_tracepoints(struct lister *l, int asked)
{
	size_t len;
	char err[512], *data, *p, *end;

	if (!l->want[K_TP])
		return 0;
	data = tracefs_available(&len, err, sizeof(err));
	if (!data) {
		if (asked)
			fprintf(stderr, "prof: list: no tracepoints: %s\n", err);
		return asked > 0 ? -1 : 0;
	}
	/* "sched:sched_switch" a line, in tracefs's order: sorted, as perf list shows them */
	{
		char **v = NULL;
		size_t n = 0, cap = 0;

		for (p = data; p < data + len; p = end + 1) {
			end = memchr(p, '\n', (size_t)(data + len - p));
			if (!end)
				end = data + len;
			*end = '\0';
			if (*p) {
				v = xgrow(v, &cap, n + 1, sizeof(*v));
				v[n++] = p;
			}
		}
		qsort(v, n, sizeof(*v), by_name);
		for (size_t i = 0; i < n; i++)
			show(l, K_TP, v[i], NULL, 0, NULL);
		free(v);
	}
	free(data);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_args la = { 0 };
	struct lister l = { 0 };
	int first, ret, kinds_asked = 0, tp_asked = 0;
	char err[512];

	ret = opt_parse(list_options, &la, OPT_PERMUTE, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		fputs("usage: prof list [--json] [hw|sw|cache|pmu|tracepoint|GLOB...]\n\n", stdout);
		opt_usage(stdout, list_options);
		fputs("\nThe events -e takes, in prof record, stat, top and agent; a GLOB\n"
		      "matches names (and aliases): 'sched:*', '*-misses'.\n", stdout);
		return 0;
	}
	if (ret)
		return opt_say("list", ret, err);
	l.json = la.json;
	l.first = 1;
	l.globs = xcalloc((size_t)(argc - first) + 1, sizeof(*l.globs));
	for (int i = first; i < argc; i++) {
		int k;

		for (k = 0; k < NKINDS; k++)
			if (!strcmp(argv[i], kinds[k].word) || !strcmp(argv[i], kinds[k].alias))
				break;
		if (k < NKINDS) {
			l.want[k] = 1;
			kinds_asked = 1;
			tp_asked |= k == K_TP;
		} else {
			l.globs[l.nglobs++] = argv[i];
			/* a glob of SYSTEM:NAME asks for tracepoints */
			tp_asked |= strchr(argv[i], ':') != NULL;
		}
	}
	if (!kinds_asked)
		for (int k = 0; k < NKINDS; k++)
			l.want[k] = 1;
	if (!l.json)
		fputs("List of pre-defined events (to be used in -e):\n\n", stdout);
	list_named(&l);
	list_cache(&l);
	list_syntax(&l);
	list_pmus(&l);
	ret = list_tracepoints(&l, tp_asked ? 1 : !kinds_asked && !l.nglobs ? -1 : 0);
	if (l.json)
		fputs(l.first ? "[]\n" : "\n]\n", stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "prof: list: cannot write the list\n");
		ret = -1;
	} else if (!ret && !l.shown && l.nglobs) {
		fprintf(stderr, "prof: list: no event matches '%s'%s; prof list shows them all\n",
			l.globs[0], l.nglobs > 1 ? " nor the other globs" : "");
		ret = -1;
	}
	free(l.globs);
	return ret ? 1 : 0;
}
