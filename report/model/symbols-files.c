// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which file answers for a recorded path: where the finders (finders.h)
 * locate it, or the file of the build id the profile recorded, when it is
 * gone or another build; and the loader thread that opens files and
 * inflates their DWARF while the session goes on.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "asan.h"
#include "buildid.h"
#include "clock.h"
#include "dynlib.h"
#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "pdata.h"
#include "strpool.h"
#include "symbols.h"
#include "gosym.h"
#include "vdso.h"
#include "xalloc.h"


#include "symbols-int.h"

#if PROF_ASAN
/* the sanitizers' runtime has it; its header is not always installed */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

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
	sy_obj_open(s, obj);
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
	char path[PATH_MAX];
	struct stat st;

	if (elf && sy_section_named(elf, ".debug_info", &sh) && sh.sh_type != SHT_NOBITS)
		return sh.sh_size > DWARF_HEAVY;
	if (!obj->build_id || obj->build_id_len < 2)
		return 0;
	if (finders_debug_by_id(s->find, obj->build_id, obj->build_id_len, path, sizeof(path)) == 0 &&
	    stat(path, &st) == 0)
		return st.st_size > DWARF_HEAVY;
	/* Not here: libdwfl may ask debuginfod, over the network. */
	return dynlib_debuginfod_wanted();
}

/* Make obj opened (or broken) and loaded: wait for the loader, or do it here. */
void sy_obj_settle(struct symbols *s, struct elfobj *obj)
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
	if (!d->checked && sy_answers_try(d))
		return 1;
	if (d->checked) {
		/*
		 * A file symbols_trim() closed opens again like a new one; one
		 * the cache's answers checked opens when an address is not
		 * among them, in dso_resolve().
		 */
		if (d->dead || d->res->state != OBJ_NEW || sy_answers_held(d->res))
			return 1;
		obj = d->res;
	}
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
	sy_obj_open(s, obj);
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

/* --- closing what no new address needs (symbols_trim) ------------------- */

/* Whether obj is open and no thread but the caller's can be in it. */
static int obj_loading(struct symbols *s, struct elfobj *obj);

static int closable(struct symbols *s, struct elfobj *obj)
{
	return obj->state == OBJ_READY && obj->dwfl && !obj_loading(s, obj);
}

/*
 * End obj's libdwfl state and all that points into it (the symbols' names
 * are libelf's, the DWARF indexes libdw's); the file itself (objfile.h),
 * its build id and the answers cached by address stay. It is OBJ_NEW
 * again: dso_ready() and dso_resolve() open it when an address needs it.
 */
static void obj_end(struct elfobj *obj)
{
	dwfl_end(obj->dwfl);
	obj->dwfl = NULL;
	obj->mod = NULL;
	obj->bias = 0;
	free(obj->loads);
	obj->loads = NULL;
	obj->nloads = 0;
	free(obj->syms);
	free(obj->made_names);
	obj->made_names = NULL;
	sy_free_data_symbols(obj);
	free(obj->maxend);
	obj->syms = NULL;
	obj->maxend = NULL;
	obj->nsyms = 0;
	sy_free_cuidx(obj);
	sy_free_scopes(obj);
	obj->state = OBJ_NEW;
}

static void obj_close(struct symbols *s, struct elfobj *obj)
{
	obj_end(obj);
	/*
	 * and the pages its look-ups read of the file, which stays mapped:
	 * sy_release_pages() keeps up to RELEASE_KEEP of each mapping while
	 * it is looked up, and a file no longer looked up kept them. (Most of
	 * a soak's agent's file pages are of files still looked up, which
	 * this leaves: see DESIGN.md.)
	 */
	if (obj->file) {
		/* the whole mapping: its last page too, which the file ends inside */
		size_t page = (size_t)sysconf(_SC_PAGESIZE);

		file_pages_release(obj->file->image, (obj->file->size + page - 1) & ~(page - 1), 0);
	}
	obj->closed = 1;
	s->ncloses++;
}

/* The bytes malloc has handed out and not had back; 0 when unknown. */
static size_t heap_in_use(void)
{
#if PROF_ASAN
	/* ASan's allocator, not glibc's, hands out the memory */
	return __sanitizer_get_current_allocated_bytes();
#elif defined(HAVE_MALLINFO2)
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

/*
 * A file opened within this long stays open, whatever the heap holds: a
 * heap over the budget for other reasons costs at most one open of each
 * busy file this often (libc's debug file: about 50 ms).
 */
#define TRIM_KEEP_NS	(10 * 1000000000ULL)
/* How often symbols_trim() looks: a call sooner returns at once. */
#define TRIM_EVERY_NS	1000000000ULL
/*
 * How often it looks at the heap while the heap was under the budget at
 * the last look; over it, at every look. mallinfo2() walks every free
 * chunk of every arena: about 1 ms a call in a soak's agent, which called
 * it after each file it closed, 3.6 times a second, 19% of its CPU.
 */
#define HEAP_LOOK_NS	(10 * 1000000000ULL)
/* Files closed at one look, at most: the batch doubles at each look still over. */
#define HEAP_BATCH_MAX	64

size_t symbols_trim(struct symbols *s, uint64_t idle_ns, size_t budget)
{
	uint64_t now = sy_now();
	size_t n = 0;

	sy_answers_stop(s);
	if (now - s->trim_last < TRIM_EVERY_NS)
		return 0;
	s->trim_last = now;
	for (size_t i = 0; i < s->nwalk; i++) {
		struct elfobj *obj = s->walk[i];

		if (now - obj->used >= idle_ns && closable(s, obj)) {
			obj_close(s, obj);
			n++;
		}
	}
	/*
	 * Past the budget: the least recently needed first, one at a time,
	 * busy ones too: a file in use keeps loading the DWARF of each new
	 * CU its new addresses reach, and opened again it holds only what the
	 * addresses after that need (those before are answered by the cache).
	 *
	 * What closing all it could (one at least) left over the budget is not
	 * the files' (the processes, stacks and windows of a busy host): the budget then
	 * counts from there (trim_floor, which follows the heap down), a
	 * quarter of it more allowed, until the heap is under the budget
	 * again. Counted from zero, a heap over it for other reasons closed
	 * the files opened 10 s before at every look, to open them again at
	 * their next new address, with a mallinfo2() (a walk of every arena's
	 * free lists) per file closed: 6 a second in a soak's agent (64M
	 * budget, 67 MB in use).
	 *
	 * One mallinfo2() a look (HEAP_LOOK_NS): over the limit, a batch of
	 * files closes, one at the first look, twice as many at each next
	 * look still over, so that a heap far over it comes down in a few
	 * looks and one just over it loses one file a second.
	 */
	if (budget && (s->heap_batch || now - s->heap_looked >= HEAP_LOOK_NS)) {
		size_t used = heap_in_use(), limit, closed = 0;

		s->heap_looked = now;
		if (used <= budget)
			s->trim_floor = 0;
		else if (used < s->trim_floor)
			s->trim_floor = used;
		limit = s->trim_floor ? s->trim_floor + budget / 4 : budget;
		if (used <= limit)
			s->heap_batch = 0;
		else if (!s->heap_batch)
			s->heap_batch = 1;
		while (used > limit && closed < s->heap_batch) {
			struct elfobj *lru = NULL;

			for (size_t i = 0; i < s->nwalk; i++) {
				struct elfobj *obj = s->walk[i];

				if (now - obj->opened >= TRIM_KEEP_NS &&
				    (!lru || obj->used < lru->used) && closable(s, obj))
					lru = obj;
			}
			if (!lru) {
				/* all it could, closed: the rest is not theirs (files too young to close may be) */
				if (closed)
					s->trim_floor = heap_in_use();
				break;
			}
			obj_close(s, lru);
			n++, closed++;
		}
		if (closed == s->heap_batch)
			s->heap_batch = 2 * closed < HEAP_BATCH_MAX ? 2 * closed : HEAP_BATCH_MAX;
	}
#ifdef HAVE_MALLOC_TRIM
	/* libdw's per-CU tables are many small blocks: give their pages back */
	if (n)
		malloc_trim(0);
#endif
	return n;
}

void symbols_trim_counts(const struct symbols *s, uint64_t *closed, uint64_t *reopened)
{
	*closed = s->ncloses;
	*reopened = s->nreopens;
}

/* --- letting go of files no process maps (symbols_release) --------------- */

void symbols_mark_begin(struct symbols *s)
{
	if (!++s->mark)
		s->mark = 1;	/* 0 is what a new object has: never marked */
}

void dso_mark_live(struct dso *d)
{
	if (!d || !d->obj)
		return;
	d->obj->mark = d->s->mark;
	d->res->mark = d->s->mark;
}

/* Whether a thread other than the caller's may be in obj (the loader). */
static int obj_loading(struct symbols *s, struct elfobj *obj)
{
	int busy = 0;

	if (s->lthread_on) {
		pthread_mutex_lock(&s->lmu);
		busy = obj->loading;
		pthread_mutex_unlock(&s->lmu);
	}
	return busy;
}

size_t symbols_release(struct symbols *s, uint64_t idle_ns,
		       void (*drop)(void *ctx, const struct objfile *const *files, size_t n),
		       void *ctx)
{
	uint64_t now = sy_now();
	const void **gone = NULL;
	const struct objfile **files = NULL;
	size_t n = 0, kept = 0;

	sy_answers_stop(s);
	for (size_t i = 0; i < s->nwalk; i++) {
		struct elfobj *obj = s->walk[i];

		if (obj->mark == s->mark || !obj->file || now - obj->used < idle_ns ||
		    now - obj->mapped < idle_ns || obj_loading(s, obj)) {
			s->walk[kept++] = obj;
			continue;
		}
		obj->walked = 0;	/* out of the walk with its file */
		if (obj->state == OBJ_READY)
			obj_end(obj);
		if (!(n & (n - 1))) {
			gone = xreallocarray(gone, n ? 2 * n : 1, sizeof(*gone));
			files = xreallocarray(files, n ? 2 * n : 1, sizeof(*files));
		}
		files[n] = obj->file;
		obj->file = NULL;
		obj->closed = 1;	/* an open again is counted as one */
		gone[n++] = obj;
	}
	s->nwalk = kept;
	if (!n)
		return 0;
	/* the files (each after the unwinder let go of it), in one pass */
	objfiles_forget(s->files, files, n, drop, ctx);
	free(files);
	s->nreleased += n;
	/* answers of a file it no longer is: what the path names next may differ */
	sy_cache_drop(s, gone, n);
	free(gone);
#ifdef HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
	return n;
}

uint64_t symbols_released(const struct symbols *s)
{
	return s->nreleased;
}

static int is_special(const char *path);
static struct elfobj *obj_get_where(struct symbols *s, const char *path, const char *where);
static struct elfobj *obj_get_id(struct symbols *s, const char *path, const char *where,
				 const struct file_id *id);

/* finders_by_build_id()'s try: the file at path, opened, is of d's build id. */
static int try_build_id(void *ctx, const char *path)
{
	struct dso *d = ctx;
	struct elfobj *alt = obj_get_where(d->s, path, path);

	sy_obj_settle(d->s, alt);
	if (alt->warning) {	/* a file that does not open is no answer */
		free(alt->warning);
		alt->warning = NULL;
	}
	if (alt->state != OBJ_READY || !sy_build_id_matches(d, alt))
		return 0;
	d->res = alt;
	return 1;
}

/*
 * A vDSO's code, by its build id: from the build-id cache (the recorder
 * keeps it there as perf does, .build-id/ab/cdef.../vdso), else from this
 * kernel's own image when it is of that build id (src/vdso.h). Without
 * a build id nothing tells which kernel's it was: unnamed.
 */
static int vdso_found(struct dso *d)
{
	const struct vdso_image *v;

	if (!d->build_id_len)
		return 0;
	if (finders_by_build_id(d->s->find, d->build_id, d->build_id_len, try_build_id, d))
		return 1;
	v = vdso_own();
	return v && v->id_len == d->build_id_len && !memcmp(v->id, d->build_id, v->id_len) &&
	       try_build_id(d, v->path);
}

void sy_dso_check(struct dso *d)
{
	struct symbols *s = d->s;
	struct elfobj *obj = d->obj, *alt;
	int other;

	d->checked = 1;
	sy_obj_settle(s, obj);
	if (obj->state == OBJ_READY && !(d->build_id_len && !sy_build_id_matches(d, obj))) {
		sy_obj_say(s, obj);
		return;
	}
	if (obj->state != OBJ_READY && vdso_named(obj->path, strlen(obj->path)) && vdso_found(d))
		return;
	if (obj->state != OBJ_READY && is_special(obj->path)) {
		sy_obj_say(s, obj);
		d->dead = 1;	/* [vdso], //anon and the like: nothing to open, nothing to say */
		return;
	}
	/* Missing, deleted, or a different build: its names would be wrong. */
	other = obj->state == OBJ_READY;
	/* the file of its build id elsewhere than its recorded path: the finders say where */
	alt = d->build_id_len &&
	      finders_by_build_id(s->find, d->build_id, d->build_id_len, try_build_id, d)
	      ? d->res : NULL;
	if (alt) {
		/* why the path would not do goes unsaid: this line says it, and what did */
		sy_warn(s, "%s %s; its frames are named from %s, of the recorded build id", obj->path,
		     other ? "is another build" : "is gone", alt->where);
		return;
	}
	sy_obj_say(s, obj);
	/* No file anywhere: its code unnamed, "?? (file)", by offsets into the file. */
	d->dead = 1;
	if (other)
		sy_warn(s, "build id of %s differs from the recorded one, and no file has it; its "
			"code shows as ?? (%s), by offsets into it with --sort sym,srcline",
			obj->where, d->obj->short_name);
}

/* Names that are no file to open: resolve nothing, and say nothing. */
static int is_special(const char *path)
{
	return path[0] != '/' ||		/* [vdso], [heap], [anon:x], anon_inode:... */
	       !strncmp(path, "//anon", 6) ||
	       !strncmp(path, "/memfd:", 7) ||	/* memfd_create(2) */
	       !strncmp(path, "/SYSV", 5);	/* System V shared memory */
}

struct elfobj *sy_obj_get(struct symbols *s, const char *path)
{
	return obj_get_where(s, path, NULL);
}

/* The file a live recorder held for m (symbols_hold_dir()): 0 with its link and id, or -1. */
static int held_file(const struct symbols *s, const struct live_map *m, char *link, size_t len,
		     struct file_id *id)
{
	return finders_held(s->find, m->maj, m->min, m->ino, link, len, id);
}

/* obj's file opened now, while it is there (a live session with a hold directory). */
static struct elfobj *open_now(struct symbols *s, struct elfobj *obj)
{
	if (finders_holding(s->find) && obj->state == OBJ_NEW && !obj->file)
		sy_obj_file(s, obj);
	return obj;
}

/*
 * The object of the file m's pid maps at [start, end) under path, as a
 * live process has it now: the file /proc/PID/map_files names, which is
 * the mapped one even when path was deleted or now names another file
 * (an upgrade, a rebuild). Each file met at a path has its object; the
 * path itself is opened when it is that file, the map_files link when
 * not, at once (it goes with the process). When pid is gone, the file
 * the recorder held for us when the path names another or none, else the
 * file the path names now. Not under --symfs: a live host's own files.
 */
static struct elfobj *obj_get_live(struct symbols *s, const char *path, const struct live_map *m)
{
	char link[96], held_link[PATH_MAX];
	struct file_id mapped, named, held;
	struct elfobj *obj;
	size_t plen = strlen(path);
	int have_mapped, have_named;

	if (is_special(path) || s->symfs)
		return obj_get_where(s, path, NULL);
	snprintf(link, sizeof(link), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, m->pid, m->start,
		 m->end);
	have_mapped = m->pid > 0 && file_id_of(link, &mapped) == 0;
	/* a map of a file deleted before the record was made: "/x/y (deleted)" */
	if (sy_ends_with(path, " (deleted)")) {
		char *real = xstrdup(path);

		real[plen - strlen(" (deleted)")] = '\0';
		have_named = file_id_of(real, &named) == 0;
		free(real);
	} else {
		have_named = file_id_of(path, &named) == 0;
	}
	/*
	 * The process gone, and its file not the one at its path (deleted at
	 * its exit, or replaced): the one the recorder held open for us.
	 */
	if (!have_mapped && held_file(s, m, held_link, sizeof(held_link), &held) == 0 &&
	    (!have_named || named.ino != held.ino || named.dev != held.dev))
		return open_now(s, obj_get_id(s, path, held_link, &held));
	if (!have_mapped && !have_named)
		return obj_get_where(s, path, NULL);	/* gone: said so when opened */
	if (!have_mapped || (have_named && file_id_equal(&mapped, &named)))
		return open_now(s, obj_get_id(s, path, NULL, have_mapped ? &mapped : &named));
	obj = obj_get_id(s, path, link, &mapped);
	if (obj->state == OBJ_NEW && !obj->file) {
		/* released since (symbols_release()): the old link went with its process */
		if (strcmp(obj->where, link) && !obj_loading(s, obj)) {
			free(obj->where);
			obj->where = xstrdup(link);
		}
		sy_obj_file(s, obj);	/* now, while pid lives to lend its link */
	}
	return obj;
}

/*
 * At most this many answers of live_get() kept (then forgotten all
 * at once): a host's libraries and programs, not every copy a test run made.
 */
#define LIVE_SEEN_MAX 8192
/* A path of no generation looked at again after this long (libc: once a second, not per process). */
#define LIVE_CHECK_NS 1000000000ULL

/* Whether id is the inode m maps: its device and number. */
static int is_mapped(const struct file_id *id, const struct live_map *m)
{
	return id->ino == m->ino && id->dev == makedev(m->maj, m->min);
}

/* Whether path names the inode m maps: one stat. */
static int same_inode(const char *path, const struct live_map *m)
{
	struct file_id id;

	return !file_id_of(path, &id) && is_mapped(&id, m);
}

/*
 * Whether f, open, is the inode m maps: no other file can have that
 * number while f holds it open, so no stat is needed.
 */
static int open_inode(const struct objfile *f, const struct live_map *m)
{
	return f->fd >= 0 && is_mapped(&f->id, m);
}

/*
 * The answer of obj_get_live() for a file mapped again: one it gave for
 * the same path and the same inode (device, number and generation, which
 * a new file at a reused inode number does not have), while that object's
 * file is open. A generation of 0 (a file put in the filesystem image
 * when it was made, or a filesystem that has none) is no proof, unless
 * that object's file is the inode mapped and open (open_inode()); else
 * one stat of the path, at most once a second, must name the same inode,
 * where obj_get_live() looks at the process's map_files link, the held
 * file and the path, and opens.
 * An MMAP2 with a build id in place of the inode is looked at anew.
 */
static struct elfobj *live_get(struct symbols *s, const char *path, const struct live_map *m,
				uint64_t now)
{
	uint64_t w[5];
	struct htab_probe p;
	struct elfobj *obj;
	const char *ipath;
	uint32_t i;

	if (!m->ino || is_special(path) || s->symfs)
		return obj_get_live(s, path, m);
	ipath = strpool_intern(s->pool, path);
	w[0] = (uint64_t)(uintptr_t)ipath;
	w[1] = m->maj;
	w[2] = m->min;
	w[3] = m->ino;
	w[4] = m->gen;
	htab_probe(&s->ltab, htab_hash_words(w, 5), &p);
	while (htab_next(&s->ltab, &p, &i)) {
		struct live_seen *l = &s->live[i];

		if (l->path != ipath || l->maj != m->maj || l->min != m->min || l->ino != m->ino ||
		    l->gen != m->gen)
			continue;
		if (l->obj->file) {
			if (m->gen || open_inode(l->obj->file, m))
				return l->obj;
			if (now - l->checked >= LIVE_CHECK_NS && same_inode(path, m))
				l->checked = now;
			if (now - l->checked < LIVE_CHECK_NS)
				return l->obj;
		}
		/* closed since, or no generation to tell: found anew, the entry kept */
		return l->obj = obj_get_live(s, path, m);
	}
	obj = obj_get_live(s, path, m);
	if (s->nlive == LIVE_SEEN_MAX) {
		htab_clear(&s->ltab);
		s->nlive = 0;
		htab_probe(&s->ltab, htab_hash_words(w, 5), &p);
	}
	s->live = xgrow(s->live, &s->live_cap, s->nlive + 1, sizeof(*s->live));
	s->live[s->nlive] = (struct live_seen){ ipath, m->maj, m->min, m->ino, m->gen, obj, now };
	htab_put(&s->ltab, &p, (uint32_t)s->nlive++);
	return obj;
}

/*
 * live_get()'s object, marked as mapped now: a file a short program maps
 * again and again is not idle (symbols_release()) for want of a new
 * address in it.
 */
struct elfobj *sy_obj_get_live(struct symbols *s, const char *path, const struct live_map *m)
{
	uint64_t now = sy_now();
	struct elfobj *obj = live_get(s, path, m, now);

	obj->mapped = now;
	return obj;
}

/* The object of path, made when new, to be opened at where (NULL: where the finders locate path). */

static struct elfobj *obj_get_where(struct symbols *s, const char *path, const char *where)
{
	return obj_get_id(s, path, where, NULL);
}

static int same_id(const struct elfobj *obj, const struct file_id *id)
{
	static const struct file_id none;

	return file_id_equal(&obj->id, id ? id : &none);
}

/*
 * An object's place in otab: its path's and its file's. By the path
 * alone, every copy of a program put at one path (a test binary built
 * again, a soak's gone-N) was one chain, each looked at through its
 * object (a cache miss) at every new copy: longer with every copy.
 */
static uint64_t obj_hash(const char *key, const struct file_id *id)
{
	static const struct file_id none;
	uint64_t w[4];

	if (!id)
		id = &none;
	w[0] = (uint64_t)(uintptr_t)key;
	w[1] = id->dev;
	w[2] = id->ino;
	w[3] = (uint64_t)id->ctime_ns;
	return htab_hash_words(w, 4);
}

static struct elfobj *obj_get_id(struct symbols *s, const char *path, const char *where,
				 const struct file_id *id)
{
	const char *key = strpool_intern(s->pool, path);
	struct htab_probe p;
	struct elfobj *obj;
	uint32_t i;

	htab_probe(&s->otab, obj_hash(key, id), &p);
	while (htab_next(&s->otab, &p, &i))
		if (s->objs[i]->path == key && same_id(s->objs[i], id))
			return s->objs[i];
	obj = xcalloc(1, sizeof(*obj));
	obj->path = key;
	if (id)
		obj->id = *id;
	obj->state = is_special(key) ? OBJ_BROKEN : OBJ_NEW;
	obj->anon = pdata_anon_name(key, strlen(key));	/* asked of every frame outside files: once */
	obj->where = obj->state != OBJ_NEW ? NULL : where ? xstrdup(where) : finders_locate(s->find, key);
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

