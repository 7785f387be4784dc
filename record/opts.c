// SPDX-License-Identifier: GPL-2.0-or-later
/* Option parsing for `prof record`: getopt_long, every value checked in full. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evname.h"
#include "opts.h"
#include "parse.h"
#include "regs.h"
#include "xalloc.h"

const char record_usage[] =
	"usage: prof record [options] [--] command [args...]\n"
	"       prof record -p PID[,PID...] [options] [-- command]\n"
	"       prof record -t TID[,TID...] [options] [-- command]\n"
	"       prof record -a [options] [[--] command [args...]]\n"
	"\n"
	"  -e, --event LIST           events to sample (default cycles; cpu-clock\n"
	"                             where there is no hardware PMU), each with\n"
	"                             :u, :k, :p, :pp or :ppp as perf takes them;\n"
	"                             tracepoints as SYSTEM:NAME (sched:sched_switch)\n"
	"  -F, --freq HZ              samples per second (default 4000)\n"
	"  -c, --count PERIOD         a sample every PERIOD events instead of -F\n"
	"  -g                         frame-pointer call chains (--call-graph fp)\n"
	"      --call-graph MODE      fp, or dwarf[,SIZE]: copy SIZE bytes of each\n"
	"                             sample's user stack (default 32768) for DWARF\n"
	"                             unwinding by prof report\n"
	"  -p, --pid PIDS             attach to processes and their threads\n"
	"  -t, --tid TIDS             attach to single threads\n"
	"  -a, --all-cpus             every process on every CPU\n"
	"  -C, --cpu CPULIST          only these CPUs, e.g. 0-3,6\n"
	"  -m, --mmap-pages N         ring pages per CPU, a power of two (default 128)\n"
	"  -o, --output FILE          output file (default prof.data, - for stdout)\n"
	"  -z, --compression-level N  zstd level 1-22 (default 1)\n"
	"      --no-compress          write records uncompressed\n"
	"      --duration SECONDS     stop after SECONDS\n"
	"      --off-cpu              also record when threads switch out and back\n"
	"                             in, and their stacks at switch-out where the\n"
	"                             kernel allows it: prof report --event off-cpu\n"
	"                             and --wall show where they waited\n"
	"  -N, --no-buildid-cache     do not copy deleted, replaced or containers'\n"
	"                             binaries into the build-id cache (~/.debug)\n"
	"  -q, --quiet                no notices and no summary\n"
	"  -h, --help                 this help\n";

enum { OPT_NO_COMPRESS = 256, OPT_DURATION, OPT_CALL_GRAPH, OPT_OFF_CPU };

static const struct option longopts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "output", required_argument, NULL, 'o' },
	{ "compression-level", required_argument, NULL, 'z' },
	{ "no-compress", no_argument, NULL, OPT_NO_COMPRESS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-buildid-cache", no_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * An event's modifiers after its ':', as perf takes them: u (user space
 * only), k (kernel only), p, pp, ppp (precise_ip 1-3). 0, or -1.
 */
static int parse_mods(const char *m, struct event_mods *out)
{
	memset(out, 0, sizeof(*out));
	for (; *m; m++) {
		if (*m == 'u')
			out->user = 1;
		else if (*m == 'k')
			out->kernel = 1;
		else if (*m == 'p' && out->precise < 3)
			out->precise++;
		else
			return -1;
	}
	return 0;
}

static int parse_events(struct record_opts *o, const char *arg, char *err, size_t len)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, ",");
		char *name = xmalloc(n + 1), *colon;
		struct event_mods mods = { 0, 0, 0, 0 };

		memcpy(name, p, n);
		name[n] = '\0';
		colon = strchr(name, ':');
		if (colon) {
			*colon = '\0';
			if (evname_lookup(name) && parse_mods(colon + 1, &mods)) {
				bad(err, len, "-e: unknown modifier in '%s:%s'; modifiers are u (user "
				    "space), k (kernel), p, pp, ppp (precise)", name, colon + 1);
				free(name);
				return -EINVAL;
			}
			if (!evname_lookup(name)) {
				/* SYSTEM:NAME, a tracepoint: its id is looked up in tracefs when opened */
				*colon = ':';
				mods.tracepoint = 1;
			}
		}
		if (!mods.tracepoint && !evname_lookup(name)) {
			bad(err, len, "-e: unknown event '%s'; known events: %s", name,
			    evname_list());
			free(name);
			return -EINVAL;
		}
		o->events = xreallocarray(o->events, o->nr_events + 1, sizeof(*o->events));
		o->mods = xreallocarray(o->mods, o->nr_events + 1, sizeof(*o->mods));
		o->mods[o->nr_events] = mods;
		o->events[o->nr_events++] = name;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int number(const char *opt, const char *arg, uint64_t min, uint64_t max,
		  uint64_t *out, char *err, size_t len)
{
	int ret = parse_u64(arg, min, max, out);

	if (ret == -EINVAL)
		return bad(err, len, "%s: '%s' is not a number", opt, arg);
	if (ret)
		return bad(err, len, "%s: %s is out of range (%llu to %llu)", opt, arg,
			   (unsigned long long)min, (unsigned long long)max);
	return 0;
}

int record_opts_parse(struct record_opts *o, int argc, char **argv,
		      char *err, size_t len)
{
	int c, ret = 0, freq_given = 0, level_given = 0, no_compress = 0;
	uint64_t v;
	const char *bad_item;

	memset(o, 0, sizeof(*o));
	o->freq = RECORD_DEFAULT_FREQ;
	o->mmap_pages = RECORD_DEFAULT_PAGES;
	o->output = "prof.data";
	o->level = RECORD_DEFAULT_LEVEL;
	optind = 1;
	opterr = 0;
	/* "+": stop at the command, whose own options are its business. */
	while ((c = getopt_long(argc, argv, "+:e:F:c:gp:t:aC:m:o:z:qNh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			ret = parse_events(o, optarg, err, len);
			break;
		case 'F':
			ret = number("-F", optarg, 1, 1000000000, &o->freq, err, len);
			freq_given = 1;
			break;
		case 'c':
			ret = number("-c", optarg, 1, UINT64_MAX >> 1, &o->period, err, len);
			break;
		case 'g':
			o->callchain = CALLCHAIN_FP;
			break;
		case OPT_CALL_GRAPH:
			if (!strcmp(optarg, "fp")) {
				o->callchain = CALLCHAIN_FP;
			} else if (!strcmp(optarg, "dwarf")) {
				o->callchain = CALLCHAIN_DWARF;
			} else if (!strncmp(optarg, "dwarf,", 6)) {
				o->callchain = CALLCHAIN_DWARF;
				ret = number("--call-graph dwarf,SIZE", optarg + 6, 8, RECORD_MAX_STACK,
					     &v, err, len);
				if (!ret && v % 8)
					ret = bad(err, len, "--call-graph dwarf,SIZE: %s is not a multiple "
						  "of 8", optarg + 6);
				o->stack_size = (uint32_t)v;
			} else {
				ret = bad(err, len, "--call-graph: '%s' is not fp, dwarf or dwarf,SIZE",
					  optarg);
			}
			break;
		case 'p':
		case 't':
			free(c == 'p' ? o->pids : o->tids);
			if (parse_id_list(optarg, c == 'p' ? &o->pids : &o->tids,
					  c == 'p' ? &o->nr_pids : &o->nr_tids, &bad_item))
				ret = bad(err, len, "-%c: '%s' is not a list of %s ids", c,
					  optarg, c == 'p' ? "process" : "thread");
			break;
		case 'a':
			o->all_cpus = 1;
			break;
		case 'C':
			cpulist_release(&o->cpus);
			if (cpulist_parse(&o->cpus, optarg) || o->cpus.nr == 0)
				ret = bad(err, len, "-C: '%s' is not a CPU list such as 0-3,6",
					  optarg);
			o->has_cpus = 1;
			break;
		case 'm':
			ret = number("-m", optarg, 1, RECORD_MAX_PAGES, &v, err, len);
			if (!ret && (v & (v - 1)))
				ret = bad(err, len, "-m: %s is not a power of two", optarg);
			o->mmap_pages = (unsigned)v;
			o->pages_given = 1;
			break;
		case 'o':
			if (!*optarg)
				ret = bad(err, len, "-o: the file name is empty");
			o->output = optarg;
			break;
		case 'z':
			ret = number("-z", optarg, 1, 22, &v, err, len);
			o->level = (int)v;
			level_given = 1;
			break;
		case OPT_NO_COMPRESS:
			no_compress = 1;
			break;
		case OPT_DURATION:
			if (parse_seconds(optarg, &o->duration) || o->duration <= 0)
				ret = bad(err, len, "--duration: '%s' is not a positive number of seconds",
					  optarg);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_OFF_CPU:
			o->off_cpu = 1;
			break;
		case 'N':
			o->no_buildid_cache = 1;
			break;
		case 'h':
			return 1;
		case ':':
			ret = bad(err, len, "option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			if (optopt)
				ret = bad(err, len, "unknown option '-%c'", optopt);
			else
				ret = bad(err, len, "unknown option '%s'", argv[optind - 1]);
			break;
		}
		if (ret)
			return ret;
	}
	if (o->callchain == CALLCHAIN_DWARF && !regs_user_mask())
		return bad(err, len, "--call-graph dwarf: prof does not unwind on this machine's "
			   "architecture; use -g");
	if (o->callchain == CALLCHAIN_DWARF && !o->stack_size)
		o->stack_size = RECORD_DEFAULT_STACK;
	/* Each dwarf sample carries its stack: a default ring would overflow. */
	if (o->callchain == CALLCHAIN_DWARF && !o->pages_given)
		o->mmap_pages = RECORD_DWARF_PAGES;
	if (o->period && freq_given)
		return bad(err, len, "-F and -c conflict: give one of them");
	if (o->period)
		o->freq = 0;
	if (no_compress && level_given)
		return bad(err, len, "-z and --no-compress conflict: give one of them");
	if (no_compress)
		o->level = 0;
	if (!o->nr_events) {
		o->events = xcalloc(1, sizeof(*o->events));
		o->mods = xcalloc(1, sizeof(*o->mods));
		o->events[0] = xstrdup("cycles");
		o->nr_events = 1;
		o->default_event = 1;
	}
	if (optind < argc) {
		o->argv = argv + optind;
		o->argc = argc - optind;
	}
	if (!o->argv && !o->nr_pids && !o->nr_tids && !o->all_cpus && !o->has_cpus)
		return bad(err, len, "no command to run: give one, or -p PID, -t TID or -a");
	if (o->all_cpus && (o->nr_pids || o->nr_tids))
		return bad(err, len, "-a and -p/-t conflict: -a already samples every process");
	return 0;
}

void record_opts_release(struct record_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++)
		free(o->events[i]);
	free(o->events);
	free(o->mods);
	free(o->pids);
	free(o->tids);
	cpulist_release(&o->cpus);
	memset(o, 0, sizeof(*o));
}
