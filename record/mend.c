// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -g's leaf repair while recording (mend.h). The rule and the walk are
 * src/leaf.h's, which the report's repair (report/model/unwind.c,
 * unwind_leaf_returns()) runs too: this side reads the .eh_frame rows
 * (libdw's) and the maps as the recorder knows them, and gives up on a
 * sample (keeping its stack for the report) wherever it cannot be sure
 * of the report's answer. What it finds goes into the chain up to the
 * first one the chain has already (the frame its frame pointer found).
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "codemap.h"
#include "decode.h"
#include "leaf.h"
#include "drain.h"
#include "mapfile.h"
#include "maps.h"
#include "mend.h"
#include "pdata.h"
#include "regs.h"
#include "u64map.h"
#include "xalloc.h"

#if defined(__x86_64__)
#define DW_SP	7
#elif defined(__aarch64__)
#define DW_SP	31
#else
#error "the leaf repair knows the stack pointer's DWARF register of x86_64 and aarch64 only"
#endif

#define MAX_RAS		8		/* as the report's repair */
#define MAX_MAPS	8192		/* a process's maps followed; past them, its stacks are kept */
#define MAX_RULES	((size_t)1 << 20)	/* rows remembered */
#define MAX_TRIES	4		/* opens of a file that failed, by other processes */
/*
 * A file no sample needed for this long (of the records' time) is closed
 * and its rows dropped, to be read again if one does; processes gone are
 * forgotten when they are most of those kept. Looked at this often. Under
 * a churn of programs (a copy of a test binary every 0.3 s, 100 short
 * processes a second) the agent's recorder grew 3 MiB a minute without.
 */
#define FILE_IDLE_NS	(60 * 1000000000ULL)
#define SWEEP_NS	(10 * 1000000000ULL)

/*
 * A row of a file's .eh_frame, as rule_at() packs it: the addresses it
 * holds for (from the first asked to the row's end) and what the repair
 * does there. An address asked lately is found in a small table of them
 * (one slot); another in a row read before, in its file's rows (a binary
 * search: alone, its cache misses cost more than libdw saved); only a
 * new row asks libdw, whose FDE search and CFI program were, with the
 * tfind it calls, 12% of a system-wide -g recorder's CPU at 40 kHz when
 * every new address asked it.
 */
struct rowspan {
	uint64_t start, end;
	uint32_t packed;	/* kind << 30 | cfa_off << 15 | ra_at + 0x4000 */
};

#define FRESH_ROWS	256
/*
 * Addresses whose rows are kept at hand, 2^ASKED_BITS slots (16 bytes
 * each: 256 KiB, in a cache): a table of every address asked (up to 1M)
 * cost a cache miss or two a look-up, 19% of the recorder's CPU.
 */
#define ASKED_BITS	14

/* what a map is of */
#define MF_ANON		(-1)		/* no file (JIT code, the heap): the repair stops there */
#define MF_UNSURE	(-2)		/* [vdso] and the like: the report's business */

/* a pc's row, as the repair uses it */
enum { R_UNSURE, R_STOP, R_STEP };

struct mfile {
	unsigned char bid[20];
	size_t bid_len;
	unsigned maj, min;
	uint64_t ino;
	char *name;
	int state;			/* 0 not read yet, 1 read, -1 cannot be (after tries) */
	int tries;
	Elf *elf;			/* mapped whole, its descriptor closed */
	Dwarf_CFI *cfi;			/* .eh_frame's; NULL: none */
	GElf_Phdr *load;		/* PT_LOAD segments: file offsets to addresses */
	size_t nload;
	struct rowspan *rows;		/* the rows read so far, by start */
	size_t nrows, cap_rows;
	struct rowspan *fresh;		/* and the newest, by start: FRESH_ROWS */
	size_t nfresh;
	struct rowspan last;		/* the row found last; end 0: none */
	uint64_t used;			/* the time of the last sample that needed it */
};

/*
 * A process's maps are the report's model of them (maps.h): each map's
 * since is its record's time, its file an index in files, or MF_ANON,
 * MF_UNSURE.
 */
struct image {
	uint64_t until;			/* the exec that ended it */
	struct maps maps;
};

#define MAX_IMAGES	16		/* images kept a process a pass */

struct mproc {
	int pid;
	int known;			/* maps followed from its start, or from /proc */
	int exited;			/* its EXIT read: gone at the next pass */
	uint64_t exec;			/* time of its last exec, if one was read */
	struct maps maps;
	/*
	 * The images before the execs read this pass, for the samples before
	 * them drained after (a fork's child before its exec, a script's
	 * interpreter before the program it runs), oldest first: until the
	 * next pass.
	 */
	struct image *old;
	size_t nold;
};

struct mend {
	struct perf_event_attr attr;
	int hurry;			/* mend_hurry(): samples left as they are */
	char *root;
	struct codemap *code;	/* words it rules out read as 0; NULL: none */
	size_t last;			/* the index in procs of the last sample's process */
	int nreg;
	struct u64map pids;		/* pid -> index in procs */
	struct mproc *procs;
	size_t nprocs, cap_procs;
	size_t *gone;			/* procs that exited this pass */
	size_t ngone, cap_gone;
	size_t *aged;			/* procs that exec'd this pass: their old images */
	size_t naged, cap_aged;
	struct u64map filetab;		/* identity hash -> index in files */
	struct mfile *files;
	size_t nfiles, cap_files;
	size_t nrows;			/* rows kept, all files' */
	uint64_t now, next_sweep;	/* the latest record's time; the next sweep's */
	uint64_t sweep_ns, idle_ns;	/* mend_sweep_every()'s */
	struct asked {			/* the rows of addresses asked lately, by their hash */
		uint64_t key;		/* 1 + (file << 40 | address); 0: none */
		uint32_t packed;
	} *asked;
	struct mend_stats st;
};

/* Forget p's images before its execs. */
static void drop_old(struct mproc *p)
{
	for (size_t i = 0; i < p->nold; i++)
		maps_release(&p->old[i].maps);
	free(p->old);
	p->old = NULL;
	p->nold = 0;
}

struct mend *mend_new(const struct perf_event_attr *attr, const char *root,
		      struct codemap *code)
{
	struct mend *m = xcalloc(1, sizeof(*m));

	memcpy(&m->attr, attr, sizeof(m->attr) < attr->size ? sizeof(m->attr) : attr->size);
	m->root = root ? xstrdup(root) : NULL;
	m->code = code;
	m->last = SIZE_MAX;
	m->nreg = regs_dwarf_count();
	u64map_init(&m->pids);
	u64map_init(&m->filetab);
	m->asked = xcalloc((size_t)1 << ASKED_BITS, sizeof(*m->asked));
	m->sweep_ns = SWEEP_NS;
	m->idle_ns = FILE_IDLE_NS;
	elf_version(EV_CURRENT);
	return m;
}

/* Close f and drop its rows: read again when a sample needs it. */
static void file_close(struct mend *m, struct mfile *f)
{
	if (f->cfi)
		dwarf_cfi_end(f->cfi);
	if (f->elf)
		elf_end(f->elf);
	free(f->load);
	free(f->rows);
	free(f->fresh);
	m->nrows -= f->nrows + f->nfresh;
	f->cfi = NULL;
	f->elf = NULL;
	f->load = NULL;
	f->rows = f->fresh = NULL;
	f->nload = f->nrows = f->cap_rows = f->nfresh = 0;
	f->last.end = 0;
	f->state = 0;
	f->tries = 0;
}

void mend_free(struct mend *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nprocs; i++) {
		maps_release(&m->procs[i].maps);
		drop_old(&m->procs[i]);
	}
	for (size_t i = 0; i < m->nfiles; i++) {
		file_close(m, &m->files[i]);
		free(m->files[i].name);
	}
	free(m->procs);
	free(m->gone);
	free(m->aged);
	free(m->files);
	free(m->root);
	u64map_release(&m->pids);
	u64map_release(&m->filetab);
	free(m->asked);
	free(m);
}

void mend_stats(const struct mend *m, struct mend_stats *st)
{
	*st = m->st;
	st->procs = m->nprocs;
	st->open = 0;
	for (size_t i = 0; i < m->nfiles; i++)
		st->open += m->files[i].state > 0;
}

/* --- processes and their maps ------------------------------------------- */

static struct mproc *proc_of(struct mend *m, int pid, int make)
{
	uint32_t i;

	if (m->last < m->nprocs && m->procs[m->last].pid == pid)
		return &m->procs[m->last];
	if (u64map_get(&m->pids, (uint64_t)(uint32_t)pid, &i)) {
		m->last = i;
		return &m->procs[i];
	}
	if (!make)
		return NULL;
	m->procs = xgrow(m->procs, &m->cap_procs, m->nprocs + 1, sizeof(*m->procs));
	memset(&m->procs[m->nprocs], 0, sizeof(m->procs[0]));
	m->procs[m->nprocs].pid = pid;
	maps_init(&m->procs[m->nprocs].maps);
	u64map_add(&m->pids, (uint64_t)(uint32_t)pid, (uint32_t)m->nprocs);
	return &m->procs[m->nprocs++];
}

static int since_at_least(void *arg, const struct map *mp)
{
	return mp->since >= *(const uint64_t *)arg;
}

static int since_before(void *arg, const struct map *mp)
{
	return mp->since < *(const uint64_t *)arg;
}

/* Keep only p's maps made at t or later: read ahead of an exec or fork before them. */
static void keep_since(struct mproc *p, uint64_t t)
{
	maps_keep(&p->maps, since_at_least, &t);
}

/* Forget p's maps: it is not known until it execs or is made again. */
static void proc_clear(struct mproc *p, int known)
{
	maps_release(&p->maps);
	drop_old(p);
	p->known = known;
	p->exited = 0;
	p->exec = 0;
}

/*
 * The map of p holding a at time t; NULL when none, or when the one there
 * now came later: the maps are read ahead of the samples (mend.h), and a
 * map made after t may have replaced the one a report sees at t. Before
 * p's exec, the image before it.
 */
static const struct map *find_map(const struct mproc *p, uint64_t a, uint64_t t)
{
	const struct maps *maps = &p->maps;
	const struct map *mp;

	for (size_t k = 0; t < p->exec && k < p->nold; k++)
		if (t < p->old[k].until) {
			maps = &p->old[k].maps;
			break;
		}
	if (t < p->exec && maps == &p->maps)
		return NULL;	/* an image before those kept */
	mp = maps_find(maps, a);
	return mp && mp->since <= t ? mp : NULL;
}

static int insert_into(void *arg, const struct map *mp)
{
	maps_insert(arg, mp);
	return 0;
}

/* The file of an MMAP2 record's map, made once per identity. */
static int32_t file_of(struct mend *m, const struct mmap_event *me)
{
	unsigned maj = me->maj, min = me->min;
	uint64_t ino = me->ino;
	uint64_t h;
	uint32_t i;
	struct mfile *f;

	if (me->build_id_len) {
		if (me->build_id_len > sizeof(f->bid))
			return MF_UNSURE;
		h = htab_hash_bytes(me->build_id, me->build_id_len);
	} else if (ino) {
		uint64_t w[3] = { maj, min, ino };

		h = htab_hash_words(w, 3) ^ htab_hash_bytes(me->name, me->name_len);
	} else {
		return MF_UNSURE;	/* nothing to tell the file by */
	}
	if (u64map_get(&m->filetab, h, &i)) {
		f = &m->files[i];
		if (me->build_id_len ? f->bid_len == me->build_id_len &&
					       !memcmp(f->bid, me->build_id, me->build_id_len)
				     : !f->bid_len && f->ino == ino && f->maj == maj && f->min == min &&
					       strlen(f->name) == me->name_len &&
					       !memcmp(f->name, me->name, me->name_len))
			return (int32_t)i;
	}
	if (m->nfiles >= INT32_MAX)
		return MF_UNSURE;
	m->files = xgrow(m->files, &m->cap_files, m->nfiles + 1, sizeof(*m->files));
	f = &m->files[m->nfiles];
	memset(f, 0, sizeof(*f));
	f->bid_len = me->build_id_len;
	if (f->bid_len)
		memcpy(f->bid, me->build_id, f->bid_len);
	else {
		f->maj = maj;
		f->min = min;
		f->ino = ino;
	}
	f->name = xmalloc(me->name_len + 1);
	memcpy(f->name, me->name, me->name_len);
	f->name[me->name_len] = '\0';
	u64map_add(&m->filetab, h, (uint32_t)m->nfiles);	/* a clash keeps the first */
	return (int32_t)m->nfiles++;
}

static void do_mmap(struct mend *m, const struct perf_event_header *h, const struct kevent *k,
		    uint64_t time)
{
	const struct mmap_event *me = &k->mmap;
	struct mproc *p;
	struct map e = { .since = time };

	if ((int32_t)me->pid == -1 || (h->misc & PERF_RECORD_MISC_MMAP_DATA) || !me->len ||
	    me->start + me->len < me->start)
		return;		/* the kernel's, data, or nothing: not in the report's maps */
	if (me->name_len >= 17 && !memcmp(me->name, "[kernel.kallsyms]", 17))
		return;
	p = proc_of(m, (int)me->pid, 1);
	if (!p->known && !p->maps.nr)
		p->known = 1;	/* maps from its first, or from /proc */
	if (p->maps.nr >= MAX_MAPS) {
		proc_clear(p, 0);	/* too many to follow: its stacks are kept */
		return;
	}
	if (!p->known)
		return;
	e.start = me->start;
	e.end = me->start + me->len;
	e.pgoff = me->pgoff;
	if (pdata_anon_name(me->name, me->name_len))
		e.file = MF_ANON;
	else if (me->name_len && me->name[0] == '/' && h->type == PERF_RECORD_MMAP2)
		e.file = file_of(m, me);
	else
		e.file = MF_UNSURE;
	maps_insert(&p->maps, &e);
}

/*
 * An image of p that an exec at until ended: the maps of src made before
 * time t, kept until the next pass. first: the oldest (a fork's, told
 * after the exec that ended it).
 */
static void add_old(struct mend *m, struct mproc *p, const struct maps *src, uint64_t t,
		    uint64_t until, int first)
{
	struct image *im;

	if (p->nold >= MAX_IMAGES)
		return;		/* samples of the images before: unsure */
	if (!p->nold) {
		m->aged = xgrow(m->aged, &m->cap_aged, m->naged + 1, sizeof(*m->aged));
		m->aged[m->naged++] = (size_t)(p - m->procs);
		p->old = xreallocarray(NULL, MAX_IMAGES, sizeof(*p->old));
	}
	if (first)
		memmove(p->old + 1, p->old, p->nold * sizeof(*p->old));
	im = &p->old[first ? 0 : p->nold];
	p->nold++;
	im->until = until;
	maps_init(&im->maps);
	maps_copy(&im->maps, src);	/* shared until the keep below */
	maps_keep(&im->maps, since_before, &t);
}

void mend_record(struct mend *m, const unsigned char *rec, size_t len)
{
	struct perf_event_header h;
	struct kevent k;
	struct sample id;
	struct mproc *p, *parent;
	uint64_t time;

	if (len < sizeof(h))
		return;
	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_MMAP && h.type != PERF_RECORD_MMAP2 &&
	    h.type != PERF_RECORD_FORK && h.type != PERF_RECORD_COMM && h.type != PERF_RECORD_EXIT)
		return;
	if (h.size > len || decode_kernel(&m->attr, (const struct perf_event_header *)rec, &k, &id))
		return;
	time = (id.present & PERF_SAMPLE_TIME) ? id.time : 0;
	if (time > m->now)
		m->now = time;
	switch (h.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		do_mmap(m, &h, &k, time);
		break;
	case PERF_RECORD_FORK:
		if (k.pid == k.ppid)
			break;	/* a thread: the same maps */
		p = proc_of(m, (int)k.pid, 1);
		parent = proc_of(m, (int)k.ppid, 0);	/* no new one: p stays where it is */
		/*
		 * The parent's maps at the fork (not those it made since), under
		 * what the child did after it that another ring told first (its
		 * exec, its maps); that would be all of them after an exec.
		 */
		keep_since(p, k.time + 1);
		if (p->exec > k.time || !parent || !parent->known) {
			/* exec'd already: the parent's maps are its image before */
			if (p->exec > k.time && parent && parent->known)
				add_old(m, p, &parent->maps, k.time + 1,
					p->nold ? p->old[0].until : p->exec, 1);
			p->known = p->known || p->exec > k.time;
			p->exited = 0;
			break;
		}
		{
			/* the parent's maps (shared, until one changes), then its own over them */
			struct maps own = p->maps;
			uint64_t after = k.time + 1;

			maps_init(&p->maps);
			maps_copy(&p->maps, &parent->maps);
			maps_keep(&p->maps, since_before, &after);
			maps_each(&own, insert_into, &p->maps);
			maps_release(&own);
			p->known = 1;
			p->exited = 0;
		}
		break;
	case PERF_RECORD_COMM:
		if (!(h.misc & PERF_RECORD_MISC_COMM_EXEC))
			break;
		/* exec: a new image, whose maps follow (another ring may have told some) */
		p = proc_of(m, (int)k.pid, 1);
		if (time > p->exec) {
			add_old(m, p, &p->maps, time, time, 0);
			p->exec = time;
		}
		keep_since(p, time);
		p->known = 1;
		p->exited = 0;
		break;
	case PERF_RECORD_EXIT:
		if (k.pid != k.tid)
			break;
		p = proc_of(m, (int)k.pid, 0);
		if (!p || p->exited)
			break;
		p->exited = 1;
		m->gone = xgrow(m->gone, &m->cap_gone, m->ngone + 1, sizeof(*m->gone));
		m->gone[m->ngone++] = (size_t)(p - m->procs);
		break;
	}
}

/* Whether p holds nothing: gone, or never known (a new one is the same). */
static int proc_empty(const struct mproc *p)
{
	return !p->known && !p->exited && !p->exec && !p->nold && !p->maps.nr;
}

/*
 * Close the files idle past idle_ns; when most processes kept are
 * empty, keep only the others (no index of one is held between passes).
 */
static void sweep(struct mend *m)
{
	size_t live = 0, closed = 0;

	for (size_t i = 0; i < m->nfiles; i++) {
		struct mfile *f = &m->files[i];

		if (f->state > 0 && m->now - f->used >= m->idle_ns) {
			file_close(m, f);
			closed++;
		}
	}
	m->st.closed += closed;
#ifdef HAVE_MALLOC_TRIM
	/* the worker's arena: a big binary's ELF and rows leave pages free in its middle */
	if (closed)
		malloc_trim(0);
#endif
	for (size_t i = 0; i < m->nprocs; i++)
		live += !proc_empty(&m->procs[i]);
	if (m->nprocs < 1024 || live * 2 > m->nprocs)
		return;
	u64map_release(&m->pids);
	u64map_init(&m->pids);
	live = 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		if (proc_empty(&m->procs[i])) {
			maps_release(&m->procs[i].maps);
			continue;
		}
		m->procs[live] = m->procs[i];
		u64map_add(&m->pids, (uint64_t)(uint32_t)m->procs[live].pid, (uint32_t)live);
		live++;
	}
	m->nprocs = live;
	m->last = 0;
}

void mend_pass(struct mend *m)
{
	for (size_t i = 0; i < m->naged; i++) {
		drop_old(&m->procs[m->aged[i]]);
	}
	m->naged = 0;
	for (size_t i = 0; i < m->ngone; i++)
		if (m->procs[m->gone[i]].exited)
			proc_clear(&m->procs[m->gone[i]], 0);
	m->ngone = 0;
	if (m->now >= m->next_sweep) {
		if (m->next_sweep)
			sweep(m);
		m->next_sweep = m->now + m->sweep_ns;
	}
}

void mend_sweep_every(struct mend *m, uint64_t every_ns, uint64_t idle_ns)
{
	m->sweep_ns = every_ns ? every_ns : 1;
	m->idle_ns = idle_ns;
	m->next_sweep = 0;
}

/* --- files and their rows ------------------------------------------------ */

/* Open f, the file pid maps at mp, and read its .eh_frame and segments: 0, or -1. */
static int file_open(struct mend *m, struct mfile *f, int pid, const struct map *mp)
{
	size_t nph;
	unsigned char id[20];
	int fd = -1;

	if (f->state)
		return f->state > 0 ? 0 : -1;
	if (m->root) {
		char p[PATH_MAX];

		if ((size_t)snprintf(p, sizeof(p), "%s%s", m->root, f->name) < sizeof(p))
			fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	} else {
		fd = mapfile_open(pid, mp->start, mp->end, f->name, f->maj, f->min, f->ino,
				     f->bid_len ? f->bid : NULL, f->bid_len);
	}
	if (fd >= 0) {
		struct stat st;

		/* the very file: map_files is, but the range may have been mapped again */
		if (f->bid_len ? buildid_read(fd, id) != f->bid_len ||
					 memcmp(id, f->bid, f->bid_len)
			       : fstat(fd, &st) || (uint64_t)st.st_ino != f->ino ||
					 major(st.st_dev) != f->maj || minor(st.st_dev) != f->min) {
			close(fd);
			fd = -1;
		}
	}
	/*
	 * Read, not mapped: a file truncated while mapped (cp over a program
	 * that ran) would kill the recorder with SIGBUS. libdw reads the
	 * .eh_frame (and its index) as the CFI is made, so the descriptor
	 * then goes: a system maps more files than a process may keep open.
	 */
	if (fd >= 0)
		f->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (f->elf && elf_kind(f->elf) == ELF_K_ELF && !elf_getphdrnum(f->elf, &nph)) {
		f->load = xreallocarray(NULL, nph ? nph : 1, sizeof(*f->load));
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				f->load[f->nload++] = ph;
		}
		f->cfi = dwarf_getcfi_elf(f->elf);
	}
	if (f->elf)
		elf_cntl(f->elf, ELF_C_FDDONE);
	if (fd >= 0)
		close(fd);
	if (f->cfi) {
		f->state = 1;
		m->st.files++;
		return 0;
	}
	if (f->elf)
		elf_end(f->elf);
	free(f->load);
	f->elf = NULL;
	f->load = NULL;
	f->nload = 0;
	if (++f->tries >= MAX_TRIES || m->root)
		f->state = -1;
	return -1;
}

/* The row of f's address a, from .eh_frame, as the report compiles it (unwind.c). */
static int row_of(const struct mend *m, struct mfile *f, uint64_t a, int64_t *cfa_off,
		  int64_t *ra_at, uint64_t *span_start, uint64_t *span_end)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr start, end;
	Dwarf_Op *ops, mem[3], *rops = NULL;
	size_t nops, rn = 0;
	bool signal;
	int ra, kind = R_STOP;
	uint64_t reg = UINT64_MAX;
	int64_t off = 0;

	*span_start = a;
	*span_end = a + 1;
	if (dwarf_cfi_addrframe(f->cfi, a, &fr) || !fr)
		return R_UNSURE;	/* no row: the report may find one in .debug_frame */
	ra = dwarf_frame_info(fr, &start, &end, &signal);
	/*
	 * From a to the row's end, not from its start: libdw's start is the
	 * FDE's after a DW_CFA_restore_state (libpython's rows were taken for
	 * addresses before their own), but its end is where the next row
	 * begins.
	 */
	if (a < end)
		*span_end = end;
	if (ra < 0 || ra >= m->nreg || dwarf_frame_cfa(fr, &ops, &nops) || !nops) {
		free(fr);
		return R_UNSURE;
	}
	if (nops == 1 && ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	}
	/* the return address's rule: at CFA + n (DW_OP_call_frame_cfa, DW_OP_plus_uconst n) */
	{
		struct leaf_row row = { .signal = signal, .cfa_sp = reg == DW_SP, .cfa_off = off,
					.ra = LEAF_RA_OTHER };

		if (dwarf_frame_register(fr, ra, mem, &rops, &rn) >= 0 && rn >= 1 && rn <= 2 &&
		    rops[rn - 1].atom != DW_OP_stack_value && rops[0].atom == DW_OP_call_frame_cfa &&
		    (rn == 1 || rops[1].atom == DW_OP_plus_uconst)) {
			row.ra = LEAF_RA_AT_CFA;
			row.ra_off = rn == 2 ? (int64_t)rops[1].number : 0;
		}
		/* the rule is leaf.h's, the report's too; no link register here */
		if (leaf_classify(&row, cfa_off, ra_at) == LEAF_STEP)
			kind = R_STEP;
	}
	free(fr);
	return kind;
}

/* In rows[0, n), sorted by start: the first index whose start is above a. */
static size_t rows_after(const struct rowspan *rows, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The row of rows[0, n) that holds a, or NULL. */
static const struct rowspan *rows_hold(const struct rowspan *rows, size_t n, uint64_t a)
{
	size_t i = rows_after(rows, n, a);

	return i && a < rows[i - 1].end ? &rows[i - 1] : NULL;
}

/* f's row that holds a, if read already: the last one found first. */
static const struct rowspan *row_find(struct mfile *f, uint64_t a)
{
	const struct rowspan *r;

	if (f->last.end && f->last.start <= a && a < f->last.end)
		return &f->last;
	r = rows_hold(f->rows, f->nrows, a);
	if (!r)
		r = rows_hold(f->fresh, f->nfresh, a);
	if (r)
		f->last = *r;
	return r;
}

/*
 * A row of f that row_find() did not have: into fresh, in its place by
 * start; a full fresh is merged into rows (so that adding n rows moves
 * about n * n / FRESH_ROWS of them, not n * n / 2), in place from the
 * back, rows growing by half again when full. A new array at each merge
 * (a big binary's rows are MiBs: malloc maps them afresh) made its page
 * faults 2% of a system-wide -g recorder at 40 kHz.
 */
static void row_add(struct mfile *f, uint64_t start, uint64_t end, uint32_t packed)
{
	size_t i, j, k;

	if (!f->fresh)
		f->fresh = xreallocarray(NULL, FRESH_ROWS, sizeof(*f->fresh));
	i = rows_after(f->fresh, f->nfresh, start);
	memmove(&f->fresh[i + 1], &f->fresh[i], (f->nfresh - i) * sizeof(*f->fresh));
	f->fresh[i] = (struct rowspan){ start, end, packed };
	f->last = f->fresh[i];
	if (++f->nfresh < FRESH_ROWS)
		return;
	if (f->nrows + f->nfresh > f->cap_rows) {
		f->cap_rows = f->nrows + f->nfresh + f->nrows / 2;
		f->rows = xreallocarray(f->rows, f->cap_rows, sizeof(*f->rows));
	}
	/* from the back: where starts are equal, fresh's row first, as a merge from the front */
	i = f->nrows;
	j = f->nfresh;
	k = i + j;
	while (j)
		f->rows[--k] = i && f->rows[i - 1].start >= f->fresh[j - 1].start ? f->rows[--i]
										    : f->fresh[--j];
	f->nrows += f->nfresh;
	f->nfresh = 0;
}

/*
 * What the repair does at pc of p: R_STEP (with the CFA's offset and the
 * return address's from sp), R_STOP, or R_UNSURE: the report's to say.
 */
static int rule_at(struct mend *m, const struct mproc *p, uint64_t pc, uint64_t t,
		   int64_t *cfa_off, int64_t *ra_at)
{
	const struct map *mp = find_map(p, pc, t);
	struct mfile *f;
	const struct rowspan *r;
	uint64_t fo, a = 0, start, end, key;
	uint32_t packed;
	struct asked *slot;
	int kind, found = 0, exact;

	if (!mp)
		return R_UNSURE;	/* our maps may lack one the report has */
	if (mp->file == MF_ANON)
		return R_STOP;
	if (mp->file < 0)
		return R_UNSURE;
	f = &m->files[mp->file];
	if (file_open(m, f, p->pid, mp))
		return R_UNSURE;
	/* the sweep's clock: records' times and samples' (a pass's samples may be later than its maps) */
	if (t > m->now)
		m->now = t;
	f->used = m->now;
	fo = pc - mp->start + mp->pgoff;
	for (size_t k = 0; k < f->nload && !found; k++)
		if (f->load[k].p_offset <= fo && fo - f->load[k].p_offset < f->load[k].p_filesz) {
			a = fo - f->load[k].p_offset + f->load[k].p_vaddr;
			found = 1;
		}
	if (!found)
		return R_STOP;		/* no segment holds it: the report stops too */
	/* an address asked lately: one slot; a new one in a row read before: no libdw */
	key = (uint64_t)mp->file << 40 | a;
	exact = a < (uint64_t)1 << 40 && (uint64_t)mp->file < (uint64_t)1 << 24;
	slot = &m->asked[htab_mix(key) >> (64 - ASKED_BITS)];
	if (f->last.end && f->last.start <= a && a < f->last.end) {
		/* the file's row found last (a hot loop): in f's line, no miss on the table */
		packed = f->last.packed;
	} else if (exact && slot->key == key + 1) {
		packed = slot->packed;
	} else {
		r = row_find(f, a);
		if (r) {
			packed = r->packed;
		} else {
			kind = row_of(m, f, a, cfa_off, ra_at, &start, &end);
			/* rows with offsets too big to pack are asked again */
			if (kind == R_STEP && (*cfa_off < 0 || *cfa_off >= 0x8000 ||
					       *ra_at < -0x4000 || *ra_at >= 0x4000))
				return kind;
			packed = (uint32_t)kind << 30 |
				 (kind == R_STEP ? (uint32_t)*cfa_off << 15 |
							   (uint32_t)(*ra_at + 0x4000)
						 : 0);
			if (m->nrows < MAX_RULES) {
				row_add(f, start, end, packed);
				m->nrows++;
			}
		}
		if (exact) {
			slot->key = key + 1;
			slot->packed = packed;
		}
	}
	*cfa_off = (int64_t)(packed >> 15 & 0x7fff);
	*ra_at = (int64_t)(packed & 0x7fff) - 0x4000;
	return (int)(packed >> 30);
}

/* --- samples --------------------------------------------------------------- */

/* leaf_walk()'s side of the recorder: a sample of process p, the chain's next address. */
struct leafctx {
	struct mend *m;
	const struct mproc *p;
	uint64_t time, next;
};

static int leaf_rule_of(void *arg, uint64_t look, int64_t *cfa_off, int64_t *ra_at)
{
	struct leafctx *l = arg;

	switch (rule_at(l->m, l->p, look, l->time, cfa_off, ra_at)) {
	case R_STEP: return LEAF_STEP;
	case R_STOP: return LEAF_STOP;
	default: return LEAF_UNSURE;
	}
}

static int leaf_take(void *arg, uint64_t ra)
{
	struct leafctx *l = arg;

	if (l->m->code && !codemap_may_return(l->m->code, ra))
		return 0;	/* stored as 0 if the stack is kept */
	if (ra == l->next)
		return 0;	/* the frame pointer's frame: the chain has it */
	if (!find_map(l->p, ra - 1, l->time))
		return -1;	/* the report's maps may hold it */
	if (ra < 0x10000)
		return -1;	/* a report skips such chain entries */
	return 1;
}

static const struct leaf_ops leaf_ops = { leaf_rule_of, leaf_take };

/*
 * The return addresses the report's repair would put after the chain's
 * user pc (at index at), up to the one the chain has next: how many, or
 * -1 when not sure.
 */
static int leaf_returns(struct mend *m, const struct mproc *p, const struct sample *s, size_t at,
			uint64_t *ras)
{
	struct leafctx l = { m, p, s->time, at + 1 < s->nr_chain ? s->chain[at + 1] : 0 };

	return leaf_walk(&leaf_ops, &l, s->chain[at], s->stack, s->stack_dyn_size, NULL, ras,
			 MAX_RAS);
}

size_t mend_sample(struct mend *m, unsigned char *rec, size_t size, const struct sample *sp)
{
	struct perf_event_header h;
	struct sample s = *sp;
	const struct mproc *p;
	uint64_t ras[MAX_RAS], zero = 0, nr;
	size_t at = SIZE_MAX, chain_end, stack_at, stack_end, new_size;
	int n = 0;
	unsigned char *q;

	memcpy(&h, rec, sizeof(h));
	if (h.size != size || !s.stack || !(s.present & PERF_SAMPLE_CALLCHAIN))
		return size;
	for (size_t i = 0; i + 1 < s.nr_chain; i++)
		if (s.chain[i] == PERF_CONTEXT_USER) {
			at = i + 1;
			break;
		}
	if (at != SIZE_MAX && s.chain[at] < PERF_CONTEXT_MAX && s.stack_dyn_size) {
		p = proc_of(m, (int)s.pid, 0);
		if (!p || !p->known || !(s.present & PERF_SAMPLE_TIME)) {
			m->st.kept++;
			return size;
		}
		n = leaf_returns(m, p, &s, at, ras);
		if (n < 0) {
			m->st.kept++;
			return size;
		}
	}
	/* no user pc, or an empty copy: the report would find nothing either */
	chain_end = (size_t)((const unsigned char *)(s.chain + s.nr_chain) - rec);
	stack_at = (size_t)(s.stack - rec) - 8;		/* the copy's size */
	stack_end = (size_t)(s.stack - rec) + s.stack_size + 8;	/* past dyn_size */
	if (stack_end > size || stack_at < chain_end || 8 * (size_t)n > stack_end - stack_at - 8) {
		m->st.kept++;
		return size;
	}
	new_size = size - (stack_end - stack_at - 8) + 8 * (size_t)n;
	/* from the back: the fields after the stack, the size 0, the fields between, the callers */
	memmove(rec + stack_at + 8 + 8 * (size_t)n, rec + stack_end, size - stack_end);
	memcpy(rec + stack_at + 8 * (size_t)n, &zero, 8);
	q = rec + (size_t)((const unsigned char *)(s.chain + at + 1) - rec);
	memmove(q + 8 * (size_t)n, q, stack_at - (size_t)(q - rec));
	memcpy(q, ras, 8 * (size_t)n);
	nr = s.nr_chain + (uint64_t)n;
	memcpy(rec + (size_t)((const unsigned char *)s.chain - rec) - 8, &nr, 8);
	h.size = (uint16_t)new_size;
	if (n) {
		h.misc |= PDATA_MISC_SAMPLE_MENDED;
		m->st.mended++;
	} else {
		m->st.dropped++;
	}
	memcpy(rec, &h, sizeof(h));
	return new_size;
}

void mend_hurry(struct mend *m, int on)
{
	m->hurry = on;
}

int mend_filter(void *ctx, struct rec *r)
{
	struct mend *m = ctx;
	size_t size;

	if (!r->ok || !r->s.stack)
		return REC_KEEP;
	if (m->hurry) {
		m->st.kept++;
		return REC_KEEP;
	}
	size = mend_sample(ctx, r->p, r->h.size, &r->s);
	if (size != r->h.size) {
		/*
		 * mended: the stack is gone, nothing left to trim. Its new
		 * header, and s no longer describes it, as trim_filter() leaves
		 * it: a second decode_sample() of every mended sample was 3% of
		 * a system-wide -g recorder at 40 kHz.
		 */
		memcpy(&r->h, r->p, sizeof(r->h));
		r->ok = 0;
	}
	return REC_KEEP;
}
