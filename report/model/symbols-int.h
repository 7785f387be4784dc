/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbolizer's state, shared by its files (symbols.c lists them), and
 * what each offers the others. Not for use outside report/model/symbols*.c.
 */
#ifndef PROF_REPORT_SYMBOLS_INT_H
#define PROF_REPORT_SYMBOLS_INT_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#include "finders.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"

#define BUILD_ID_MAX	64	/* perf records 20 bytes; longer is not a build id */
#define CHAIN_MAX	64	/* frames kept per address: DWARF nesting is input */
#define SCAN_MAX	64	/* symbols looked at for one nested-symbol lookup */
#define KSYM_LAST_SIZE	4096	/* the last kernel symbol has no successor */

enum obj_state {
	OBJ_NEW,		/* not opened yet: opened on the first resolve */
	OBJ_READY,
	OBJ_BROKEN,		/* resolves nothing; warned, or silent by name */
};

/* A function symbol of an ELF file, in libdwfl's module addresses. */
struct fsym {
	uint64_t start, end;	/* end exclusive */
	const char *name;	/* libelf's string table; interned when hit */
	size_t name_len;	/* without a symbol version: "memcpy@@GLIBC_2.14" */
	Dwarf_Off die;		/* its DWARF function: 0 unknown yet, or NO_DIE */
};

#define NO_DIE	((Dwarf_Off)-1)

/* A PT_LOAD's file bytes and where they load. */
struct load {
	uint64_t off, size, vaddr;
};

/* How often mapped files' pages go: see sy_release_pages(). */
#define RELEASE_EVERY 64
#define RELEASE_EVERY_MAX 4096
#define RELEASE_KEEP ((size_t)2 << 20)
struct release_clock {
	unsigned n, at, gap;	/* look-ups; when to look next; how far apart */
};
/* Count a look-up: whether pages are to go now. */
static inline int release_due(struct release_clock *c)
{
	return ++c->n >= (c->at ? c->at : RELEASE_EVERY);
}
/* After a look (released: whether pages went), when the next. */
static inline void release_next(struct release_clock *c, int released)
{
	if (released || !c->gap)
		c->gap = c->n / 2 > RELEASE_EVERY ? c->n / 2 : RELEASE_EVERY;
	else if (c->gap < RELEASE_EVERY_MAX)
		c->gap *= 2;
	c->at = c->n + c->gap;
}

/* A live map's file as sy_obj_get_live() found it (struct symbols' live). */
struct live_seen {
	const char *path;	/* interned */
	unsigned maj, min;
	uint64_t ino, gen;
	struct elfobj *obj;
	uint64_t checked;	/* when the path was last seen to name the inode (sy_now()) */
};

/*
 * One path as processes map it. The file behind it is opened and indexed
 * once, however many processes and dsos (build ids) refer to it.
 */
struct elfobj {
	const char *path;	/* as recorded, interned */
	struct dso *dsos;	/* one per recorded build id */
	enum obj_state state;
	int anon;		/* memory no file backs: anon_path() */
	char *where;		/* the file to open for path (see locate()); set once
				 * when the object is made, read by any thread */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;	/* module address - ELF vaddr */
	const struct objfile *file;	/* where, opened (objfile.h) */
	struct load *loads;
	size_t nloads;
	struct fsym *syms;	/* sorted by start, one per start */
	char *made_names;	/* the names of syms made here (sy_plt_symbols()), freed with them */
	uint64_t *maxend;	/* maxend[i]: largest end in syms[0..i] */
	size_t nsyms;
	/*
	 * its data objects (STT_OBJECT and TLS-less globals with a size),
	 * sorted by start, for data addresses (dso_data_at()); made on the
	 * first ask, dsyms_made then set
	 */
	struct fsym *dsyms;
	size_t ndsyms;
	int dsyms_made;
	const unsigned char *build_id;	/* the file's (bid): NULL when none */
	size_t build_id_len;
	unsigned char bid[BUILD_ID_MAX];	/* kept when the file is released */
	struct file_id id;	/* the file a live process mapped (symbols_dso_live()); zeros:
				 * whatever the path names when it is opened */
	unsigned mark;		/* symbols_mark_begin()'s count when a live map last had it */
	const char *short_name;	/* what reports show: the base name */
	int loading;		/* being opened, by the loader or a resolve (under lmu) */
	struct scopes *sc;	/* the scopes of its functions' names (symbols-names.c); NULL: none yet */
	struct dwidx *dx;	/* the index of its DWARF (symbols-dwarf.c); NULL: none yet */
	char *warning;		/* why it resolves nothing, until a resolve says it */
	uint64_t used;		/* when a new address last needed it (sy_now()) */
	uint64_t opened;	/* when it was last opened */
	uint64_t mapped;	/* when a live process last mapped it (sy_obj_get_live()) */
	int closed;		/* symbols_trim() closed it: it opens again when needed */
	int walked;		/* in the symbols' walk: it has a file */
	struct release_clock rel[3];	/* when its mappings' pages go (sy_release_pages()), */
	int dwarf_read;		/* its DWARF's too when read */
	struct answers *ans;	/* the answers kept across reports (symbols-answers.c) */
};

struct dso {
	struct symbols *s;
	struct elfobj *obj;	/* NULL for the kernel */
	struct elfobj *res;	/* what resolves it: obj, or the file its build id found */
	struct dso *next;	/* the obj's other dsos */
	unsigned char build_id[BUILD_ID_MAX];
	size_t build_id_len;
	int checked;		/* build id compared with the file's */
	int dead;		/* resolves nothing */
	int unknown;		/* ... because its file is missing or another build */
	const char *kname;	/* a kernel module's: "[ext4]"; NULL otherwise */
	int guest;		/* a KVM guest's code, seen from the host: resolves nothing */
};

/* A resolved address: frames[first .. first + n) of struct symbols. */
struct cent {
	const void *key;	/* the elfobj, or the kernel dso; NULL: empty */
	uint64_t addr;
	uint32_t first, n;
};

struct dent {
	const char *mangled, *plain;	/* both interned */
};

struct symbols {
	struct symbols_opts o;
	struct finders *find;	/* where files are found */
	int own_find;		/* made here (no opts.finders): freed here */
	const char *symfs;	/* the finders': absolute, no trailing '/'; NULL for / */
	char *debuginfo_path;	/* libdwfl's search path (the finders'), a copy */
	Dwfl_Callbacks cb;
	struct strpool *pool;
	struct objfiles *files;	/* every file opened, once */

	struct elfobj **objs;	/* by interned path and file id: the items of otab */
	size_t nobjs, objs_cap;
	struct htab otab;
	/*
	 * The objects with a file (sy_obj_file()), in no order: all that
	 * symbols_trim() and symbols_release() look at. A file let go
	 * (symbols_release()) leaves it; its object stays in objs for the
	 * dsos and windows that name it. Walking objs, every object a host
	 * ever ran was looked at each second: a cache miss each, 2% of an
	 * agent's CPU after 20 minutes of new test binaries.
	 */
	struct elfobj **walk;
	size_t nwalk, walk_cap;
	/*
	 * sy_obj_get_live()'s answers by (path, device, inode, generation): a
	 * file mapped again (libc by each new process) is the object it was,
	 * with no stat of its path and its map_files link each time
	 */
	struct live_seen *live;
	size_t nlive, live_cap;
	struct htab ltab;
	struct dso **dsov;	/* by (obj, build id): the items of dtab */
	size_t ndsov, dsov_cap;
	struct htab dtab;

	struct dso kernel;
	struct dso guest;	/* "[guest]": what a sample in a KVM guest ran */
	int kloaded;
	pthread_t kthread;	/* parsing /proc/kallsyms ahead of need */
	int kthread_on;
	int kjoined;		/* the thread is done and joined: kp holds its result */
	int krec;		/* the profile's kernel map: 0 none, 1 by _text, 2 by _stext */
	uint64_t krec_addr;	/* ... and where that symbol was when it was recorded */
	uint64_t ktext_start, ktext_end;	/* ... and the range it covered */
	char *krelease;		/* the profile's kernel release (osrelease), NULL if unknown */
	/* the profile's kernel module maps, by start: names frames of another boot */
	struct kmodmap { uint64_t start, end; struct dso *dso; } *kmaps;
	size_t nkmaps, kmaps_cap;
	int kmaps_sorted;
	char *kcache_dir;	/* where the kernel's symbols are cached; NULL for none */
	const char *kpath;	/* where they are read: /proc/kallsyms */
	/*
	 * Kernel code the profile's KSYMBOL records name (BPF programs, JIT
	 * trampolines), which /proc/kallsyms may no longer list: by start,
	 * no two overlapping, the newer kept
	 */
	struct kxsym {
		uint64_t start, end;
		const char *name;	/* interned */
	} *kx;
	size_t nkx, kx_cap;
	struct dso **kmods;	/* the kernel modules' dsos, by interned name */
	size_t nkmods, kmods_cap;
	struct kallsyms kp;	/* the thread's result; adopted by kernel_load() */
	struct kallsyms k;
	struct release_clock krel;	/* when the kallsyms cache's pages go, as a file's */

	struct cent *cache;	/* by (key, addr): the items of ctab */
	size_t ncache, cache_cap;
	size_t cache_dead;	/* entries sy_cache_drop() emptied (key NULL), not yet compacted */
	struct htab ctab;
	struct frame_info *frames;
	size_t nframes, frames_cap;

	struct dent *dm;	/* demangled names by mangled pointer: */
	size_t ndm, dm_cap;	/* the items of dmtab */
	struct htab dmtab;

	char **warnings;	/* NULL-terminated, sorted */
	size_t nwarnings;
	size_t warnings_dropped;	/* past WARN_MAX */

	/*
	 * The loader: a thread that opens files, and loads their DWARF, that
	 * dso_ready() found unopened, while the caller goes on with samples
	 * of other files. Each file has its own Dwfl, so loading one touches
	 * nothing a resolve in another uses.
	 */
	pthread_mutex_t lmu;
	pthread_cond_t lwork, ldone;
	pthread_t lthread;
	int lthread_on, lstop;
	struct elfobj **lq;	/* files to open, lq[lq_head .. lq_n) */
	size_t lq_head, lq_n, lq_cap;

	uint64_t ncloses, nreopens;	/* symbols_trim()'s, and the opens again they cost */
	uint64_t nreleased;		/* files symbols_release() let go of */
	unsigned mark;			/* symbols_mark_begin()'s count */
	uint64_t trim_last;		/* when symbols_trim() last looked (sy_now()) */
	size_t trim_floor;		/* the heap closing could not take under the budget; 0: none */
	uint64_t heap_looked;		/* when symbols_trim() last looked at the heap (sy_now()) */
	size_t heap_batch;		/* files it closes at its next look; 0: the heap was under */
	int ans_off;			/* answers are not kept (sy_answers_stop()) */
};

/*
 * What each file offers those above it, from the bottom up; symbols-core.c
 * lists the order. A file calls only those below it.
 */

/* symbols-core.c */
void sy_add_warning(struct symbols *s, char *msg);
void sy_warn(struct symbols *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sy_obj_warn(struct elfobj *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Say obj's warning (sy_obj_warn()), once. */
void sy_obj_say(struct symbols *s, struct elfobj *obj);
int sy_ends_with(const char *str, const char *suffix);
/* A symbol's name interned: demangled when asked, as text. */
const char *sy_intern_name(struct symbols *s, const char *raw);
const char *sy_intern_name_len(struct symbols *s, const char *raw, size_t len);
/* A frame more at the end of s->frames, zeroed. */
struct frame_info *sy_push_frame(struct symbols *s);
/* The answers cache's entry for (key, addr), or NULL, and where to add it (p). */
const struct cent *sy_cache_find(struct symbols *s, const void *key, uint64_t addr,
				 struct htab_probe *p);
/* Add the entry: frames [first, first + n) of s->frames, at p from sy_cache_find(). */
const struct cent *sy_cache_add(struct symbols *s, struct htab_probe *p, const void *key,
				uint64_t addr, size_t first, int n);
void sy_cache_drop(struct symbols *s, const void **keys, size_t n);
/* When due (release_due() said so), mapping [p, p + len)'s pages, as sy_release_pages(); the clock's next. */
void sy_release_one(struct release_clock *c, int due, const void *p, size_t len);
uint64_t sy_now(void);
int sy_clamp_line(Dwarf_Word v);

/* symbols-kernel.c */
void *sy_kernel_prefetch(void *arg);
void sy_kernel_join(struct symbols *s);
int sy_resolve_kernel(struct symbols *s, uint64_t a);

/* symbols-elf.c */
int sy_build_id_matches(const struct dso *d, const struct elfobj *obj);
struct fsym *sy_find_symbol(const struct elfobj *obj, uint64_t a);
/* The data object of obj holding module address a (its index made when first asked), or NULL. */
const struct fsym *sy_find_data_symbol(struct elfobj *obj, uint64_t a);
/*
 * The module address of file offset off of obj's data (a segment's bytes
 * and the bss in its last page; bss: all its bss, the offsets running on
 * past the file as the addresses do): 1, or 0.
 */
int sy_data_addr(const struct elfobj *obj, uint64_t off, int bss, uint64_t *a);
/* Free obj's data objects' index. */
void sy_free_data_symbols(struct elfobj *obj);
void sy_obj_open(struct symbols *s, struct elfobj *obj);
Elf_Scn *sy_section_named(Elf *elf, const char *name, GElf_Shdr *sh);
/* qsort() and bsearch() of uint64_t, ascending. */
int sy_u64_cmp(const void *a, const void *b);
/*
 * The PLT's entries of obj's ELF file as functions, named as perf names
 * them ("labs@plt"; symbols-plt.c), into *out, their names in one block
 * *names (both malloc'd): how many. obj's own symbols are indexed.
 */
size_t sy_plt_symbols(struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh, struct fsym **out,
		      char **names);
/* obj's file, opened when it is not: the file its id names, or what its where names now. */
const struct objfile *sy_obj_file(struct symbols *s, struct elfobj *obj);
/* The loadable segment of obj holding file offset off, or NULL. */
const struct load *sy_load_of_off(const struct elfobj *obj, uint64_t off);
/* The segment holding ELF address vaddr of obj's file, or NULL. */
const struct load *sy_load_of_vaddr(const struct elfobj *obj, uint64_t vaddr);
/* The module address of file offset off of obj: 1, or 0 when no segment holds it. */
int sy_module_addr(const struct elfobj *obj, uint64_t off, uint64_t *a);
/*
 * Count a look-up in obj, and let go of the pages that resolving read of
 * each of its mappings whose release_clock says so, where more than
 * RELEASE_KEEP of it is resident (file_pages_release()): its file,
 * libdwfl's ELF of it, and its DWARF's file when dwarf_read. So that what
 * a report keeps of a file is about what its latest look-ups read, not all
 * it ever read: a 22K-sample system-wide report held 12 MB of libpython's
 * and libc's DWARF, more than its heap. Pages read again come back from
 * the page cache, at a fault each. A mapping is looked at after
 * RELEASE_EVERY look-ups; after its pages went, after half as many again
 * as it has had, so that a file read all over (libpython in a 520K-sample
 * -g caller report) is let go of fewer times as it is read more: every
 * 64 look-ups, that report took 5.4K more faults than keeping all, and
 * 7% more CPU; this way 1K more. After a look that let nothing go, the
 * next is twice as far off (up to RELEASE_EVERY_MAX), so that a mapping
 * that stays small is not scanned (pagemap) all the time.
 */
void sy_release_pages(struct elfobj *obj);
/*
 * Read the headers of the units holding the n DIE offsets offs (sorted
 * here) of dw, a stretch at a time, letting each stretch's pages go.
 */
void sy_release_units(Dwarf *dw, uint64_t *offs, size_t n);

/* symbols-names.c */
/* DIEs that hold functions without being one: C++ namespaces and classes. */
int sy_is_container(int tag);
/*
 * A line table's file name src, interned: where it is relative (a tree
 * configured as ../configure names ../src/x.c), joined to the unit's
 * compilation directory and cleaned of "." and ".." lexically, so that
 * what exports and pages read is the file wherever prof runs.
 */
const char *sy_src_path(struct symbols *s, const char *src, const char *comp_dir);
const char *sy_die_name(struct symbols *s, struct elfobj *obj, Dwarf_Die *die);
void sy_free_scopes(struct elfobj *obj);

/* symbols-dwarf.c */
void sy_free_cuidx(struct elfobj *obj);
int sy_scope_chain(struct elfobj *obj, struct fsym *sym, Dwarf_Addr a, Dwarf_Die *chain,
		   Dwarf_Addr *dbias, int cache);

/* symbols-answers.c */
/*
 * For d, not checked yet: when the cache holds answers for its recorded
 * build id made from the very file its path names now, take them, and d
 * as checked without opening the file (d->res is d->obj); 1. Else 0: check
 * d as ever (sy_dso_check()).
 */
int sy_answers_try(struct dso *d);
/* Whether obj has the cache's answers to look in. */
int sy_answers_held(const struct elfobj *obj);
/* The cache's frames for addr of obj, pushed (sy_push_frame()): their count, -1 when none. */
int sy_answers_find(struct symbols *s, struct elfobj *obj, uint64_t addr);
/* An answer made now, s->frames[first .. first + n) for addr of obj (opened), to add. */
void sy_answers_note(struct symbols *s, struct elfobj *obj, uint64_t addr, size_t first, int n);
/* Write obj's answers, old and new, when there are new ones. */
void sy_answers_flush(struct symbols *s, struct elfobj *obj);
void sy_answers_free(struct elfobj *obj);
/* Keep no new answers from now on: a session that closes files runs for long. */
void sy_answers_stop(struct symbols *s);

/* symbols-files.c */
void sy_dso_check(struct dso *d);
void sy_obj_settle(struct symbols *s, struct elfobj *obj);
struct elfobj *sy_obj_get(struct symbols *s, const char *path);
struct elfobj *sy_obj_get_live(struct symbols *s, const char *path, const struct live_map *m);

#endif
