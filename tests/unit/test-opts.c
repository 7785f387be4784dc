// SPDX-License-Identifier: GPL-2.0-or-later
/* record_opts_parse() and cpulist_parse(): good values, and each bad one refused. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>

#include "cpulist.h"
#include "evname.h"
#include "opts.h"
#include "parse.h"
#include "tap.h"

static int parse(struct record_opts *o, char *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	return record_opts_parse(o, argc, argv, err, 256);
}

#define PARSE(...) parse(&o, err, (const char *const[]){ "record", __VA_ARGS__, NULL })

/* record ARGS (up to 4, NULL-ended) is refused in one line that says msg. */
static void refused(const char *const *args, const char *msg)
{
	const char *argv[8] = { "record" };
	struct record_opts o;
	char err[256] = "";
	int n = 1, ret;

	for (int j = 0; j < 4 && args[j]; j++)
		argv[n++] = args[j];
	argv[n] = NULL;
	ret = parse(&o, err, argv);
	ok(ret == -EINVAL && strstr(err, msg) && !strchr(err, '\n'), "%s %s is refused: %s",
	   args[0], args[1] ? args[1] : "", err);
	record_opts_release(&o);
}

int main(void)
{
	struct record_opts o;
	struct cpulist l;
	char err[256];
	uint64_t v;
	int ret;

	ret = PARSE("./app", "-x");
	ok(ret == 0 && o.argc == 2 && !strcmp(o.argv[1], "-x") && o.freq == 4000 &&
	   o.mmap_pages == 128 && o.level == 3 && o.default_event &&
	   !strcmp(o.events[0], "cycles") && !strcmp(o.output, "prof.data"),
	   "defaults, and the command's own options are left to it");
	record_opts_release(&o);

	ret = PARSE("-e", "cpu-clock,page-faults", "-F", "999", "-g", "-m", "8", "-z", "3",
		    "-o", "x.data", "--duration", "0.5", "-q", "--", "true");
	ok(ret == 0 && o.nr_events == 2 && !strcmp(o.events[1], "page-faults") &&
	   o.freq == 999 && o.callchain && o.mmap_pages == 8 && o.level == 3 &&
	   o.duration == 0.5 && o.quiet && o.argc == 1, "every option parses");
	record_opts_release(&o);

	ret = PARSE("-p", "1,2,3");
	ok(ret == 0 && o.nr_pids == 3 && o.pids[2] == 3 && !o.argv, "-p takes a list");
	record_opts_release(&o);

	ret = PARSE("-c", "10000", "true");
	ok(ret == 0 && o.period == 10000 && o.freq == 0, "-c replaces -F");
	record_opts_release(&o);

	ret = PARSE("--no-compress", "true");
	ok(ret == 0 && o.level == 0, "--no-compress");
	record_opts_release(&o);

	static const struct {
		const char *args[5];
		const char *msg;
	} bad[] = {
		{ { "-F", "abc", "true" }, "not a number" },
		{ { "-F", "0", "true" }, "out of range" },
		{ { "-F", "-5", "true" }, "not a number" },
		{ { "-F", "99999999999999999999", "true" }, "out of range" },
		{ { "-m", "3", "true" }, "not a power of two" },
		{ { "-m", "0", "true" }, "out of range" },
		{ { "-z", "23", "true" }, "out of range" },
		{ { "-e", "bogus", "true" }, "unknown event" },
		{ { "-e", "{cpu-clock,page-faults", "true" }, "a '{' without its '}'" },
		{ { "-e", "{cpu-clock,{page-faults}}", "true" }, "groups do not nest" },
		{ { "-e", "{sched:sched_switch}:u", "true" }, "takes no modifiers" },
		{ { "-e", "mem:0x1000/3", "true" }, "length is 1, 2, 4 or 8" },
		{ { "-e", "L1-dcache-loads:q", "true" }, "unknown modifier" },
		{ { "-C", "0-", "true" }, "not a CPU list" },
		{ { "-C", "3-1", "true" }, "not a CPU list" },
		{ { "-p", "12x" }, "not a list" },
		{ { "-p", "0" }, "not a list" },
		{ { "--duration", "-1", "true" }, "positive" },
		{ { "--duration", "0", "true" }, "positive" },
		{ { "--bogus", "true" }, "unknown option '--bogus'" },
		{ { "-F" }, "needs a value" },
		{ { "-q" }, "no command" },
		{ { "-a", "-p", "1" }, "conflict" },
		{ { "-F", "10", "-c", "5" }, "conflict" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].args, bad[i].msg);

	/* perf record's spellings */
	ret = PARSE("-z", "-o", "z.data", "true");
	ok(ret == 0 && o.level == 1 && !strcmp(o.output, "z.data") && o.argc == 1,
	   "-z takes no value when the next word is not a number (perf's -z)");
	record_opts_release(&o);
	ret = PARSE("--call-graph", "dwarf", "true");
	ok(ret == 0 && o.level == 1, "--call-graph dwarf compresses at level 1 unless told");
	record_opts_release(&o);
	ret = PARSE("--off-cpu", "-g", "true");
	ok(ret == 0 && o.level == 1, "--off-cpu compresses at level 1 unless told");
	record_opts_release(&o);
	ret = PARSE("-g", "--call-graph", "dwarf", "-z", "4", "true");
	ok(ret == 0 && o.level == 4, "-z says the level of a dwarf recording too");
	record_opts_release(&o);
	ret = PARSE("-z5", "true");
	ok(ret == 0 && o.level == 5, "-z5");
	record_opts_release(&o);
	ret = PARSE("-z", "7", "true");
	ok(ret == 0 && o.level == 7 && o.argc == 1, "-z 7: a number after -z is its level");
	record_opts_release(&o);
	ret = PARSE("--compression-level=3", "true");
	ok(ret == 0 && o.level == 3, "--compression-level=3");
	record_opts_release(&o);
	ret = PARSE("-z", "--no-compress", "true");
	ok(ret == -EINVAL && strstr(err, "conflict"), "-z and --no-compress conflict");
	record_opts_release(&o);
	ret = PARSE("-m", "1M", "true");
	ok(ret == 0 && o.mmap_pages == (1u << 20) / (unsigned)sysconf(_SC_PAGESIZE),
	   "-m 1M is 1 MiB of pages");
	record_opts_release(&o);
	ret = PARSE("-m", "5K", "true");
	ok(ret == 0 && o.mmap_pages == 2, "-m 5K is rounded up to a power of two of pages: %u",
	   o.mmap_pages);
	record_opts_release(&o);
	ret = PARSE("-j", "any_call,u", "true");
	ok(ret == 0 && o.branch_sample_type == (PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER),
	   "-j any_call,u: calls in user space");
	record_opts_release(&o);
	ret = PARSE("-j", "k", "-b", "true");
	ok(ret == 0 && o.branch_sample_type == PERF_SAMPLE_BRANCH_ANY, "-b after -j: every branch");
	record_opts_release(&o);
	ret = PARSE("-j", "u,k", "true");
	ok(ret == 0 && o.branch_sample_type == (PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
						PERF_SAMPLE_BRANCH_KERNEL),
	   "-j u,k: levels alone are every branch there, as perf's");
	record_opts_release(&o);
	refused((const char *const[]){ "-j", "calls", "true", NULL }, "unknown branch filter 'calls'");
	ret = PARSE("-F", "max", "true");
	ok(ret == 0 && o.freq > 0 && o.freq_given, "-F max: %llu", (unsigned long long)o.freq);
	record_opts_release(&o);
	ret = PARSE("-e", "cpu-clock,task-clock:k", "--all-user", "true");
	ok(ret == 0 && o.all_user && !o.mods[0].text[0] && !strcmp(o.mods[1].text, "k"),
	   "--all-user is taken, each event's own modifiers kept beside it");
	record_opts_release(&o);
	ret = PARSE("-e", "cpu-clock,sched:sched_switch", "--all-kernel", "true");
	ok(ret == 0 && o.all_kernel && o.mods[1].tracepoint, "--all-kernel, and a tracepoint");
	record_opts_release(&o);
	/* perf's grammar (record/evlist.h): cache, raw and breakpoint events, with modifiers */
	ret = PARSE("-e", "L1-dcache-load-misses:u,r1a8,mem:0x404110/8:w:k,page-faults:u", "true");
	ok(ret == 0 && o.nr_events == 4 && !strcmp(o.events[0], "L1-dcache-load-misses") &&
	   o.mods[0].attr.type == PERF_TYPE_HW_CACHE &&
	   o.mods[0].attr.config == (PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
				     (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16) &&
	   !strcmp(o.mods[0].text, "u") && !strcmp(o.events[1], "r1a8") &&
	   o.mods[1].attr.type == PERF_TYPE_RAW && o.mods[1].attr.config == 0x1a8 &&
	   !o.mods[1].text[0] && !strcmp(o.events[2], "mem:0x404110/8:w") &&
	   o.mods[2].attr.type == PERF_TYPE_BREAKPOINT && o.mods[2].attr.bp_addr == 0x404110 &&
	   o.mods[2].attr.bp_len == 8 && o.mods[2].attr.bp_type == 2 /* HW_BREAKPOINT_W */ &&
	   !strcmp(o.mods[2].text, "k") && o.mods[3].attr.type == PERF_TYPE_SOFTWARE &&
	   !strcmp(o.mods[3].text, "u"),
	   "-e takes cache, raw and breakpoint events, each with its modifiers (%s %s %s)",
	   o.nr_events > 2 ? o.events[0] : "-", o.nr_events > 2 ? o.events[1] : "-",
	   o.nr_events > 2 ? o.events[2] : "-");
	record_opts_release(&o);
	{
		/*
		 * A PMU by its sysfs name (PROF_EVENT_SOURCE: a tree made here,
		 * as /sys/bus/event_source/devices lays one out): terms by its
		 * format/ (bits in order, split ranges too), an alias of its
		 * events/, config1 and period terms, modifiers after it.
		 */
		char dir[] = "/tmp/test-opts.XXXXXX", path[256];
		static const char *const files[][2] = {
			{ "fake/type", "42\n" },
			{ "fake/format/event", "config:0-7\n" },
			{ "fake/format/umask", "config:8-15\n" },
			{ "fake/format/split", "config:16-19,32-35\n" },
			{ "fake/format/ldlat", "config1:0-15\n" },
			{ "fake/format/edge", "config:18\n" },
			{ "fake/events/hits", "event=0x3c,umask=0x01\n" },
		};
		int made = mkdtemp(dir) != NULL;

		for (size_t i = 0; made && i < sizeof(files) / sizeof(files[0]); i++) {
			FILE *f;
			char *slash;

			snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
			for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
				*slash = '\0';
				mkdir(path, 0700);
				*slash = '/';
			}
			made = (f = fopen(path, "w")) && fputs(files[i][1], f) >= 0 && !fclose(f);
		}
		setenv("PROF_EVENT_SOURCE", dir, 1);
		ret = PARSE("-e", "fake/hits,split=0xab,ldlat=3,period=5/u,fake/config=0x1234,edge/:k",
			    "true");
		ok(made && ret == 0 && o.nr_events == 2 && !strcmp(o.events[0], "fake/hits,split=0xab,ldlat=3,period=5/") &&
		   o.mods[0].attr.type == 42 &&
		   o.mods[0].attr.config == (0x3c | 0x01 << 8 | 0xbULL << 16 | 0xaULL << 32) &&
		   o.mods[0].attr.config1 == 3 && o.mods[0].attr.sample_period == 5 &&
		   !strcmp(o.mods[0].text, "u") && o.mods[1].attr.config == (0x1234 | 1 << 18) &&
		   !strcmp(o.mods[1].text, "k"),
		   "-e PMU/terms/: by the PMU's format and events (config %#llx, config1 %llu; %#llx)",
		   o.nr_events ? (unsigned long long)o.mods[0].attr.config : 0ULL,
		   o.nr_events ? (unsigned long long)o.mods[0].attr.config1 : 0ULL,
		   o.nr_events > 1 ? (unsigned long long)o.mods[1].attr.config : 0ULL);
		record_opts_release(&o);
		refused((const char *const[]){ "-e", "fake/umask=0x100/", "true", NULL }, "does not fit");
		refused((const char *const[]){ "-e", "fake/bogus=1/", "true", NULL }, "no term or event 'bogus'");
		refused((const char *const[]){ "-e", "nopmu/event=1/", "true", NULL }, "no PMU 'nopmu'");
		refused((const char *const[]){ "-e", "fake/event=1", "true", NULL }, "end with '/'");
		refused((const char *const[]){ "-e", "../x/event=1/", "true", NULL }, "not a PMU's name");
		unsetenv("PROF_EVENT_SOURCE");
		for (size_t i = sizeof(files) / sizeof(files[0]); made && i-- > 0;) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
			unlink(path);
		}
		for (const char *d = "fake/format\0fake/events\0fake\0"; *d; d += strlen(d) + 1) {
			snprintf(path, sizeof(path), "%s/%s", dir, d);
			rmdir(path);
		}
		rmdir(dir);
	}
	ret = PARSE("-p", "1");
	ok(ret == 0 && o.nr_events == 1 && o.default_event && o.mods[0].attr.type == PERF_TYPE_HARDWARE &&
	   o.mods[0].attr.config == PERF_COUNT_HW_CPU_CYCLES, "the default event is cycles, parsed");
	record_opts_release(&o);
	ret = PARSE("-e", "cycles:uhGHppp,instructions:kD", "true");
	ok(ret == 0 && !strcmp(o.mods[0].text, "uhGHppp") && !strcmp(o.mods[1].text, "kD"),
	   "-e takes perf's modifiers u k h G H p D");
	record_opts_release(&o);
	ret = PARSE("-e", "{cycles,instructions:u}:S,cpu-clock", "true");
	ok(ret == 0 && o.nr_events == 3 && o.mods[0].leader == 0 && o.mods[1].leader == 0 &&
	   o.mods[2].leader == 2 && o.mods[0].sample_read && o.mods[1].sample_read &&
	   !o.mods[2].sample_read && !strcmp(o.events[1], "instructions") &&
	   !strcmp(o.mods[1].text, "u"),
	   "-e {a,b:u}:S,c: a group that its leader samples, and an event alone");
	record_opts_release(&o);
	ret = PARSE("-e", "cycles:pppp", "true");
	ok(ret != 0, "-e cycles:pppp is refused");
	record_opts_release(&o);
	{
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		ok(!evname_apply_mods(&a, "k") && a.exclude_user && a.exclude_hv && !a.exclude_kernel,
		   ":k leaves out user space and the hypervisor (EL2 on arm64 without VHE), as perf's");
		memset(&a, 0, sizeof(a));
		ok(!evname_apply_mods(&a, "u") && a.exclude_kernel && a.exclude_hv && a.exclude_guest &&
		   !a.exclude_user, ":u leaves out the kernel, the hypervisor and guests");
		memset(&a, 0, sizeof(a));
		ok(!evname_apply_mods(&a, "G") && a.exclude_host && !a.exclude_guest, ":G: the guest alone");
		memset(&a, 0, sizeof(a));
		ok(!evname_apply_mods(&a, "uI") && a.exclude_idle && a.exclude_kernel,
		   ":uI: user space, not the idle task");
		memset(&a, 0, sizeof(a));
		ok(!evname_apply_mods(&a, "eP") && a.exclusive && a.precise_ip == 3 &&
		   evname_precise_max("eP") && !evname_precise_max("ppp"),
		   ":eP: the PMU alone, at its most precise (lowered quietly when opened)");
		memset(&a, 0, sizeof(a));
		ok(evname_apply_mods(&a, "pP") != 0, ":pP is refused: P is the most precise already");
	}
	ret = PARSE("--no-inherit", "-T", "--sample-cpu", "-P", "-R", "-B", "-k", "mono",
		    "--clockid=CLOCK_MONOTONIC", "true");
	ok(ret == 0 && o.no_inherit && o.argc == 1,
	   "--no-inherit, and perf's -T, --sample-cpu, -P, -R, -B, -k mono are taken");
	record_opts_release(&o);
	ret = PARSE("-qg", "true");
	ok(ret == 0 && o.quiet && o.callchain == CALLCHAIN_FP, "-qg: short options together");
	record_opts_release(&o);
	ret = PARSE("--off", "--dur", "2", "true");
	ok(ret == 0 && o.off_cpu && o.duration == 2, "unambiguous prefixes of long options");
	record_opts_release(&o);

	static const struct {
		const char *args[4];
		const char *msg;
	} perfs[] = {
		{ { "-k", "realtime", "true" }, "CLOCK_MONOTONIC" },
		{ { "--call-graph", "lbr", "true" }, "fp or dwarf" },
		{ { "-D", "0", "true" }, "out of range" },
		{ { "--control", "ctl", "true" }, "give fifo:CONTROL[,ACK]" },
		{ { "--switch-events", "true" }, "--off-cpu" },
		{ { "--no", "true" }, "ambiguous" },
		{ { "--quiet=1", "true" }, "takes no value" },
		{ { "-m", "3X", "true" }, "not a number" },
		{ { "-m", "K", "true" }, "not a number of pages or a size" },
		{ { "--all-user", "--all-kernel", "true" }, "conflict" },
		{ { "-g", "--user-callchains", "--kernel-callchains", "true" }, "conflict" },
		{ { "--user-callchains", "true" }, "there are no chains without -g" },
		{ { "--call-graph", "dwarf", "--kernel-callchains", "true" }, "dwarf unwinds user space" },
	};
	for (size_t i = 0; i < sizeof(perfs) / sizeof(perfs[0]); i++)
		refused(perfs[i].args, perfs[i].msg);

	ok(cpulist_parse(&l, "0-2,5,7-8") == 0 && l.nr == 6 && l.cpus[3] == 5 &&
	   l.cpus[5] == 8, "cpulist 0-2,5,7-8");
	cpulist_release(&l);
	ok(cpulist_parse(&l, "3,1,1\n") == 0 && l.nr == 2 && l.cpus[0] == 1,
	   "cpulist sorts and drops duplicates, takes sysfs' newline");
	cpulist_release(&l);
	ok(cpulist_parse(&l, "") && cpulist_parse(&l, ",1") && cpulist_parse(&l, "1,,2") &&
	   cpulist_parse(&l, "99999") && cpulist_parse(&l, "a"), "bad cpulists are refused");
	ok(cpulist_online(&l) == 0 && l.nr >= 1, "the online CPUs read from sysfs");
	cpulist_release(&l);

	ok(parse_u64("42", 1, 100, &v) == 0 && v == 42, "parse_u64 42");
	ok(parse_u64("42 ", 1, 100, &v) == -EINVAL && parse_u64("", 0, 1, &v) == -EINVAL &&
	   parse_u64("+1", 0, 9, &v) == -EINVAL && parse_u64("101", 1, 100, &v) == -ERANGE,
	   "parse_u64 refuses junk and out-of-range values");
	return tap_done();
}
