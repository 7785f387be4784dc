/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Protocol buffers written by hand: pprof's profile.proto and OTLP's
 * profiles are a handful of varints and length-delimited fields, less
 * code than a protobuf dependency; gzip through zlib, whose framing and
 * deflate are not worth writing again. A message is built in a struct
 * pb (zero-initialized), nested ones in buffers of their own.
 */
#ifndef PROF_REPORT_PB_H
#define PROF_REPORT_PB_H

#include <stddef.h>
#include <stdint.h>

struct pb {
	unsigned char *b;
	size_t n, cap;
};

void pb_raw(struct pb *b, const void *d, size_t n);
void pb_varint(struct pb *b, uint64_t v);
/* A varint field; zeros are left out, as proto3 does. */
void pb_u64(struct pb *b, unsigned field, uint64_t v);
void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n);
/* A nested message from its own buffer, which is then emptied. */
void pb_msg(struct pb *b, unsigned field, struct pb *m);
/* A fixed64 field; zero left out. */
void pb_fixed64(struct pb *b, unsigned field, uint64_t v);
/* A packed repeated varint field of v[0 .. n), built in tmp. */
void pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n, struct pb *tmp);
/* raw, gzipped, into *data (malloc'd) and *len; raw is freed. 0, or -ENOMEM or -EIO. */
int pb_gzip(struct pb *raw, unsigned char **data, size_t *len);

#endif
