// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the pprof and OTLP encoders
 * (report/formats/pprof.h), what prof report --format pprof writes and
 * prof agent pushes: the input is a run of samples (each a few frames,
 * in one of four files or none, named by the input's bytes or not, in the
 * kernel or not, inlined or not, with labels), added to a pprof and
 * encoded both ways, with kernel addresses or not. The pprof, gunzipped,
 * must be a profile.proto whose every string index is inside its string
 * table (the first string "", every one valid UTF-8), whose Samples'
 * location ids name a Location and Locations' function ids a Function,
 * and whose samples add up to what was added; the OTLP request must be
 * well-formed protobuf all the way down its length-delimited fields.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pprof.h"
#include "session.h"
#include "symbols.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* --- the input ---------------------------------------------------------------------- */

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned byte(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t u64(struct in *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | byte(in);
	return v;
}

/* A string of the input (up to its next NUL, at most 40 bytes), in buf. */
static const char *str(struct in *in, char *buf, size_t cap)
{
	size_t n = 0;

	while (in->n && n + 1 < cap && n < 40) {
		unsigned c = byte(in);

		if (!c)
			break;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

/* --- protobuf ------------------------------------------------------------------------- */

struct pb {
	const uint8_t *p, *end;
};

static int varint(struct pb *b, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64; s += 7) {
		if (b->p >= b->end)
			return -1;
		*v |= (uint64_t)(*b->p & 0x7f) << s;
		if (!(*b->p++ & 0x80))
			return 0;
	}
	return -1;
}

/* The next field: its number, wire type, value or bytes. -1: malformed; 0: the end. */
static int field(struct pb *b, uint64_t *num, int *wt, uint64_t *v, struct pb *sub)
{
	uint64_t key;

	if (b->p == b->end)
		return 0;
	if (varint(b, &key))
		return -1;
	*num = key >> 3;
	*wt = (int)(key & 7);
	switch (*wt) {
	case 0:
		return varint(b, v) ? -1 : 1;
	case 1:
		if (b->end - b->p < 8)
			return -1;
		b->p += 8;
		return 1;
	case 5:
		if (b->end - b->p < 4)
			return -1;
		b->p += 4;
		return 1;
	case 2:
		if (varint(b, v) || *v > (uint64_t)(b->end - b->p))
			return -1;
		sub->p = b->p;
		sub->end = b->p + *v;
		b->p += *v;
		return 1;
	}
	return -1;
}

/* Well-formed all the way down: a length-delimited field is a message, or taken as bytes. */
static void walk_any(struct pb b, int depth)
{
	uint64_t num, v;
	struct pb sub;
	int wt, r;

	while ((r = field(&b, &num, &wt, &v, &sub)) == 1)
		if (wt == 2 && depth < 12) {
			struct pb probe = sub;
			uint64_t n2, v2;
			struct pb s2;
			int w2, r2;

			while ((r2 = field(&probe, &n2, &w2, &v2, &s2)) == 1)
				;
			if (r2 == 0)
				walk_any(sub, depth + 1);	/* it parses as a message: so all the way */
		}
	if (r < 0)
		abort();	/* the top is always a message */
}

/* A message's varint fields numbered num (packed or not), through fn. */
static void each_id(struct pb m, uint64_t want, void (*fn)(void *, uint64_t), void *ctx)
{
	uint64_t num, v;
	struct pb sub;
	int wt;

	while (field(&m, &num, &wt, &v, &sub) == 1) {
		if (num != want)
			continue;
		if (wt == 0) {
			fn(ctx, v);
		} else if (wt == 2) {
			while (sub.p < sub.end) {
				if (varint(&sub, &v))
					abort();
				fn(ctx, v);
			}
		} else {
			abort();
		}
	}
}

struct ids {
	uint64_t *v;
	size_t n, cap;
};

static void ids_add(void *ctx, uint64_t v)
{
	struct ids *s = ctx;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = v;
}

static int ids_has(const struct ids *s, uint64_t v)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return 1;
	return 0;
}

struct check {
	uint64_t nstrings;
	struct ids locs, funcs, refs_loc, refs_func, strs;
};

static void str_ref(void *ctx, uint64_t v)
{
	ids_add(&((struct check *)ctx)->strs, v);
}

/* The string indexes of message m's fields in nums (a 0-ended list). */
static void strings_of(struct check *c, struct pb m, const uint64_t *nums)
{
	for (; *nums; nums++)
		each_id(m, *nums, str_ref, c);
}

/* The Profile's references, checked against what it defines. */
static void check_pprof(const uint8_t *raw, size_t len, uint64_t count)
{
	struct pb b = { raw, raw + len }, sub;
	struct check c;
	uint64_t num, v, samples = 0;
	int wt, r, first_string = 1;

	memset(&c, 0, sizeof(c));
	walk_any(b, 0);
	while ((r = field(&b, &num, &wt, &v, &sub)) == 1) {
		static const uint64_t st_strings[] = { 1, 2, 0 }, mp_strings[] = { 5, 6, 0 },
				      fn_strings[] = { 2, 3, 4, 0 }, lb_strings[] = { 1, 2, 4, 0 };
		struct pb m = sub, f;
		uint64_t n2, v2;
		int w2;

		switch (num) {
		case 1:	/* sample_type */
		case 11:	/* period_type */
			strings_of(&c, m, st_strings);
			break;
		case 2:	/* Sample: location_id 1, value 2, label 3 */
			each_id(m, 1, ids_add, &c.refs_loc);
			{
				struct pb vs = m;
				uint64_t n3, v3;
				struct pb s3;
				int w3, got = 0;

				/* the first value: packed (wire type 2) or the first varint 2 */
				while (!got && field(&vs, &n3, &w3, &v3, &s3) == 1)
					if (n3 == 2) {
						if (w3 == 2 && varint(&s3, &v3))
							abort();
						samples += v3;
						got = 1;
					}
			}
			while (field(&m, &n2, &w2, &v2, &f) == 1)
				if (n2 == 3 && w2 == 2)
					strings_of(&c, f, lb_strings);
			break;
		case 3:	/* Mapping */
			strings_of(&c, m, mp_strings);
			break;
		case 4:	/* Location: id 1, line 4 (function_id 1) */
			each_id(m, 1, ids_add, &c.locs);
			while (field(&m, &n2, &w2, &v2, &f) == 1)
				if (n2 == 4 && w2 == 2)
					each_id(f, 1, ids_add, &c.refs_func);
			break;
		case 5:	/* Function */
			each_id(m, 1, ids_add, &c.funcs);
			strings_of(&c, m, fn_strings);
			break;
		case 6:	/* string_table: valid UTF-8, the first "" */
			if (first_string && sub.p != sub.end)
				abort();
			first_string = 0;
			c.nstrings++;
			{
				char *t = malloc((size_t)(sub.end - sub.p) + 1);

				if (!t)
					abort();
				memcpy(t, sub.p, (size_t)(sub.end - sub.p));
				t[sub.end - sub.p] = '\0';
				if (strlen(t) != (size_t)(sub.end - sub.p) || !utf8_valid(t))
					abort();
				free(t);
			}
			break;
		case 7: case 8: case 14:	/* drop_frames, keep_frames, default_sample_type */
			if (wt != 0)
				abort();
			ids_add(&c.strs, v);
			break;
		case 13:	/* comment: string indexes, packed or not */
			if (wt == 0) {
				ids_add(&c.strs, v);
			} else {
				while (m.p < m.end) {
					if (varint(&m, &v))
						abort();
					ids_add(&c.strs, v);
				}
			}
			break;
		}
	}
	if (r < 0)
		abort();
	for (size_t i = 0; i < c.strs.n; i++)
		if (c.strs.v[i] >= c.nstrings)
			abort();	/* a string index past the table */
	for (size_t i = 0; i < c.refs_loc.n; i++)
		if (!ids_has(&c.locs, c.refs_loc.v[i]))
			abort();	/* a Sample names no Location */
	for (size_t i = 0; i < c.refs_func.n; i++)
		if (!ids_has(&c.funcs, c.refs_func.v[i]))
			abort();	/* a Line names no Function */
	if (samples != count)
		abort();	/* the samples (the first value: their count) do not add up */
	free(c.locs.v);
	free(c.funcs.v);
	free(c.refs_loc.v);
	free(c.refs_func.v);
	free(c.strs.v);
}

/* gunzip data into a malloc'd buffer; NULL when it is not gzip. */
static uint8_t *gunzip(const unsigned char *data, size_t len, size_t *out)
{
	z_stream z;
	size_t cap = 4 * len + 1024;
	uint8_t *b = malloc(cap);
	int r;

	memset(&z, 0, sizeof(z));
	if (!b || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(b);
		return NULL;
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	do {
		if (z.total_out == cap) {
			cap *= 2;
			b = realloc(b, cap);
			if (!b)
				abort();
		}
		z.next_out = b + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		r = inflate(&z, Z_NO_FLUSH);
	} while (r == Z_OK);
	*out = z.total_out;
	inflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(b);
		return NULL;
	}
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct symbols *sym;
	static struct dso *dsos[5];
	struct in in = { data, size };
	char names[8][48], files[8][48], lab[4][48], ev[48];
	struct pprof *pp;
	int unit;
	uint64_t count, value;

	if (!sym) {
		static const unsigned char bid[20] = { 1, 2, 3, 4, 5 };

		sym = symbols_new(NULL);
		if (!sym)
			abort();
		/* files that are no path are not opened: the fuzzer reads nothing of the host */
		dsos[0] = symbols_dso(sym, "[vdso]", NULL, 0);
		dsos[1] = symbols_dso(sym, "//anon", NULL, 0);
		dsos[2] = symbols_dso(sym, "fuzz/libfuzz.so", bid, sizeof(bid));
		dsos[3] = symbols_dso(sym, "fuzz/prog \xff\x01 name", bid, 7);
		dsos[4] = NULL;
	}
	unit = (int)(byte(&in) % 3);
	pp = pprof_new(str(&in, ev, sizeof(ev)), unit);
	pprof_kernel_names_only(pp, byte(&in) & 1);
	for (int n = 0; in.n && n < 2000; n++) {
		struct rframe fr[8];
		struct rsample s;
		const char *labels[8];
		int nf = 1 + (int)(byte(&in) % 8), nl = (int)(byte(&in) % 5);

		memset(&s, 0, sizeof(s));
		for (int i = 0; i < nf; i++) {
			unsigned flags = byte(&in);

			memset(&fr[i], 0, sizeof(fr[i]));
			fr[i].dso = dsos[flags % 5];
			fr[i].name = flags & 8 ? str(&in, names[i], sizeof(names[i])) : NULL;
			fr[i].addr = u64(&in) >> (flags & 0x30);
			fr[i].kernel = (flags >> 6) & 1;
			fr[i].inlined = i && (flags >> 7);
			if (flags & 0x40 && byte(&in) & 1) {
				fr[i].file = str(&in, files[i], sizeof(files[i]));
				fr[i].line = (int)byte(&in);
			}
		}
		for (int i = 0; i < nl; i++)
			labels[2 * i] = str(&in, lab[i], sizeof(lab[i])), labels[2 * i + 1] = "v";
		s.frames = fr;
		s.nframes = nf;
		s.count = 1;
		s.period = 1 + byte(&in);
		s.pid = byte(&in);
		s.tid = s.pid + byte(&in);
		s.comm = "fuzz";
		pprof_add(pp, &s, labels, nl > 4 ? 4 : nl);
	}
	count = pprof_count(pp, &value);
	{
		struct pprof_window w = { .time_ns = 1700000000000000000ULL, .duration_ns = 10,
					  .period = unit == 1 ? 1000000 : 0 };
		unsigned char *out;
		size_t len, rawlen;
		uint8_t *raw;
		static const char *const res[4] = { "service.name", "fuzz", "host.name", "h" };

		if (pprof_encode(pp, &w, &out, &len) == 0) {
			raw = gunzip(out, len, &rawlen);
			if (!raw)
				abort();	/* what it wrote is gzip */
			check_pprof(raw, rawlen, count);
			free(raw);
			free(out);
		}
		if (pprof_encode_otlp(pp, &w, res, 2, &out, &len) == 0) {
			raw = gunzip(out, len, &rawlen);
			if (!raw)
				abort();
			walk_any((struct pb){ raw, raw + rawlen }, 0);
			free(raw);
			free(out);
		}
	}
	pprof_free(pp);
	return 0;
}
