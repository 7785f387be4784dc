// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's drain (record/drain.h) on a hand-made chunk of records:
 * each decoded once and run through the filters; the stack copy of a
 * sample cut to what the kernel copied (trim.c); a switch-out right after
 * its thread's context-switches sample folded into it, with its preempted
 * bit (fold.c), where another thread's switch-out, one after a sample of
 * another event and one that begins the next chunk stay; samples and
 * lost records counted; the records kept moved down over the room freed,
 * or drained into another buffer alike; -g's stack words cut after the
 * last that may return, those before it zeroed only when compressing.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codemap.h"
#include "drain.h"
#include "fold.h"
#include "pdata.h"
#include "tap.h"
#include "trim.h"

static unsigned char buf[4096];
static size_t len;

static void put(const void *p, size_t n)
{
	memcpy(buf + len, p, n);
	len += n;
}

static void u64(uint64_t v)
{
	put(&v, 8);
}

static void hdr(uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { type, misc, size };

	put(&h, sizeof(h));
}

/* IDENTIFIER, IP, TID, TIME, then a stack copy of 64 bytes (words), dyn of them the stack's. */
static void sample_words(uint64_t id, uint32_t pid, uint32_t tid, const uint64_t *words,
			 uint64_t dyn)
{
	hdr(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 4 * 8 + 8 + 64 + 8);
	u64(id);
	u64(0x401000);
	u64((uint64_t)tid << 32 | pid);
	u64(1000);
	u64(64);
	for (int i = 0; i < 8; i++)
		u64(words[i]);
	u64(dyn);
}

/* The same, the stack's words 0x402000 on, past dyn 0xdeadbeef. */
static void sample(uint64_t id, uint32_t pid, uint32_t tid, uint64_t dyn)
{
	uint64_t words[8];

	for (int i = 0; i < 8; i++)
		words[i] = i < (int)(dyn / 8) ? 0x402000 + (uint64_t)i : 0xdeadbeef;
	sample_words(id, pid, tid, words, dyn);
}

/* The samples' layout: IDENTIFIER, IP, TID, TIME and 64 bytes of user stack. */
static void stack_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_STACK_USER;
	attr->sample_stack_user = 64;
	attr->sample_id_all = 1;
}

/*
 * -g's stack words through the trim filter with code at 0x400000 (a
 * granule): the size kept, and the words as they are then.
 */
static void trim_g(int zero_all, const uint64_t *words, uint64_t dyn, uint64_t *size,
		   uint64_t *kept_dyn, uint64_t *out)
{
	struct perf_event_attr attr;
	struct codemap code;
	struct trim t;
	struct drain d;
	size_t used, kept;

	stack_attr(&attr);
	codemap_init(&code);
	codemap_add(&code, 0x400000, 0x10000);
	t.code = &code;
	t.zero_all = zero_all;
	drain_init(&d, &attr);
	drain_add(&d, "trim", REC_TYPE(PERF_RECORD_SAMPLE), trim_filter, &t);
	len = 0;
	sample_words(5, 10, 11, words, dyn);
	kept = drain_chunk(&d, buf, len, buf, &used);
	memcpy(size, buf + 40, 8);
	memcpy(kept_dyn, buf + 48 + *size, 8);
	memset(out, 0, 8 * 8);
	memcpy(out, buf + 48, *size);
	if (kept != 48 + *size + 8)
		*size = ~0ULL;
	codemap_release(&code);
}

/* d with the fold (f, of the context-switches event with id 5) and trim (t) filters. */
static void fold_trim(struct drain *d, const struct perf_event_attr *attr, struct fold *f,
		      struct trim *t)
{
	static uint64_t cs_ids[1] = { 5 };

	drain_init(d, attr);
	fold_init(f, cs_ids, 1);
	drain_add(d, "fold", REC_ALL, fold_filter, f);
	drain_add(d, "trim", REC_TYPE(PERF_RECORD_SAMPLE), trim_filter, t);
}

/* A SWITCH out of pid/tid, its trailer TID, TIME, IDENTIFIER. */
static void switch_out(uint32_t pid, uint32_t tid, int preempt)
{
	hdr(PERF_RECORD_SWITCH,
	    PERF_RECORD_MISC_SWITCH_OUT | (preempt ? PERF_RECORD_MISC_SWITCH_OUT_PREEMPT : 0), 32);
	u64((uint64_t)tid << 32 | pid);
	u64(1001);
	u64(5);
}

static void lost(uint64_t n)
{
	hdr(PERF_RECORD_LOST, 0, 8 + 16 + 24);
	u64(5);
	u64(n);
	u64(0);
	u64(1002);
	u64(5);
}

/* The record at off: its header. */
static struct perf_event_header at(size_t off)
{
	struct perf_event_header h;

	memcpy(&h, buf + off, sizeof(h));
	return h;
}

int main(void)
{
	struct perf_event_attr attr;
	struct drain d, d2;
	struct fold f, f2;
	static unsigned char src[sizeof(buf)], apart[sizeof(buf)];
	size_t kept2, used2;
	struct trim dwarf = { NULL, 0 };	/* --call-graph dwarf's stacks: cut to what was copied */
	uint64_t v;
	size_t used, kept, off;
	struct perf_event_header h;
	uint32_t pt[2];

	stack_attr(&attr);
	fold_trim(&d, &attr, &f, &dwarf);

	sample(5, 10, 11, 16);		/* a context-switches sample: 16 bytes of stack */
	switch_out(10, 11, 1);		/* its switch-out, preempted: folded */
	switch_out(12, 13, 0);		/* another thread's: kept */
	lost(7);
	sample(6, 10, 11, 64);		/* another event's sample, its stack whole */
	switch_out(10, 11, 0);		/* after it: kept */
	sample(5, 20, 21, 0);		/* a context-switches sample ending the chunk */
	memcpy(src, buf, len);
	kept = drain_chunk(&d, buf, len, buf, &used);
	ok(used == len, "the chunk read whole: %zu of %zu bytes", used, len);
	/* drained from a buffer into another, as the worker drains a ring's copy into the writer's */
	fold_trim(&d2, &attr, &f2, &dwarf);
	memset(apart, 0xa5, sizeof(apart));
	kept2 = drain_chunk(&d2, src, len, apart, &used2);
	ok(kept2 == kept && used2 == used && !memcmp(apart, buf, kept),
	   "drained into another buffer: the same %zu bytes as in place (%zu)",
	   kept2, kept);
	ok(d.samples == 3 && d.lost == 7, "3 samples and 7 lost records counted: %llu, %llu",
	   (unsigned long long)d.samples, (unsigned long long)d.lost);

	off = 0;
	h = at(off);
	memcpy(&v, buf + off + 40, 8);
	ok(h.type == PERF_RECORD_SAMPLE && h.size == 8 + 32 + 8 + 16 + 8 && v == 16,
	   "the first sample's stack cut to its 16 bytes: size %u, copy %llu", h.size,
	   (unsigned long long)v);
	memcpy(&v, buf + off + 8 + 32 + 8 + 16, 8);
	ok(v == 16, "dyn_size kept after the cut copy");
	ok((h.misc & PDATA_MISC_SAMPLE_SWITCH_OUT) && (h.misc & PDATA_MISC_SAMPLE_PREEMPT),
	   "its switch-out folded into it, preempted (misc %#x)", h.misc);
	off += h.size;
	h = at(off);
	memcpy(pt, buf + off + 8, 8);
	ok(h.type == PERF_RECORD_SWITCH && pt[0] == 12 && pt[1] == 13,
	   "another thread's switch-out stays, next");
	off += h.size;
	h = at(off);
	ok(h.type == PERF_RECORD_LOST && h.size == 48, "the lost record stays");
	off += h.size;
	h = at(off);
	memcpy(&v, buf + off + 40, 8);
	ok(h.type == PERF_RECORD_SAMPLE && h.size == 8 + 32 + 8 + 64 + 8 && v == 64 &&
	   !(h.misc & PDATA_MISC_SAMPLE_SWITCH_OUT), "a whole stack stays whole, and unfolded");
	off += h.size;
	h = at(off);
	ok(h.type == PERF_RECORD_SWITCH, "the switch-out after another event's sample stays");
	off += h.size;
	h = at(off);
	memcpy(&v, buf + off + 40, 8);
	ok(h.type == PERF_RECORD_SAMPLE && v == 8, "an empty copy kept at 8 bytes: %llu",
	   (unsigned long long)v);
	off += h.size;
	ok(off == kept, "the kept records end where the drain said: %zu, %zu", off, kept);

	/* the next chunk begins with a switch-out: the sample that ended the last is not its */
	len = 0;
	switch_out(20, 21, 0);
	kept = drain_chunk(&d, buf, len, buf, &used);
	ok(kept == 32 && at(0).type == PERF_RECORD_SWITCH,
	   "a switch-out beginning a chunk is not folded into the last chunk's sample");

	/* a record cut short ends the chunk where it begins */
	len = 0;
	lost(1);
	hdr(PERF_RECORD_SAMPLE, 0, 200);
	kept = drain_chunk(&d, buf, len, buf, &used);
	ok(used == 48 && kept == 48, "a record past the chunk's end is left: used %zu", used);

	/* -g's stack words: those after the last that may return go; before it, zeroed when compressing */
	{
		static const uint64_t w[8] = { 0x7ffc12345670ULL, 0x401234, 0x5555aaaa0000ULL, 0,
					       0x401500, 0x12345678, 0x7ffc12345000ULL, 3 };
		static const uint64_t none[8] = { 0x7ffc12345670ULL, 0x12345678, 0, 0, 7, 0, 0, 1 };
		uint64_t size, dyn, out[8];

		trim_g(1, w, 64, &size, &dyn, out);
		ok(size == 40 && dyn == 40 && out[0] == 0 && out[1] == 0x401234 && out[2] == 0 &&
		   out[3] == 0 && out[4] == 0x401500,
		   "compressing: cut after the last word in code (%llu bytes), the others before it zeroed",
		   (unsigned long long)size);
		trim_g(0, w, 64, &size, &dyn, out);
		ok(size == 40 && dyn == 40 && !memcmp(out, w, 40),
		   "stored: cut after the last word in code (%llu bytes), those before it as they were",
		   (unsigned long long)size);
		trim_g(0, none, 64, &size, &dyn, out);
		ok(size == 8 && dyn == 8 && out[0] == 0, "no word in code: one word kept, zeroed (%llu)",
		   (unsigned long long)size);
		trim_g(1, w, 24, &size, &dyn, out);
		ok(size == 16 && dyn == 16 && out[0] == 0 && out[1] == 0x401234,
		   "a copy of 24 bytes cut after its word in code: %llu", (unsigned long long)size);
		trim_g(1, w, 0, &size, &dyn, out);
		ok(size == 8 && dyn == 0, "an empty copy: 8 bytes, none of them the stack's (%llu, %llu)",
		   (unsigned long long)size, (unsigned long long)dyn);
		trim_g(1, w, 44, &size, &dyn, out);
		ok(size == 48 && dyn == 44 && out[0] == 0 && out[2] == 0 && out[4] == 0x401500,
		   "a copy not of whole words kept as long, its words zeroed: %llu, %llu",
		   (unsigned long long)size, (unsigned long long)dyn);
	}
	return tap_done();
}
