// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's text symbols. The kernel makes /proc/kallsyms' text as it
 * is read: 40 to 120 ms of CPU for 120k symbols, more than the rest of a
 * small report. The parsed table is kept in a cache file per boot, so
 * that only the first report of a boot pays for it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "xalloc.h"

/*
 * The cache file, kallsyms-BOOT_ID in the cache directory, native byte
 * order (it never leaves the machine):
 *   struct khdr, then n entries { u64 addr, u32 name offset, u32 module
 *   name offset }, then the names, each NUL-terminated. key says what it was made from (boot,
 *   kernel release, loaded modules); sum covers everything after the header
 *   (and the header's text and stext).
 */
#define KCACHE_MAGIC	"PROFKSY4"

struct khdr {
	char magic[8];
	uint64_t key, n, names_len, sum;
	uint64_t text, stext;	/* what a profile's kernel map is checked against */
};

/*
 * The whole of a file; /proc files report no size, so read to the end,
 * from a buffer of cap bytes that doubles. cap is a guess at the size: a
 * /proc/sys read allocates a kernel buffer as big as the read asked for.
 */
static char *slurp(const char *path, size_t cap, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (cap - len < 2) {
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

/* A symbol while parsing. */
struct psym {
	uint64_t addr;
	const char *name, *module;
	size_t line;		/* its place among the symbols kept, in file order */
};

/*
 * By address, and at one address the later line first, the one kept:
 * among symbols at one address perf keeps the one last in the file, of any
 * type or name. It gives each kallsyms symbol the length up to the next one
 * (symbols__fixup_end), so every alias but the last is empty, and
 * choose_best_symbol's first rule prefers a symbol that is not. Checked
 * with perf 6.1's --kallsyms: "t zz_long_alias" after "T read_zero" wins,
 * before it loses.
 */
static int psym_cmp(const void *pa, const void *pb)
{
	const struct psym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->line > b->line ? -1 : a->line < b->line;
}

/*
 * "ADDR TYPE NAME[\t[MODULE]]" a line. Text symbols only (t, T, w, W),
 * sorted, one name per address (a symbol reaches to the next). Names stay
 * in buf, cut in place.
 */
static void parse(struct kallsyms *k, const char *path)
{
	size_t cap = 0, n = 0, out = 0, len;
	char *p, *end;
	uint64_t any = 0;
	struct psym *syms = NULL;

	k->text = slurp(path, (size_t)1 << 22, &len);
	if (!k->text) {
		k->err = errno;
		return;
	}
	for (p = k->text, end = k->text + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *q, *name, *stop, *module;
		unsigned long long addr;
		char type;

		if (!nl)
			nl = end;
		*nl = '\0';
		errno = 0;
		addr = strtoull(p, &q, 16);
		if (q == p || errno || q[0] != ' ' || !q[1] || q[2] != ' ')
			goto next;
		type = q[1];
		name = q + 3;
		stop = name + strcspn(name, "\t ");
		/* "\t[ext4]" after a module's symbols; the kernel's own end the line */
		module = end;	/* the NUL after the text: "" */
		if (*stop == '\t' && stop[1] == '[') {
			char *close = strchr(stop + 2, ']');

			if (close && close > stop + 2) {
				module = stop + 1;	/* "[ext4]", as perf names it */
				close[1] = '\0';
			}
		}
		*stop = '\0';
		/* The symbols a kernel map is relocated by: kept before aliases drop them. */
		if (!strcmp(name, "_text"))
			k->text_addr = addr;
		else if (!strcmp(name, "_stext"))
			k->stext_addr = addr;
		if (!name[0] || (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			goto next;
		any |= addr;
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = xreallocarray(syms, cap, sizeof(*syms));
		}
		syms[n].addr = addr;
		syms[n].name = name;
		syms[n].module = module;
		syms[n].line = n;
		n++;
next:
		p = nl + 1;
	}
	if (!any) {
		/* kptr_restrict: every address reads 0, and would all match. */
		k->hidden = n > 0;
		n = 0;
	}
	if (n)	/* an empty file (--kallsyms /dev/null) has no table: qsort(NULL) is undefined */
		qsort(syms, n, sizeof(*syms), psym_cmp);
	k->table = xreallocarray(NULL, n ? n : 1, sizeof(*k->table));
	for (size_t i = 0; i < n && len < UINT32_MAX; i++)
		if (!out || k->table[out - 1].addr != syms[i].addr) {
			k->table[out].addr = syms[i].addr;
			k->table[out].name = (uint32_t)(syms[i].name - k->text);
			k->table[out++].module = (uint32_t)(syms[i].module - k->text);
		}
	free(syms);
	k->syms = k->table;
	k->n = out;
	k->names = k->text;
}

/*
 * What the symbols depend on: the boot (KASLR places the kernel anew at
 * each), the kernel release, and the modules loaded, by name and address
 * (not their use counts, which change all the time). 0 when the boot id
 * cannot be read: then there is no cache.
 */
static uint64_t cache_key(char *boot_id, size_t idlen)
{
	struct utsname u;
	char *mods, *p, *save = NULL;
	size_t len, n = 0;
	uint64_t h;
	char *id = slurp("/proc/sys/kernel/random/boot_id", 64, &len);

	if (!id)
		return 0;
	len = strcspn(id, "\n");
	id[len] = '\0';
	if (!len || len >= idlen || strspn(id, "0123456789abcdef-") != len) {
		free(id);
		return 0;
	}
	memcpy(boot_id, id, len + 1);
	h = htab_hash_chunks(0x6b616c6c73796d73ULL, id, len);
	free(id);
	if (uname(&u) == 0)
		h = htab_hash_chunks(h, u.release, strlen(u.release));
	mods = slurp("/proc/modules", 16384, &len);
	if (mods) {
		for (p = strtok_r(mods, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			char *sp = strchr(p, ' '), *addr = strrchr(p, ' ');

			if (sp)
				h = htab_hash_chunks(h, p, (size_t)(sp - p));
			if (addr)
				h = htab_hash_chunks(h, addr, strlen(addr));
			n++;
		}
		free(mods);
	}
	h = htab_hash_chunks(h, &n, sizeof(n));
	return h ? h : 1;
}

static char *cache_path(const char *dir, const char *boot_id)
{
	size_t n = strlen(dir) + strlen(boot_id) + sizeof("/kallsyms-");
	char *path = xmalloc(n);

	snprintf(path, n, "%s/kallsyms-%s", dir, boot_id);
	return path;
}

/* k->index of k->syms */
static void make_index(struct kallsyms *k)
{
	k->nindex = k->n ? (k->n - 1) / KSYM_STRIDE + 1 : 0;
	k->index = xreallocarray(NULL, k->nindex ? k->nindex : 1, sizeof(*k->index));
	for (size_t i = 0; i < k->nindex; i++)
		k->index[i] = k->syms[i * KSYM_STRIDE].addr;
}

size_t kallsyms_upper(const struct kallsyms *k, uint64_t a)
{
	size_t lo = 0, hi = k->nindex;

	while (lo < hi) {	/* the index's entries at or below a */
		size_t mid = lo + (hi - lo) / 2;

		if (k->index[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	/* the answer is in the stride of index[lo - 1]: past its first */
	hi = lo * KSYM_STRIDE < k->n ? lo * KSYM_STRIDE : k->n;
	lo = (lo - 1) * KSYM_STRIDE + 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Map the cache; 0 when it was there, whole and of this key. The table is
 * used where it lies in the file: nothing to allocate, copy or zero.
 */
static int cache_read(struct kallsyms *k, const char *path, uint64_t key)
{
	struct khdr h;
	struct stat st;
	size_t len, ents;
	const struct ksym *e;
	const char *buf, *names;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(h) || st.st_size > (off_t)1 << 30) {
		close(fd);
		return -1;
	}
	len = (size_t)st.st_size;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	buf = map;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, KCACHE_MAGIC, 8) || h.key != key || h.n > len / 16 ||
	    h.names_len > len)
		goto bad;
	ents = (size_t)h.n * 16;
	if (sizeof(h) + ents + h.names_len != len || !h.names_len || buf[len - 1] != '\0' ||
	    htab_hash_chunks(htab_hash_chunks(key, &h.text, 16), buf + sizeof(h), len - sizeof(h)) != h.sum)
		goto bad;
	e = (const struct ksym *)(buf + sizeof(h));	/* the header keeps it 8-aligned */
	names = buf + sizeof(h) + ents;
	for (size_t i = 0; i < h.n; i++)
		if (e[i].name >= h.names_len || e[i].module >= h.names_len ||
		    (i && e[i].addr <= e[i - 1].addr))
			goto bad;
	k->syms = e;
	k->n = h.n;
	make_index(k);
	/*
	 * Checking touched every page; a report looks up a few hundred
	 * symbols. Let the pages go: those used come back from the page cache.
	 */
	madvise(map, len, MADV_DONTNEED);
	k->names = names;
	k->text_addr = h.text;
	k->stext_addr = h.stext;
	k->map = map;
	k->map_len = len;
	k->cached = 1;
	return 0;
bad:
	munmap(map, len);
	return -1;
}

/*
 * Remove the caches of other boots: one file a boot would pile up. And the
 * temporary files of writers killed mid-write (4 MB each), which nothing
 * else would.
 */
static void cache_prune(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.') {
			if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
			    file_temp_abandoned(de->d_name, &st))
				unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (strncmp(de->d_name, "kallsyms-", 9) || !strcmp(de->d_name, keep))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

int cache_make_dir(const char *dir)
{
	char *parent, *slash;

	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -1;
	parent = xstrdup(dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		if (mkdir(parent, 0700) < 0 && errno != EEXIST) {
			free(parent);
			return -1;
		}
	}
	free(parent);
	return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/*
 * Write the cache beside its final name and rename it there (file_put()),
 * so that a reader sees a whole file or none. Kernel addresses are no one else's
 * business: the directory and the file are the user's only.
 */
static void cache_write(const struct kallsyms *k, const char *dir, const char *path,
			uint64_t key)
{
	struct khdr h = { .key = key, .n = k->n, .text = k->text_addr,
			  .stext = k->stext_addr };
	size_t names = 1, ents = k->n * 16, total, off;
	unsigned char *out;
	int err;
	uint32_t last_src = UINT32_MAX, last_dst = 0;

	/* At most: every name and every module name once per symbol, and a "" first. */
	for (size_t i = 0; i < k->n; i++)
		names += strlen(k->names + k->syms[i].name) + 1 +
			 strlen(k->names + k->syms[i].module) + 1;
	if (names > UINT32_MAX || cache_make_dir(dir))
		return;
	out = xmalloc(sizeof(h) + ents + names);
	off = sizeof(h) + ents;
	out[off++] = '\0';	/* offset 0: the kernel's module, "" */
	for (size_t i = 0; i < k->n; i++) {
		const char *name = k->names + k->syms[i].name;
		const char *mod = k->names + k->syms[i].module;
		size_t l = strlen(name) + 1;
		struct ksym v = { k->syms[i].addr, (uint32_t)(off - sizeof(h) - ents), 0 };

		memcpy(out + off, name, l);
		off += l;
		/* Module symbols come in runs: a module's name is written once a run. */
		if (mod[0] && k->syms[i].module == last_src) {
			v.module = last_dst;
		} else if (mod[0]) {
			l = strlen(mod) + 1;
			v.module = last_dst = (uint32_t)(off - sizeof(h) - ents);
			last_src = k->syms[i].module;
			memcpy(out + off, mod, l);
			off += l;
		}
		memcpy(out + sizeof(h) + 16 * i, &v, 16);
	}
	total = off;
	memcpy(h.magic, KCACHE_MAGIC, 8);
	h.names_len = total - sizeof(h) - ents;
	h.sum = htab_hash_chunks(htab_hash_chunks(key, &h.text, 16), out + sizeof(h), total - sizeof(h));
	memcpy(out, &h, sizeof(h));

	if (file_put(path, 0600, out, total, &err) == 0)
		cache_prune(dir, strrchr(path, '/') + 1);
	free(out);
}

void kallsyms_load(struct kallsyms *k, const char *kallsyms_path, const char *cache_dir)
{
	char boot_id[64];
	uint64_t key = cache_dir ? cache_key(boot_id, sizeof(boot_id)) : 0;
	char *path = key ? cache_path(cache_dir, boot_id) : NULL;

	if (path && cache_read(k, path, key) == 0) {
		free(path);
		return;
	}
	parse(k, kallsyms_path);
	make_index(k);
	if (path && k->names && !k->hidden && k->n)
		cache_write(k, cache_dir, path, key);
	free(path);
}

void kallsyms_release(struct kallsyms *k)
{
	free(k->text);
	free(k->table);
	free(k->index);
	if (k->map)
		munmap(k->map, k->map_len);
	memset(k, 0, sizeof(*k));
}

char *kallsyms_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *no = getenv("PROF_NO_CACHE");
	char *dir;
	size_t n;

	if (no && no[0])
		return NULL;
	if (x && x[0] == '/') {
		n = strlen(x) + sizeof("/prof");
		dir = xmalloc(n);
		snprintf(dir, n, "%s/prof", x);
		return dir;
	}
	if (home && home[0] == '/') {
		n = strlen(home) + sizeof("/.cache/prof");
		dir = xmalloc(n);
		snprintf(dir, n, "%s/.cache/prof", home);
		return dir;
	}
	return NULL;
}
