// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mendfile IN OUT ROOT: a copy of the -g recording IN whose samples'
 * stacks went through prof record's leaf repair (record/mend.c), as they
 * would have while recording, with the files the recording's maps name
 * read under ROOT. Records are handed over as the recorder's drain does:
 * in each round, the maps first, then the samples. For run-record-mend.sh,
 * which checks that a report of OUT is a report of IN: what the recorder
 * mends is what the report's own repair would have found.
 * Prints "mended N dropped N kept N closed N" on stdout.
 *
 * mendfile --sweep IN OUT ROOT: the same with a sweep at every round that
 * closes every file (the recorder's closes those idle a minute), so that
 * each is read again when a sample needs it: what is mended must not
 * change.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "mend.h"
#include "pdata.h"
#include "reader.h"
#include "writer.h"

struct round {
	unsigned char *buf;
	size_t len, cap;
};

static void put(struct round *r, const void *p, size_t n)
{
	if (r->len + n > r->cap) {
		r->cap = (r->len + n) * 2;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			exit(2);
	}
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

/* The round's maps to m, then its records, samples mended, to w. */
static int flush_round(struct mend *m, const struct perf_event_attr *attr, struct writer *w,
		       struct round *r)
{
	struct perf_event_header h;
	struct sample s;
	size_t off;

	mend_pass(m);
	for (off = 0; off + sizeof(h) <= r->len; off += h.size) {
		memcpy(&h, r->buf + off, sizeof(h));
		mend_record(m, r->buf + off, h.size);
	}
	for (off = 0; off + sizeof(h) <= r->len; off += h.size) {
		size_t size;

		memcpy(&h, r->buf + off, sizeof(h));
		size = h.size;
		if (h.type == PERF_RECORD_SAMPLE &&
		    !decode_sample(attr, (const struct perf_event_header *)(r->buf + off), &s))
			size = mend_sample(m, r->buf + off, size, &s);
		if (writer_records(w, r->buf + off, size))
			return -1;
	}
	r->len = 0;
	return writer_flush(w);
}

int main(int argc, char **argv)
{
	struct reader *rd;
	struct reader_record rec;
	struct perf_event_attr attr;
	struct writer *w;
	struct mend *m = NULL;
	struct round r = { NULL, 0, 0 };
	struct mend_stats st;
	int fd, ret, sweep = argc == 5 && !strcmp(argv[1], "--sweep");

	argv += sweep;
	argc -= sweep;
	if (argc != 4) {
		fprintf(stderr, "usage: mendfile [--sweep] IN OUT ROOT\n");
		return 2;
	}
	rd = reader_open(argv[1]);
	if (!rd) {
		fprintf(stderr, "mendfile: cannot read %s\n", argv[1]);
		return 1;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = fd >= 0 ? writer_new(fd, 3, 528384, 1 << 20) : NULL;
	if (!w || writer_header(w)) {
		fprintf(stderr, "mendfile: cannot write %s\n", argv[2]);
		return 1;
	}
	while ((ret = reader_next(rd, &rec)) > 0) {
		const struct perf_event_header *h = rec.hdr;

		if (h->type == PDATA_HEADER_ATTR && !m) {
			memset(&attr, 0, sizeof(attr));
			memcpy(&attr, h + 1, ((const struct perf_event_attr *)(h + 1))->size <
						     sizeof(attr)
						     ? ((const struct perf_event_attr *)(h + 1))->size
						     : sizeof(attr));
			if (!(attr.sample_type & PERF_SAMPLE_STACK_USER) ||
			    (attr.sample_type & PERF_SAMPLE_REGS_USER)) {
				fprintf(stderr, "mendfile: %s is no -g recording with stacks\n",
					argv[1]);
				return 1;
			}
			m = mend_new(&attr, argv[3], NULL);
			if (sweep)
				mend_sweep_every(m, 1, 0);
		}
		if (h->type >= PDATA_HEADER_ATTR && h->type != PDATA_FINISHED_ROUND) {
			if (r.len && flush_round(m, &attr, w, &r))
				return 1;
			if (writer_records(w, h, h->size))
				return 1;
			continue;
		}
		put(&r, h, h->size);
		if (h->type == PDATA_FINISHED_ROUND && m && flush_round(m, &attr, w, &r))
			return 1;
	}
	if (ret < 0 || !m) {
		fprintf(stderr, "mendfile: %s: %s\n", argv[1], m ? reader_error(rd) : "no events");
		return 1;
	}
	if ((r.len && flush_round(m, &attr, w, &r)) || writer_flush(w)) {
		fprintf(stderr, "mendfile: cannot write %s\n", argv[2]);
		return 1;
	}
	mend_stats(m, &st);
	printf("mended %llu dropped %llu kept %llu closed %llu\n", (unsigned long long)st.mended,
	       (unsigned long long)st.dropped, (unsigned long long)st.kept,
	       (unsigned long long)st.closed);
	mend_free(m);
	writer_free(w);
	close(fd);
	reader_free(rd);
	free(r.buf);
	return 0;
}
