/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample's data source (PERF_SAMPLE_DATA_SRC, union perf_mem_data_src
 * of linux/perf_event.h) in words, field by field, in perf's words (perf
 * report --mem-mode's mem, tlb, snoop, locked and blocked columns, perf
 * script's data_src): "L1 hit", "L1 or L2 hit", "HitM", "Yes", "Data".
 * Each writes into buf (size bytes) and returns it; "N/A" where the PMU
 * said nothing.
 */
#ifndef PROF_DATASRC_H
#define PROF_DATASRC_H

#include <stddef.h>
#include <stdint.h>

const char *datasrc_op(uint64_t v, char *buf, size_t size);	/* LOAD, STORE, ..., "No" */
const char *datasrc_lvl(uint64_t v, char *buf, size_t size);	/* the memory level */
const char *datasrc_snoop(uint64_t v, char *buf, size_t size);
const char *datasrc_tlb(uint64_t v, char *buf, size_t size);
const char *datasrc_lock(uint64_t v, char *buf, size_t size);	/* Yes, No, N/A */
const char *datasrc_blk(uint64_t v, char *buf, size_t size);	/* Data, Addr, Data Addr, N/A */
/* All of them: "OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK N/A" */
const char *datasrc_text(uint64_t v, char *buf, size_t size);

#endif
