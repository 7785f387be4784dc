// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for JIT code as a profile meets it: the input as a
 * jitdump (src/jitdump.h) walked record by record and each record parsed
 * by its kind; stripped as the recorder carries it (jitdump_strip()), and
 * the copy walked again, which must be a jitdump whose records parse, the
 * same code loads in the same order; both, and the input as a perf map's
 * text, loaded into the report's JIT table (report/model/jit.h) and
 * looked up at the addresses they name. Its first byte says nothing: the
 * whole input is the file.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "jitdump.h"
#include "strpool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

/* Walk a jitdump: each record parsed by kind; code loads counted in *loads. */
static uint64_t walk(const void *data, size_t len, uint64_t *loads)
{
	struct jitdump_header h;
	struct jitdump_rec r;
	const char *why;
	size_t off;
	uint64_t sum = 0;
	int n = 0;

	*loads = 0;
	if (jitdump_header(data, len, &h, &why))
		return 0;
	off = h.size;
	while (n++ < 100000 && jitdump_next(data, len, &off, &r, &why) == 1) {
		struct jit_code_load cl;
		struct jit_code_move cm;
		struct jit_debug_info di;
		struct jit_unwinding_info ui;

		switch (r.id) {
		case JIT_CODE_LOAD:
			if (jitdump_code_load(&r, &cl) == 0) {
				sum += cl.code_addr + cl.code_size + strlen(cl.name);
				++*loads;
			}
			break;
		case JIT_CODE_MOVE:
			if (jitdump_code_move(&r, &cm) == 0)
				sum += cm.new_code_addr;
			break;
		case JIT_CODE_DEBUG_INFO:
			if (jitdump_debug_info(&r, &di) == 0) {
				struct jit_debug_entry e;
				size_t eo = di.off;

				for (uint64_t i = 0; i < di.nr_entry && i < 100000; i++) {
					if (jitdump_debug_entry(&r, &eo, &e))
						break;
					sum += e.addr + e.line + strlen(e.file);
				}
			}
			break;
		case JIT_CODE_UNWINDING_INFO:
			if (jitdump_unwinding_info(&r, &ui) == 0 && ui.unwind_data_size)
				sum += ui.data[0] + ui.data[ui.unwind_data_size - 1];
			break;
		}
	}
	return sum;
}

/* Load into a JIT table, as a jitdump or a perf map, and look up a few addresses. */
static void table(const void *data, size_t len, int map)
{
	struct strpool *pool = strpool_new();
	struct jit_table *t = jit_new(pool);
	const char *why = NULL;
	uint64_t n = map ? jit_add_perf_map(t, data, len, &why) : jit_add_jitdump(t, data, len, &why);

	sink += n + jit_count(t);	/* what was skipped, what is known */
	for (size_t i = 0; i + 8 <= len && i < 512; i += 8) {
		uint64_t addr;
		const struct jit_sym *j;

		memcpy(&addr, (const char *)data + i, 8);
		j = jit_find(t, addr, UINT64_MAX);
		if (j) {
			const struct jit_line *l = jit_line(j, addr);

			sink += (uint64_t)(uintptr_t)j + (l ? (uint64_t)(uintptr_t)l : 0);
		}
	}
	if (why)
		sink += strlen(why);
	jit_free(t);
	strpool_free(pool);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t loads, loads2;
	size_t slen = 0;
	unsigned char *stripped;

	sink += walk(data, size, &loads);
	stripped = jitdump_strip(data, size, &slen);
	if (stripped) {
		struct jitdump_header h;
		const char *why;

		/* the carried copy is a jitdump whose code loads are the input's, in order */
		if (jitdump_header(stripped, slen, &h, &why))
			abort();
		sink += walk(stripped, slen, &loads2);
		if (loads2 != loads)
			abort();
		table(stripped, slen, 0);
		free(stripped);
	}
	table(data, size, 0);
	table(data, size, 1);
	return 0;
}
