// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's symbols and its modules': kallsyms, read on a thread of its
 * own from the start (kallsyms.c), and the kernel maps a profile records.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
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


#include "symbols-int.h"

/* --- the kernel ----------------------------------------------------------- */

/*
 * The kernel makes /proc/kallsyms' text as it is read, 40 to 120 ms for
 * 120k symbols, and parsing and sorting them takes more: as long as the
 * rest of a small report. Unless the cache has them, a thread does it all
 * from symbols_new() on, on the other CPU, while the profile is read; the
 * first kernel lookup joins it.
 */
void *sy_kernel_prefetch(void *arg)
{
	struct symbols *s = arg;

	pthread_setname_np(pthread_self(), "prof-kallsyms");
	kallsyms_load(&s->kp, s->kpath, s->kcache_dir);
	return NULL;
}

void sy_kernel_join(struct symbols *s)
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
		sy_warn(s, "the profile was recorded on another kernel (%s; this one is %s); kernel "
			"frames show as [unknown]", s->krelease, u.release);
	} else if (s->krec && now && now != s->krec_addr) {
		sy_warn(s, "the kernel was at another address when the profile was recorded (another "
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
		f = sy_push_frame(s);
		f->dso = s->kmaps[lo - 1].dso;
	} else if (!s->ktext_end || (a >= s->ktext_start && a < s->ktext_end)) {
		return 0;
	} else {
		f = sy_push_frame(s);
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
		sy_kernel_join(s);
	else if (!s->kjoined)
		kallsyms_load(&s->kp, s->kpath, s->kcache_dir);
	if (!s->kp.names) {
		sy_warn(s, "cannot open %s: %s", s->kpath, strerror(s->kp.err));
		s->kernel.unknown = 1;	/* as the warning says: [unknown], not offsets */
		return;
	}
	if (s->kp.hidden) {
		sy_warn(s, "/proc/kallsyms hides kernel addresses (kernel.kptr_restrict); "
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

void symbols_kernel_ksymbol(struct symbols *s, uint64_t addr, uint32_t len, const char *name,
			    size_t name_len)
{
	size_t lo = 0, hi = s->nkx, first, last;

	if (!len || addr + len < addr || !name_len)
		return;
	/* the first entry ending after addr: the overlapped ones follow it, in a run */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->kx[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = last = lo;
	while (last < s->nkx && s->kx[last].start < addr + len)
		last++;
	/* the newer claims its bytes: the older ones it overlaps go, it takes their place */
	if (last == first) {
		s->kx = xgrow(s->kx, &s->kx_cap, s->nkx + 1, sizeof(*s->kx));
		memmove(s->kx + first + 1, s->kx + first, (s->nkx - first) * sizeof(*s->kx));
		s->nkx++;
	} else if (last > first + 1) {
		memmove(s->kx + first + 1, s->kx + last, (s->nkx - last) * sizeof(*s->kx));
		s->nkx -= last - first - 1;
	}
	s->kx[first].start = addr;
	s->kx[first].end = addr + len;
	s->kx[first].name = strpool_intern_text(s->pool, name, name_len);
}

/* The KSYMBOL-named code holding a, or NULL. */
static const struct kxsym *kx_find(const struct symbols *s, uint64_t a)
{
	size_t lo = 0, hi = s->nkx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->kx[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && a < s->kx[lo - 1].end ? &s->kx[lo - 1] : NULL;
}

int sy_resolve_kernel(struct symbols *s, uint64_t a)
{
	size_t lo;
	uint64_t end;
	struct frame_info *f;
	const struct kxsym *x = s->nkx ? kx_find(s, a) : NULL;

	if (x) {
		/* a BPF program's, as perf names it: the program is its own object */
		f = sy_push_frame(s);
		f->name = x->name;
		f->sym_offset = a - x->start;
		f->dso = kernel_module(s, x->name);
		return 1;
	}
	if (!s->kloaded)
		kernel_load(s);
	if (s->kernel.dead || (s->k.hidden && s->nkmaps))
		return place_kernel(s, a);
	/* the cache file's pages, as an object's (sy_release_pages()) */
	sy_release_one(&s->krel, s->k.map && release_due(&s->krel), s->k.map, s->k.map_len);
	lo = kallsyms_upper(&s->k, a);
	if (lo == 0)
		return 0;
	end = lo < s->k.n ? s->k.syms[lo].addr : s->k.syms[lo - 1].addr + KSYM_LAST_SIZE;
	/*
	 * The last symbol of the kernel or a module reaches no further than
	 * a page: what lies between it and the next module's (a BPF program,
	 * a module gone since) is not its code
	 */
	if (lo < s->k.n && s->k.syms[lo].module != s->k.syms[lo - 1].module &&
	    strcmp(s->k.names + s->k.syms[lo].module, s->k.names + s->k.syms[lo - 1].module) &&
	    end > s->k.syms[lo - 1].addr + KSYM_LAST_SIZE)
		end = s->k.syms[lo - 1].addr + KSYM_LAST_SIZE;
	if (a >= end)
		return 0;
	f = sy_push_frame(s);
	f->name = strpool_intern_text(s->pool, s->k.names + s->k.syms[lo - 1].name,
				      strlen(s->k.names + s->k.syms[lo - 1].name));
	f->sym_offset = a - s->k.syms[lo - 1].addr;
	f->dso = kernel_module(s, s->k.names + s->k.syms[lo - 1].module);
	return 1;
}
