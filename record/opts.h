/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options of `prof record`, parsed and checked before anything runs. */
#ifndef PROF_RECORD_OPTS_H
#define PROF_RECORD_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "cpulist.h"
#include "opt.h"

#define RECORD_DEFAULT_FREQ	4000
#define RECORD_DEFAULT_PAGES	128
#define RECORD_DEFAULT_LEVEL	1
/*
 * The level unless -z says, where it starts: 3 where the records come at
 * most a few MB a second (flat and frame-pointer recordings), 1 for
 * --call-graph dwarf's stacks (30 times the bytes) and --off-cpu's switch
 * storms, where compressing is most of the drain's time. From there the
 * writer moves it, a zstd frame at a time, up to RECORD_ADAPT_MAX_LEVEL
 * while compressing takes under 3% of a CPU, and down past it
 * (writer_adapt()): an 8 s system-wide -g recording at level 6 is 9%
 * smaller than at 3 for 2x level 3's compressing CPU (0.75% -> 1.5% of a
 * CPU), a dwarf one 7% smaller at 3 and 14% at 6; a raise that saves
 * less than 5% is taken back (a switch storm's level 3 saves nothing).
 */
#define RECORD_SMALL_LEVEL	3
/*
 * --cpu-budget's default, in millionths of one CPU: what compressing
 * (at level 1) and the leaf repair may each take before the recorder
 * leaves it, writing records as perf does, the stacks kept for prof
 * report's repair (writer_shed(), mend_budget()). At -a -g -F 10000 on 2
 * CPUs each takes about 1%; at -F 40000 each about 3.5%, and together
 * they made the recorder 3.5 times perf's CPU over 20 s.
 */
#define RECORD_CPU_BUDGET	30000
#define RECORD_ADAPT_MAX_LEVEL	6
#define RECORD_MAX_PAGES	(1u << 20)
/* --call-graph dwarf: bytes of user stack copied per sample (see prof-record(1)) */
#define RECORD_DEFAULT_STACK	32768
#define RECORD_MAX_STACK	65528
/* -g: bytes of user stack per sample, for the return address of a frameless function */
#define RECORD_LEAF_STACK	64
/* and ring pages per CPU, where -m is not given: a sample takes up to ~32 KiB of it */
#define RECORD_DWARF_PAGES	512

enum record_callchain { CALLCHAIN_NONE, CALLCHAIN_FP, CALLCHAIN_DWARF };

/* An event's modifiers (-e cpu-clock:u, cycles:ppp), evname_apply_mods()'s. */
struct event_mods {
	char text[16];		/* the letters after ':', "" for none */
	int tracepoint;		/* the name is a tracepoint's, SYSTEM:NAME */
	int probe;		/* a dynamic probe's (probe.h), made when opened */
	const char *filter;	/* a tracepoint's --filter (in argv), or NULL */
	int leader;		/* index of its group's leader (itself when alone) */
	int sample_read;	/* its group is {...}:S: the leader samples, reading the others */
	char *cgroup;		/* -G: its cgroup (malloc'ed; "" the whole machine), or NULL */
	struct perf_event_attr attr;	/* but a tracepoint's: its type and config, a
					 * breakpoint's bp_* (evlist_base()) */
};

struct record_opts {
	char **events;		/* names as given, without their modifiers; default "cycles" */
	struct event_mods *mods;	/* each event's */
	size_t nr_events;
	int default_event;	/* -e not given */
	uint64_t freq;		/* -F, or 0 with -c */
	uint64_t period;	/* -c */
	enum record_callchain callchain;	/* -g, --call-graph */
	uint32_t stack_size;	/* --call-graph dwarf,SIZE */
	int pages_given;	/* -m was given */
	int *pids, nr_pids;	/* -p */
	int *tids, nr_tids;	/* -t */
	int all_cpus;		/* -a */
	struct cpulist cpus;	/* -C, when has_cpus */
	int has_cpus;
	unsigned mmap_pages;	/* -m, data pages per ring */
	const char *output;	/* -o */
	int level;		/* 0 with --no-compress */
	double duration;	/* --duration, 0 when not given */
	int quiet;
	int no_buildid_cache;	/* -N: keep no file by build id (keep.h) */
	const char *hold_dir;	/* a live reader's: hold executables open, linked here (hold.h) */
	int drain_ms;		/* a live reader's: ms between passes nothing woke (0: 250) */
	int no_inherit;		/* --no-inherit: not the command's children or threads */
	int no_buildid_mmap;	/* --no-buildid-mmap: MMAP2 without build ids (attr.build_id 0) */
	int keep_leaf_stacks;	/* --keep-leaf-stacks: -g's stacks stored, not mended (mend.h) */
	unsigned cpu_budget;	/* --cpu-budget: millionths of a CPU for compressing, and for the leaf repair; 0: none */
	int kernel_build_ids;	/* record_main()'s choice: the kernel puts them in MMAP2 */
	int all_user, all_kernel;	/* --all-user, --all-kernel: on every attr */
	int freq_given, level_given, no_compress;	/* -F, -z, --no-compress given */
	int off_cpu;		/* --off-cpu: context switches, and stacks at switch-out */
	int user_callchains;	/* --user-callchains: the chains' user part alone */
	int kernel_callchains;	/* --kernel-callchains: their kernel part alone */
	/*
	 * -d (ADDR), -W (WEIGHT), --data-src, --phys-data, --data-page-size,
	 * --code-page-size: PERF_SAMPLE_* bits every event's samples carry
	 */
	uint64_t sample_extra;
	const char *cgroup_default;	/* -G before any -e (in argv): every event's */
	int all_cgroups;	/* --all-cgroups: each sample's cgroup, and CGROUP records */
	int namespaces;		/* --namespaces: NAMESPACES records */
	int inherit_stat;	/* -s: each inherited counter's count at its thread's exit */
	int overwrite;		/* --overwrite: rings the kernel overwrites, read at the end */
	uint64_t branch_sample_type;	/* -b, -j: the branches of each sample's stack; 0: none */
	int no_bpf_event;	/* --no-bpf-event: no KSYMBOL and BPF_EVENT records */
	int64_t delay_ms;	/* -D: events enabled this long after the start; -1 never (--control) */
	const char *control;	/* --control fifo:CTL[,ACK] (in argv), or NULL */
	int no_carry;		/* carry no JIT files (prof agent's recorder: its reader is live) */
	enum { SWITCH_NONE, SWITCH_SIGNAL, SWITCH_TIME, SWITCH_SIZE } switch_output;
	double switch_secs;	/* --switch-output=TIME */
	uint64_t switch_bytes;	/* --switch-output=SIZE */
	unsigned switch_max_files;	/* --switch-max-files: the newest kept; 0 all */
	char **argv;		/* the command, NULL-terminated; NULL when none */
	int argc;
};

/*
 * Parse argv (argv[0] is "record"). Returns 0, 1 when --help was asked, or
 * -EINVAL after writing a one-line reason (without "prof: ") into err.
 * argv must outlive o: o->argv and o->output point into it.
 */
int record_opts_parse(struct record_opts *o, int argc, char **argv,
		      char *err, size_t errlen);
void record_opts_release(struct record_opts *o);

/*
 * For a command that takes record's target and event options
 * (record_target_options, joined into its own table): the defaults
 * before parsing, and the checks after it, with default_event where -e
 * was not given. o->argv set, if at all, before the checks.
 */
extern const struct opt record_target_options[];
void record_opts_init(struct record_opts *o);
int record_opts_check(struct record_opts *o, const char *default_event, char *err, size_t len);

/*
 * -p or -t's value (which: 'p' or 't'), a comma-separated list of ids,
 * into a new *ids (the old one freed). 0, or -EINVAL with the reason in err.
 */
int record_parse_ids(char which, const char *arg, int **ids, int *nr, char *err, size_t len);

/* The lines of prof record --help. */
void record_usage(FILE *out);
/*
 * -G LIST: the events given so far sampled only in these cgroups (list
 * kept, not copied), or the default event when none is given yet. 0, or
 * -EINVAL with a reason in err.
 */
int record_opts_cgroup(struct record_opts *o, const char *list, char *err, size_t len);

#endif
