/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dynamic probes made by perf_event_open itself (since Linux 4.17), with
 * no tracefs and no `perf probe` first: the kernel's "uprobe" and
 * "kprobe" PMUs take the probed file's path (uprobe_path) or function's
 * name (kprobe_func) in config1, the offset (probe_offset) or address
 * (kprobe_addr) in config2, and the retprobe bit where the PMU's
 * format/retprobe says. Written:
 *
 *   uprobe:PATH:SYMBOL[+OFF]   uprobe:PATH:0xADDR   (an ELF's address)
 *   uretprobe:PATH:SYMBOL
 *   kprobe:SYMBOL[+OFF]        kprobe:0xADDR
 *   kretprobe:SYMBOL
 *   usdt:PATH:PROVIDER:NAME     (a statically defined probe: the file's
 *                                .note.stapsdt, its semaphore set through
 *                                the PMU's ref_ctr_offset)
 *
 * PATH without a '/' is looked for in $PATH. A probe takes no modifiers:
 * it counts every hit, in whichever privilege level it lies.
 */
#ifndef PROF_RECORD_PROBE_H
#define PROF_RECORD_PROBE_H

#include <stddef.h>
#include <linux/perf_event.h>

/* Whether spec is written as a probe (its prefix). */
int probe_spec(const char *spec);

/*
 * The probe spec into a (type, config, config1, config2; a zeroed
 * first). config1 points at a string that lives until the process ends.
 * 0, or -1 with a one-line reason in err.
 */
int probe_parse(const char *spec, struct perf_event_attr *a, char *err, size_t len);

/* Whether a is a probe's (its type is the uprobe or kprobe PMU's). */
int probe_attr(const struct perf_event_attr *a);

/* Why the kernel refused probe name with errno err, in one line into buf. */
const char *probe_refused(const char *name, int err, char *buf, size_t len);

#endif
