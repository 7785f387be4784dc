// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record decoding. The field order is the kernel's, from the comment on
 * PERF_RECORD_SAMPLE in include/uapi/linux/perf_event.h; every field that
 * shifts the ones after it is parsed, so that files from perf with any
 * sample_type decode. Bytes come from files: checked, never asserted.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "decode.h"
#include "pdata.h"

struct cursor {
	const unsigned char *p, *end;
};

static int take(struct cursor *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -EBADMSG;
	if (out)
		memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *out)
{
	return take(c, out, 8);
}

/* A pointer to n u64s at the cursor, which the record's alignment keeps aligned. */
static int take_array(struct cursor *c, uint64_t n, const uint64_t **out)
{
	if (n > (uint64_t)(c->end - c->p) / 8)
		return -EBADMSG;
	*out = (const uint64_t *)c->p;
	c->p += n * 8;
	return 0;
}

static int take_u32_pair(struct cursor *c, uint32_t *a, uint32_t *b)
{
	uint32_t v[2];

	if (take(c, v, 8))
		return -EBADMSG;
	*a = v[0];
	*b = v[1];
	return 0;
}

/*
 * PERF_SAMPLE_READ, in read_format fmt's layout: with GROUP, nr, the
 * times, then nr of {value, id, lost}; without, value, the times, id,
 * lost. Where each value and id lie, into s.
 */
static int take_read(struct cursor *c, uint64_t fmt, struct sample *s)
{
	uint64_t nr = 1, per, times;

	times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (fmt & PERF_FORMAT_GROUP && take_u64(c, &nr))
		return -EBADMSG;
	per = 1 + !!(fmt & PERF_FORMAT_ID);
	per += !!(fmt & PERF_FORMAT_LOST);
	if (fmt & PERF_FORMAT_GROUP) {
		if (take(c, NULL, 8 * times))
			return -EBADMSG;
		if (nr > (uint64_t)(c->end - c->p) / 8 / per)
			return -EBADMSG;
		s->read_at = c->p;
		s->read_step = (unsigned)(8 * per);
		s->read_id_off = fmt & PERF_FORMAT_ID ? 8 : -1;
		c->p += nr * per * 8;
	} else {
		if ((uint64_t)(c->end - c->p) / 8 < per + times)
			return -EBADMSG;
		s->read_at = c->p;
		s->read_step = 0;
		s->read_id_off = fmt & PERF_FORMAT_ID ? (int)(8 * (1 + times)) : -1;
		c->p += (per + times) * 8;
	}
	s->read_nr = nr;
	return 0;
}

static int take_regs(struct cursor *c, uint64_t mask, uint64_t *abi, uint64_t *nr,
		     const uint64_t **regs)
{
	if (take_u64(c, abi))
		return -EBADMSG;
	*nr = 0;
	*regs = NULL;
	if (!*abi)
		return 0;
	*nr = (uint64_t)__builtin_popcountll(mask);
	return take_array(c, *nr, regs);
}

/* The fields that are one u64 each and come first, in the kernel's order. */
#define FAST_FIELDS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/*
 * The common case, prof's and perf's default samples: u64 fields, then a
 * call chain or nothing. A read of each word where it lies, instead of the
 * general walk (which a million samples feel): same checks, same result.
 */
static int decode_fast(uint64_t st, const struct perf_event_header *h, struct sample *s)
{
	const uint64_t *w = (const uint64_t *)(h + 1);
	size_t nw = (h->size - sizeof(*h)) / 8, i = 0;

	memset(s, 0, sizeof(*s));
	s->present = st;
/* the next u64 of the record into dst, which must hold one */
#define NEXT(dst) do { if (i >= nw) return -EBADMSG; (dst) = w[i++]; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER)
		NEXT(s->id);
	if (st & PERF_SAMPLE_IP)
		NEXT(s->ip);
	if (st & PERF_SAMPLE_TID) {
		if (i >= nw)
			return -EBADMSG;
		memcpy(&s->pid, &w[i], 4);	/* u32 pid, then u32 tid */
		memcpy(&s->tid, (const unsigned char *)&w[i++] + 4, 4);
	}
	if (st & PERF_SAMPLE_TIME)
		NEXT(s->time);
	if (st & PERF_SAMPLE_ADDR)
		NEXT(s->addr);
	if (st & PERF_SAMPLE_ID)
		NEXT(s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		NEXT(s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		if (i >= nw)
			return -EBADMSG;
		memcpy(&s->cpu, &w[i++], 4);	/* u32 cpu, u32 reserved */
	}
	if (st & PERF_SAMPLE_PERIOD)
		NEXT(s->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		NEXT(s->nr_chain);
		if (s->nr_chain > nw - i)
			return -EBADMSG;
		s->chain = &w[i];
	}
#undef NEXT
	return 0;
}

int decode_sample(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct sample *s)
{
	struct cursor c = { (const unsigned char *)(h + 1),
			    (const unsigned char *)h + h->size };
	uint64_t st = attr->sample_type;

	if (!(st & ~(FAST_FIELDS | PERF_SAMPLE_CALLCHAIN)))
		return decode_fast(st, h, s);
	memset(s, 0, sizeof(*s));
	s->present = st;
	if (st & PERF_SAMPLE_IDENTIFIER && take_u64(&c, &s->id))
		return -EBADMSG;
	if (st & PERF_SAMPLE_IP && take_u64(&c, &s->ip))
		return -EBADMSG;
	if (st & PERF_SAMPLE_TID && take_u32_pair(&c, &s->pid, &s->tid))
		return -EBADMSG;
	if (st & PERF_SAMPLE_TIME && take_u64(&c, &s->time))
		return -EBADMSG;
	if (st & PERF_SAMPLE_ADDR && take_u64(&c, &s->addr))
		return -EBADMSG;
	if (st & PERF_SAMPLE_ID && take_u64(&c, &s->id))
		return -EBADMSG;
	if (st & PERF_SAMPLE_STREAM_ID && take_u64(&c, &s->stream_id))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		if (take_u32_pair(&c, &s->cpu, &res))
			return -EBADMSG;
	}
	if (st & PERF_SAMPLE_PERIOD && take_u64(&c, &s->period))
		return -EBADMSG;
	if (st & PERF_SAMPLE_READ && take_read(&c, attr->read_format, s))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CALLCHAIN &&
	    (take_u64(&c, &s->nr_chain) || take_array(&c, s->nr_chain, &s->chain)))
		return -EBADMSG;
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then size bytes; the kernel pads the pair to 8. */
		if (take(&c, &s->raw_size, 4))
			return -EBADMSG;
		s->raw = c.p;
		if (take(&c, NULL, s->raw_size))
			return -EBADMSG;
		if ((s->raw_size + 4) % 8 && take(&c, NULL, 8 - (s->raw_size + 4) % 8))
			return -EBADMSG;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr;

		if (take_u64(&c, &nr))
			return -EBADMSG;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX &&
		    take(&c, NULL, 8))
			return -EBADMSG;
		if (nr > (uint64_t)(c.end - c.p) / 24)
			return -EBADMSG;
		s->br_nr = nr;
		s->br = c.p;
		c.p += nr * 24;
	}
	if (st & PERF_SAMPLE_REGS_USER &&
	    take_regs(&c, attr->sample_regs_user, &s->user_abi, &s->nr_user_regs,
		      &s->user_regs))
		return -EBADMSG;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (take_u64(&c, &s->stack_size))
			return -EBADMSG;
		if (s->stack_size) {
			s->stack = c.p;
			if (take(&c, NULL, s->stack_size) || take_u64(&c, &s->stack_dyn_size) ||
			    s->stack_dyn_size > s->stack_size)
				return -EBADMSG;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT) && take_u64(&c, &s->weight))
		return -EBADMSG;
	if (st & PERF_SAMPLE_DATA_SRC && take_u64(&c, &s->data_src))
		return -EBADMSG;
	if (st & PERF_SAMPLE_TRANSACTION && take_u64(&c, &s->transaction))
		return -EBADMSG;
	if (st & PERF_SAMPLE_REGS_INTR &&
	    take_regs(&c, attr->sample_regs_intr, &s->intr_abi, &s->nr_intr_regs, &s->intr_regs))
		return -EBADMSG;
	if (st & PERF_SAMPLE_PHYS_ADDR && take_u64(&c, &s->phys_addr))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CGROUP && take_u64(&c, &s->cgroup))
		return -EBADMSG;
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE && take_u64(&c, &s->data_page_size))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE && take_u64(&c, &s->code_page_size))
		return -EBADMSG;
	/* AUX follows: nothing we read. */
	return 0;
}

size_t decode_id_size(const struct perf_event_attr *attr)
{
	uint64_t st = attr->sample_type;

	if (!attr->sample_id_all)
		return 0;
	return 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

int decode_id(const struct perf_event_attr *attr, const struct perf_event_header *h,
	      struct sample *s)
{
	size_t n = decode_id_size(attr);
	struct cursor c;
	uint64_t st = attr->sample_type;

	memset(s, 0, sizeof(*s));
	if (!n)
		return 0;
	if (h->size < sizeof(*h) + n)
		return -EBADMSG;
	c.p = (const unsigned char *)h + h->size - n;
	c.end = (const unsigned char *)h + h->size;
	s->present = st & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (st & PERF_SAMPLE_TID)
		take_u32_pair(&c, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		take_u64(&c, &s->time);
	if (st & PERF_SAMPLE_ID)
		take_u64(&c, &s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(&c, &s->stream_id);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		take_u32_pair(&c, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		take_u64(&c, &s->id);
	return 0;
}

int decode_mmap(const struct perf_event_header *h, size_t body, struct mmap_event *m)
{
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t fixed = 32;
	uint32_t pt[2];
	uint64_t v[3];

	memset(m, 0, sizeof(*m));
	if (body < 32 || body > h->size)
		return -EBADMSG;
	memcpy(pt, p, 8);
	memcpy(v, p + 8, 24);
	m->pid = pt[0];
	m->tid = pt[1];
	m->start = v[0];
	m->len = v[1];
	m->pgoff = v[2];
	if (h->type == PERF_RECORD_MMAP2) {
		uint32_t pf[2];

		if (body < 56)
			return -EBADMSG;
		fixed = 56;
		/*
		 * Linux 3.16 put prot and flags after the inode generation. The
		 * kernel's prot holds PROT_READ|WRITE|EXEC and nothing else: more
		 * is the start of the name of an older kernel's record ('/', '[').
		 */
		if (body >= 64) {
			memcpy(pf, p + 56, 8);
			if (pf[0] <= 7) {
				m->prot = pf[0];
				m->flags = pf[1];
				fixed = 64;
			}
		}
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->build_id_len = p[32] <= 20 ? p[32] : 20;
			m->build_id = p + 36;
		} else {
			memcpy(&m->maj, p + 32, 4);
			memcpy(&m->min, p + 36, 4);
			memcpy(&m->ino, p + 40, 8);
			memcpy(&m->ino_gen, p + 48, 8);
		}
	}
	m->name = (const char *)p + fixed;
	m->name_len = strnlen(m->name, body - fixed);
	return 0;
}

int decode_kernel(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct kevent *k, struct sample *id)
{
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t trailer = decode_id_size(attr), body;
	uint32_t u[4];
	uint64_t v[3];

	memset(k, 0, sizeof(*k));
	k->type = h->type;
	k->misc = h->misc;
	if (h->size < sizeof(*h) + trailer || decode_id(attr, h, id))
		return -EBADMSG;
	body = h->size - sizeof(*h) - trailer;
	k->known = 1;
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(h, body, &k->mmap);
	case PERF_RECORD_COMM:		/* u32 pid, tid; char comm[] */
		if (body < 8)
			return -EBADMSG;
		memcpy(u, p, 8);
		k->pid = u[0];
		k->tid = u[1];
		k->comm = (const char *)p + 8;
		k->comm_len = strnlen(k->comm, body - 8);
		return 0;
	case PERF_RECORD_FORK:		/* u32 pid, ppid, tid, ptid; u64 time */
	case PERF_RECORD_EXIT:
		if (body < 16)
			return -EBADMSG;
		memcpy(u, p, 16);
		k->pid = u[0];
		k->ppid = u[1];
		k->tid = u[2];
		k->ptid = u[3];
		if (body >= 24)
			memcpy(&k->time, p + 16, 8);
		return 0;
	case PERF_RECORD_LOST:		/* u64 id, lost */
		if (body < 16)
			return -EBADMSG;
		memcpy(v, p, 16);
		k->id = v[0];
		k->lost = v[1];
		return 0;
	case PERF_RECORD_LOST_SAMPLES:	/* u64 lost */
		if (body < 8)
			return -EBADMSG;
		memcpy(&k->lost, p, 8);
		return 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:	/* u32 next_prev_pid, next_prev_tid */
		if (body < 8)
			return -EBADMSG;
		memcpy(u, p, 8);
		k->next_prev_pid = u[0];
		k->next_prev_tid = u[1];
		/* fall through - the direction is in the misc bits of both */
	case PERF_RECORD_SWITCH:
		k->switch_out = !!(h->misc & PERF_RECORD_MISC_SWITCH_OUT);
		k->preempt = !!(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		return 0;
	case PERF_RECORD_READ: {	/* u32 pid, tid; the counts in read_format's layout */
		struct cursor c = { p + 8, p + body };
		uint64_t fmt = attr->read_format;
		const unsigned char *t;
		int n = 0;

		if (body < 8 || take_read(&c, fmt, &k->read))
			return -EBADMSG;
		memcpy(u, p, 8);
		k->pid = u[0];
		k->tid = u[1];
		/* the times: after a group's nr, or after the one value */
		t = fmt & PERF_FORMAT_GROUP ? p + 16 : k->read.read_at + 8;
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			memcpy(&k->enabled, t + 8 * n++, 8);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			memcpy(&k->running, t + 8 * n, 8);
		return 0;
	}
	case PERF_RECORD_NAMESPACES:	/* u32 pid, tid; u64 nr; { u64 dev, ino } [nr] */
		if (body < 16)
			return -EBADMSG;
		memcpy(u, p, 8);
		k->pid = u[0];
		k->tid = u[1];
		memcpy(&k->nr_ns, p + 8, 8);
		if (k->nr_ns > (body - 16) / 16)
			k->nr_ns = (body - 16) / 16;
		k->ns = p + 16;
		return 0;
	case PERF_RECORD_CGROUP:	/* u64 id; char path[] */
		if (body < 8)
			return -EBADMSG;
		memcpy(&k->id, p, 8);
		k->path = (const char *)p + 8;
		k->path_len = strnlen(k->path, body - 8);
		return 0;
	case PERF_RECORD_KSYMBOL:	/* u64 addr; u32 len; u16 ksym_type, flags; char name[] */
		if (body < 16)
			return -EBADMSG;
		memcpy(&k->addr, p, 8);
		memcpy(&k->len, p + 8, 4);
		memcpy(&k->ksym_type, p + 12, 2);
		memcpy(&k->ksym_flags, p + 14, 2);
		k->path = (const char *)p + 16;
		k->path_len = strnlen(k->path, body - 16);
		return 0;
	case PERF_RECORD_BPF_EVENT:	/* u16 type, flags; u32 id; u8 tag[8] */
		if (body < 16)
			return -EBADMSG;
		memcpy(&k->ksym_type, p, 2);
		memcpy(&k->ksym_flags, p + 2, 2);
		memcpy(u, p + 4, 4);
		k->id = u[0];
		memcpy(k->tag, p + 8, 8);
		return 0;
	case PERF_RECORD_THROTTLE:	/* u64 time, id, stream_id */
	case PERF_RECORD_UNTHROTTLE:
		if (body < 24)
			return -EBADMSG;
		memcpy(v, p, 24);
		k->time = v[0];
		k->id = v[1];
		k->stream_id = v[2];
		return 0;
	}
	k->known = 0;
	return 0;
}

/* --- user records ---------------------------------------------------------- */

int decode_attr(const struct perf_event_header *h, struct attr_record *a)
{
	size_t body = h->size >= sizeof(*h) ? h->size - sizeof(*h) : 0;
	uint32_t size;

	memset(a, 0, sizeof(*a));
	if (body < 8)
		return -EBADMSG;
	memcpy(&size, (const unsigned char *)(h + 1) + 4, 4);
	if (size == 0)
		size = 64;	/* PERF_ATTR_SIZE_VER0: old files */
	if (size > body || size < 64 || (body - size) % 8)
		return -EBADMSG;
	memcpy(&a->attr, h + 1, size < sizeof(a->attr) ? size : sizeof(a->attr));
	a->size = size;
	a->ids = (const unsigned char *)(h + 1) + size;
	a->nids = (body - size) / 8;
	return 0;
}

enum feature_kind feature_kind(uint64_t id)
{
	switch (id) {
	case PDATA_FEAT_HOSTNAME:
	case PDATA_FEAT_OSRELEASE:
	case PDATA_FEAT_VERSION:
	case PDATA_FEAT_ARCH:
	case PDATA_FEAT_CPUDESC:
	case PDATA_FEAT_CPUID:
		return FEATURE_TEXT;
	case PDATA_FEAT_CMDLINE:
		return FEATURE_STRINGS;
	case PDATA_FEAT_NRCPUS:
		return FEATURE_NRCPUS;
	case PDATA_FEAT_COMPRESSED:
		return FEATURE_COMPRESSED;
	case PDATA_FEAT_CLOCK_DATA:
		return FEATURE_CLOCK;
	default:
		return FEATURE_OTHER;
	}
}

void decode_feature_payload(uint64_t id, const void *data, size_t len, struct feature *f)
{
	const unsigned char *p = data;
	uint32_t n;

	memset(f, 0, sizeof(*f));
	f->id = id;
	f->data = p;
	f->len = len;
	switch (feature_kind(id)) {
	case FEATURE_TEXT:
		/* u32 len, then len bytes padded with NULs */
		if (len < 4)
			return;
		memcpy(&n, p, 4);
		if (n > len - 4)
			n = (uint32_t)(len - 4);
		f->text = (const char *)p + 4;
		f->text_len = strnlen(f->text, n);
		f->whole = 1;
		return;
	case FEATURE_STRINGS:
		if (len < 4)
			return;
		memcpy(&f->nr_strings, p, 4);
		f->whole = 1;
		return;
	case FEATURE_NRCPUS:
		if (len < sizeof(f->nrcpus))
			return;
		memcpy(f->nrcpus, p, sizeof(f->nrcpus));
		f->whole = 1;
		return;
	case FEATURE_COMPRESSED:
		if (len < sizeof(f->compressed))
			return;
		memcpy(f->compressed, p, sizeof(f->compressed));
		f->whole = 1;
		return;
	case FEATURE_CLOCK:
		/* perf's write_clock_data(): u32 version, u32 clockid, u64 tod_ns, u64 clockid_ns */
		if (len < 24)
			return;
		memcpy(&f->clock_version, p, 4);
		memcpy(&f->clockid, p + 4, 4);
		memcpy(&f->tod_ns, p + 8, 8);
		memcpy(&f->clock_ns, p + 16, 8);
		f->whole = f->clock_version >= 1;
		return;
	case FEATURE_OTHER:
		return;
	}
}

int decode_feature(const struct perf_event_header *h, struct feature *f)
{
	uint64_t id;

	memset(f, 0, sizeof(*f));
	if (h->size < sizeof(*h) + 8)
		return -EBADMSG;
	memcpy(&id, h + 1, 8);
	decode_feature_payload(id, (const unsigned char *)(h + 1) + 8, h->size - sizeof(*h) - 8, f);
	return 0;
}

int feature_string(const struct feature *f, size_t *off, uint32_t *i, const char **s, size_t *n)
{
	uint32_t l;

	if (*off == 0)
		*off = 4;	/* after the count */
	if (*i >= f->nr_strings || *off > f->len || f->len - *off < 4)
		return 0;
	memcpy(&l, f->data + *off, 4);
	*off += 4;
	if (l > f->len - *off)
		return 0;
	*s = (const char *)f->data + *off;
	*n = strnlen(*s, l);
	*off += l;
	++*i;
	return 1;
}
