// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `prof stat` prints, as perf stat spells it: a row per event (or
 * per event and thread or CPU), its scaled count, the share of time it
 * ran where the kernel multiplexed it, and the metric perf derives from
 * it (GHz, IPC, miss rates, CPUs utilized); -x's separated values, --json,
 * -I's intervals and -r's spread.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "clock.h"
#include "cpulist.h"
#include "evlist.h"
#include "evname.h"
#include "evopen.h"
#include "opt.h"
#include "opts.h"
#include "parse.h"
#include "stat.h"
#include "target.h"
#include "tracefs.h"
#include "utf8.h"
#include "xalloc.h"

#include "stat-int.h"



static int is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static int is_hw(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == config;
}

/* The scaled count of the first counted event of (type, config) with a's privilege levels. */
static int find(const struct stat_opts *o, const struct counts *c, const struct perf_event_attr *a,
		uint32_t type, uint64_t config, double *out)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < o->nev; i++) {
			const struct perf_event_attr *b = &o->ev[i].attr;

			if (b->type != type || b->config != config || o->ev[i].state != EV_OPEN ||
			    !c->run[i])
				continue;
			if (!pass && (b->exclude_user != a->exclude_user ||
				      b->exclude_kernel != a->exclude_kernel))
				continue;
			*out = c->v[i];
			return 1;
		}
	return 0;
}

static int find_clock(const struct stat_opts *o, const struct counts *c,
		      const struct perf_event_attr *a, double *ns)
{
	return find(o, c, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ns) ||
	       find(o, c, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ns);
}

/*
 * The derived figure of event i, as perf stat's shadow metrics: CPUs
 * utilized, GHz, insn per cycle, the miss rates, else a rate per second of
 * the clock counted (task-clock or cpu-clock; the elapsed time without).
 * 0 when there is none; *fmt_prec the digits.
 */
static int metric(const struct stat_opts *o, const struct counts *c, int i, double elapsed_ns,
		  double *value, char *unit, size_t ulen)
{
	const struct perf_event_attr *a = &o->ev[i].attr;
	double v = c->v[i], base, clock;
	char name[40];

	if (is_clock(a)) {
		if (elapsed_ns <= 0)
			return 0;
		*value = v / elapsed_ns;
		snprintf(unit, ulen, "CPUs utilized");
		return 1;
	}
	if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		if (!find_clock(o, c, a, &clock) || clock <= 0)
			return 0;
		*value = v / clock;
		snprintf(unit, ulen, "GHz");
		return 1;
	}
	if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
		if (!find(o, c, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, &base) || base <= 0)
			return 0;
		*value = v / base;
		snprintf(unit, ulen, "insn per cycle");
		return 1;
	}
	if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES) || is_hw(a, PERF_COUNT_HW_CACHE_MISSES)) {
		int br = a->config == PERF_COUNT_HW_BRANCH_MISSES;

		if (!find(o, c, a, PERF_TYPE_HARDWARE, br ? PERF_COUNT_HW_BRANCH_INSTRUCTIONS
			  : PERF_COUNT_HW_CACHE_REFERENCES, &base) || base <= 0)
			return 0;
		*value = 100 * v / base;
		snprintf(unit, ulen, br ? "of all branches" : "of all cache refs");
		return 2;
	}
	if (a->type == PERF_TYPE_HW_CACHE && (a->config >> 16 & 0xff) == PERF_COUNT_HW_CACHE_RESULT_MISS) {
		uint64_t access = a->config & 0xffff;

		if (!find(o, c, a, PERF_TYPE_HW_CACHE,
			  access | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16, &base) || base <= 0)
			return 0;
		*value = 100 * v / base;
		if (!evname_cache_of(access | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16, name,
				     sizeof(name)))
			return 0;
		if (strrchr(name, '-'))
			*strrchr(name, '-') = '\0';	/* L1-dcache-loads: L1-dcache */
		snprintf(unit, ulen, "of all %s accesses", name);
		return 2;
	}
	if (!find_clock(o, c, a, &clock))
		clock = elapsed_ns;
	if (clock <= 0)
		return 0;
	*value = v * 1e9 / clock;
	{
		char u = ' ';

		if (*value > 1e9) {
			*value /= 1e9;
			u = 'G';
		} else if (*value > 1e6) {
			*value /= 1e6;
			u = 'M';
		} else if (*value > 1e3) {
			*value /= 1e3;
			u = 'K';
		}
		snprintf(unit, ulen, u == ' ' ? "/sec" : "%c/sec", u);
	}
	return 1;
}

static void json_str(FILE *f, const char *s)
{
	utf8_put_json(f, s, strlen(s));
}

/* One counter's line, in the format asked. */
static void print_line(struct stat_run *r, const struct counts *c, int i, double elapsed_ns,
		       const char *when, const char *label, double noise)
{
	struct stat_opts *o = r->o;
	struct sev *e = &o->ev[i];
	FILE *f = r->out;
	int supported = e->state == EV_OPEN, counted = supported && c->run[i] > 0;
	int clock = is_clock(&e->attr);
	double pct = c->ena[i] ? 100.0 * (double)c->run[i] / (double)c->ena[i] : 100.0;
	double mv = 0;
	char mu[64] = "", val[64];
	/* a PMU alias's scale and unit (events/A.scale, .unit), as perf stat shows it */
	int scaled = (e->scale > 0 && e->scale != 1) || e->unit[0];
	double sv = c->v[i] * (e->scale > 0 ? e->scale : 1);
	int mk = counted && !scaled ? metric(o, c, i, elapsed_ns, &mv, mu, sizeof(mu)) : 0;
	const char *unit = clock ? "msec" : e->unit;

	if (!supported)
		snprintf(val, sizeof(val), "<not supported>");
	else if (!counted)
		snprintf(val, sizeof(val), "<not counted>");
	else if (clock)
		snprintf(val, sizeof(val), "%.2f", c->v[i] / 1e6);
	else if (scaled)
		snprintf(val, sizeof(val), "%.2f", sv);
	else
		snprintf(val, sizeof(val), "%.0f", c->v[i]);
	if (o->json) {
		fputc('{', f);
		if (when)
			fprintf(f, "\"interval\" : %s, ", when);
		if (label) {
			fprintf(f, "\"%s\" : ", o->per_cpu ? "cpu" : "thread");
			json_str(f, o->per_cpu ? label + 3 : label);
			fputs(", ", f);
		}
		fputs("\"counter-value\" : ", f);
		if (counted && clock)
			fprintf(f, "\"%.6f\"", c->v[i] / 1e6);
		else if (counted && scaled)
			fprintf(f, "\"%.6f\"", sv);
		else if (counted)
			fprintf(f, "\"%.6f\"", c->v[i]);
		else
			json_str(f, val);
		fprintf(f, ", \"unit\" : \"%s\", \"event\" : ", unit);
		json_str(f, e->name);
		if (noise >= 0)
			fprintf(f, ", \"variance\" : %.2f", noise);
		fprintf(f, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f",
			supported ? c->run[i] : 0, pct);
		if (mk) {
			fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ", mv);
			json_str(f, mu);
		}
		fputs("}\n", f);
		return;
	}
	if (o->sep) {
		const char *s = o->sep;

		if (when)
			fprintf(f, "%s%s", when, s);
		if (label)
			fprintf(f, "%s%s", label, s);
		fprintf(f, "%s%s%s%s%s", val, s, unit, s, e->name);
		if (noise >= 0)
			fprintf(f, "%s%.2f%%", s, noise);
		fprintf(f, "%s%" PRIu64 "%s%.2f%s", s, supported ? c->run[i] : 0, s, pct, s);
		if (mk)
			fprintf(f, mk == 2 ? "%.2f%s%s" : "%.3f%s%s", mv, s, mu);
		else
			fputs(s, f);
		fputc('\n', f);
		return;
	}
	{
		char line[512];
		size_t n = 0;

#define ADD(...) (n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, \
					__VA_ARGS__))
		if (when)
			ADD("%16s ", when);
		if (label)
			ADD("%-16s ", label);
		ADD("%18s %-4s %-32s", val, unit, e->name);
		if (mk)
			ADD(mk == 2 ? " # %7.2f%% %-20s" : " # %8.3f %-20s", mv, mu);
		else if (noise >= 0 || (counted && c->run[i] < c->ena[i]))
			ADD("   %-30s", "");
		if (noise >= 0)
			ADD(" ( +- %5.2f%% )", noise);
		if (counted && c->run[i] < c->ena[i])
			ADD("  (%.2f%%)", pct);
#undef ADD
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		while (n && line[n - 1] == ' ')
			n--;
		fprintf(f, "%.*s\n", (int)n, line);
	}
}

/* Unit k's counts (k < 0: all units summed), deltas since the last read with delta. */
void stat_gather(struct stat_run *r, int k, int delta, struct counts *c)
{
	int n = r->o->nev;

	memset(c->v, 0, n * sizeof(double));
	memset(c->ena, 0, n * sizeof(uint64_t));
	memset(c->run, 0, n * sizeof(uint64_t));
	memset(c->raw, 0, n * sizeof(uint64_t));
	for (int j = k < 0 ? 0 : k; j < (k < 0 ? r->nunits : k + 1); j++) {
		struct unit *u = &r->units[j];

		for (int i = 0; i < n; i++) {
			const struct counter *ct = &u->c[i];

			if (ct->fd < 0)
				continue;
			c->raw[i] += ct->val - (delta ? ct->pval : 0);
			c->ena[i] += ct->ena - (delta ? ct->pena : 0);
			c->run[i] += ct->run - (delta ? ct->prun : 0);
		}
	}
	/* scaled as perf does: the sum of the counts by the sums of the times */
	for (int i = 0; i < n; i++)
		c->v[i] = c->run[i] ? (double)c->raw[i] * ((double)c->ena[i] / (double)c->run[i]) : 0;
}

static void print_rows(struct stat_run *r, struct counts *c, int delta, const char *when,
		       double elapsed_ns, int with_noise)
{
	struct stat_opts *o = r->o;

	if (o->per_thread || o->per_cpu) {
		for (int k = 0; k < r->nunits; k++) {
			if (r->units[k].gone)
				continue;
			stat_gather(r, k, delta, c);
			for (int i = 0; i < o->nev; i++)
				print_line(r, c, i, elapsed_ns, when, r->units[k].label, -1);
		}
		return;
	}
	stat_gather(r, -1, delta, c);
	/* -r: the means of the runs, the times too (perf's event-runtime and share) */
	if (with_noise)
		for (int i = 0; i < o->nev; i++) {
			const struct sev *e = &o->ev[i];

			c->v[i] = e->runs ? e->sum / e->runs : 0;
			if (e->runs) {
				c->ena[i] = e->ena_sum / e->runs;
				c->run[i] = e->run_sum / e->runs;
			}
		}
	for (int i = 0; i < o->nev; i++) {
		double noise = -1;

		if (with_noise) {
			struct sev *e = &o->ev[i];

			noise = 0;
			if (e->runs > 1 && e->sum > 0) {
				double mean = e->sum / e->runs;
				double var = (e->sumsq - e->sum * mean) / (e->runs - 1);

				noise = 100 * sqrt((var > 0 ? var : 0) / e->runs) / mean;
			}
		}
		print_line(r, c, i, elapsed_ns, when, NULL, noise);
	}
}

void stat_counts_init(struct counts *c, int n)
{
	c->v = xcalloc(n + 1, sizeof(double));
	c->ena = xcalloc(n + 1, sizeof(uint64_t));
	c->run = xcalloc(n + 1, sizeof(uint64_t));
	c->raw = xcalloc(n + 1, sizeof(uint64_t));
}

void stat_counts_free(struct counts *c)
{
	free(c->v);
	free(c->ena);
	free(c->run);
	free(c->raw);
}

/* The interval's lines: its end since the start, and the counts of the interval. */
void stat_print_interval(struct stat_run *r, double t, double dt, int first)
{
	struct counts c;
	char when[32];

	stat_counts_init(&c, r->o->nev);
	snprintf(when, sizeof(when), "%.9f", t);
	if (first && !r->o->sep && !r->o->json)
		fprintf(r->out, "#           time %s            counts unit events\n",
			r->o->per_thread ? "   thread        " : r->o->per_cpu ? "   cpu           "
			: "");
	print_rows(r, &c, 1, when, dt * 1e9, 0);
	stat_counts_free(&c);
	fflush(r->out);
}

void stat_print_final(struct stat_run *r, int runs)
{
	struct stat_opts *o = r->o;
	struct counts c;
	FILE *f = r->out;
	double el = runs > 1 ? r->el_sum / runs : r->elapsed;

	stat_counts_init(&c, o->nev);
	if (!o->sep && !o->json) {
		fprintf(f, "\n Performance counter stats for %s", r->header);
		if (runs > 1)
			fprintf(f, " (%d runs)", runs);
		fprintf(f, ":\n\n");
	}
	print_rows(r, &c, 0, NULL, el * 1e9, runs > 1);
	if (!o->sep && !o->json) {
		if (runs > 1) {
			double mean = el, var = (r->el_sumsq - r->el_sum * mean) / (runs - 1);
			double se = sqrt((var > 0 ? var : 0) / runs);

			fprintf(f, "\n%18.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n", mean, se,
				mean > 0 ? 100 * se / mean : 0);
		} else {
			fprintf(f, "\n%18.9f seconds time elapsed\n", el);
		}
		if (r->have_ru && runs == 1)
			fprintf(f, "\n%18.9f seconds user\n%18.9f seconds sys\n",
				r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6,
				r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6);
		fputc('\n', f);
	}
	stat_counts_free(&c);
	fflush(f);
}
