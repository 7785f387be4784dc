// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols: file offsets of mapped ELF files and kernel addresses turned into
 * function names, inline chains and source lines, each answer computed once.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#ifdef HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buildid.h"
#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"
#include "gosym.h"
#include "xalloc.h"


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
	uint64_t *maxend;	/* maxend[i]: largest end in syms[0..i] */
	size_t nsyms;
	const unsigned char *build_id;	/* the file's; NULL when none */
	size_t build_id_len;
	const char *short_name;	/* what reports show: the base name */
	int loading;		/* being opened, by the loader or a resolve (under lmu) */
	/* the scopes ("ns::Class::") of functions named without a linkage name */
	struct scope_ent *scopes;	/* the items of stab */
	size_t nscopes, scopes_cap;
	struct htab stab;
	struct cuidx **cuidx;	/* the functions of each CU met, by address: */
	size_t ncuidx, cuidx_cap;	/* the items of cutab */
	struct htab cutab;
	char *warning;		/* why it resolves nothing, until a resolve says it */
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
	char *symfs;		/* absolute, no trailing '/'; NULL for / */
	char *debuginfo_path;	/* libdwfl's search path, with the symfs */
	Dwfl_Callbacks cb;
	struct strpool *pool;
	struct objfiles *files;	/* every file opened, once */

	struct elfobj **objs;	/* by interned path pointer: the items of otab */
	size_t nobjs, objs_cap;
	struct htab otab;
	struct dso **dsov;	/* by (obj, build id): the items of dtab */
	size_t ndsov, dsov_cap;
	struct htab dtab;

	struct dso kernel;
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
	struct dso **kmods;	/* the kernel modules' dsos, by interned name */
	size_t nkmods, kmods_cap;
	struct kallsyms kp;	/* the thread's result; adopted by kernel_load() */
	struct kallsyms k;

	struct cent *cache;	/* by (key, addr): the items of ctab */
	size_t ncache, cache_cap;
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
};

/* --- small helpers -------------------------------------------------------- */

/*
 * A message. One line per warning: control bytes of a hostile path would
 * break it, so they become '?'.
 */
__attribute__((format(printf, 1, 0)))
static char *format_msg(const char *fmt, va_list ap)
{
	va_list again;
	char *msg;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0) {
		va_end(again);
		return NULL;
	}
	msg = xmalloc((size_t)n + 1);
	vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return msg;
}

#define WARN_MAX 20

/*
 * Warnings are kept sorted: which sample first needs a file can depend on
 * when the loader finished with it (see session_unordered()), and the
 * same profile must give the same messages.
 */
static void add_warning(struct symbols *s, char *msg)
{
	size_t i;

	if (!msg)
		return;
	/*
	 * At most WARN_MAX are kept, the first in sort order: a profile of
	 * thousands of missing files must not print thousands of lines (nor
	 * sort them in quadratic time); the rest are counted.
	 */
	if (s->nwarnings == WARN_MAX) {
		s->warnings_dropped++;
		if (strcmp(s->warnings[WARN_MAX - 1], msg) <= 0) {
			free(msg);
			return;
		}
		free(s->warnings[--s->nwarnings]);
	}
	s->warnings = xreallocarray(s->warnings, s->nwarnings + 2, sizeof(*s->warnings));
	for (i = s->nwarnings; i > 0 && strcmp(s->warnings[i - 1], msg) > 0; i--)
		s->warnings[i] = s->warnings[i - 1];
	s->warnings[i] = msg;
	s->warnings[++s->nwarnings] = NULL;
}

__attribute__((format(printf, 2, 3)))
static void warn(struct symbols *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_warning(s, format_msg(fmt, ap));
	va_end(ap);
}

/* A file's warning waits in the file: the loader thread may be opening it. */
__attribute__((format(printf, 2, 3)))
static void obj_warn(struct elfobj *obj, const char *fmt, ...)
{
	va_list ap;

	if (obj->warning)
		return;
	va_start(ap, fmt);
	obj->warning = format_msg(fmt, ap);
	va_end(ap);
}

static int ends_with(const char *str, const char *suffix)
{
	size_t n = strlen(str), m = strlen(suffix);

	return n >= m && !memcmp(str + n - m, suffix, m);
}

static const char *intern_name_raw(struct symbols *s, const char *raw, size_t len);

/*
 * The name interned, demangled first when asked and it is a C++ name,
 * with no control characters: it goes out as text (strpool_intern_text).
 */
static const char *intern_name_len(struct symbols *s, const char *raw, size_t len)
{
	const char *name = intern_name_raw(s, raw, len);

	return strpool_intern_text(s->pool, name, strlen(name));
}

static const char *intern_name_raw(struct symbols *s, const char *raw, size_t len)
{
	const char *name = strpool_intern_len(s->pool, raw, len);
	char *plain;
	struct htab_probe p;
	uint32_t i;

	/*
	 * Only mangled names: the Itanium ABI's "_Z" (C++, and Rust's legacy
	 * scheme inside it) and Rust's v0 "_R"; others would demangle as types.
	 */
	if (!s->o.demangle || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return name;
	htab_probe(&s->dmtab, (uint64_t)(uintptr_t)name, &p);
	while (htab_next(&s->dmtab, &p, &i))
		if (s->dm[i].mangled == name)
			return s->dm[i].plain;
	/*
	 * libiberty's demangler, GCC's and binutils': C++, Rust legacy (the
	 * ::h<hash> dropped, $LT$ and the like decoded) and Rust v0. As perf
	 * spells names: no parameter lists unless asked.
	 */
	{
		int opts = s->o.params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;

		/*
		 * Rust first: its legacy names are Itanium names too (what
		 * cplus_demangle does in its AUTO style, without the part of
		 * libiberty that wants an xmalloc of the program's).
		 */
		plain = rust_demangle(name, opts);
		if (!plain && name[1] == 'Z')
			plain = cplus_demangle_v3(name, opts);
	}
	if (s->ndm == s->dm_cap) {
		s->dm_cap = s->dm_cap ? 2 * s->dm_cap : 64;
		s->dm = xreallocarray(s->dm, s->dm_cap, sizeof(*s->dm));
	}
	s->dm[s->ndm].mangled = name;
	s->dm[s->ndm].plain = plain && plain[0] ? strpool_intern_text(s->pool, plain, strlen(plain))
					      : name;
	free(plain);
	htab_put(&s->dmtab, &p, (uint32_t)s->ndm);
	return s->dm[s->ndm++].plain;
}

static const char *intern_name(struct symbols *s, const char *raw)
{
	return intern_name_len(s, raw, strlen(raw));
}

/* --- the resolution cache ------------------------------------------------- */

static struct frame_info *push_frame(struct symbols *s)
{
	struct frame_info *f;

	if (s->nframes == s->frames_cap) {
		s->frames_cap = s->frames_cap ? 2 * s->frames_cap : 4096;
		s->frames = xreallocarray(s->frames, s->frames_cap, sizeof(*s->frames));
	}
	f = &s->frames[s->nframes++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* --- ELF files ------------------------------------------------------------ */

/* Which of two symbols at one address names it: perf's choice, so that the
 * two tools agree: sized, not weak, global, fewer leading '_', longer. */
static int sym_rank_cmp(const GElf_Sym *a, const char *an, const GElf_Sym *b, const char *bn)
{
	size_t ua = strspn(an, "_"), ub = strspn(bn, "_");
	size_t la, lb;

	if (!a->st_size != !b->st_size)
		return a->st_size ? -1 : 1;
	if ((GELF_ST_BIND(a->st_info) == STB_WEAK) != (GELF_ST_BIND(b->st_info) == STB_WEAK))
		return GELF_ST_BIND(a->st_info) == STB_WEAK ? 1 : -1;
	if ((GELF_ST_BIND(a->st_info) == STB_GLOBAL) != (GELF_ST_BIND(b->st_info) == STB_GLOBAL))
		return GELF_ST_BIND(a->st_info) == STB_GLOBAL ? -1 : 1;
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(an);
	lb = strlen(bn);
	if (la != lb)
		return la > lb ? -1 : 1;
	return strcmp(an, bn);
}

struct rawsym {
	struct fsym f;
	GElf_Sym sym;
	uint64_t sec_end;	/* end of its section, for sizeless symbols */
};

static int rawsym_cmp(const void *pa, const void *pb)
{
	const struct rawsym *a = pa, *b = pb;

	if (a->f.start != b->f.start)
		return a->f.start < b->f.start ? -1 : 1;
	return sym_rank_cmp(&a->sym, a->f.name, &b->sym, b->f.name);
}

/*
 * The function symbols of the module (.symtab of the file or of its debug
 * file, else .dynsym, plus MiniDebugInfo: what libdwfl chose), sorted once.
 * dwfl_module_addrsym looks through the whole table on every call, which a
 * profile with many distinct addresses cannot afford. The rules are its
 * own: a sized symbol containing the address wins; failing that, a sizeless
 * one (assembly) reaches to the next symbol or the end of its section, and
 * never from inside a sized symbol.
 */
static void index_symbols(struct elfobj *obj)
{
	int n = dwfl_module_getsymtab(obj->mod);
	struct rawsym *raw;
	size_t nraw = 0, k = 0;
	uint64_t maxend = 0;

	if (n <= 1)
		return;
	raw = xcalloc((size_t)n, sizeof(*raw));
	for (int i = 1; i < n; i++) {
		struct rawsym *r = &raw[nraw];
		GElf_Addr addr, bias;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(obj->mod, i, &r->sym, &addr, &shndx,
							   &elf, &bias);
		int type = GELF_ST_TYPE(r->sym.st_info);
		GElf_Shdr shdr;

		if (!name || !name[0] || r->sym.st_shndx == SHN_UNDEF)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
			continue;
		/* shndx is -1 outside SHF_ALLOC sections; ABS and COMMON are no code. */
		if (shndx == (GElf_Word)-1 || shndx == SHN_UNDEF ||
		    (shndx >= SHN_LORESERVE && shndx <= SHN_HIRESERVE))
			continue;
		r->sec_end = UINT64_MAX;
		if (type == STT_NOTYPE || r->sym.st_size == 0) {
			Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

			if (!scn || !gelf_getshdr(scn, &shdr))
				continue;
			/* An untyped label is code only in code. */
			if (type == STT_NOTYPE && !(shdr.sh_flags & SHF_EXECINSTR))
				continue;
			r->sec_end = shdr.sh_addr + shdr.sh_size + bias;
		}
		if (r->sym.st_size && addr + r->sym.st_size < addr)
			continue;
		r->f.start = addr;
		r->f.end = addr + r->sym.st_size;
		r->f.name = name;
		/* .symtab keeps the versions of .symver names; .dynsym does not. */
		r->f.name_len = strchr(name + 1, '@') ? (size_t)(strchr(name + 1, '@') - name)
						      : strlen(name);
		nraw++;
	}
	qsort(raw, nraw, sizeof(*raw), rawsym_cmp);

	obj->syms = xcalloc(nraw ? nraw : 1, sizeof(*obj->syms));
	obj->maxend = xcalloc(nraw ? nraw : 1, sizeof(*obj->maxend));
	for (size_t i = 0; i < nraw; i++) {
		struct rawsym *r = &raw[i];

		/* The first at an address is the best (rawsym_cmp): aliases go. */
		if (i && raw[i - 1].f.start == r->f.start)
			continue;
		if (!r->sym.st_size) {
			size_t j = i + 1;

			if (r->f.start < maxend)
				continue;	/* a label inside a sized symbol */
			while (j < nraw && raw[j].f.start == r->f.start)
				j++;
			r->f.end = j < nraw && raw[j].f.start < r->sec_end ? raw[j].f.start
									     : r->sec_end;
			if (r->f.end <= r->f.start)
				continue;
		}
		if (r->f.end > maxend)
			maxend = r->f.end;
		obj->syms[k] = r->f;
		obj->maxend[k] = maxend;
		k++;
	}
	obj->nsyms = k;
	free(raw);
}

static struct fsym *find_symbol(const struct elfobj *obj, uint64_t a);

/* Whether a symbol of obj's own tables starts at a. */
static int starts_at(const struct elfobj *obj, uint64_t a)
{
	size_t lo = 0, hi = obj->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->syms[mid].start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < obj->nsyms && obj->syms[lo].start == a;
}

static int fsym_cmp(const void *pa, const void *pb)
{
	const struct fsym *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* The ELF section named name, or NULL. */
static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * Names the symbol tables lack, put among obj's symbols:
 * - a Go program's functions from its own table, .gopclntab, which Go
 *   keeps in a stripped binary too (hugo: 73% of its samples unnamed);
 *   only where there is no .symtab, which would name them already;
 * - the entry point the ELF header gives, as _start, where no symbol
 *   covers it (a stripped program's _start read 'sqlite3+0xa7a1'): up to
 *   the next symbol, 64 bytes at most (glibc's is 38 on x86-64).
 */
static void extra_symbols(struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh)
{
	struct fsym *extra = NULL;
	size_t nextra = 0, cap = 0;
	GElf_Shdr sh, text;
	Elf_Scn *scn;
	Elf_Data *d;

	if (!section_named(elf, ".symtab", &sh) && (scn = section_named(elf, ".gopclntab", &sh)) &&
	    sh.sh_type != SHT_NOBITS && (d = elf_getdata(scn, NULL)) && d->d_buf) {
		struct gofunc *gf;
		uint64_t t = section_named(elf, ".text", &text) ? text.sh_addr : 0;
		size_t n = gosym_read(d->d_buf, d->d_size, t, &gf);

		extra = xgrow(extra, &cap, n + 1, sizeof(*extra));
		for (size_t i = 0; i < n; i++) {
			if (starts_at(obj, gf[i].start + obj->bias))
				continue;	/* .dynsym's (cgo): the symbol table's wins */
			extra[nextra].start = gf[i].start + obj->bias;
			extra[nextra].end = gf[i].end + obj->bias;
			extra[nextra].name = gf[i].name;
			extra[nextra].name_len = strlen(gf[i].name);
			extra[nextra++].die = 0;
		}
		free(gf);
	}
	if (eh->e_entry && !find_symbol(obj, eh->e_entry + obj->bias)) {
		uint64_t start = eh->e_entry + obj->bias, end = start + 64;
		int covered = 0;

		for (size_t i = 0; i < obj->nsyms; i++)
			if (obj->syms[i].start > start && obj->syms[i].start < end)
				end = obj->syms[i].start;
		for (size_t i = 0; i < nextra; i++) {
			covered |= extra[i].start <= start && start < extra[i].end;
			if (extra[i].start > start && extra[i].start < end)
				end = extra[i].start;
		}
		if (!covered) {
			extra = xgrow(extra, &cap, nextra + 1, sizeof(*extra));
			extra[nextra].start = start;
			extra[nextra].end = end;
			extra[nextra].name = "_start";
			extra[nextra].name_len = 6;
			extra[nextra++].die = 0;
		}
	}
	if (!nextra) {
		free(extra);
		return;
	}
	/* merged and sorted again; no two start at one address (starts_at()) */
	obj->syms = xreallocarray(obj->syms, obj->nsyms + nextra, sizeof(*obj->syms));
	memcpy(obj->syms + obj->nsyms, extra, nextra * sizeof(*extra));
	free(extra);
	qsort(obj->syms, obj->nsyms + nextra, sizeof(*obj->syms), fsym_cmp);
	{
		size_t k = 0;
		uint64_t maxend = 0;

		obj->maxend = xreallocarray(obj->maxend, obj->nsyms + nextra, sizeof(*obj->maxend));
		for (size_t i = 0; i < obj->nsyms + nextra; i++) {
			obj->syms[k] = obj->syms[i];
			if (obj->syms[k].end > maxend)
				maxend = obj->syms[k].end;
			obj->maxend[k++] = maxend;
		}
		obj->nsyms = k;
	}
}

static struct fsym *find_symbol(const struct elfobj *obj, uint64_t a)
{
	size_t lo = 0, hi = obj->nsyms;

	/* The last symbol starting at or before a ... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->syms[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ... or, when it ends before a, an earlier one that holds it. */
	for (size_t i = lo, seen = 0; i-- > 0 && seen < SCAN_MAX; seen++) {
		if (obj->maxend[i] <= a)
			break;
		if (a < obj->syms[i].end)
			return &obj->syms[i];
	}
	return NULL;
}

/* The file's loadable segments with bytes in the file. */
static void load_segments(struct elfobj *obj)
{
	const struct objfile *f = obj->file;

	obj->loads = xcalloc(f->nload ? f->nload : 1, sizeof(*obj->loads));
	for (size_t i = 0; i < f->nload; i++) {
		const GElf_Phdr *ph = &f->load[i];

		if (!ph->p_filesz || ph->p_offset + ph->p_filesz < ph->p_offset)
			continue;
		obj->loads[obj->nloads].off = ph->p_offset;
		obj->loads[obj->nloads].size = ph->p_filesz;
		obj->loads[obj->nloads].vaddr = ph->p_vaddr;
		obj->nloads++;
	}
}

/* Open, report to libdwfl and index the file; on failure say why, once. */
static void obj_open(struct symbols *s, struct elfobj *obj)
{
	const char *path = obj->path;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd, err = 0;
	GElf_Ehdr eh;
	Elf *elf;

	obj->state = OBJ_BROKEN;
	if (ends_with(path, " (deleted)")) {
		obj_warn(obj, "%.*s was deleted after it was mapped",
		     (int)(strlen(path) - strlen(" (deleted)")), path);
		return;
	}
	/* the one open of the file, which the unwinder reads too */
	obj->file = objfiles_get(s->files, obj->where);
	if (obj->file->fd < 0) {
		err = obj->file->err;
		obj_warn(obj, "cannot open %s: %s", obj->where,
		     err == ENODEV ? "not a regular file" : strerror(err));
		return;
	}
	fd = dup(obj->file->fd);	/* libdwfl's own, to close */
	if (fd < 0) {
		obj_warn(obj, "cannot open %s: %s", obj->where, strerror(errno));
		return;
	}

	obj->dwfl = dwfl_begin(&s->cb);
	if (!obj->dwfl) {
		obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		close(fd);
		return;
	}
	dwfl_report_begin(obj->dwfl);
	/* Base 0, p_vaddr added: module addresses are the ELF's own vaddrs. */
	obj->mod = dwfl_report_elf(obj->dwfl, base, obj->where, fd, 0, true);
	if (!obj->mod) {
		/* libdwfl takes the descriptor only when it succeeds. */
		obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		close(fd);
		return;
	}
	dwfl_report_end(obj->dwfl, NULL, NULL);
	elf = dwfl_module_getelf(obj->mod, &obj->bias);
	if (!elf) {
		obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		return;
	}
	if (!gelf_getehdr(elf, &eh)) {
		obj_warn(obj, "cannot open %s: %s", obj->where, elf_errmsg(-1));	/* libelf's */
		return;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		obj_warn(obj, "cannot open %s: not an executable or a shared library", obj->where);
		return;
	}
	load_segments(obj);
	obj->build_id = obj->file->build_id;
	obj->build_id_len = obj->file->build_id_len;
	index_symbols(obj);
	extra_symbols(obj, elf, &eh);
	obj->state = OBJ_READY;
}

int build_id_equal(const unsigned char *recorded, size_t recorded_len,
		   const unsigned char *file, size_t file_len)
{
	if (!file || !file_len || file_len > recorded_len)
		return 0;
	if (memcmp(recorded, file, file_len))
		return 0;
	for (size_t i = file_len; i < recorded_len; i++)
		if (recorded[i])
			return 0;
	return 1;
}

static int build_id_matches(const struct dso *d, const struct elfobj *obj)
{
	return build_id_equal(d->build_id, d->build_id_len, obj->build_id, obj->build_id_len);
}

static int is_special(const char *path);

/* Resolving wants DWARF: for inline frames and source lines. */
static int wants_dwarf(const struct symbols *s)
{
	return s->o.inline_frames || s->o.srcline;
}

/*
 * Open a file, and load its DWARF when resolving will want it: that is
 * where the time goes (libc6-dbg's compressed .debug_info takes 40 ms to
 * inflate). The loader thread runs the second half for big debug files.
 */
static void obj_load_dwarf(struct elfobj *obj)
{
	Dwarf_Addr bias;

	dwfl_module_getdwarf(obj->mod, &bias);
}

static void obj_load(struct symbols *s, struct elfobj *obj)
{
	obj_open(s, obj);
	if (obj->state == OBJ_READY && wants_dwarf(s))
		obj_load_dwarf(obj);
}

/* DWARF worth a thread: what inflating costs about 1 ms for. */
#define DWARF_HEAVY	(256 * 1024)

/*
 * Whether loading obj's DWARF is slow: its .debug_info, or its separate
 * debug file by build id, is big; or debuginfod may be asked for it.
 */
static int dwarf_heavy(const struct symbols *s, const struct elfobj *obj)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(obj->mod, &bias);
	GElf_Shdr sh;
	char path[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	if (elf && section_named(elf, ".debug_info", &sh) && sh.sh_type != SHT_NOBITS)
		return sh.sh_size > DWARF_HEAVY;
	if (!obj->build_id || obj->build_id_len < 2)
		return 0;
	snprintf(dir, sizeof(dir), "%s/usr/lib/debug", s->symfs ? s->symfs : "");
	if (buildid_path(path, sizeof(path), dir, obj->build_id, obj->build_id_len, ".debug") == 0 &&
	    stat(path, &st) == 0)
		return st.st_size > DWARF_HEAVY;
	/* Not here: libdwfl may ask debuginfod, over the network. */
	return getenv("DEBUGINFOD_URLS") && getenv("DEBUGINFOD_URLS")[0];
}

/* Make obj opened (or broken) and loaded: wait for the loader, or do it here. */
static void obj_settle(struct symbols *s, struct elfobj *obj)
{
	int mine;

	if (!s->lthread_on) {
		if (obj->state == OBJ_NEW)
			obj_load(s, obj);
		return;
	}
	pthread_mutex_lock(&s->lmu);
	while (obj->loading)
		pthread_cond_wait(&s->ldone, &s->lmu);
	mine = obj->state == OBJ_NEW;
	obj->loading = mine;
	pthread_mutex_unlock(&s->lmu);
	if (!mine)
		return;
	obj_load(s, obj);
	pthread_mutex_lock(&s->lmu);
	obj->loading = 0;
	pthread_mutex_unlock(&s->lmu);
}

/* The loader: loads the DWARF of files handed to it, in turn. */
static void *loader_main(void *arg)
{
	struct symbols *s = arg;

	pthread_setname_np(pthread_self(), "prof-load");
	pthread_mutex_lock(&s->lmu);
	for (;;) {
		struct elfobj *obj;

		while (s->lq_head == s->lq_n && !s->lstop)
			pthread_cond_wait(&s->lwork, &s->lmu);
		if (s->lstop)
			break;
		obj = s->lq[s->lq_head++];
		pthread_mutex_unlock(&s->lmu);
		obj_load_dwarf(obj);
		pthread_mutex_lock(&s->lmu);
		obj->loading = 0;
		pthread_cond_broadcast(&s->ldone);
	}
	pthread_mutex_unlock(&s->lmu);
	return NULL;
}

/* Hand obj, opened and marked loading, to the loader; 0, or -1 without one. */
static int loader_give(struct symbols *s, struct elfobj *obj)
{
	if (!s->lthread_on && !s->lstop) {
		s->lthread_on = pthread_create(&s->lthread, NULL, loader_main, s) == 0;
		s->lstop = !s->lthread_on;	/* no thread: resolves load files */
	}
	if (!s->lthread_on)
		return -1;
	pthread_mutex_lock(&s->lmu);
	if (s->lq_n == s->lq_cap && s->lq_head) {
		/* drop what the loader has taken before growing */
		memmove(s->lq, s->lq + s->lq_head, (s->lq_n - s->lq_head) * sizeof(*s->lq));
		s->lq_n -= s->lq_head;
		s->lq_head = 0;
	}
	if (s->lq_n == s->lq_cap) {
		s->lq_cap = s->lq_cap ? 2 * s->lq_cap : 64;
		s->lq = xreallocarray(s->lq, s->lq_cap, sizeof(*s->lq));
	}
	s->lq[s->lq_n++] = obj;
	pthread_cond_signal(&s->lwork);
	pthread_mutex_unlock(&s->lmu);
	return 0;
}

int dso_ready(struct dso *d)
{
	struct symbols *s = d->s;
	struct elfobj *obj = d->obj;
	int busy;

	if (!obj) {
		/* The kernel: ready once kallsyms is read. */
		if (s->kloaded || !s->kthread_on)
			return 1;
		if (pthread_tryjoin_np(s->kthread, NULL) != 0)
			return 0;
		s->kthread_on = 0;
		s->kjoined = 1;
		return 1;
	}
	if (d->checked)
		return 1;
	if (s->lthread_on) {
		pthread_mutex_lock(&s->lmu);
		busy = obj->loading;
		pthread_mutex_unlock(&s->lmu);
		if (busy)
			return 0;
	}
	if (obj->state != OBJ_NEW)
		return 1;
	/*
	 * Opening and indexing a file is quick: here. Its DWARF, when big,
	 * goes to the loader, and the caller comes back to it later.
	 */
	obj_open(s, obj);
	if (obj->state != OBJ_READY || !wants_dwarf(s))
		return 1;
	if (dwarf_heavy(s, obj)) {
		if (s->lthread_on) {
			pthread_mutex_lock(&s->lmu);
			obj->loading = 1;
			pthread_mutex_unlock(&s->lmu);
		} else {
			obj->loading = 1;	/* the thread is not there yet */
		}
		if (loader_give(s, obj) == 0)
			return 0;
		obj->loading = 0;
	}
	obj_load_dwarf(obj);
	return 1;
}

static int is_special(const char *path);
static struct elfobj *obj_get_where(struct symbols *s, const char *path, const char *where);

/* Whether path is a regular file (through links). */
static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The file of d's recorded build id, elsewhere than its recorded path:
 * perf's build-id cache ($PERF_BUILDID_DIR, else ~/.debug: .build-id/ab/
 * cdef.../elf, or the older .build-id/ab/cdef... itself), then the debug
 * directory (/usr/lib/debug/.build-id/ab/cdef....debug, which names
 * functions though it holds no code); each under --symfs first, and with
 * --strict-symfs only there. NULL when none has that build id.
 */
static struct elfobj *by_build_id(struct symbols *s, const struct dso *d)
{
	char path[PATH_MAX], cache[PATH_MAX], dir[2 * PATH_MAX];
	const char *roots[2] = { s->symfs, s->o.strict_symfs ? NULL : "" };
	size_t len = d->build_id_len;

	/* perf pads 20-byte ids with zeros; the name is the file's own length */
	while (len > 20 && !d->build_id[len - 1])
		len--;
	if (len < 2)
		return NULL;
	if (buildid_cache_dir(cache, sizeof(cache)))
		cache[0] = '\0';
	for (int r = 0; r < 2; r++) {
		const char *root = roots[r];
		static const char *const tails[3] = { "/elf", "", ".debug" };

		if (!root)
			continue;
		for (int k = 0; k < 3; k++) {
			struct elfobj *alt;

			if (k < 2 && !cache[0])
				continue;
			snprintf(dir, sizeof(dir), "%s%s", root, k < 2 ? cache : "/usr/lib/debug");
			if (buildid_path(path, sizeof(path), dir, d->build_id, len, tails[k]) ||
			    !is_file(path))
				continue;
			alt = obj_get_where(s, path, path);
			obj_settle(s, alt);
			if (alt->warning) {	/* a file that does not open is no answer */
				free(alt->warning);
				alt->warning = NULL;
			}
			if (alt->state == OBJ_READY && build_id_matches(d, alt))
				return alt;
		}
	}
#ifdef HAVE_DEBUGINFOD
	/* the servers of $DEBUGINFOD_URLS, as perf and gdb ask them; not with --strict-symfs */
	{
		const char *urls = getenv("DEBUGINFOD_URLS");
		debuginfod_client *c;
		char *got = NULL;
		int fd;

		if (s->o.strict_symfs || !urls || !urls[0] || !(c = debuginfod_begin()))
			return NULL;
		fd = debuginfod_find_executable(c, d->build_id, (int)len, &got);
		debuginfod_end(c);
		if (fd >= 0) {
			struct elfobj *alt;

			close(fd);
			alt = obj_get_where(s, got, got);
			free(got);
			obj_settle(s, alt);
			if (alt->warning) {
				free(alt->warning);
				alt->warning = NULL;
			}
			if (alt->state == OBJ_READY && build_id_matches(d, alt))
				return alt;
		}
	}
#endif
	return NULL;
}

static void dso_check(struct dso *d)
{
	struct symbols *s = d->s;
	struct elfobj *obj = d->obj, *alt;
	int other;

	d->checked = 1;
	obj_settle(s, obj);
	if (obj->warning) {
		add_warning(s, obj->warning);
		obj->warning = NULL;
	}
	if (obj->state == OBJ_READY && !(d->build_id_len && !build_id_matches(d, obj)))
		return;
	if (obj->state != OBJ_READY && is_special(obj->path)) {
		d->dead = 1;	/* [vdso], //anon and the like: nothing to open, nothing to say */
		return;
	}
	/* Missing, deleted, or a different build: its names would be wrong. */
	other = obj->state == OBJ_READY;
	alt = d->build_id_len ? by_build_id(s, d) : NULL;
	if (alt) {
		d->res = alt;
		warn(s, "%s %s; its frames are named from %s, of the recorded build id", obj->path,
		     other ? "is another build" : "is gone", alt->where);
		return;
	}
	/* No file anywhere: offsets into the file, as perf shows them. */
	d->dead = 1;
	if (other)
		warn(s, "build id of %s differs from the recorded one, and no file has it; its "
			"frames show as offsets into it", obj->where);
}

/* A function's scope in its CU: "geo::Grid::" for a DIE offset (cu set: the CU itself, indexed). */
struct scope_ent {
	const void *dw;
	uint64_t off;
	const char *prefix;	/* interned; "" at top level */
};

#define SCOPE_CU (1ULL << 63)	/* marks a CU's own entry: its scopes are indexed */

static int is_container(int tag);
static void die_origin(Dwarf_Die *die, Dwarf_Die *out);

static struct scope_ent *scope_find(struct elfobj *obj, const void *dw, uint64_t off,
				    struct htab_probe *p)
{
	uint32_t i;

	htab_probe(&obj->stab, off ^ (uint64_t)(uintptr_t)dw, p);
	while (htab_next(&obj->stab, p, &i))
		if (obj->scopes[i].dw == dw && obj->scopes[i].off == off)
			return &obj->scopes[i];
	return NULL;
}

static void scope_add(struct elfobj *obj, const void *dw, uint64_t off, const char *prefix)
{
	struct htab_probe p;

	if (scope_find(obj, dw, off, &p))
		return;
	if (obj->nscopes == obj->scopes_cap) {
		obj->scopes_cap = obj->scopes_cap ? 2 * obj->scopes_cap : 64;
		obj->scopes = xreallocarray(obj->scopes, obj->scopes_cap, sizeof(*obj->scopes));
	}
	obj->scopes[obj->nscopes].dw = dw;
	obj->scopes[obj->nscopes].off = off;
	obj->scopes[obj->nscopes].prefix = prefix;
	htab_put(&obj->stab, &p, (uint32_t)obj->nscopes++);
}

/* Whether the class die has an operator(): a closure, as C++ lambdas are. */
static int has_call_operator(Dwarf_Die *die)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return 0;
	do {
		const char *n = dwarf_diename(&c);

		if (dwarf_tag(&c) == DW_TAG_subprogram && n && !strcmp(n, "operator()"))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/*
 * One walk of a CU: the scope of every subprogram in it, from the names
 * of the namespaces, classes and functions around it (a lambda's
 * operator() is in its closure's class, in the function that made it).
 */
static void index_scopes(struct symbols *s, struct elfobj *obj, Dwarf_Die *parent, char *buf,
			 size_t len, size_t cap, int depth, long *budget)
{
	Dwarf_Die c;

	if (depth > 24 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *n;
		size_t l;
		char saved[1024];
		size_t saved_len = len;

		memcpy(saved, buf, len + 1);
		l = len;
		if (tag == DW_TAG_subprogram)
			scope_add(obj, dwarf_cu_getdwarf(c.cu), dwarf_dieoffset(&c),
				  strpool_intern_len(s->pool, buf, len));
		if (!dwarf_haschildren(&c))
			continue;
		if (is_container(tag) || tag == DW_TAG_subprogram) {
			n = dwarf_diename(&c);
			/*
			 * A function defined out of its class or namespace: its scope
			 * is its declaration's, met earlier in the walk.
			 */
			if (tag == DW_TAG_subprogram && n) {
				Dwarf_Die decl;
				struct htab_probe p;
				const struct scope_ent *e;

				die_origin(&c, &decl);
				if (dwarf_dieoffset(&decl) != dwarf_dieoffset(&c) &&
				    (e = scope_find(obj, dwarf_cu_getdwarf(decl.cu),
						    dwarf_dieoffset(&decl), &p)) &&
				    strlen(e->prefix) < cap) {
					len = strlen(e->prefix);
					memcpy(buf, e->prefix, len + 1);
				}
			}
			if (!n && tag == DW_TAG_namespace)
				n = "(anonymous namespace)";
			if (!n && (tag == DW_TAG_class_type || tag == DW_TAG_structure_type))
				n = has_call_operator(&c) ? "{lambda}" : "{unnamed type}";
			l = len;
			if (n && len + strlen(n) + 3 < cap) {
				memcpy(buf + len, n, strlen(n));
				memcpy(buf + len + strlen(n), "::", 3);
				l = len + strlen(n) + 2;
			}
			index_scopes(s, obj, &c, buf, l, cap, depth + 1, budget);
			memcpy(buf, saved, saved_len + 1);
			len = saved_len;
		} else if (tag == DW_TAG_lexical_block) {
			index_scopes(s, obj, &c, buf, len, cap, depth + 1, budget);
		}
	} while (--*budget > 0 && dwarf_siblingof(&c, &c) == 0);
}

/*
 * The declaration a DIE stands for, through abstract origins (an inlined
 * call's function) and specifications (a member defined out of its class).
 */
static void die_origin(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die tmp;

	*out = *die;
	for (int k = 0; k < 4; k++) {
		if ((dwarf_attr(out, DW_AT_abstract_origin, &a) ||
		     dwarf_attr(out, DW_AT_specification, &a)) && dwarf_formref_die(&a, &tmp))
			*out = tmp;
		else
			break;
	}
}

/* name within the scopes around die's declaration: "geo::Grid::cell". */
static const char *qualified(struct symbols *s, struct elfobj *obj, Dwarf_Die *die,
			     const char *name)
{
	Dwarf_Die decl, cudie;
	struct htab_probe p;
	struct scope_ent *e;
	const void *dw;
	uint64_t off;
	char buf[1024];

	die_origin(die, &decl);
	if (!dwarf_diecu(&decl, &cudie, NULL, NULL))
		return intern_name(s, name);
	/* C has no scopes to name: its functions are what the symbols say */
	switch (dwarf_srclang(&cudie)) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
	case DW_LANG_Rust:
		break;
	default:
		return intern_name(s, name);
	}
	dw = dwarf_cu_getdwarf(decl.cu);
	off = dwarf_dieoffset(&decl);
	e = scope_find(obj, dw, off, &p);
	if (!e) {
		uint64_t cu = dwarf_dieoffset(&cudie) | SCOPE_CU;

		if (!scope_find(obj, dw, cu, &p)) {
			long budget = 1L << 20;	/* DWARF is input: its walk is bounded */

			buf[0] = '\0';
			index_scopes(s, obj, &cudie, buf, 0, sizeof(buf), 0, &budget);
			scope_add(obj, dw, cu, "");
			e = scope_find(obj, dw, off, &p);
		}
	}
	if (!e || !e->prefix[0])
		return intern_name(s, name);
	snprintf(buf, sizeof(buf), "%s%s", e->prefix, name);
	return intern_name(s, buf);
}

/*
 * Function name of a DIE: the linkage name when there is one, so that it
 * reads as the symbol table's does, through abstract origins; else its
 * name within the namespaces and classes around its declaration, as the
 * demangled linkage name would read.
 */
static const char *die_name(struct symbols *s, struct elfobj *obj, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (name && name[0])
		return intern_name(s, name);
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name && name[0] ? qualified(s, obj, die, name) : NULL;
}

static int is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* The scopes within a function that can hold an inlined call (libdw's scope
 * walk descends into the same ones). */
static int is_inner_scope(int tag)
{
	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_try_block || tag == DW_TAG_catch_block || tag == DW_TAG_with_stmt;
}

static int clamp_line(Dwarf_Word v)
{
	return v > INT_MAX ? 0 : (int)v;
}

/*
 * The scopes holding pc below the function DIE top, innermost first, top
 * last, into chain[CHAIN_MAX]. A DIE budget bounds the walk: the tree is
 * input.
 */
static int descend(Dwarf_Die *top, Dwarf_Addr pc, Dwarf_Die *chain)
{
	Dwarf_Die path[CHAIN_MAX];
	long budget = 1L << 20;
	int n = 0;

	path[n++] = *top;
	while (n < CHAIN_MAX) {
		Dwarf_Die c;
		int found = 0;

		if (dwarf_child(&path[n - 1], &c) != 0)
			break;
		do {
			if (is_inner_scope(dwarf_tag(&c)) && dwarf_haspc(&c, pc) == 1) {
				found = 1;
				break;
			}
		} while (--budget > 0 && dwarf_siblingof(&c, &c) == 0);
		if (!found)
			break;
		path[n++] = c;
	}
	for (int i = 0; i < n; i++)
		chain[i] = path[n - 1 - i];
	return n;
}

/* DIEs that hold functions without being one: C++ namespaces and classes. */
static int is_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_interface_type;
}

/*
 * The concrete functions of a CU by address: a libc6-dbg or CPython CU
 * has thousands of top-level DIEs, and dwarf_getscopes parses them all to
 * find one function; looking among them for each new function was 30% of
 * a dwarf report of Python. So a CU's functions are listed once, the first
 * time an address falls in it, looking into containers (namespaces,
 * classes) but stepping over every other subtree.
 */
struct cufn {
	Dwarf_Addr lo, hi;
	Dwarf_Die die;
};

struct cuidx {
	Dwarf *dw;
	Dwarf_Off off;		/* the CU DIE's */
	struct cufn *fn;	/* sorted by lo */
	size_t n, cap;
};

static void list_functions(Dwarf_Die *parent, int depth, struct cuidx *x, long *budget)
{
	Dwarf_Die c;

	if (depth > 8 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			while ((off = dwarf_ranges(&c, off, &base, &lo, &hi)) > 0) {
				if (hi <= lo)
					continue;
				if (x->n == x->cap) {
					x->cap = x->cap ? 2 * x->cap : 64;
					x->fn = xreallocarray(x->fn, x->cap, sizeof(*x->fn));
				}
				x->fn[x->n].lo = lo;
				x->fn[x->n].hi = hi;
				x->fn[x->n++].die = c;
			}
		} else if (is_container(tag) && dwarf_haschildren(&c)) {
			list_functions(&c, depth + 1, x, budget);
		}
	} while (--*budget > 0 && dwarf_siblingof(&c, &c) == 0);
}

static int cufn_cmp(const void *a, const void *b)
{
	const struct cufn *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The concrete function of obj's CU cu holding pc: 1 and *out, or 0. */
static int find_function(struct elfobj *obj, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf *dw = dwarf_cu_getdwarf(cu->cu);
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t lo = 0, hi;
	struct cuidx *x = NULL;
	struct htab_probe p;
	uint32_t j;

	htab_probe(&obj->cutab, off ^ (uint64_t)(uintptr_t)dw, &p);
	while (!x && htab_next(&obj->cutab, &p, &j))
		if (obj->cuidx[j]->off == off && obj->cuidx[j]->dw == dw)
			x = obj->cuidx[j];
	if (!x) {
		long budget = 1L << 20;

		x = xcalloc(1, sizeof(*x));
		x->dw = dw;
		x->off = off;
		list_functions(cu, 0, x, &budget);
		if (x->n > 1) /* a CU without functions leaves x->fn NULL */
			qsort(x->fn, x->n, sizeof(*x->fn), cufn_cmp);
		if (obj->ncuidx == obj->cuidx_cap) {
			obj->cuidx_cap = obj->cuidx_cap ? 2 * obj->cuidx_cap : 16;
			obj->cuidx = xreallocarray(obj->cuidx, obj->cuidx_cap, sizeof(*obj->cuidx));
		}
		obj->cuidx[obj->ncuidx] = x;
		htab_put(&obj->cutab, &p, (uint32_t)obj->ncuidx++);
	}
	/* the last range starting at or below pc, and a few before it (ranges may nest) */
	hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->fn[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++)
		if (pc < x->fn[i].hi) {
			*out = x->fn[i].die;
			return 1;
		}
	return 0;
}

static void free_scopes(struct elfobj *obj)
{
	free(obj->scopes);
	htab_release(&obj->stab);
}

static void free_cuidx(struct elfobj *obj)
{
	for (size_t i = 0; i < obj->ncuidx; i++) {
		free(obj->cuidx[i]->fn);
		free(obj->cuidx[i]);
	}
	free(obj->cuidx);
	htab_release(&obj->cutab);
}

/*
 * The concrete scopes holding module address a, innermost first, ending
 * with the function that holds them, into chain[CHAIN_MAX]; *dbias is
 * DWARF's bias. As elfutils' addr2line -i and stack -i do: the innermost
 * function-like scope from dwarf_getscopes, then its parents from
 * dwarf_getscopes_die (dwarf_getscopes goes on into the abstract origin's
 * scopes, which are no callers). That walks the whole CU, so the function's
 * DIE is remembered in its symbol, and the next address of the function
 * only searches the function's own subtree.
 */
static int scope_chain(struct elfobj *obj, struct fsym *sym, Dwarf_Addr a, Dwarf_Die *chain,
		       Dwarf_Addr *dbias)
{
	Dwarf_Die *cu, *scopes = NULL, *full = NULL;
	Dwarf *dw;
	int n = 0, nscopes, nfull = 0;

	*dbias = 0;
	if (sym && sym->die == NO_DIE)
		return 0;
	if (sym && sym->die) {
		Dwarf_Die die;

		dw = dwfl_module_getdwarf(obj->mod, dbias);
		if (dw && dwarf_offdie(dw, sym->die, &die) && dwarf_haspc(&die, a - *dbias) == 1)
			return descend(&die, a - *dbias, chain);
	}
	cu = dwfl_module_addrdie(obj->mod, a, dbias);
	if (!cu) {
		if (sym)
			sym->die = NO_DIE;
		return 0;
	}
	{
		Dwarf_Die fn;

		if (find_function(obj, cu, a - *dbias, &fn)) {
			dw = dwfl_module_getdwarf(obj->mod, &(Dwarf_Addr){ 0 });
			if (sym)
				sym->die = dw && dwarf_cu_getdwarf(fn.cu) == dw ? dwarf_dieoffset(&fn)
										 : 0;
			return descend(&fn, a - *dbias, chain);
		}
	}
	nscopes = dwarf_getscopes(cu, a - *dbias, &scopes);
	for (int i = 0; i < nscopes; i++) {
		if (is_function(dwarf_tag(&scopes[i]))) {
			nfull = dwarf_getscopes_die(&scopes[i], &full);
			break;
		}
	}
	if (sym)
		sym->die = NO_DIE;	/* unless a function turns up */
	for (int i = 0; i < nfull && n < CHAIN_MAX; i++) {
		int tag = dwarf_tag(&full[i]);
		Dwarf_Addr b;

		chain[n++] = full[i];
		if (tag != DW_TAG_subprogram && tag != DW_TAG_entry_point)
			continue;
		/* dwarf_offdie finds it again only in the main debug file. */
		dw = dwfl_module_getdwarf(obj->mod, &b);
		if (sym)
			sym->die = dw && dwarf_cu_getdwarf(full[i].cu) == dw ? dwarf_dieoffset(&full[i])
									    : 0;
		break;
	}
	free(scopes);
	free(full);
	return n;
}

/* The frames of module address a, appended to s->frames; their count. */
static int resolve_file(struct symbols *s, struct elfobj *obj, uint64_t off)
{
	struct fsym *sym;
	const char *name = NULL, *file = NULL;
	uint64_t a = 0, sym_offset = 0;
	Dwarf_Die chain[CHAIN_MAX], *outer = NULL, cudie;
	Dwarf_Addr dbias = 0;
	Dwarf_Files *files = NULL;
	int line = 0, nchain = 0, n = 0, found = 0;
	struct frame_info *f;

	for (size_t i = 0; i < obj->nloads; i++) {
		const struct load *l = &obj->loads[i];

		if (off - l->off < l->size) {
			a = off - l->off + l->vaddr + obj->bias;
			found = 1;
			break;
		}
	}
	if (!found)
		return 0;
	sym = find_symbol(obj, a);
	if (sym) {
		name = intern_name_len(s, sym->name, sym->name_len);
		sym_offset = a - sym->start;
	}
	if (s->o.inline_frames || !name)
		nchain = scope_chain(obj, sym, a, chain, &dbias);
	for (int i = 0; i < nchain; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) {
			outer = &chain[i];
			nchain = i;	/* what is left is inlined into outer */
			break;
		}
	}
	/* No symbol (a stripped file with DWARF): the function DWARF names. */
	if (!name && outer) {
		Dwarf_Addr entry;

		name = die_name(s, obj, outer);
		if (name && dwarf_entrypc(outer, &entry) == 0 && entry + dbias <= a)
			sym_offset = a - (entry + dbias);
	}
	if (!name)
		return 0;

	if (s->o.srcline) {
		Dwfl_Line *l = dwfl_module_getsrc(obj->mod, a);
		const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;

		file = src ? strpool_intern_text(s->pool, src, strlen(src)) : NULL;
		if (!file || line < 0)
			line = 0;
		if (s->o.inline_frames && nchain && dwarf_diecu(&chain[0], &cudie, NULL, NULL) &&
		    dwarf_getsrcfiles(&cudie, &files, NULL) != 0)
			files = NULL;
	}
	/*
	 * Each inlined frame's line is where it is; the call site it records
	 * is the line of the frame it was inlined into.
	 */
	for (int i = 0; s->o.inline_frames && i < nchain && n < CHAIN_MAX - 1; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word v;

		if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine)
			continue;
		f = push_frame(s);
		f->name = die_name(s, obj, &chain[i]);
		f->inlined = 1;
		f->file = file;
		f->line = line;
		n++;
		if (!s->o.srcline)
			continue;
		file = NULL;
		line = 0;
		if (files && dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &attr), &v) == 0) {
			const char *src = dwarf_filesrc(files, v, NULL, NULL);

			file = src ? strpool_intern_text(s->pool, src, strlen(src)) : NULL;
		}
		if (file && dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &attr), &v) == 0)
			line = clamp_line(v);
	}
	f = push_frame(s);
	f->name = name;
	f->sym_offset = sym_offset;
	f->file = file;
	f->line = line;
	return n + 1;
}

/* --- the kernel ----------------------------------------------------------- */

/*
 * The kernel makes /proc/kallsyms' text as it is read, 40 to 120 ms for
 * 120k symbols, and parsing and sorting them takes more: as long as the
 * rest of a small report. Unless the cache has them, a thread does it all
 * from symbols_new() on, on the other CPU, while the profile is read; the
 * first kernel lookup joins it.
 */
static void *kernel_prefetch(void *arg)
{
	struct symbols *s = arg;

	pthread_setname_np(pthread_self(), "prof-kallsyms");
	kallsyms_load(&s->kp, s->kpath, s->kcache_dir);
	return NULL;
}

static void kernel_join(struct symbols *s)
{
	if (s->kthread_on) {
		pthread_join(s->kthread, NULL);
		s->kthread_on = 0;
		s->kjoined = 1;
	}
}

/*
 * KASLR places the kernel anew at each boot: kallsyms of another boot than
 * the profile's would name every kernel frame wrong. The profile's kernel
 * map says where _text (or _stext) was; when kallsyms disagrees, kernel
 * frames are [unknown].
 */
static void kernel_check(struct symbols *s)
{
	uint64_t now = s->krec == 1 ? s->k.text_addr : s->krec == 2 ? s->k.stext_addr : 0;
	struct utsname u;

	if (s->kernel.dead)
		return;
	/* a kallsyms file given (not this machine's) may be of the profile's kernel */
	if (!s->o.kallsyms && s->krelease && uname(&u) == 0 && strcmp(u.release, s->krelease)) {
		warn(s, "the profile was recorded on another kernel (%s; this one is %s); kernel "
			"frames show as [unknown]", s->krelease, u.release);
	} else if (s->krec && now && now != s->krec_addr) {
		warn(s, "the kernel was at another address when the profile was recorded (another "
			"boot or machine); kernel frames show as [unknown]");
	} else {
		return;
	}
	s->kernel.dead = 1;
	s->kernel.unknown = 1;
}

void symbols_kernel_release(struct symbols *s, const char *release)
{
	free(s->krelease);
	s->krelease = release && release[0] ? xstrdup(release) : NULL;
	if (s->kloaded && s->k.names)
		kernel_check(s);
}

static struct dso *kernel_module(struct symbols *s, const char *name);

/*
 * A module's name as perf and kallsyms show it: "[nvidia]" for
 * /lib/modules/.../nvidia.ko (or .ko.xz, .ko.zst), '-' made '_'.
 */
static void module_name(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strcspn(base, ".");

	if (base[0] == '[') {
		snprintf(out, len, "%s", base);
		return;
	}
	if (n + 3 > len)
		n = len - 3;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[1 + i] = base[i] == '-' ? '_' : base[i];
	out[1 + n] = ']';
	out[2 + n] = '\0';
}

void symbols_kernel_module_map(struct symbols *s, const char *path, uint64_t start, uint64_t len)
{
	char name[256];

	if (start + len < start)
		return;
	module_name(path, name, sizeof(name));
	s->kmaps = xgrow(s->kmaps, &s->kmaps_cap, s->nkmaps + 1, sizeof(*s->kmaps));
	s->kmaps[s->nkmaps].start = start;
	s->kmaps[s->nkmaps].end = start + len;
	s->kmaps[s->nkmaps].dso = kernel_module(s, name);
	s->nkmaps++;
	s->kmaps_sorted = 0;
}

static int kmap_cmp(const void *a, const void *b)
{
	const struct kmodmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * A kernel address of another boot: not named, but placed as perf places
 * it, by the profile's own maps: in a module, in the kernel, or nowhere
 * ([unknown]). 1 with a frame, 0 for the kernel's own [unknown].
 */
static int place_kernel(struct symbols *s, uint64_t a)
{
	size_t lo = 0, hi = s->nkmaps;
	struct frame_info *f;

	if (!s->kmaps_sorted && s->nkmaps) {
		qsort(s->kmaps, s->nkmaps, sizeof(*s->kmaps), kmap_cmp);
		s->kmaps_sorted = 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->kmaps[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && a < s->kmaps[lo - 1].end) {
		f = push_frame(s);
		f->dso = s->kmaps[lo - 1].dso;
	} else if (!s->ktext_end || (a >= s->ktext_start && a < s->ktext_end)) {
		return 0;
	} else {
		f = push_frame(s);
		f->dso = kernel_module(s, "[unknown]");	/* in no map the profile has */
	}
	f->dso->unknown = 1;	/* no names of another kernel: "[unknown]" */
	return 1;
}

void symbols_kernel_map(struct symbols *s, const char *ref, uint64_t addr, uint64_t start,
			uint64_t len)
{
	if (start + len >= start) {
		s->ktext_start = start;
		s->ktext_end = start + len;
	}
	if (!strcmp(ref, "_text"))
		s->krec = 1;
	else if (!strcmp(ref, "_stext"))
		s->krec = 2;
	else
		return;
	s->krec_addr = addr;
	if (s->kloaded && s->k.names)
		kernel_check(s);
}

static void kernel_load(struct symbols *s)
{
	s->kloaded = 1;
	if (s->kthread_on)
		kernel_join(s);
	else if (!s->kjoined)
		kallsyms_load(&s->kp, s->kpath, s->kcache_dir);
	if (!s->kp.names) {
		warn(s, "cannot open %s: %s", s->kpath, strerror(s->kp.err));
		s->kernel.unknown = 1;	/* as the warning says: [unknown], not offsets */
		return;
	}
	if (s->kp.hidden) {
		warn(s, "/proc/kallsyms hides kernel addresses (kernel.kptr_restrict); "
			"kernel frames show as [unknown]");
		s->kernel.unknown = 1;
	}
	/* adopt what the thread made: freed with s */
	s->k = s->kp;
	memset(&s->kp, 0, sizeof(s->kp));
	kernel_check(s);
}

/* The dso of the kernel module called name ("[ext4]"); NULL for "", the kernel's own. */
static struct dso *kernel_module(struct symbols *s, const char *name)
{
	const char *key;
	struct dso *d;

	if (!name[0])
		return NULL;
	key = strpool_intern_text(s->pool, name, strlen(name));
	for (size_t i = 0; i < s->nkmods; i++)
		if (s->kmods[i]->kname == key)
			return s->kmods[i];
	d = xcalloc(1, sizeof(*d));
	d->s = s;
	d->kname = key;
	d->checked = 1;
	s->kmods = xgrow(s->kmods, &s->kmods_cap, s->nkmods + 1, sizeof(*s->kmods));
	s->kmods[s->nkmods++] = d;
	return d;
}

static int resolve_kernel(struct symbols *s, uint64_t a)
{
	size_t lo = 0, hi;
	uint64_t end;
	struct frame_info *f;

	if (!s->kloaded)
		kernel_load(s);
	if (s->kernel.dead || (s->k.hidden && s->nkmaps))
		return place_kernel(s, a);
	hi = s->k.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->k.syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	end = lo < s->k.n ? s->k.syms[lo].addr : s->k.syms[lo - 1].addr + KSYM_LAST_SIZE;
	if (a >= end)
		return 0;
	f = push_frame(s);
	f->name = strpool_intern_text(s->pool, s->k.names + s->k.syms[lo - 1].name,
				      strlen(s->k.names + s->k.syms[lo - 1].name));
	f->sym_offset = a - s->k.syms[lo - 1].addr;
	f->dso = kernel_module(s, s->k.names + s->k.syms[lo - 1].module);
	return 1;
}

/* --- the interface -------------------------------------------------------- */

struct symbols *symbols_new(const struct symbols_opts *o)
{
	struct symbols *s = xcalloc(1, sizeof(*s));
	struct stat st;

	if (o)
		s->o = *o;
	if (s->o.symfs && s->o.symfs[0]) {
		s->symfs = realpath(s->o.symfs, NULL);
		if (!s->symfs)
			goto fail;
		if (stat(s->symfs, &st) < 0)
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		if (!strcmp(s->symfs, "/")) {
			free(s->symfs);
			s->symfs = NULL;
		}
	}
	s->o.symfs = s->symfs;
	/*
	 * libdwfl's default path, with the symfs's debug directory first. An
	 * absolute element is searched by build id, and by debug link with
	 * the file's directory and each of its suffixes below it, so
	 * SYMFS/usr/lib/debug/usr/lib serves SYMFS/usr/lib. ':' separates
	 * elements, so a symfs holding one cannot be an element. With
	 * --strict-symfs, the host's /usr/lib/debug is no element either.
	 */
	if (s->symfs && !strchr(s->symfs, ':')) {
		size_t n = strlen(s->symfs) + sizeof(":.debug:/usr/lib/debug:/usr/lib/debug");

		s->debuginfo_path = xmalloc(n);
		snprintf(s->debuginfo_path, n, ":.debug:%s/usr/lib/debug%s", s->symfs,
			 s->o.strict_symfs ? "" : ":/usr/lib/debug");
	} else if (s->symfs && s->o.strict_symfs) {
		s->debuginfo_path = xstrdup(":.debug");
	}
	s->cb.find_elf = dwfl_build_id_find_elf;
	/* Build id, debug link, then debuginfod when DEBUGINFOD_URLS is set. */
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;

	s->pool = strpool_new();
	s->files = objfiles_new();
	s->warnings = xcalloc(1, sizeof(*s->warnings));
	s->kernel.s = s;
	/* Another file than the running kernel's is read as it is, never cached. */
	s->kpath = s->o.kallsyms ? s->o.kallsyms : "/proc/kallsyms";
	s->kcache_dir = s->o.kallsyms ? NULL : kallsyms_cache_dir();
	pthread_mutex_init(&s->lmu, NULL);
	pthread_cond_init(&s->lwork, NULL);
	pthread_cond_init(&s->ldone, NULL);
	/* Without the thread, the first kernel lookup reads kallsyms itself. */
	s->kthread_on = pthread_create(&s->kthread, NULL, kernel_prefetch, s) == 0;
	return s;

fail:
	{
		int e = errno;

		free(s->symfs);
		free(s);
		errno = e;
	}
	return NULL;
}

static void obj_free(struct elfobj *obj)
{
	struct dso *d, *next;

	for (d = obj->dsos; d; d = next) {
		next = d->next;
		free(d);
	}
	if (obj->dwfl)
		dwfl_end(obj->dwfl);
	free(obj->where);
	free(obj->warning);
	free(obj->loads);
	free(obj->syms);
	free(obj->maxend);
	free_cuidx(obj);
	free_scopes(obj);
	free(obj);
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	kernel_join(s);
	if (s->lthread_on) {
		pthread_mutex_lock(&s->lmu);
		s->lstop = 1;
		pthread_cond_broadcast(&s->lwork);
		pthread_mutex_unlock(&s->lmu);
		pthread_join(s->lthread, NULL);
	}
	free(s->lq);
	pthread_mutex_destroy(&s->lmu);
	pthread_cond_destroy(&s->lwork);
	pthread_cond_destroy(&s->ldone);
	kallsyms_release(&s->kp);
	kallsyms_release(&s->k);
	free(s->kcache_dir);
	for (size_t i = 0; i < s->nkmods; i++)
		free(s->kmods[i]);
	free(s->kmods);
	free(s->kmaps);
	free(s->krelease);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	htab_release(&s->otab);
	htab_release(&s->dtab);
	free(s->dsov);
	objfiles_free(s->files);	/* after libdwfl's modules, which read through dups */
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->cache);
	htab_release(&s->ctab);
	free(s->frames);
	free(s->dm);
	htab_release(&s->dmtab);
	strpool_free(s->pool);
	free(s->debuginfo_path);
	free(s->symfs);
	free(s);
}

/*
 * The file to open for a recorded path: under --symfs when it is there,
 * else (unless --strict-symfs) the path itself, as perf does. With
 * --strict-symfs nothing outside the symfs is read: not the host's path,
 * and not a path whose "..", or a link on it, leads out (realpath decides).
 * Symbols and unwinding both open what this says.
 */
static char *locate(const struct symbols *s, const char *path)
{
	size_t n, len;
	char *under, *real;
	struct stat st;

	if (!s->symfs)
		return xstrdup(path);
	n = strlen(s->symfs) + strlen(path) + 1;
	under = xmalloc(n);
	snprintf(under, n, "%s%s", s->symfs, path);
	if (!s->o.strict_symfs) {
		if (stat(under, &st) < 0 && (errno == ENOENT || errno == ENOTDIR)) {
			free(under);
			return xstrdup(path);
		}
		return under;
	}
	real = realpath(under, NULL);
	len = strlen(s->symfs);
	if (real && !(strncmp(real, s->symfs, len) == 0 && real[len] == '/')) {
		/* out of the symfs: a name that cannot be opened, said as such */
		free(real);
		n = strlen(under) + sizeof(" (outside --symfs)");
		real = xmalloc(n);
		snprintf(real, n, "%s (outside --symfs)", under);
		free(under);
		return real;
	}
	free(real);
	return under;
}

/* Names that are no file to open: resolve nothing, and say nothing. */
static int is_special(const char *path)
{
	return path[0] != '/' ||		/* [vdso], [heap], [anon:x], anon_inode:... */
	       !strncmp(path, "//anon", 6) ||
	       !strncmp(path, "/memfd:", 7) ||	/* memfd_create(2) */
	       !strncmp(path, "/SYSV", 5);	/* System V shared memory */
}

static struct elfobj *obj_get(struct symbols *s, const char *path)
{
	return obj_get_where(s, path, NULL);
}

/* The object of path, made when new, to be opened at where (NULL: locate(path)). */
static int anon_path(const char *p);

static struct elfobj *obj_get_where(struct symbols *s, const char *path, const char *where)
{
	const char *key = strpool_intern(s->pool, path);
	struct htab_probe p;
	struct elfobj *obj;
	uint32_t i;

	htab_probe(&s->otab, (uint64_t)(uintptr_t)key, &p);
	while (htab_next(&s->otab, &p, &i))
		if (s->objs[i]->path == key)
			return s->objs[i];
	obj = xcalloc(1, sizeof(*obj));
	obj->path = key;
	obj->state = is_special(key) ? OBJ_BROKEN : OBJ_NEW;
	obj->anon = anon_path(key);	/* asked of every frame outside files: once */
	obj->where = obj->state != OBJ_NEW ? NULL : where ? xstrdup(where) : locate(s, key);
	{
		const char *slash = strrchr(key, '/');

		/* "//anon" and the like keep their name. */
		obj->short_name = slash && slash[1] && key[0] == '/' && strncmp(key, "//", 2)
				  ? slash + 1 : key;
		/* the path stays as it is, to be opened; its name goes out as text */
		obj->short_name = strpool_intern_text(s->pool, obj->short_name,
						      strlen(obj->short_name));
	}
	if (s->nobjs == s->objs_cap) {
		s->objs_cap = s->objs_cap ? 2 * s->objs_cap : 64;
		s->objs = xreallocarray(s->objs, s->objs_cap, sizeof(*s->objs));
	}
	s->objs[s->nobjs] = obj;
	htab_put(&s->otab, &p, (uint32_t)s->nobjs++);
	return obj;
}

struct dso *symbols_dso(struct symbols *s, const char *path,
			const unsigned char *build_id, size_t build_id_len)
{
	struct elfobj *obj = obj_get(s, path ? path : "");
	struct htab_probe p;
	struct dso *d;
	size_t i;

	/* All zeros is how some writers say "no build id". */
	if (!build_id || build_id_len > BUILD_ID_MAX)
		build_id_len = 0;
	for (i = 0; i < build_id_len && !build_id[i]; i++)
		;
	if (i == build_id_len)
		build_id_len = 0;
	/* found by hash: a profile may name one path with thousands of build ids */
	{
		uint64_t w[2] = { (uint64_t)(uintptr_t)obj,
				  htab_hash_bytes(build_id, build_id_len) };
		uint32_t k;

		htab_probe(&s->dtab, htab_hash_words(w, 2), &p);
		while (htab_next(&s->dtab, &p, &k)) {
			d = s->dsov[k];
			if (d->obj == obj && d->build_id_len == build_id_len &&
			    (!build_id_len || !memcmp(d->build_id, build_id, build_id_len)))
				return d;
		}
	}
	d = xcalloc(1, sizeof(*d));
	d->s = s;
	d->obj = obj;
	d->res = obj;
	if (build_id_len)
		memcpy(d->build_id, build_id, build_id_len);
	d->build_id_len = build_id_len;
	d->next = obj->dsos;
	obj->dsos = d;
	if (s->ndsov == s->dsov_cap) {
		s->dsov_cap = s->dsov_cap ? 2 * s->dsov_cap : 64;
		s->dsov = xreallocarray(s->dsov, s->dsov_cap, sizeof(*s->dsov));
	}
	htab_put(&s->dtab, &p, (uint32_t)s->ndsov);
	s->dsov[s->ndsov++] = d;
	return d;
}

struct dso *symbols_kernel(struct symbols *s)
{
	return &s->kernel;
}

const char *dso_short_name(const struct dso *d)
{
	return d->obj ? d->obj->short_name : d->kname ? d->kname : "[kernel.kallsyms]";
}

const char *dso_path(const struct dso *d)
{
	return d->obj ? d->obj->path : d->kname ? d->kname : "[kernel.kallsyms]";
}

const struct objfile *symbols_dso_file(const struct dso *d)
{
	if (!d->res || d->dead)
		return NULL;
	/* opened, or still to be: the file the symbolizer reads is where says */
	if (d->res->state != OBJ_READY && d->res->state != OBJ_NEW)
		return NULL;
	return objfiles_get(d->s->files, d->res->where);
}

char *symbols_locate(const struct symbols *s, const char *path)
{
	return locate(s, path);
}

/* Memory no file backs, where JIT runtimes put code: see dso_is_anon(). */
static int anon_path(const char *p)
{
	return !strncmp(p, "//anon", 6) || !strncmp(p, "[anon", 5) || !strncmp(p, "/memfd:", 7) ||
	       !strcmp(p, "[heap]") || !strncmp(p, "/anon_hugepage", 14) ||
	       !strncmp(p, "/dev/zero", 9);
}

int dso_is_anon(const struct dso *d)
{
	return d->obj && d->obj->anon;
}

int dso_is_jit(const struct dso *d)
{
	return dso_is_anon(d) || (d->obj && !strncmp(d->obj->path, "[JIT] tid ", 10));
}

int symbols_srcline(const struct symbols *s)
{
	return s->o.srcline;
}

const char *symbols_debuginfo_path(const struct symbols *s)
{
	return s->debuginfo_path;
}

size_t dso_build_id(const struct dso *d, const unsigned char **id)
{
	if (d->build_id_len) {
		*id = d->build_id;
		return d->build_id_len;
	}
	if (d->obj && d->obj->state == OBJ_READY && d->obj->build_id) {
		*id = d->obj->build_id;
		return d->obj->build_id_len;
	}
	*id = NULL;
	return 0;
}

void dso_settle(struct dso *d)
{
	if (d->obj && !d->checked)
		dso_check(d);
}

int dso_unknown(const struct dso *d)
{
	return d->unknown;
}

int dso_resolve(struct dso *d, uint64_t addr, struct frame_info *out, int max)
{
	struct symbols *s = d->s;
	const void *key;
	struct htab_probe p;
	const struct cent *c = NULL;
	uint32_t i;
	int n;

	if (max < 1)
		return 0;
	if (d->obj) {
		if (!d->checked)
			dso_check(d);
		if (d->dead)
			return 0;
	}
	key = d->obj ? (const void *)d->res : (const void *)d;	/* after dso_check() set res */
	htab_probe(&s->ctab, addr ^ htab_mix((uint64_t)(uintptr_t)key), &p);
	while (!c && htab_next(&s->ctab, &p, &i))
		if (s->cache[i].key == key && s->cache[i].addr == addr)
			c = &s->cache[i];
	if (!c) {
		size_t first = s->nframes;
		struct cent *e;

		n = d->obj ? resolve_file(s, d->res, addr) : resolve_kernel(s, addr);
		if (s->ncache == s->cache_cap) {
			s->cache_cap = s->cache_cap ? 2 * s->cache_cap : 1024;
			s->cache = xreallocarray(s->cache, s->cache_cap, sizeof(*s->cache));
		}
		e = &s->cache[s->ncache];
		e->key = key;
		e->addr = addr;
		e->first = (uint32_t)first;
		e->n = (uint32_t)n;
		htab_put(&s->ctab, &p, (uint32_t)s->ncache++);
		c = e;
	}
	n = (int)c->n < max ? (int)c->n : max;
	if (n)
		memcpy(out, s->frames + c->first, (size_t)n * sizeof(*out));
	return n;
}

const char *const *symbols_warnings(const struct symbols *s, size_t *more)
{
	*more = s->warnings_dropped;
	return (const char *const *)s->warnings;
}
