// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof script`: prints each record decoded, in file order, as
 * "TYPE key=value ..." with free-text fields last (doc/prof-script.1).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "datasrc.h"
#include "decode.h"
#include "regs.h"
#include "evtab.h"
#include "jitdump.h"
#include "pdata.h"
#include "profile.h"
#include "tpfmt.h"
#include "reader.h"
#include "script.h"
#include "session.h"
#include "symbols.h"
#include "utf8.h"
#include "viewopts.h"
#include "warn.h"


struct script_args {
	const char *input;
	int symbolize;		/* -S */
	struct view_args va;	/* the names' options */
};

static const struct opt script_options[] = {
	OPT_STRING('i', "input", "FILE", struct script_args, input,
		   "profile to read (default prof.data, - for stdin)"),
	OPT_SET('S', "symbols", struct script_args, symbolize, 1,
		"each sample as perf script prints it, with its\n"
		"symbolized call chain, in time order (for\n"
		"stackcollapse-perf.pl, speedscope); without it,\n"
		"every record raw, one a line"),
	OPT_TABLE(view_name_options, struct script_args, va),
	OPT_HELP(),
	/* perf script's */
	OPT_PERF('F', "fields", "prof script's lines have fixed fields; -S prints samples as "
		 "perf script's default does"),
	OPT_PERF('D', "dump-raw-trace", "prof script without -S prints every record raw"),
	OPT_END(),
};

static void put_time(FILE *out, const struct sample *s)
{
	if (s->present & PERF_SAMPLE_TIME)
		fprintf(out, " time=%" PRIu64 ".%09" PRIu64, s->time / 1000000000,
			s->time % 1000000000);
	else
		fputs(" time=-", out);
	if (s->present & PERF_SAMPLE_CPU)
		fprintf(out, " cpu=%u", s->cpu);
}

/* A string field of at most max bytes, which need not hold a NUL. */
/* n bytes of p as text: control characters (escape sequences for a terminal) as '?'. */
static void put_safe(FILE *out, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		putc((unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i], out);
}

/* A string field of a record, " key=value", up to max bytes or a NUL. */
static void put_text(FILE *out, const char *key, const char *p, size_t max)
{
	fprintf(out, " %s=", key);
	put_safe(out, p, strnlen(p, max));
}

static void print_feature(FILE *out, const struct perf_event_header *h)
{
	struct feature f;
	const char *name, *str;
	size_t off = 0, n;
	uint32_t i = 0;

	if (decode_feature(h, &f)) {
		fprintf(out, "FEATURE size=%u\n", h->size);
		return;
	}
	name = pdata_feature_name(f.id);
	if (name)
		fprintf(out, "FEATURE name=%s", name);
	else
		fprintf(out, "FEATURE name=feat%" PRIu64, f.id);
	switch (feature_kind(f.id)) {
	case FEATURE_TEXT:
		if (f.whole)
			put_text(out, "value", f.text, f.text_len);
		break;
	case FEATURE_NRCPUS:
		if (f.whole)
			fprintf(out, " value=%u available, %u online", f.nrcpus[0], f.nrcpus[1]);
		break;
	case FEATURE_STRINGS:
		if (!f.whole)
			break;
		fputs(" value=", out);
		while (feature_string(&f, &off, &i, &str, &n))
			fprintf(out, "%s%.*s", i > 1 ? " " : "", (int)n, str);
		break;
	case FEATURE_COMPRESSED:
		if (f.whole)
			fprintf(out, " value=%s level %u mmap_len %u",
				f.compressed[1] == 1 ? "zstd" : "unknown", f.compressed[2],
				f.compressed[4]);
		break;
	case FEATURE_CLOCK:
		if (f.whole)
			fprintf(out, " value=clockid %u at %" PRIu64 " ns, wall clock %" PRIu64 " ns",
				f.clockid, f.clock_ns, f.tod_ns);
		break;
	case FEATURE_OTHER:
		fprintf(out, " size=%zu", f.len);
		break;
	}
	fputc('\n', out);
}

static void print_attr(FILE *out, const struct evdesc *e, const struct perf_event_header *h)
{
	struct attr_record ar;

	fprintf(out, "ATTR event=%s type=%u config=%llu sample_type=0x%llx", e->name,
		e->attr.type, (unsigned long long)e->attr.config,
		(unsigned long long)e->attr.sample_type);
	if (e->attr.freq)
		fprintf(out, " freq=%llu", (unsigned long long)e->attr.sample_freq);
	else
		fprintf(out, " period=%llu", (unsigned long long)e->attr.sample_period);
	fputs(" ids=", out);
	decode_attr(h, &ar);	/* checked when e was added */
	for (size_t i = 0; i < ar.nids; i++) {
		uint64_t id;

		memcpy(&id, ar.ids + 8 * i, 8);
		fprintf(out, "%s%" PRIu64, i ? "," : "", id);
	}
	if (!ar.nids)
		fputc('-', out);
	fputc('\n', out);
}

/* The machine the file was recorded on (its arch feature), for its registers' names; "" this one. */
static char file_arch[32];

/* -I's registers, NAME:0xVALUE as perf script prints them, a comma between. */
static void print_regs(FILE *out, const char *key, const uint64_t *regs, uint64_t nr, uint64_t mask)
{
	uint64_t k = 0;

	fprintf(out, " %s=", key);
	for (int r = 0; r < 64 && k < nr; r++) {
		const char *name;

		if (!(mask >> r & 1))
			continue;
		name = regs_name(file_arch[0] ? file_arch : NULL, r);
		if (name)
			fprintf(out, "%s%s:0x%" PRIx64, k ? "," : "", name, regs[k]);
		else
			fprintf(out, "%sr%d:0x%" PRIx64, k ? "," : "", r, regs[k]);
		k++;
	}
	if (!k)
		fputc('-', out);
}

/* The tracepoint formats of the file being shown (its tracing data), NULL without. */
static struct tpfmts *tp_formats;

static void print_sample(FILE *out, const struct evdesc *e, const struct sample *s, unsigned misc)
{
	fputs("SAMPLE", out);
	put_time(out, s);
	fprintf(out, " pid=%u tid=%u event=%s", s->pid, s->tid, e->name);
	if (s->present & PERF_SAMPLE_PERIOD)
		fprintf(out, " period=%" PRIu64, s->period);
	fprintf(out, " ip=0x%" PRIx64, s->ip);
	if (s->present & PERF_SAMPLE_ADDR)
		fprintf(out, " addr=0x%" PRIx64, s->addr);
	if (s->present & PERF_SAMPLE_CALLCHAIN) {
		fputs(" chain=", out);
		for (uint64_t i = 0; i < s->nr_chain; i++)
			fprintf(out, "%s0x%" PRIx64, i ? "," : "", s->chain[i]);
		if (!s->nr_chain)
			fputc('-', out);
	}
	/* -g: callers prof record put back in the chain; a stack copy the report reads */
	if (misc & PDATA_MISC_SAMPLE_MENDED)
		fputs(" mended=1", out);
	if ((s->present & PERF_SAMPLE_STACK_USER) && s->stack)
		fprintf(out, " stack=%" PRIu64, s->stack_dyn_size);
	/* a {...}:S group's counts, read at the sample: id:value each */
	if ((s->present & PERF_SAMPLE_READ) && s->read_nr) {
		fputs(" read=", out);
		for (uint64_t i = 0; i < s->read_nr; i++) {
			uint64_t v, id;

			sample_read_value(s, i, &v, &id);
			if (s->read_id_off >= 0)
				fprintf(out, "%s%" PRIu64 ":%" PRIu64, i ? "," : "", id, v);
			else
				fprintf(out, "%s%" PRIu64, i ? "," : "", v);
		}
	}
	/* -I: the registers where the sample was taken */
	if ((s->present & PERF_SAMPLE_REGS_INTR) && s->intr_abi)
		print_regs(out, "iregs", s->intr_regs, s->nr_intr_regs, e->attr.sample_regs_intr);
	/* --all-cgroups: the sample's cgroup's id (a CGROUP record names it) */
	/* -b, -j: the branches, newest first, in perf script's brstack words */
	for (uint64_t i = 0; i < s->br_nr; i++) {
		uint64_t b[3];

		memcpy(b, s->br + 24 * i, 24);
		fprintf(out, "%s0x%" PRIx64 "/0x%" PRIx64 "/%c/%c/%c/%u", i ? "," : " brstack=", b[0],
			b[1], b[2] & 1 ? 'M' : b[2] & 2 ? 'P' : '-', b[2] & 4 ? 'X' : '-',
			b[2] & 8 ? 'A' : '-', (unsigned)(b[2] >> 4 & 0xffff));
	}
	if (s->present & PERF_SAMPLE_CGROUP)
		fprintf(out, " cgroup=%" PRIu64, s->cgroup);
	/* -W, --data-src, --phys-data, --data-page-size, --code-page-size */
	if (s->present & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		fprintf(out, " weight=%" PRIu64, s->present & PERF_SAMPLE_WEIGHT_STRUCT
			? s->weight & 0xffffffff : s->weight);
	if (s->present & PERF_SAMPLE_WEIGHT_STRUCT)	/* its var2_w: the instruction's latency */
		fprintf(out, " ins_lat=%" PRIu64, s->weight >> 32 & 0xffff);
	if (s->present & PERF_SAMPLE_DATA_SRC) {
		char ds[256];

		fprintf(out, " data_src=0x%" PRIx64 "(%s)", s->data_src,
			datasrc_text(s->data_src, ds, sizeof(ds)));
	}
	if (s->present & PERF_SAMPLE_TRANSACTION)
		fprintf(out, " transaction=0x%" PRIx64, s->transaction);
	if (s->present & PERF_SAMPLE_PHYS_ADDR)
		fprintf(out, " phys_addr=0x%" PRIx64, s->phys_addr);
	if (s->present & PERF_SAMPLE_DATA_PAGE_SIZE)
		fprintf(out, " data_page_size=%" PRIu64, s->data_page_size);
	if (s->present & PERF_SAMPLE_CODE_PAGE_SIZE)
		fprintf(out, " code_page_size=%" PRIu64, s->code_page_size);
	/* a tracepoint's raw fields, by name, from its format */
	if (e->attr.type == PERF_TYPE_TRACEPOINT && s->raw && tp_formats)
		tpfmts_print(tp_formats, e->attr.config, s->raw, s->raw_size, out);
	/* a context-switches sample prof record folded its SWITCH out record into */
	if (misc & PDATA_MISC_SAMPLE_SWITCH_OUT)
		fputs(misc & PDATA_MISC_SAMPLE_PREEMPT ? " out=preempt" : " out=1", out);
	fputc('\n', out);
}

/* Print a kernel record other than SAMPLE, decoded (k) with its sample_id trailer (id). */
static void print_kernel(FILE *out, const struct perf_event_header *h, const struct kevent *k,
			 const struct sample *id)
{
	const char *name = pdata_record_name(h->type);
	const struct mmap_event *m = &k->mmap;

	if (name)
		fputs(name, out);
	else
		fprintf(out, "TYPE%u", h->type);
	switch (k->known ? h->type : 0) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		put_time(out, id);
		/* pid -1 is the kernel's map */
		fprintf(out, " pid=%d tid=%u addr=0x%" PRIx64 " len=0x%" PRIx64 " pgoff=0x%" PRIx64,
			(int32_t)m->pid, m->tid, m->start, m->len, m->pgoff);
		if (h->type == PERF_RECORD_MMAP2) {
			fprintf(out, " prot=%c%c%c", m->prot & 1 ? 'r' : '-', m->prot & 2 ? 'w' : '-',
				m->prot & 4 ? 'x' : '-');
			if (m->build_id) {
				fputs(" buildid=", out);
				for (size_t i = 0; i < m->build_id_len; i++)
					fprintf(out, "%02x", m->build_id[i]);
			}
		}
		put_text(out, "file", m->name, m->name_len);
		break;
	case PERF_RECORD_COMM:
		put_time(out, id);
		fprintf(out, " pid=%u tid=%u", k->pid, k->tid);
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC)
			fputs(" exec=1", out);
		put_text(out, "comm", k->comm, k->comm_len);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		put_time(out, id);
		fprintf(out, " pid=%u ppid=%u tid=%u ptid=%u", k->pid, k->ppid, k->tid, k->ptid);
		break;
	case PERF_RECORD_LOST:
		put_time(out, id);
		fprintf(out, " id=%" PRIu64 " lost=%" PRIu64, k->id, k->lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		put_time(out, id);
		fprintf(out, " lost=%" PRIu64, k->lost);
		break;
	case PERF_RECORD_KSYMBOL:
		put_time(out, id);
		fprintf(out, " addr=0x%" PRIx64 " len=%u type=%u%s", k->addr, k->len, k->ksym_type,
			k->ksym_flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER ? " unregister" : "");
		put_text(out, "name", k->path, k->path_len);
		break;
	case PERF_RECORD_BPF_EVENT:
		put_time(out, id);
		fprintf(out, " type=%u flags=%u id=%" PRIu64 " tag=", k->ksym_type, k->ksym_flags, k->id);
		for (int i = 0; i < 8; i++)
			fprintf(out, "%02x", k->tag[i]);
		break;
	case PERF_RECORD_READ:	/* record -s: a thread's counts at its exit */
		put_time(out, id);
		fprintf(out, " pid=%u tid=%u", k->pid, k->tid);
		for (uint64_t i = 0; i < k->read.read_nr; i++) {
			uint64_t v, rid;

			sample_read_value(&k->read, i, &v, &rid);
			fprintf(out, " %s%" PRIu64 ":%" PRIu64, i ? "" : "read=", rid, v);
			if (i + 1 < k->read.read_nr)
				fputc(',', out);
		}
		fprintf(out, " enabled=%" PRIu64 " running=%" PRIu64, k->enabled, k->running);
		break;
	case PERF_RECORD_NAMESPACES:
		put_time(out, id);
		fprintf(out, " pid=%u tid=%u nr=%" PRIu64, k->pid, k->tid, k->nr_ns);
		for (uint64_t i = 0; i < k->nr_ns; i++) {
			uint64_t di[2];

			memcpy(di, k->ns + 16 * i, 16);
			if (i < PDATA_NS_NR)
				fprintf(out, " %s=", pdata_ns_names[i]);
			else
				fprintf(out, " ns%" PRIu64 "=", i);
			fprintf(out, "%" PRIu64 "/0x%" PRIx64, di[0], di[1]);
		}
		break;
	case PERF_RECORD_CGROUP:
		put_time(out, id);
		fprintf(out, " id=%" PRIu64, k->id);
		put_text(out, "path", k->path, k->path_len);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		put_time(out, id);
		if (id->present & PERF_SAMPLE_TID)
			fprintf(out, " pid=%u tid=%u", id->pid, id->tid);
		fprintf(out, " %s", k->switch_out ? k->preempt ? "out=preempt" : "out=1" : "in=1");
		if (h->type == PERF_RECORD_SWITCH_CPU_WIDE)
			fprintf(out, " next_prev_pid=%u next_prev_tid=%u", k->next_prev_pid,
				k->next_prev_tid);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		fprintf(out, " time=%" PRIu64 ".%09" PRIu64, k->time / 1000000000,
			k->time % 1000000000);
		if (id->present & PERF_SAMPLE_CPU)
			fprintf(out, " cpu=%u", id->cpu);
		fprintf(out, " id=%" PRIu64, k->id);
		break;
	default:
		put_time(out, id);
		fprintf(out, " size=%u", h->size);
		break;
	}
	fputc('\n', out);
}

static int print_record(FILE *out, struct evtab *t, const struct perf_event_header *h)
{
	struct prof_ext x;
	const struct evdesc *e;
	struct sample s;
	struct kevent k;

	if (h->type == PDATA_HEADER_ATTR) {
		if (evtab_add_record(t, h))
			return -EBADMSG;
		print_attr(out, t->ev[t->nr - 1], h);
		return 0;
	}
	if (h->type == PDATA_HEADER_FEATURE) {
		print_feature(out, h);
		return 0;
	}
	if (prof_ext_of(h, &x)) {
		/* JIT code prof carries (src/jitdump.h) */
		if (x.kind == PROF_EXT_TRAILER)
			fprintf(out, "PROF_JIT_TRAILER records=%" PRIu64 " first=%" PRIu64 "\n",
				x.total, x.offset);
		else
			fprintf(out, "PROF_JIT kind=%s pid=%u start=%" PRIu64 ".%09" PRIu64
				" offset=%" PRIu64 " len=%u total=%" PRIu64 "\n",
				x.kind == PROF_EXT_PERF_MAP ? "perf-map"
				: x.kind == PROF_EXT_JITDUMP ? "jitdump" : "unknown",
				x.pid, x.start / 1000000000, x.start % 1000000000, x.offset,
				x.len, x.total);
		return 0;
	}
	if (h->type >= 64) {
		const char *name = pdata_record_name(h->type);

		if (name)
			fprintf(out, "%s", name);
		else
			fprintf(out, "TYPE%u", h->type);
		if (h->type != PDATA_FINISHED_ROUND && h->type != PDATA_FINISHED_INIT)
			fprintf(out, " size=%u", h->size);
		fputc('\n', out);
		return 0;
	}
	e = evtab_find(t, h);
	if (!e)
		return -ENOENT;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (decode_sample(&e->attr, h, &s))
			return -EBADMSG;
		print_sample(out, e, &s, h->misc);
		return 0;
	}
	if (decode_kernel(&e->attr, h, &k, &s))
		return -EBADMSG;
	print_kernel(out, h, &k, &s);
	return 0;
}

/* --- --symbols: perf script's layout ---------------------------------------- */

struct symscript {
	FILE *out;
	struct profile *p;
	int name_width;		/* the longest event name's, once known */
};

/*
 * As perf script 6.1 prints a sample with a call chain: "comm tid [cpu]
 * secs.usecs: period event:" (the event's name right-aligned to the
 * longest of the file's), then a line a frame, "\t%16x sym+0xoff (dso)",
 * then an empty line; what stackcollapse-perf.pl and speedscope parse.
 * A frame unwound by its frame pointer ends in " [fp]", which they skip.
 */
static void print_symbolized(void *ctx, const struct rsample *s)
{
	struct symscript *x = ctx;
	char mods[16], name[96];

	if (!x->name_width) {
		const struct evtab *t = session_evtab(x->p->session);

		for (size_t i = 0; i < t->nr; i++) {
			if (!t->ev[i])
				continue;
			evtab_modifiers(&t->ev[i]->attr, mods, sizeof(mods));
			if ((int)(strlen(t->ev[i]->name) + strlen(mods)) > x->name_width)
				x->name_width = (int)(strlen(t->ev[i]->name) + strlen(mods));
		}
	}
	/* the name as perf prints it, with its modifiers: cycles:u */
	evtab_modifiers(&s->ev->attr, mods, sizeof(mods));
	snprintf(name, sizeof(name), "%s%s", s->ev->name, mods);
	fprintf(x->out, "%s %5u ", s->comm, s->tid);
	if (s->ev->attr.sample_type & PERF_SAMPLE_CPU)
		fprintf(x->out, "[%03u] ", s->cpu);
	fprintf(x->out, "%5" PRIu64 ".%06" PRIu64 ": %10" PRIu64 " %*s: \n",
		s->time / 1000000000, s->time % 1000000000 / 1000, s->period, x->name_width, name);
	for (int i = 0; i < s->nframes; i++) {
		const struct rframe *f = &s->frames[i];
		const char *dso = !f->dso ? "[unknown]" : f->kernel ? dso_short_name(f->dso)
								    : dso_path(f->dso);

		fprintf(x->out, "\t%16" PRIx64 " ", f->addr);
		if (f->name && f->inlined)
			fprintf(x->out, "%s (inlined)", f->name);
		else if (f->name)
			fprintf(x->out, "%s+0x%" PRIx64, f->name, f->sym_offset);
		else
			fputs("[unknown]", x->out);
		/* no CFI covered the frame below: found by the frame pointer */
		fputs(" (", x->out);
		put_safe(x->out, dso, strlen(dso));	/* a recorded path */
		fprintf(x->out, ")%s\n", f->by_fp ? " [fp]" : "");
	}
	putc('\n', x->out);
}

/* Every event's samples to the one printer, in time order. */
static void *sym_begin(void *ctx, const struct evdesc *ev)
{
	(void)ev;
	return ctx;
}

static void sym_free(void *state)
{
	(void)state;
}

static const struct profile_collector sym_printer = {
	.begin = sym_begin,
	.add = print_symbolized,
	.free = sym_free,
};

/* out, which writes into stdout, flushed through: 0, or -1 when a write failed. */
static int flush_out(FILE *out)
{
	int ret = fflush(out) || ferror(out);

	if (fflush(stdout) || ferror(stdout))
		ret = 1;
	return ret ? -1 : 0;
}

/*
 * --symbols: the file through the model, in time order, every sample to
 * the printer. r goes to the model, freed with it.
 */
static int script_symbols(const char *input, struct reader *r, const struct symbols_opts *so,
			  FILE *out)
{
	struct symscript x = { .out = out };
	struct profile_opts o = {
		.input = input, .so = *so, .chains = 1, .ordered = 1,
		.collector = &sym_printer, .collector_ctx = &x,
	};
	char err[1024];
	int status = 1;

	o.f.t_start = o.f.t_end = -1;
	x.p = profile_open(&o, r, err, sizeof(err));
	if (!x.p) {
		fprintf(stderr, "prof: %s\n", err);
		return 1;
	}
	/* x.p is set before the first sample reaches the printer */
	if (profile_read(x.p, err, sizeof(err)))
		goto failed;
	flush_out(out);
	input_warnings(input, r, x.p->session, 0, 0, NULL, "showing");
	symbols_warnings_print(x.p->sym);
	status = 0;
	goto out;
failed:
	flush_out(out);
	fprintf(stderr, "prof: %s\n", err);
out:
	if (flush_out(out)) {
		fprintf(stderr, "prof: cannot write the output: %s\n", strerror(errno));
		status = 1;
	}
	profile_free(x.p);
	return status;
}

int cmd_script(int argc, char **argv)
{
	struct script_args sa = { .input = "prof.data" };
	const char *input;
	struct symbols_opts so;
	int symbolize;
	struct reader *r;
	struct reader_record rec;
	struct evtab t;
	int first, ret, status = 0;
	FILE *out;
	uint64_t nskip = 0, skip_first = 0;
	char skip_why[96] = "", err[512];
	static char obuf[1 << 16];

	view_args_init(&sa.va, "script");
	ret = opt_parse(script_options, &sa, OPT_NO_WORDS, argc, argv, &first, err, sizeof(err));
	so = sa.va.so;	/* its strings point into argv */
	view_args_release(&sa.va);
	if (ret == 1) {
		fputs("usage: prof script [-i FILE] [-S [--no-inline] [--no-demangle] [--symfs DIR]]\n"
		      "\n", stdout);
		opt_usage(stdout, script_options);
		return 0;
	}
	if (ret)
		return opt_say("script", ret, err);
	input = sa.input;
	symbolize = sa.symbolize;
	r = cli_open_input(input);
	if (!r)
		return 1;
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	/* every line valid UTF-8, with no control byte a file put in a name */
	out = utf8_filter(stdout);
	if (!out) {
		fprintf(stderr, "prof: cannot write the output: %s\n", strerror(errno));
		reader_free(r);
		return 1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	if (symbolize) {
		status = script_symbols(input, r, &so, out);	/* r is the model's now */
		if (fclose(out))
			status = 1;
		return status;
	}
	evtab_init(&t);
	while ((ret = reader_next(r, &rec)) > 0) {
		int pr;
		const char *name = pdata_record_name(rec.hdr->type);

		if (rec.hdr->type == PDATA_HEADER_TRACING_DATA) {
			/* the formats of its tracepoints: their names, their fields */
			size_t tlen;
			const unsigned char *td = reader_tracing_data(r, &tlen);

			tpfmts_free(tp_formats);
			tp_formats = td ? tpfmts_parse(td, tlen) : NULL;
			if (tp_formats)
				evtab_name_tracepoints(&t, tp_formats);
		}
		if (rec.hdr->type == PDATA_HEADER_FEATURE) {
			struct feature f;

			/* the names of events whose attrs say none (a PMU's, a probe's) */
			if (!decode_feature(rec.hdr, &f) && f.id == PDATA_FEAT_EVENT_DESC)
				evtab_name_desc(&t, f.data, f.len);
			/* the machine's, whose registers' names -I's samples show */
			if (!decode_feature(rec.hdr, &f) && f.id == PDATA_FEAT_ARCH && f.whole)
				snprintf(file_arch, sizeof(file_arch), "%.*s",
					 (int)(f.text_len < sizeof(file_arch) ? f.text_len
									      : sizeof(file_arch) - 1),
					 f.text);
		}
		pr = print_record(out, &t, rec.hdr);
		/* A record that cannot be used is skipped and counted, as in a report. */
		if (pr && !nskip++) {
			skip_first = rec.offset;
			snprintf(skip_why, sizeof(skip_why), pr == -ENOENT ?
				 "%s record of an unknown event" : "malformed %s record",
				 name ? name : "a");
		}
	}
	if (flush_out(out)) {
		fprintf(stderr, "prof: cannot write the output: %s\n", strerror(errno));
		status = 1;
	}
	if (ret == -EBADMSG) {
		fprintf(stderr, "prof: '%s' is corrupt at offset %" PRIu64 ": %s\n", input,
			reader_error_offset(r), reader_error(r));
		status = 1;
	} else if (ret < 0) {
		fprintf(stderr, "prof: cannot read '%s': %s\n", input, strerror(-ret));
		status = 1;
	} else {
		input_warnings(input, r, NULL, nskip, skip_first, skip_why, "showing");
	}
	if (fclose(out))
		status = 1;
	evtab_release(&t);
	tpfmts_free(tp_formats);
	tp_formats = NULL;
	reader_free(r);
	return status;
}
