// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the file reader: every record of the input, through
 * the event table and the decoders, read three times: from memory
 * (reader_mem), from a file (reader_fdopen on a memfd, as `prof script -i
 * FILE` reads) and from a pipe that yields at most a page per read (as
 * `prof record -o - | prof script -i -` does), so that the reader's own
 * buffering is fuzzed too.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode.h"
#include "evtab.h"
#include "pdata.h"
#include "reader.h"
#include "tpfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Bound the work per input so that no input can be reported as a hang
 * merely for being expensive (a compressed record may hold up to 256 MiB
 * of records): a record costs one unit per 8 bytes it holds, and 20
 * million units stop the walk. A reader that loops is caught apart from
 * that: see progress().
 */
#define MAX_WORK	(20u * 1000 * 1000)

/* Reads into here cannot be optimized away: every byte touched is checked. */
static volatile uint64_t sink;

static uint64_t touch_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += b[i];
	return sum;
}

static uint64_t touch_u64s(const uint64_t *p, uint64_t n)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++)
		sum += p[i];
	return sum;
}

static uint64_t touch_sample(const struct sample *s)
{
	uint64_t sum = s->present + s->id + s->ip + s->time + s->addr + s->stream_id +
		       s->period + s->pid + s->tid + s->cpu;

	if (s->chain)
		sum += touch_u64s(s->chain, s->nr_chain);
	if (s->user_regs)
		sum += touch_u64s(s->user_regs, s->nr_user_regs);
	if (s->stack)
		sum += touch_bytes(s->stack, s->stack_size) + s->stack_dyn_size;
	if (s->raw)
		sum += touch_bytes(s->raw, s->raw_size);
	return sum;
}

/*
 * The reader must move on: records from the file come at growing
 * offsets; records out of one compressed record share its offset, and
 * can be no more than its bound allows (256 MiB); records the reader
 * makes before the data (file mode's attrs and features, offset 0) are
 * no more than the file holds. A reader that hands out the same bytes for
 * ever (a record size that wrapped to 0 once did) trips here, whatever
 * the work cap.
 */
struct progress {
	uint64_t last, same_bytes, made;
	size_t size;
};

static void progress(struct progress *p, const struct reader_record *rec)
{
	if (rec->offset == 0) {
		if (++p->made > p->size / 8 + 512)
			__builtin_trap();	/* more made-up records than the file could describe */
		return;
	}
	if (rec->compressed && rec->offset == p->last) {
		p->same_bytes += rec->hdr->size;
		if (p->same_bytes > (256u << 20) + 65536)
			__builtin_trap();	/* one compressed record giving more than its bound */
		return;
	}
	if (rec->offset <= p->last)
		__builtin_trap();	/* the reader went back, or stood still */
	p->last = rec->offset;
	p->same_bytes = rec->compressed ? rec->hdr->size : 0;
}

static void walk(struct reader *r, size_t size)
{
	struct evtab t;
	struct reader_record rec;
	struct progress pr = { 0, 0, 0, size };
	uint64_t work = 0, sum = 0;
	int ret = 0;

	evtab_init(&t);
	while (work < MAX_WORK) {
		const struct perf_event_header *h;

		ret = reader_next(r, &rec);
		if (ret <= 0)
			break;
		progress(&pr, &rec);
		h = rec.hdr;
		/* Every byte the reader hands out must be readable. */
		sum += touch_bytes(h, h->size) + rec.offset + (uint64_t)rec.compressed;
		work += 1 + h->size / 8;

		if (h->type == PDATA_HEADER_ATTR) {
			if (evtab_add_record(&t, h) == 0) {
				const struct evdesc *e = t.ev[t.nr - 1];

				sum += strlen(e->name) + e->index;
			}
		} else if (h->type < 64) {
			const struct evdesc *e = evtab_find(&t, h);
			struct sample s;

			if (!e)
				continue;
			sum += e->attr.sample_type + strlen(e->name);
			if (h->type == PERF_RECORD_SAMPLE)
				ret = decode_sample(&e->attr, h, &s);
			else
				ret = decode_id(&e->attr, h, &s);
			if (ret == 0)
				sum += touch_sample(&s);
			else if (ret != -EBADMSG)
				__builtin_trap();	/* the decoders promise 0 or -EBADMSG */
			sum += decode_id_size(&e->attr);
		}
	}
	if (ret == 0) {
		sum += (uint64_t)reader_truncated(r);
	} else if (ret < 0) {
		/* The message is made whatever the error; it must be a string. */
		sum += strlen(reader_error(r)) + reader_error_offset(r);
	}
	sum += reader_offset(r) + (uint64_t)reader_is_pipe(r);
	{
		/* the tracepoint formats of its tracing data, and the names they give */
		size_t tlen;
		const unsigned char *td = reader_tracing_data(r, &tlen);
		struct tpfmts *f = td ? tpfmts_parse(td, tlen) : NULL;

		if (f) {
			evtab_name_tracepoints(&t, f);
			sum += tpfmts_name(f, 0) != NULL;
		}
		tpfmts_free(f);
	}
	evtab_release(&t);
	sink += sum;
}

static void from_memory(const uint8_t *data, size_t size)
{
	struct reader *r = reader_mem(data, size);

	if (!r)
		return;
	walk(r, size);
	reader_free(r);
}

static void from_fd(const uint8_t *data, size_t size)
{
	struct reader *r;
	size_t done = 0;
	int fd = memfd_create("fuzz-reader", MFD_CLOEXEC);

	if (fd < 0)
		return;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return;
		}
		done += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return;
	}
	r = reader_fdopen(fd);	/* owns fd, even when it fails */
	if (!r)
		return;
	walk(r, size);
	reader_free(r);
}

struct feed {
	const uint8_t *data;
	size_t size;
	int fd;
};

/* The writing end of the pipe: everything, then EOF, or EPIPE when the reader gave up. */
static void *feed_pipe(void *arg)
{
	struct feed *f = arg;
	size_t done = 0;

	while (done < f->size) {
		ssize_t n = write(f->fd, f->data + done, f->size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(f->fd);
	return NULL;
}

static void from_pipe(const uint8_t *data, size_t size)
{
	struct feed f = { data, size, -1 };
	struct reader *r;
	pthread_t writer;
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return;
	/* One page of pipe: every read(2) of the reader returns at most that. */
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	f.fd = p[1];
	if (pthread_create(&writer, NULL, feed_pipe, &f)) {
		close(p[0]);
		close(p[1]);
		return;
	}
	r = reader_fdopen(p[0]);	/* owns p[0], even when it fails */
	if (r) {
		walk(r, size);
		reader_free(r);
	}
	pthread_join(writer, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;

	if (!once) {
		/* The pipe's writer sees EPIPE, not a signal, when the reader stops early. */
		signal(SIGPIPE, SIG_IGN);
		once = 1;
	}
	from_memory(data, size);
	from_fd(data, size);
	from_pipe(data, size);
	return 0;
}
