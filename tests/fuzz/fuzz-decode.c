// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the record decoders (src/decode.h) with any event:
 * the input's first 32 bytes are the attr's sample_type, read_format,
 * sample_regs_user and flags (sample_id_all), its next byte a record
 * type and the rest the record's body. The reader's target meets the
 * decoders only through attrs a file declares; here every sample_type
 * meets every body. What decodes must lie inside the record: every
 * pointer and count is checked against it, and each byte it names is
 * read. The same body is decoded as an ATTR and a FEATURE record too.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "pdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

/* p..p+n inside the record rec of len bytes, or abort. */
static void inside(const void *rec, size_t len, const void *p, uint64_t n)
{
	const unsigned char *a = rec, *b = p;

	if (!n)
		return;
	if (!b || b < a || b > a + len || n > (uint64_t)(a + len - b))
		abort();
	sink += b[0] + b[n - 1];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	struct perf_event_header h;
	uint64_t *rec;
	size_t body, len;
	struct sample s;
	struct kevent k;
	struct attr_record ar;
	struct feature f;

	if (size < 33 || size - 33 > 65535 - 8)
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	memcpy(&attr.sample_type, data, 8);
	memcpy(&attr.read_format, data + 8, 8);
	memcpy(&attr.sample_regs_user, data + 16, 8);
	attr.sample_id_all = data[24] & 1;
	attr.exclude_kernel = (data[24] >> 1) & 1;
	body = size - 33;
	len = 8 + ((body + 7) & ~(size_t)7);
	rec = calloc(1, len);
	if (!rec)
		return 0;
	h = (struct perf_event_header){ data[32] % 20, 0, (uint16_t)len };
	h.misc = (uint16_t)(data[25] | data[26] << 8);
	memcpy(rec, &h, sizeof(h));
	memcpy((unsigned char *)rec + 8, data + 33, body);

	h.type = PERF_RECORD_SAMPLE;
	memcpy(rec, &h, sizeof(h));
	if (decode_sample(&attr, (const struct perf_event_header *)rec, &s) == 0) {
		inside(rec, len, s.chain, s.nr_chain * 8);
		inside(rec, len, s.user_regs, s.nr_user_regs * 8);
		inside(rec, len, s.stack, s.stack_size);
		if (s.stack_dyn_size > s.stack_size)
			abort();
		inside(rec, len, s.raw, s.raw_size);
	}
	h.type = data[32] % 20 ? data[32] % 20 : PERF_RECORD_MMAP2;
	memcpy(rec, &h, sizeof(h));
	if (decode_kernel(&attr, (const struct perf_event_header *)rec, &k, &s) == 0) {
		inside(rec, len, k.comm, k.comm_len);
		inside(rec, len, k.mmap.name, k.mmap.name_len);
		inside(rec, len, k.mmap.build_id, k.mmap.build_id_len);
		if (k.comm && memchr(k.comm, 0, k.comm_len))
			abort();
		if (k.mmap.name && memchr(k.mmap.name, 0, k.mmap.name_len))
			abort();
	}
	if (decode_id(&attr, (const struct perf_event_header *)rec, &s) == 0)
		sink += s.time + s.id;
	sink += decode_id_size(&attr);

	h.type = PDATA_HEADER_ATTR;
	memcpy(rec, &h, sizeof(h));
	if (decode_attr((const struct perf_event_header *)rec, &ar) == 0)
		inside(rec, len, ar.ids, ar.nids * 8);
	h.type = PDATA_HEADER_FEATURE;
	memcpy(rec, &h, sizeof(h));
	if (decode_feature((const struct perf_event_header *)rec, &f) == 0) {
		size_t off = 0, n;
		uint32_t i = 0;
		const char *str;

		inside(rec, len, f.data, f.len);
		inside(rec, len, f.text, f.text_len);
		while (feature_string(&f, &off, &i, &str, &n) == 1) {
			inside(rec, len, str, n);
			if (memchr(str, 0, n))
				abort();
		}
		sink += feature_kind(f.id);
	}
	free(rec);
	return 0;
}
