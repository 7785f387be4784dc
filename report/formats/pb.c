// SPDX-License-Identifier: GPL-2.0-or-later
/* Protocol buffers written by hand, and gzipped. See pb.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pb.h"
#include "xalloc.h"

void pb_raw(struct pb *b, const void *d, size_t n)
{
	if (!n)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->b = xreallocarray(b->b, b->cap, 1);
	}
	memcpy(b->b + b->n, d, n);
	b->n += n;
}

void pb_varint(struct pb *b, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	do {
		t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_raw(b, t, n);
}

/* A varint field; zeros are left out, as proto3 does. */
void pb_u64(struct pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_raw(b, d, n);
}

/* A nested message from its own buffer, which is then emptied. */
void pb_msg(struct pb *b, unsigned field, struct pb *m)
{
	pb_bytes(b, field, m->b, m->n);
	m->n = 0;
}

void pb_fixed64(struct pb *b, unsigned field, uint64_t v)
{
	unsigned char t[8];

	if (!v)
		return;
	for (int i = 0; i < 8; i++)
		t[i] = (unsigned char)(v >> (8 * i));
	pb_varint(b, (uint64_t)field << 3 | 1);
	pb_raw(b, t, 8);
}

/* A packed repeated varint field of v[0 .. n). */
void pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n, struct pb *tmp)
{
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		pb_varint(tmp, v[i]);
	pb_msg(b, field, tmp);
}

/* raw, gzipped, into *data (malloc'd) and *len; raw is freed. 0, or -ENOMEM or -EIO. */
int pb_gzip(struct pb *raw, unsigned char **data, size_t *len)
{
	struct pb gz = { 0 };
	z_stream z;
	unsigned char buf[1 << 16];
	int ret = 0, zr;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip wrapper, which pprof expects */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(raw->b);
		return -ENOMEM;
	}
	z.next_in = raw->b;
	do {
		/* avail_in is a uInt: feed a profile over 4 GiB in pieces */
		if (!z.avail_in) {
			size_t left = raw->n - (size_t)(z.next_in - raw->b);

			z.avail_in = left > UINT_MAX ? UINT_MAX : (uInt)left;
		}
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, (size_t)(z.next_in - raw->b) + z.avail_in < raw->n ? Z_NO_FLUSH
										      : Z_FINISH);
		if (zr == Z_STREAM_ERROR) {
			ret = -EIO;
			break;
		}
		pb_raw(&gz, buf, sizeof(buf) - z.avail_out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	free(raw->b);
	if (ret) {
		free(gz.b);
		return ret;
	}
	*data = gz.b ? gz.b : xcalloc(1, 1);
	*len = gz.n;
	return 0;
}
