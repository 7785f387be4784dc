// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * genprof: write a profile from a spec, through prof's own writer, so that
 * reporter tests need no kernel: the same spec gives the same bytes on any
 * machine. Addresses are named by symbol (leaf_a+0x15) and found in the
 * ELF files the spec maps, so a spec reads like the stacks it describes.
 *
 *   genprof [-z] SPEC OUT     (-z: zstd-compressed, as prof record writes)
 *
 * The spec, one command a line ('#' starts a comment):
 *   event NAME [mem|branch|tx]  cpu-clock, task-clock or page-faults; the
 *                               first is event 0; with mem, its samples
 *                               carry ADDR, WEIGHT and DATA_SRC (as -d -W
 *                               --data-src records them); with branch, a
 *                               BRANCH_STACK (as -b records it); with tx,
 *                               TRANSACTION (--transaction)
 *   feature NAME VALUE          hostname, osrelease or arch; branch_stack 1:
 *                               perf's feature of a file with branch stacks
 *   cmdline WORDS...
 *   kernel START LEN            the kernel's map, [kernel.kallsyms]_text
 *   mmap PID START FILE [as PATH] [nobuildid]
 *                               FILE's executable segment at START, recorded
 *                               as PATH (default FILE), with its build id
 *   comm PID TID NAME
 *   fork PID PPID TID PTID TIME
 *   exit PID PPID TID PTID TIME
 *   sample EV TIME PID TID CPU PERIOD [xN] [addr=A] [src=S] [weight=W] [br=B]... [tx=T] FRAME...
 *                               of event EV (0, 1, ...): N samples 1 ms apart (default 1),
 *                               with a mem event's data address, data source and
 *                               weight (default 0), a branch event's branches, newest
 *                               first, each FROM>TO[/M|/P][/cCYCLES] (FROM and TO as
 *                               frames are); frames
 *                               innermost first: SYM+0xOFF in a mapped
 *                               file, or 0xADDR; "k" starts kernel frames
 *                               and "u" user ones (the default)
 *   anon PID START LEN [NAME]   an executable map no file backs (//anon)
 *   carry KIND PID START FILE [total N] [offset N] [len N]
 *                               FILE's bytes as the JIT code prof record
 *                               carries (src/jitdump.h): KIND perfmap or
 *                               jitdump, of the process that began at time
 *                               START (0: before recording); total, offset
 *                               and len forge those fields of one record
 *   trailer [OFFSET]            the trailer that points at the first carry
 *                               (or at OFFSET), uncompressed
 *   clock TIME                  the time of the comm, mmap and anon records
 *                               that follow (default 0)
 *   lost N
 *   round                       a FINISHED_ROUND
 * TIME is in seconds.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "jitdump.h"
#include "pdata.h"
#include "writer.h"

#define MAXEV 8
#define MAXMAP 64
#define MAXFR 2100

static const uint64_t sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				    PERF_SAMPLE_CALLCHAIN;

struct map {
	uint32_t pid;
	uint64_t start, len, pgoff, vaddr;
	char file[512];
};

static struct writer *w;
static uint64_t mem_events;	/* the events of "event NAME mem", a bit each */
static uint64_t br_events;	/* of "event NAME branch" */
static uint64_t tx_events;	/* of "event NAME tx" */
#define MAXBR 64
static uint64_t rec_time;	/* of comm, mmap and anon records: the clock command */
static struct map maps[MAXMAP];
static int nmaps, nev, features_done;
static const char *spec;
static int lineno;

__attribute__((format(printf, 1, 2)))
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "genprof: %s:%d: ", spec, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void put(const void *rec, size_t len)
{
	if (writer_records(w, rec, len))
		die("cannot write%s", "");
}

static void end_features(void)
{
	if (!features_done && writer_end_features(w))
		die("cannot write%s", "");
	features_done = 1;
}

/* The sample_id trailer: TID, TIME, CPU, IDENTIFIER. */
static size_t trailer(uint64_t *p, uint32_t pid, uint32_t tid, uint64_t time)
{
	p[0] = (uint64_t)tid << 32 | pid;
	p[1] = time;
	p[2] = 0;	/* cpu 0 */
	p[3] = 1;	/* event 0's id */
	return 4 * sizeof(uint64_t);
}

static uint64_t secs(const char *s)
{
	return (uint64_t)(strtod(s, NULL) * 1e9 + 0.5);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	if (!s)
		die("missing a number%s", "");
	v = strtoull(s, &end, 0);
	if (*end)
		die("not a number: %s", s);
	return v;
}

/* The address of SYM+OFF in one of pid's maps. */
static uint64_t symbol_addr(uint32_t pid, const char *what)
{
	char name[256];
	const char *plus = strchr(what, '+');
	uint64_t off = plus ? num(plus + 1) : 0;
	size_t len = plus ? (size_t)(plus - what) : strlen(what);

	if (len >= sizeof(name))
		die("name too long: %s", what);
	memcpy(name, what, len);
	name[len] = '\0';
	for (int i = 0; i < nmaps; i++) {
		int fd;
		Elf *e;
		Elf_Scn *scn = NULL;

		if (maps[i].pid != pid)
			continue;
		fd = open(maps[i].file, O_RDONLY);
		e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
		while (e && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
				continue;
			d = elf_getdata(scn, NULL);
			for (size_t k = 0; d && sh.sh_entsize && k < sh.sh_size / sh.sh_entsize; k++) {
				GElf_Sym sym;
				const char *n;

				if (!gelf_getsym(d, (int)k, &sym))
					continue;
				n = elf_strptr(e, sh.sh_link, sym.st_name);
				if (n && !strcmp(n, name) && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
					uint64_t a = maps[i].start + (sym.st_value + off - maps[i].vaddr);

					elf_end(e);
					close(fd);
					return a;
				}
			}
		}
		if (e)
			elf_end(e);
		if (fd >= 0)
			close(fd);
	}
	die("no function %s in the process's maps", name);
	return 0;
}

static void do_event(const char *name, int mem)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	uint64_t id = (uint64_t)nev + 1;

	if (nev == MAXEV)
		die("too many events%s", "");
	a.type = PERF_TYPE_SOFTWARE;
	if (!strcmp(name, "cpu-clock"))
		a.config = PERF_COUNT_SW_CPU_CLOCK;
	else if (!strcmp(name, "task-clock"))
		a.config = PERF_COUNT_SW_TASK_CLOCK;
	else if (!strcmp(name, "page-faults"))
		a.config = PERF_COUNT_SW_PAGE_FAULTS;
	else
		die("unknown event %s", name);
	a.sample_period = 1000000;
	a.sample_type = sample_type;
	if (mem == 1) {
		a.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
		mem_events |= 1ULL << nev;
	} else if (mem == 3) {
		a.sample_type |= PERF_SAMPLE_TRANSACTION;
		tx_events |= 1ULL << nev;
	} else if (mem == 2) {
		a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
		br_events |= 1ULL << nev;
	}
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	a.mmap = a.comm = a.task = a.mmap2 = 1;
	if (writer_attr(w, &a, &id, 1))
		die("cannot write%s", "");
	nev++;
}

static void do_mmap(char **tok, int n)
{
	uint64_t rec[512];
	struct perf_event_header *h = (void *)rec;
	unsigned char *p;
	struct map *m;
	const char *path;
	int fd, with_id = 1;
	Elf *e;
	size_t nph, len;
	const void *id = NULL;
	size_t idlen = 0;

	if (n < 4 || nmaps == MAXMAP)
		die("mmap PID START FILE [as PATH] [nobuildid]%s", "");
	m = &maps[nmaps++];
	m->pid = (uint32_t)num(tok[1]);
	m->start = num(tok[2]);
	snprintf(m->file, sizeof(m->file), "%s", tok[3]);
	path = tok[3];
	for (int i = 4; i < n; i++)
		if (!strcmp(tok[i], "as") && i + 1 < n)
			path = tok[++i];
		else if (!strcmp(tok[i], "nobuildid"))
			with_id = 0;
		else
			die("unknown mmap word %s", tok[i]);
	fd = open(m->file, O_RDONLY);
	if (fd < 0)
		die("cannot open %s", m->file);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &nph))
		die("not ELF: %s", m->file);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			m->vaddr = ph.p_vaddr;
			m->pgoff = ph.p_offset;
			m->len = (ph.p_memsz + 0xfff) & ~0xfffULL;
		}
	}
	{
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
				continue;
			d = elf_getdata(scn, NULL);
			if (d && d->d_size > 16 && ((uint32_t *)d->d_buf)[2] == NT_GNU_BUILD_ID) {
				uint32_t namesz = ((uint32_t *)d->d_buf)[0];

				idlen = ((uint32_t *)d->d_buf)[1];
				id = (const char *)d->d_buf + 12 + ((namesz + 3) & ~3u);
				if (idlen > 20)
					idlen = 20;
			}
		}
	}
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER | (with_id && idlen ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0);
	p = (unsigned char *)(h + 1);
	((uint32_t *)p)[0] = m->pid;
	((uint32_t *)p)[1] = m->pid;
	((uint64_t *)p)[1] = m->start;
	((uint64_t *)p)[2] = m->len;
	((uint64_t *)p)[3] = m->pgoff;
	if (with_id && idlen) {
		p[32] = (unsigned char)idlen;
		memcpy(p + 36, id, idlen);
	}
	((uint32_t *)(p + 56))[0] = 5;			/* PROT_READ | PROT_EXEC */
	((uint32_t *)(p + 56))[1] = 2;			/* MAP_PRIVATE */
	len = strlen(path) + 1;
	if (len > 1024)
		die("path too long: %s", path);
	memcpy(p + 64, path, len);
	len = sizeof(*h) + 64 + ((len + 7) & ~7ULL);
	len += trailer((uint64_t *)((char *)rec + len), m->pid, m->pid, rec_time);
	h->size = (uint16_t)len;
	elf_end(e);
	close(fd);
	put(rec, len);
}

static void do_anon(char **tok, int n)
{
	uint64_t rec[64] = { 0 };
	struct perf_event_header *h = (void *)rec;
	unsigned char *p = (unsigned char *)(h + 1);
	const char *name = n > 4 ? tok[4] : "//anon";
	uint32_t pid;
	size_t len;

	if (n < 4 || strlen(name) > 200)
		die("anon PID START LEN [NAME]%s", "");
	pid = (uint32_t)num(tok[1]);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	((uint32_t *)p)[0] = pid;
	((uint32_t *)p)[1] = pid;
	((uint64_t *)p)[1] = num(tok[2]);
	((uint64_t *)p)[2] = num(tok[3]);
	((uint64_t *)p)[3] = num(tok[2]);	/* the kernel's pgoff of anonymous memory */
	((uint32_t *)(p + 56))[0] = 7;			/* PROT_READ | PROT_WRITE | PROT_EXEC */
	((uint32_t *)(p + 56))[1] = 0x22;		/* MAP_PRIVATE | MAP_ANONYMOUS */
	memcpy(p + 64, name, strlen(name) + 1);
	len = sizeof(*h) + 64 + ((strlen(name) + 1 + 7) & ~7ULL);
	len += trailer((uint64_t *)((char *)rec + len), pid, pid, rec_time);
	h->size = (uint16_t)len;
	put(rec, len);
}

static uint64_t first_carry;
static int carried;

static void do_carry(char **tok, int n)
{
	struct prof_ext x = { .magic = PROF_EXT_MAGIC };
	static unsigned char data[1 << 20];
	unsigned char rec[65536];
	uint64_t total = 0, offset = 0, forced_len = UINT64_MAX;
	int forge = 0;
	size_t got, off = 0;
	FILE *f;

	if (n < 5)
		die("carry KIND PID START FILE [total N] [offset N] [len N]%s", "");
	x.kind = !strcmp(tok[1], "perfmap") ? PROF_EXT_PERF_MAP
		 : !strcmp(tok[1], "jitdump") ? PROF_EXT_JITDUMP : 0;
	if (!x.kind)
		die("carry: KIND is perfmap or jitdump, not %s", tok[1]);
	x.pid = (uint32_t)num(tok[2]);
	x.start = (uint64_t)(strtod(tok[3], NULL) * 1e9 + 0.5);
	f = fopen(tok[4], "rb");
	if (!f)
		die("cannot open %s", tok[4]);
	got = fread(data, 1, sizeof(data), f);
	fclose(f);
	for (int i = 5; i + 1 < n; i += 2) {
		forge = 1;
		if (!strcmp(tok[i], "total"))
			total = num(tok[i + 1]);
		else if (!strcmp(tok[i], "offset"))
			offset = num(tok[i + 1]);
		else if (!strcmp(tok[i], "len"))
			forced_len = num(tok[i + 1]);
		else
			die("unknown carry word %s", tok[i]);
	}
	if (!carried++) {
		if (writer_end_frame(w))
			die("cannot write%s", "");
		first_carry = writer_bytes_out(w);
	}
	do {
		size_t k = got - off < PROF_EXT_CHUNK ? got - off : PROF_EXT_CHUNK;
		size_t size = (sizeof(struct perf_event_header) + sizeof(x) + k + 7) & ~(size_t)7;
		struct perf_event_header h = { PDATA_HEADER_EVENT_TYPE, 0, (uint16_t)size };

		x.total = forge ? total : got;
		x.offset = forge ? offset : off;
		x.len = forced_len != UINT64_MAX ? (uint32_t)forced_len : (uint32_t)k;
		memset(rec, 0, size);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), &x, sizeof(x));
		memcpy(rec + sizeof(h) + sizeof(x), data + off, k);
		put(rec, size);
		off += k;
	} while (off < got && !forge);
}

static void do_trailer(char **tok, int n)
{
	struct prof_ext x = { .magic = PROF_EXT_MAGIC, .kind = PROF_EXT_TRAILER };

	x.offset = n > 1 ? num(tok[1]) : first_carry;
	x.total = (uint64_t)carried;
	if (writer_user_record(w, PDATA_HEADER_EVENT_TYPE, &x, sizeof(x)))
		die("cannot write%s", "");
}

static void do_kernel(uint64_t start, uint64_t len)
{
	uint64_t rec[64] = { 0 };
	struct perf_event_header *h = (void *)rec;
	const char *name = "[kernel.kallsyms]_text";
	size_t n;

	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	((uint32_t *)(h + 1))[0] = (uint32_t)-1;
	((uint32_t *)(h + 1))[1] = 0;
	rec[2] = start;
	rec[3] = len;
	rec[4] = start;
	strcpy((char *)&rec[5], name);
	n = sizeof(*h) + 32 + ((strlen(name) + 1 + 7) & ~7UL);
	n += trailer((uint64_t *)((char *)rec + n), (uint32_t)-1, 0, 0);
	h->size = (uint16_t)n;
	put(rec, n);
}

static void do_comm(uint32_t pid, uint32_t tid, const char *name)
{
	uint64_t rec[32] = { 0 };
	struct perf_event_header *h = (void *)rec;
	size_t n;

	h->type = PERF_RECORD_COMM;
	((uint32_t *)(h + 1))[0] = pid;
	((uint32_t *)(h + 1))[1] = tid;
	snprintf((char *)&rec[2], 16, "%s", name);
	n = sizeof(*h) + 8 + ((strlen((char *)&rec[2]) + 1 + 7) & ~7UL);
	n += trailer((uint64_t *)((char *)rec + n), pid, tid, rec_time);
	h->size = (uint16_t)n;
	put(rec, n);
}

static void do_task(int type, char **tok, int n)
{
	uint64_t rec[16] = { 0 };
	struct perf_event_header *h = (void *)rec;
	uint32_t *u = (uint32_t *)(h + 1);
	size_t len;

	if (n != 6)
		die("fork and exit take PID PPID TID PTID TIME%s", "");
	h->type = (uint32_t)type;
	for (int i = 0; i < 4; i++)
		u[i] = (uint32_t)num(tok[1 + i]);
	rec[3] = secs(tok[5]);
	len = sizeof(*h) + 24;
	len += trailer((uint64_t *)((char *)rec + len), u[0], u[2], rec[3]);
	h->size = (uint16_t)len;
	put(rec, len);
}

/* A branch FROM>TO[/M|/P][/cCYCLES] of thread tid's process: a perf_branch_entry. */
static void branch(char *bs, uint32_t pid, uint64_t out[3])
{
	char *to = strchr(bs, '>'), *fl;

	if (!to)
		die("br=FROM>TO[/M|/P][/cN], not %s", bs);
	*to++ = '\0';
	fl = strchr(to, '/');
	if (fl)
		*fl++ = '\0';
	out[0] = bs[0] == '0' ? num(bs) : symbol_addr(pid, bs);
	out[1] = to[0] == '0' ? num(to) : symbol_addr(pid, to);
	out[2] = 0;
	/* flags: mispred bit 0, predicted bit 1, in_tx 2, abort 3, cycles 4..19 */
	for (char *save = NULL, *f = fl ? strtok_r(fl, "/", &save) : NULL; f;
	     f = strtok_r(NULL, "/", &save)) {
		if (!strcmp(f, "M"))
			out[2] |= 1;
		else if (!strcmp(f, "P"))
			out[2] |= 2;
		else if (f[0] == 'c')
			out[2] |= (num(f + 1) & 0xffff) << 4;
		else
			die("a branch's flag is M, P or cN, not %s", f);
	}
}

static void do_sample(char **tok, int n)
{
	uint64_t rec[8 + MAXFR + 8], ips[MAXFR + 4];
	struct perf_event_header *h = (void *)rec;
	uint64_t *p = rec + 1, t, count = 1, ev, addr = 0, src = 0, weight = 0, tx = 0, br[MAXBR][3];
	int nbr = 0;
	uint32_t pid, tid, cpu;
	int nip = 0, kernel = -1, i = 7, first_kernel = 0;

	if (n < 8)
		die("sample EV TIME PID TID CPU PERIOD [xN] FRAME...%s", "");
	ev = num(tok[1]);
	if (ev >= (uint64_t)nev)
		die("no such event: %s", tok[1]);
	t = secs(tok[2]);
	pid = (uint32_t)num(tok[3]);
	tid = (uint32_t)num(tok[4]);
	cpu = (uint32_t)num(tok[5]);
	if (tok[7][0] == 'x') {
		count = num(tok[7] + 1);
		i++;
	}
	for (; i < n; i++)
		if (!strncmp(tok[i], "addr=", 5))
			addr = num(tok[i] + 5);
		else if (!strncmp(tok[i], "src=", 4))
			src = num(tok[i] + 4);
		else if (!strncmp(tok[i], "weight=", 7))
			weight = num(tok[i] + 7);
		else if (!strncmp(tok[i], "tx=", 3))
			tx = num(tok[i] + 3);
		else if (!strncmp(tok[i], "br=", 3) && nbr < MAXBR)
			branch(tok[i] + 3, (uint32_t)num(tok[3]), br[nbr++]);
		else
			break;
	if (nbr && !(br_events >> ev & 1))
		die("br= needs an event NAME branch%s", "");
	if ((addr || src || weight) && !(mem_events >> ev & 1))
		die("addr=, src= and weight= need an event NAME mem%s", "");
	for (; i < n && nip < MAXFR; i++) {
		if (!strcmp(tok[i], "k") || !strcmp(tok[i], "u")) {
			int k = tok[i][0] == 'k';

			if (kernel != k)
				ips[nip++] = k ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER;
			if (kernel < 0)
				first_kernel = k;
			kernel = k;
			continue;
		}
		if (kernel < 0) {
			ips[nip++] = PERF_CONTEXT_USER;
			kernel = 0;
		}
		ips[nip++] = tok[i][0] == '0' ? num(tok[i]) : symbol_addr(pid, tok[i]);
	}
	for (uint64_t c = 0; c < count; c++) {
		size_t len;

		p = rec + 1;
		*p++ = ev + 1;			/* IDENTIFIER */
		*p++ = ips[1];			/* IP: the first frame after the context */
		*p++ = (uint64_t)tid << 32 | pid;
		*p++ = t + c * 1000000;
		if (mem_events >> ev & 1)
			*p++ = addr;		/* ADDR */
		*p++ = cpu;
		*p++ = num(tok[6]);		/* PERIOD */
		*p++ = (uint64_t)nip;
		memcpy(p, ips, (size_t)nip * sizeof(*ips));
		p += nip;
		if (br_events >> ev & 1) {
			*p++ = (uint64_t)nbr;		/* BRANCH_STACK: nr, then its entries */
			memcpy(p, br, (size_t)nbr * sizeof(br[0]));
			p += 3 * nbr;
		}
		if (mem_events >> ev & 1) {
			*p++ = weight;		/* WEIGHT */
			*p++ = src;		/* DATA_SRC */
		}
		if (tx_events >> ev & 1)
			*p++ = tx;		/* TRANSACTION */
		len = (size_t)((char *)p - (char *)rec);
		h->type = PERF_RECORD_SAMPLE;
		h->misc = first_kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		h->size = (uint16_t)len;
		put(rec, len);
	}
}

int main(int argc, char **argv)
{
	char line[32768];
	FILE *in;
	int fd, level = 0;

	if (argc == 4 && !strcmp(argv[1], "-z")) {
		level = 3;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: genprof [-z] SPEC OUT\n");
		return 2;
	}
	spec = argv[1];
	elf_version(EV_CURRENT);
	in = fopen(spec, "r");
	if (!in) {
		perror(spec);
		return 1;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = fd >= 0 ? writer_new(fd, level, 256 * 1024, 64 * 1024) : NULL;
	if (!w || writer_header(w)) {
		perror(argv[2]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		char *tok[MAXFR + 16], *save = NULL;
		int n = 0;

		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		for (char *t = strtok_r(line, " \t\n", &save); t && n < MAXFR + 16;
		     t = strtok_r(NULL, " \t\n", &save))
			tok[n++] = t;
		if (!n)
			continue;
		if (!strcmp(tok[0], "event")) {
			if (features_done || n < 2 || n > 3 ||
			    (n == 3 && strcmp(tok[2], "mem") && strcmp(tok[2], "branch") &&
			     strcmp(tok[2], "tx")))
				die("event NAME [mem|branch|tx], before anything but features%s", "");
			do_event(tok[1], n < 3 ? 0 : !strcmp(tok[2], "mem") ? 1
					 : !strcmp(tok[2], "branch") ? 2 : 3);
		} else if (!strcmp(tok[0], "feature") && n == 3 && !strcmp(tok[1], "branch_stack")) {
			if (features_done || writer_feature(w, PDATA_FEAT_BRANCH_STACK, NULL, 0))
				die("late feature or cannot write%s", "");
		} else if (!strcmp(tok[0], "feature") && n >= 3) {
			static const char *const names[] = { "hostname", "osrelease", "arch" };
			static const uint64_t ids[] = { PDATA_FEAT_HOSTNAME, PDATA_FEAT_OSRELEASE,
							PDATA_FEAT_ARCH };
			size_t k;

			for (k = 0; k < 3 && strcmp(names[k], tok[1]); k++)
				;
			if (k == 3 || features_done)
				die("unknown or late feature %s", tok[1]);
			if (writer_feature_string(w, ids[k], tok[2]))
				die("cannot write%s", "");
		} else if (!strcmp(tok[0], "cmdline") && n >= 2) {
			if (features_done)
				die("cmdline before any record%s", "");
			if (writer_feature_strings(w, PDATA_FEAT_CMDLINE, (const char *const *)tok + 1,
						   (size_t)n - 1))
				die("cannot write%s", "");
		} else {
			end_features();
			if (!strcmp(tok[0], "kernel") && n == 3)
				do_kernel(num(tok[1]), num(tok[2]));
			else if (!strcmp(tok[0], "mmap"))
				do_mmap(tok, n);
			else if (!strcmp(tok[0], "comm") && n == 4)
				do_comm((uint32_t)num(tok[1]), (uint32_t)num(tok[2]), tok[3]);
			else if (!strcmp(tok[0], "fork"))
				do_task(PERF_RECORD_FORK, tok, n);
			else if (!strcmp(tok[0], "exit"))
				do_task(PERF_RECORD_EXIT, tok, n);
			else if (!strcmp(tok[0], "sample"))
				do_sample(tok, n);
			else if (!strcmp(tok[0], "anon"))
				do_anon(tok, n);
			else if (!strcmp(tok[0], "carry"))
				do_carry(tok, n);
			else if (!strcmp(tok[0], "trailer"))
				do_trailer(tok, n);
			else if (!strcmp(tok[0], "clock") && n == 2)
				rec_time = secs(tok[1]);
			else if (!strcmp(tok[0], "lost") && n == 2) {
				uint64_t rec[8] = { 0 };
				struct perf_event_header *h = (void *)rec;
				size_t len = sizeof(*h) + 16;

				h->type = PERF_RECORD_LOST;
				rec[1] = 1;
				rec[2] = num(tok[1]);
				len += trailer((uint64_t *)((char *)rec + len), 0, 0, 0);
				h->size = (uint16_t)len;
				put(rec, len);
			} else if (!strcmp(tok[0], "round") && n == 1) {
				struct perf_event_header h = { .type = PDATA_FINISHED_ROUND,
							       .size = sizeof(h) };

				put(&h, sizeof(h));
			} else {
				die("cannot read: %s", tok[0]);
			}
		}
	}
	end_features();
	if (writer_end_frame(w) || close(fd)) {
		perror(argv[2]);
		return 1;
	}
	writer_free(w);
	fclose(in);
	return 0;
}
