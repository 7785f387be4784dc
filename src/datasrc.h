/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample's data source (PERF_SAMPLE_DATA_SRC, union perf_mem_data_src
 * of linux/perf_event.h) in words, as perf script prints it: the
 * operation, the memory level, snoop, TLB and lock, "|"-separated
 * ("Load|L1 hit|Snoop None|TLB L1 or L2 hit|Not locked"); "N/A" where
 * the PMU said nothing (a software event's).
 */
#ifndef PROF_DATASRC_H
#define PROF_DATASRC_H

#include <stddef.h>
#include <stdint.h>

const char *datasrc_text(uint64_t v, char *buf, size_t size);

#endif
