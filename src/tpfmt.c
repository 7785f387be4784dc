// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tpfmt.h"
#include "xalloc.h"

struct field {
	char name[64];
	int is_str;		/* char NAME[N] */
	int data_loc;		/* __data_loc: a u32 of length << 16 | offset */
	int is_signed;
	uint32_t offset, size;
};

struct format {
	uint64_t id;
	char name[128];		/* system:event */
	struct field *f;
	size_t nf;
};

struct tpfmts {
	struct format *fmt;
	size_t n;
};

/* A cursor over the blob: reads that run past its end fail. */
struct cur {
	const unsigned char *p;
	size_t len, off;
	int bad;
};

static const unsigned char *take(struct cur *c, size_t n)
{
	const unsigned char *at;

	if (c->bad || n > c->len - c->off) {
		c->bad = 1;
		return NULL;
	}
	at = c->p + c->off;
	c->off += n;
	return at;
}

static uint64_t take_u64(struct cur *c)
{
	const unsigned char *p = take(c, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

static uint32_t take_u32(struct cur *c)
{
	const unsigned char *p = take(c, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

static const char *take_str(struct cur *c)
{
	const unsigned char *nul;

	if (c->bad || c->off >= c->len) {
		c->bad = 1;
		return NULL;
	}
	nul = memchr(c->p + c->off, 0, c->len - c->off);
	if (!nul) {
		c->bad = 1;
		return NULL;
	}
	return (const char *)take(c, (size_t)(nul - (c->p + c->off)) + 1);
}

/* One "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line into f. */
static int parse_field(const char *line, size_t len, struct field *f)
{
	char buf[512], *decl, *semi, *name, *br;
	const char *o, *z, *g;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	decl = strstr(buf, "field:");
	o = strstr(buf, "offset:");
	z = strstr(buf, "size:");
	g = strstr(buf, "signed:");
	if (!decl || !o || !z)
		return -1;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return -1;
	*semi = '\0';
	memset(f, 0, sizeof(*f));
	f->offset = (uint32_t)strtoul(o + 7, NULL, 10);
	f->size = (uint32_t)strtoul(z + 5, NULL, 10);
	f->is_signed = g ? atoi(g + 7) != 0 : 0;
	f->data_loc = strstr(decl, "__data_loc") != NULL;
	name = strrchr(decl, ' ');
	name = name ? name + 1 : decl;
	br = strchr(name, '[');
	f->is_str = br && strstr(decl, "char") != NULL;
	if (br)
		*br = '\0';
	if (!*name)
		return -1;
	snprintf(f->name, sizeof(f->name), "%s", name);
	return 0;
}

/* A line "\tfield:...", bounded by its length (the text holds no NUL). */
static int is_field(const char *p, size_t ll)
{
	size_t ws = 0;

	while (ws < ll && (p[ws] == '\t' || p[ws] == ' '))
		ws++;
	return ll - ws > 6 && !memcmp(p + ws, "field:", 6);
}

/* A format file's text: its name, id and fields. */
static void parse_format(struct tpfmts *t, const char *sys, const char *text, size_t len)
{
	struct format fm;
	const char *p = text, *end = text + len;

	memset(&fm, 0, sizeof(fm));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll > 6 && !memcmp(p, "name: ", 6))
			snprintf(fm.name, sizeof(fm.name), "%s:%.*s", sys, (int)(ll - 6), p + 6);
		else if (ll > 4 && ll < 32 && !memcmp(p, "ID: ", 4)) {
			char num[32];

			memcpy(num, p + 4, ll - 4);	/* the text holds no NUL to stop at */
			num[ll - 4] = '\0';
			fm.id = strtoull(num, NULL, 10);
		}
		else if (is_field(p, ll)) {
			struct field f;

			if (!parse_field(p, ll, &f) && strncmp(f.name, "common_", 7) && fm.nf < 256) {
				fm.f = xreallocarray(fm.f, fm.nf + 1, sizeof(*fm.f));
				fm.f[fm.nf++] = f;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!fm.name[0] || t->n >= 1024) {	/* more formats than any recording has */
		free(fm.f);
		return;
	}
	t->fmt = xreallocarray(t->fmt, t->n + 1, sizeof(*t->fmt));
	t->fmt[t->n++] = fm;
}

struct tpfmts *tpfmts_parse(const unsigned char *data, size_t len)
{
	struct cur c = { data, len, 0, 0 };
	struct tpfmts *t;
	const unsigned char *magic = take(&c, 10);
	uint32_t n;

	if (!magic || memcmp(magic, "\x17\x08" "Dtracing", 10))
		return NULL;
	if (!take_str(&c) || !take(&c, 2))	/* version; endianness, long size */
		return NULL;
	take_u32(&c);				/* page size */
	for (int i = 0; i < 2; i++) {		/* header_page, header_event */
		uint64_t sz;

		take_str(&c);
		sz = take_u64(&c);
		if (c.bad || sz > len)
			return NULL;
		take(&c, (size_t)sz);
	}
	n = take_u32(&c);			/* ftrace's formats */
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		uint64_t sz = take_u64(&c);

		if (sz > len)
			return NULL;
		take(&c, (size_t)sz);
	}
	if (c.bad)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	n = take_u32(&c);			/* systems */
	for (uint32_t i = 0; i < n && !c.bad; i++) {
		const char *sys = take_str(&c);
		uint32_t nev = take_u32(&c);

		for (uint32_t j = 0; j < nev && !c.bad; j++) {
			uint64_t sz = take_u64(&c);
			const unsigned char *f = sz <= len ? take(&c, (size_t)sz) : NULL;

			if (!f || !sys)
				break;
			parse_format(t, sys, (const char *)f, (size_t)sz);
		}
	}
	if (!t->n) {
		tpfmts_free(t);
		return NULL;
	}
	return t;
}

void tpfmts_free(struct tpfmts *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->fmt[i].f);
	free(t->fmt);
	free(t);
}

static const struct format *find(const struct tpfmts *t, uint64_t id)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->fmt[i].id == id)
			return &t->fmt[i];
	return NULL;
}

const char *tpfmts_name(const struct tpfmts *t, uint64_t id)
{
	const struct format *f = find(t, id);

	return f ? f->name : NULL;
}

static void put_text(FILE *out, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n && p[i]; i++)
		putc(p[i] < 0x20 || p[i] == 0x7f || p[i] == ' ' ? '?' : p[i], out);
}

int tpfmts_print(const struct tpfmts *t, uint64_t id, const unsigned char *raw, size_t len,
		 FILE *out)
{
	const struct format *fm = find(t, id);

	if (!fm)
		return -1;
	for (size_t i = 0; i < fm->nf; i++) {
		const struct field *f = &fm->f[i];

		if (f->offset > len || f->size > len - f->offset)
			continue;	/* past the record: not shown */
		fprintf(out, " %s=", f->name);
		if (f->data_loc && f->size == 4) {
			uint32_t loc, off, n;

			memcpy(&loc, raw + f->offset, 4);
			off = loc & 0xffff;
			n = loc >> 16;
			if (off <= len && n <= len - off)
				put_text(out, raw + off, n);
		} else if (f->is_str) {
			put_text(out, raw + f->offset, f->size);
		} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
			uint64_t u = 0;
			int64_t v;

			memcpy(&u, raw + f->offset, f->size);	/* little-endian */
			if (f->is_signed && f->size < 8 && (u >> (8 * f->size - 1) & 1))
				u |= ~0ULL << (8 * f->size);
			v = (int64_t)u;
			if (f->is_signed)
				fprintf(out, "%" PRId64, v);
			else
				fprintf(out, "%" PRIu64, u);
		} else {
			fputs("0x", out);
			for (uint32_t k = 0; k < f->size; k++)
				fprintf(out, "%02x", raw[f->offset + k]);
		}
	}
	return 0;
}
