// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols against binaries that exist: the shape workload, libc, libstdc++,
 * libc's inlined functions when its debug info is installed, the kernel;
 * and the dsos that must resolve nothing, hostile files among them.
 *   test-symbols [WORKLOADS_DIR]   (else $WORKLOADS, else tests/workloads)
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "file.h"
#include "kallsyms.h"
#include "module.h"
#include "objfile.h"
#include "gosym.h"
#include "symbols.h"
#include "tap.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define LIBSTDCXX "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"

#include <libiberty/demangle.h>

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

static int nwarnings(const struct symbols *s)
{
	const char *const *w = symbols_warnings(s, &(size_t){ 0 });
	int n = 0;

	while (w[n])
		n++;
	return n;
}

static const char *last_warning(const struct symbols *s)
{
	int n = nwarnings(s);

	return n ? symbols_warnings(s, &(size_t){ 0 })[n - 1] : "";
}

struct elfsym {
	uint64_t value, size;
	uint64_t next;		/* lowest start of another symbol above value */
};

/* A defined function in the file's .symtab or .dynsym, read with libelf. */
static int find_sym(const char *path, Elf64_Word sh_type, const char *name, struct elfsym *out)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	Elf_Scn *scn = NULL;
	int found = 0;

	out->next = UINT64_MAX;
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != sh_type || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!found && n && !strcmp(n, name) && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
				out->value = sym.st_value;
				out->size = sym.st_size;
				found = 1;
			}
		}
	}
	/* Second pass for the neighbour, now that value is known. */
	scn = NULL;
	while (found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != sh_type || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
			    sym.st_value > out->value && sym.st_value < out->next)
				out->next = sym.st_value;
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found ? 0 : -1;
}

/* The file offset where vaddr's byte is, through the PT_LOAD that holds it. */
static int vaddr_to_off(const char *path, uint64_t vaddr, uint64_t *off)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t n = 0;
	int ret = -1;

	if (elf && elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
				*off = vaddr - ph.p_vaddr + ph.p_offset;
				ret = 0;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret;
}

static ssize_t file_build_id(const char *path, unsigned char *buf, size_t max)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	const void *bits;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &bits) : -1;

	if (n > 0 && (size_t)n <= max)
		memcpy(buf, bits, (size_t)n);
	else
		n = -1;
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return n;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, m = strlen(suffix);

	return s && n >= m && !strcmp(s + n - m, suffix);
}

static void test_shape(const char *shape, const char *tmp)
{
	struct symbols_opts o = { .srcline = 1 };
	struct symbols *s = symbols_new(&o);
	struct frame_info f[8], g[8];
	struct elfsym leaf;
	unsigned char id[64];
	ssize_t idlen = file_build_id(shape, id, sizeof(id));
	struct dso *d, *bad;
	uint64_t off;
	struct stat st;
	char link[PATH_MAX], msg[PATH_MAX + 128];
	int n;

	if (find_sym(shape, SHT_SYMTAB, "leaf_a", &leaf) < 0 ||
	    vaddr_to_off(shape, leaf.value + 4, &off) < 0) {
		ok(0, "leaf_a is in %s's symbol table", shape);
		symbols_free(s);
		return;
	}
	d = symbols_dso(s, shape, NULL, 0);
	ok(d == symbols_dso(s, shape, NULL, 0), "the same path gives the same dso");
	ok(!strcmp(dso_short_name(d), "shape") && !strcmp(dso_path(d), shape),
	   "short name \"%s\", path as given", dso_short_name(d));
	n = dso_resolve(d, off, f, 8);
	ok(n == 1 && f[0].name && !strcmp(f[0].name, "leaf_a") && f[0].sym_offset == 4 &&
	   !f[0].inlined, "offset 0x%" PRIx64 " is leaf_a+4 (%d frames, %s+%" PRIu64 ")", off, n,
	   n > 0 && f[0].name ? f[0].name : "-", n > 0 ? f[0].sym_offset : 0);
	ok(n == 1 && ends_with(f[0].file, "/shape.c") && f[0].line > 0,
	   "with srcline, the line is in shape.c (%s:%d)", n > 0 && f[0].file ? f[0].file : "-",
	   n > 0 ? f[0].line : 0);
	ok(dso_resolve(d, off, g, 8) == 1 && g[0].name == f[0].name && g[0].file == f[0].file,
	   "a second lookup gives the same interned strings");

	if (leaf.size && leaf.next > leaf.value + leaf.size &&
	    vaddr_to_off(shape, leaf.value + leaf.size, &off) == 0) {
		n = dso_resolve(d, off, f, 8);
		ok(n == 0, "the padding after leaf_a is in no function (%d frames)", n);
	} else {
		skip("the padding after leaf_a is in no function", "no padding after leaf_a");
	}
	ok(stat(shape, &st) == 0 && dso_resolve(d, (uint64_t)st.st_size - 1, f, 8) == 0 &&
	   dso_resolve(d, UINT64_MAX, f, 8) == 0, "offsets outside every PT_LOAD resolve to nothing");
	ok(nwarnings(s) == 0, "no warnings so far (%s)", last_warning(s));

	if (idlen > 0) {
		struct dso *right = symbols_dso(s, shape, id, (size_t)idlen);

		ok(right != d && vaddr_to_off(shape, leaf.value, &off) == 0 &&
		   dso_resolve(right, off, f, 8) == 1 &&
		   f[0].sym_offset == 0 && nwarnings(s) == 0,
		   "the file's own build id resolves, without warning");
		id[0] ^= 0xff;
		bad = symbols_dso(s, shape, id, (size_t)idlen);
		n = dso_resolve(bad, off, f, 8);
		n += dso_resolve(bad, off + 1, f, 8);
		snprintf(msg, sizeof(msg),
			 "build id of %s differs from the recorded one, and no file has it; its code "
			 "shows as ?? (shape), by offsets into it with --sort sym,srcline", shape);
		ok(n == 0 && nwarnings(s) == 1 && !strcmp(last_warning(s), msg) && !dso_unknown(bad),
		   "another build id: nothing, offsets, and one warning (%s)", last_warning(s));
		ok(dso_resolve(d, off, f, 8) == 1, "the dso without a build id still resolves");
	} else {
		skip("build ids", "shape has no build id");
	}
	symbols_free(s);

	/*
	 * Every path is looked up under the symfs first: there, "/bin/true"
	 * is shape. A path missing from it is looked up where it is.
	 */
	snprintf(link, sizeof(link), "%s/bin", tmp);
	mkdir(link, 0700);
	snprintf(link, sizeof(link), "%s/bin/true", tmp);
	if (symlink(shape, link) == 0) {
		o.symfs = tmp;
		s = symbols_new(&o);
		d = symbols_dso(s, "/bin/true", NULL, 0);
		vaddr_to_off(shape, leaf.value + 8, &off);
		n = s ? dso_resolve(d, off, f, 8) : -1;
		ok(n == 1 && !strcmp(f[0].name, "leaf_a") && f[0].sym_offset == 8,
		   "under a symfs, /bin/true is %s/bin/true", tmp);
		n = s ? dso_resolve(symbols_dso(s, shape, NULL, 0), off, f, 8) : -1;
		ok(n == 1 && !strcmp(f[0].name, "leaf_a") && nwarnings(s) == 0,
		   "a file missing from the symfs is found where it is");
		symbols_free(s);
		unlink(link);
	} else {
		ok(0, "symlink %s: %s", link, strerror(errno));
	}
	o.symfs = "/nonexistent/prof-symfs";
	errno = 0;
	ok(symbols_new(&o) == NULL && errno == ENOENT, "a symfs that does not exist is ENOENT");
}

/*
 * shape copied to tmp/name (copy), leaf_a+4's file offset (*off) and a
 * live map of the copy by no process (*m: the file its path names, which
 * is the one mapped): 0, or -1 after a failed check.
 */
static int live_copy(const char *shape, const char *tmp, const char *name, char *copy,
		     struct elfsym *leaf, uint64_t *off, struct live_map *m)
{
	char cmd[2 * PATH_MAX + 16];
	struct stat st;

	snprintf(copy, PATH_MAX, "%s/%s", tmp, name);
	snprintf(cmd, sizeof(cmd), "cp %s %s", shape, copy);
	if (find_sym(shape, SHT_SYMTAB, "leaf_a", leaf) < 0 ||
	    vaddr_to_off(shape, leaf->value + 4, off) < 0 || system(cmd) != 0 ||
	    stat(copy, &st) != 0) {
		ok(0, "a copy of %s with leaf_a to resolve", shape);
		return -1;
	}
	memset(m, 0, sizeof(*m));
	m->end = 0x1000;
	m->maj = major(st.st_dev);
	m->min = minor(st.st_dev);
	m->ino = st.st_ino;
	return 0;
}

/*
 * A live file let go (symbols_release()) and mapped and resolved again is
 * let go again: the objects released stay for the dsos that name them,
 * out of what the release and the trim look at, and come back to it when
 * their file is opened again.
 */
static void test_release(const char *shape, const char *tmp)
{
	struct symbols *s;
	struct frame_info f[8];
	struct elfsym leaf;
	struct live_map m;
	struct stat st;
	char copy[PATH_MAX], cmd[4 * PATH_MAX + 64];
	uint64_t off;
	size_t n1, n2, n3;
	int r1, r2;

	if (live_copy(shape, tmp, "released", copy, &leaf, &off, &m))
		return;
	s = symbols_new(NULL);
	r1 = dso_resolve(symbols_dso_live(s, copy, NULL, 0, &m), off, f, 8);
	symbols_mark_begin(s);
	n1 = symbols_release(s, 0, NULL, NULL);
	r2 = dso_resolve(symbols_dso_live(s, copy, NULL, 0, &m), off + 4, f, 8);
	symbols_mark_begin(s);
	n2 = symbols_release(s, 0, NULL, NULL);
	symbols_mark_begin(s);
	n3 = symbols_release(s, 0, NULL, NULL);
	ok(r1 == 1 && r2 == 1 && n1 == 1 && n2 == 1 && n3 == 0 && symbols_released(s) == 2,
	   "a file let go, mapped and resolved again, is let go again, once (resolved %d, %d; "
	   "let go %zu, %zu, %zu)", r1, r2, n1, n2, n3);
	/*
	 * Copies put at one path one after another, each mapped here (the
	 * map_files link says which file a map is of): each its own object;
	 * after all are let go, the last, which the path still names, finds
	 * its own again among the seven others of its path (those were
	 * renamed away, which changed their ctime: another file to prof).
	 */
	{
		struct dso *d[8];
		struct live_map mm[8];
		void *at[8];
		size_t len = stat(copy, &st) == 0 ? (size_t)st.st_size : 0;
		int same, distinct = 1, mapped = len > 0;
		size_t let_go;

		for (int i = 0; i < 8; i++) {
			int fd;

			/* the one before kept under another name: its inode is not the new one's */
			snprintf(cmd, sizeof(cmd), "mv %s %s.%d && cp %s %s", copy, copy, i, shape, copy);
			fd = system(cmd) == 0 ? open(copy, O_RDONLY) : -1;
			at[i] = fd >= 0 && fstat(fd, &st) == 0 ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)
							     : MAP_FAILED;
			if (fd >= 0)
				close(fd);
			mapped &= at[i] != MAP_FAILED;
			mm[i] = (struct live_map){ getpid(), (uintptr_t)at[i], (uintptr_t)at[i] + len,
						   major(st.st_dev), minor(st.st_dev), st.st_ino, 0 };
			d[i] = mapped ? symbols_dso_live(s, copy, NULL, 0, &mm[i]) : NULL;
			mapped &= d[i] && dso_resolve(d[i], off, f, 8) == 1;	/* its file opened */
			for (int j = 0; j < i; j++)
				distinct &= d[j] != d[i];
		}
		symbols_mark_begin(s);
		let_go = symbols_release(s, 0, NULL, NULL);
		same = mapped && symbols_dso_live(s, copy, NULL, 0, &mm[7]) == d[7];
		ok(mapped && distinct && same && let_go == 8,
		   "8 copies at one path: objects of their own, let go (%zu), the last found again "
		   "(mapped %d, distinct %d, found %d)", let_go, mapped, distinct, same);
		for (int i = 0; i < 8; i++)
			if (at[i] != MAP_FAILED)
				munmap(at[i], len);
	}
	symbols_free(s);
}

/*
 * Two objects of one path, one file: the object a live map of the path
 * got while no file was there (no id: any file of the path) is given the
 * file the path's other object opened. Letting go of the one that no
 * process maps must leave the file to the other (it freed it, and an
 * agent beside a churn of programs deleted at exit crashed in minutes);
 * the other's going closes it.
 */
/* symbols_release()'s drop: the files it was told of, and how many times. */
struct dropped {
	const struct objfile *files[8];
	size_t n, calls;
};

static void count_drop(void *ctx, const struct objfile *const *files, size_t n)
{
	struct dropped *d = ctx;

	d->calls++;
	for (size_t i = 0; i < n && d->n < 8; i++)
		d->files[d->n++] = files[i];
}

static void test_shared_file(const char *shape, const char *tmp)
{
	struct symbols *s;
	struct frame_info f[8];
	struct elfsym leaf;
	struct live_map m;
	const struct objfile *fa, *fb;
	struct dso *a, *b;
	struct dropped d1 = { 0 }, d2 = { 0 }, d3 = { 0 };
	char copy[PATH_MAX];
	uint64_t off, va = 0;
	size_t n1, n2, n3;
	int rb, ra, still;

	if (live_copy(shape, tmp, "shared", copy, &leaf, &off, &m))
		return;
	s = symbols_new(NULL);
	b = symbols_dso_live(s, copy, NULL, 0, &m);
	rb = dso_resolve(b, off, f, 8);		/* b's file opened */
	unlink(copy);
	m.ino++;				/* another file, gone: an object of no id */
	a = symbols_dso_live(s, copy, NULL, 0, &m);
	ra = dso_resolve(a, off + 4, f, 8);
	fa = dso_file(a);
	fb = dso_file(b);
	symbols_mark_begin(s);
	dso_mark_live(b);			/* b's process lives, a's does not */
	n1 = symbols_release(s, 0, count_drop, &d1);
	fb = dso_file(b);
	still = fb && fb->fd >= 0 && objfile_vaddr(fb, off, &va, NULL) == 1 &&
		va == leaf.value + 4 && dso_resolve(b, off + 8, f, 8) == 1;
	symbols_mark_begin(s);
	n2 = symbols_release(s, 0, count_drop, &d2);
	ok(rb == 1 && ra == 1 && a != b && fa == fb && n1 == 1 && still && n2 == 1 &&
	   d1.calls == 0 && d2.calls == 1 && d2.n == 1 && d2.files[0] == fa,
	   "two objects of one path given one file: the one let go leaves it to the other, whose "
	   "going closes it (resolved %d %d, shared %d, let go %zu then %zu, the other's file %s, "
	   "closed %zu then %zu)", rb, ra, a != b && fa == fb, n1, n2, still ? "whole" : "gone",
	   d1.n, d2.n);
	symbols_free(s);

	/* both let go in one pass: the file closes once, told once */
	if (live_copy(shape, tmp, "shared2", copy, &leaf, &off, &m))
		return;
	s = symbols_new(NULL);
	b = symbols_dso_live(s, copy, NULL, 0, &m);
	rb = dso_resolve(b, off, f, 8);
	unlink(copy);
	m.ino++;
	a = symbols_dso_live(s, copy, NULL, 0, &m);
	ra = dso_resolve(a, off + 4, f, 8);
	fa = dso_file(a);
	fb = dso_file(b);
	symbols_mark_begin(s);
	n3 = symbols_release(s, 0, count_drop, &d3);
	ok(rb == 1 && ra == 1 && fa == fb && n3 == 2 && d3.calls == 1 && d3.n == 1 &&
	   d3.files[0] == fa,
	   "two objects of one file let go in one pass: the file closed once (let go %zu, told "
	   "%zu times of %zu files)", n3, d3.calls, d3.n);
	symbols_free(s);
}

static void test_nothing(const char *tmp)
{
	static const char *const special[] = {
		"[vdso]", "[vsyscall]", "//anon", "[heap]", "[stack]", "[anon:x]",
		"anon_inode:[perf_event]", "/memfd:jit (deleted)", "", "[kernel.kallsyms]_text",
	};
	struct symbols *s = symbols_new(NULL);
	struct frame_info f[4];
	char path[PATH_MAX];
	int n = 0, fd;

	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		n += dso_resolve(symbols_dso(s, special[i], NULL, 0), 0x1000, f, 4);
	ok(n == 0 && nwarnings(s) == 0, "names that are no file resolve nothing, silently");
	ok(!strcmp(dso_short_name(symbols_dso(s, "[vdso]", NULL, 0)), "[vdso]") &&
	   !strcmp(dso_short_name(symbols_dso(s, "//anon", NULL, 0)), "//anon"),
	   "they keep their names");

	n = dso_resolve(symbols_dso(s, LIBC " (deleted)", NULL, 0), 0x1000, f, 4);
	ok(n == 0 && nwarnings(s) == 1 && strstr(last_warning(s), "was deleted"),
	   "a deleted file is not opened: %s", last_warning(s));

	n = dso_resolve(symbols_dso(s, "/nonexistent/prof-test/x.so", NULL, 0), 0, f, 4);
	n += dso_resolve(symbols_dso(s, "/nonexistent/prof-test/x.so", NULL, 0), 8, f, 4);
	n += dso_resolve(symbols_dso(s, "/nonexistent/prof-test/x.so", (const unsigned char *)"ab",
				     2), 8, f, 4);
	ok(n == 0 && nwarnings(s) == 2 &&
	   !strcmp(last_warning(s),
		   "cannot open /nonexistent/prof-test/x.so: No such file or directory"),
	   "a missing file: nothing, one warning (%s)", last_warning(s));

	n = dso_resolve(symbols_dso(s, "/nonexistent/a\nb\033[2J", NULL, 0), 0, f, 4);
	ok(n == 0 && nwarnings(s) == 3 && !strchr(last_warning(s), '\n') &&
	   !strchr(last_warning(s), '\033'), "a warning stays one line: %s", last_warning(s));

	/* Hostile files: none may crash, hang, or resolve. */
	snprintf(path, sizeof(path), "%s/fifo", tmp);
	mkfifo(path, 0600);
	n = dso_resolve(symbols_dso(s, path, NULL, 0), 0, f, 4);
	n += dso_resolve(symbols_dso(s, tmp, NULL, 0), 0, f, 4);
	snprintf(path, sizeof(path), "%s/noise", tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	for (int i = 0; i < 4096; i++) {
		unsigned char b = (unsigned char)rnd();

		if (write(fd, &b, 1) != 1)
			break;
	}
	close(fd);
	n += dso_resolve(symbols_dso(s, path, NULL, 0), 100, f, 4);
	snprintf(path, sizeof(path), "%s/empty", tmp);
	close(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600));
	n += dso_resolve(symbols_dso(s, path, NULL, 0), 0, f, 4);
	ok(n == 0 && nwarnings(s) == 7, "a FIFO, a directory, noise, an empty file: nothing, "
	   "a warning each (%s)", last_warning(s));
	ok(dso_resolve(symbols_dso(s, LIBC, NULL, 0), 0x1000, f, 0) == 0, "max 0 gives 0 frames");
	symbols_free(s);
}

/* Copies of an ELF file with bytes changed: never a crash. */
static void test_mutants(const char *src, const char *tmp)
{
	struct symbols *s;
	struct frame_info f[16];
	char path[PATH_MAX];
	unsigned char *buf;
	struct stat st;
	int fd = open(src, O_RDONLY), total = 0, bad = 0;
	struct symbols_opts o = { .demangle = 1, .inline_frames = 1, .srcline = 1 };

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 64) {
		ok(0, "read %s", src);
		return;
	}
	buf = malloc((size_t)st.st_size);
	if (read(fd, buf, (size_t)st.st_size) != st.st_size) {
		ok(0, "read %s", src);
		close(fd);
		free(buf);
		return;
	}
	close(fd);
	for (int round = 0; round < 60; round++) {
		unsigned char *m = malloc((size_t)st.st_size);
		size_t len = (size_t)st.st_size;
		struct dso *d;

		memcpy(m, buf, len);
		if (round % 3 == 2) {
			len = 64 + rnd() % (len - 64);	/* truncated */
		} else {
			for (int i = 0; i < 1 + round; i++) {
				/* The headers and tables are where the damage is felt. */
				size_t at = rnd() % (i % 2 ? len : 4096 < len ? 4096 : len);

				m[at] = (unsigned char)rnd();
			}
		}
		snprintf(path, sizeof(path), "%s/mutant%d", tmp, round);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, m, len) != (ssize_t)len) {
			ok(0, "write %s", path);
			free(m);
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
		s = symbols_new(&o);
		d = symbols_dso(s, path, NULL, 0);
		for (int i = 0; i < 2000; i++) {
			int n = dso_resolve(d, rnd() % (len + 64), f, 16);

			total += n > 0;
			/* the contract, whatever the file says: 0..max frames, each named */
			if (n < 0 || n > 16)
				bad++;
			for (int k = 0; k < n && k < 16; k++)
				if (!f[k].name || strnlen(f[k].name, 65536) == 65536 ||
				    (f[k].file && f[k].line < 0))
					bad++;
		}
		symbols_free(s);
		unlink(path);
		free(m);
	}
	/* most of a copy is intact: its symbols still name addresses */
	ok(bad == 0 && total > 0,
	   "60 damaged copies of %s: %d of 120000 addresses named, %d answers outside the contract",
	   src, total, bad);
	free(buf);
}

static void test_libc(void)
{
	struct symbols *s = symbols_new(NULL);
	struct frame_info f[4];
	struct elfsym m;
	uint64_t off;
	int n;

	if (find_sym(LIBC, SHT_DYNSYM, "malloc", &m) < 0 || vaddr_to_off(LIBC, m.value + 1, &off) < 0) {
		skip("libc's malloc", "no " LIBC " with malloc");
		symbols_free(s);
		return;
	}
	n = dso_resolve(symbols_dso(s, LIBC, NULL, 0), off, f, 4);
	ok(n == 1 && !strcmp(f[0].name, "malloc") && f[0].sym_offset == 1 && !f[0].file,
	   "libc: 0x%" PRIx64 " is malloc+1 (%s+%" PRIu64 ")", off, n ? f[0].name : "-",
	   n ? f[0].sym_offset : 0);
	/*
	 * free's aliases: in .dynsym free, __libc_free and cfree (the longest
	 * of the fewest underscores: cfree); in the debug file's .symtab also
	 * the .symver name cfree@GLIBC_2.2.5, which perf shows as it is.
	 */
	if (find_sym(LIBC, SHT_DYNSYM, "free", &m) == 0 && vaddr_to_off(LIBC, m.value, &off) == 0) {
		unsigned char id[64];
		ssize_t idn = file_build_id(LIBC, id, sizeof(id));
		char dbg[256];
		const char *want = "cfree";
		struct elfsym c;
		int at = snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%02x/", idn > 0 ? id[0] : 0);

		for (ssize_t i = 1; i < idn; i++)
			at += snprintf(dbg + at, sizeof(dbg) - (size_t)at, "%02x", id[i]);
		snprintf(dbg + at, sizeof(dbg) - (size_t)at, ".debug");
		if (idn > 0 && find_sym(dbg, SHT_SYMTAB, "cfree@GLIBC_2.2.5", &c) == 0 &&
		    c.value == m.value)
			want = "cfree@GLIBC_2.2.5";
		n = dso_resolve(symbols_dso(s, LIBC, NULL, 0), off, f, 4);
		ok(n == 1 && !strcmp(f[0].name, want), "libc: free is named %s, as perf names it (%s)",
		   want, n ? f[0].name : "-");
	}
	ok(nwarnings(s) == 0, "libc: no warnings (%s)", last_warning(s));
	symbols_free(s);
}

/* The first C++ function libstdc++ exports, by both names. */
static void test_demangle(void)
{
	int fd = open(LIBSTDCXX, O_RDONLY);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	Elf_Scn *scn = NULL;
	uint64_t value = 0, off;
	struct symbols_opts o = { .demangle = 1 }, op = { .demangle = 1, .params = 1 };
	struct symbols *raw, *plain, *params;
	struct frame_info f[4], g[4], h[4];
	char *want, *wantp;
	int n, k, m;

	while (elf && !value && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size < 2)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && !strncmp(name, "_ZNSt", 5)) {
				value = sym.st_value;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (!value || vaddr_to_off(LIBSTDCXX, value + 1, &off) < 0) {
		skip("demangling", "no C++ function in " LIBSTDCXX);
		return;
	}
	raw = symbols_new(NULL);
	plain = symbols_new(&o);
	params = symbols_new(&op);
	n = dso_resolve(symbols_dso(raw, LIBSTDCXX, NULL, 0), off, f, 4);
	k = dso_resolve(symbols_dso(plain, LIBSTDCXX, NULL, 0), off, g, 4);
	m = dso_resolve(symbols_dso(params, LIBSTDCXX, NULL, 0), off, h, 4);
	/* perf's spelling: libiberty's, without parameter lists unless asked (perf -v) */
	want = n == 1 ? cplus_demangle_v3(f[0].name, DMGL_NO_OPTS) : NULL;
	wantp = n == 1 ? cplus_demangle_v3(f[0].name, DMGL_PARAMS | DMGL_ANSI) : NULL;
	ok(n == 1 && !strncmp(f[0].name, "_Z", 2), "without demangle, the name is mangled (%s)",
	   n ? f[0].name : "-");
	ok(k == 1 && want && !strcmp(g[0].name, want) && strstr(g[0].name, "::") &&
	   !strchr(g[0].name, '('), "with demangle, it reads %s, without parameters",
	   k ? g[0].name : "-");
	ok(m == 1 && wantp && !strcmp(h[0].name, wantp) && strchr(h[0].name, '('),
	   "with params, it reads %s", m ? h[0].name : "-");
	free(want);
	free(wantp);
	symbols_free(raw);
	symbols_free(plain);
	symbols_free(params);
}

struct inl {
	Dwarf_Addr pc;
	const char *name;
	Dwarf_Word call_line;
};

static int has_inlined_child(Dwarf_Die *die)
{
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_inlined_subroutine || has_inlined_child(&c))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* An inlined subroutine with a single range, nothing inlined into it. */
static int find_inlined(Dwarf_Die *die, struct inl *out, int depth)
{
	Dwarf_Die c;

	if (depth > 32 || dwarf_child(die, &c) != 0)
		return 0;
	do {
		Dwarf_Attribute a;

		if (dwarf_tag(&c) == DW_TAG_inlined_subroutine && dwarf_lowpc(&c, &out->pc) == 0 &&
		    !dwarf_hasattr(&c, DW_AT_ranges) && dwarf_diename(&c) &&
		    dwarf_formudata(dwarf_attr(&c, DW_AT_call_line, &a), &out->call_line) == 0 &&
		    out->call_line > 0 && !has_inlined_child(&c)) {
			out->name = dwarf_diename(&c);
			return 1;
		}
		if (find_inlined(&c, out, depth + 1))
			return 1;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static void test_inline(void)
{
	unsigned char id[64];
	ssize_t idlen = file_build_id(LIBC, id, sizeof(id));
	char path[PATH_MAX], *p;
	struct symbols_opts o = { .inline_frames = 1, .srcline = 1 };
	struct symbols *s;
	struct frame_info f[16], g[16];
	char *outer;
	struct inl in = { 0, NULL, 0 };
	Dwarf *dw = NULL;
	Dwarf_Off cuoff = 0, next;
	size_t hsize;
	uint64_t off;
	int fd = -1, n, found = 0, cus = 0;

	if (idlen > 1) {
		p = path + snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
		for (ssize_t i = 1; i < idlen; i++)
			p += sprintf(p, "%02x", id[i]);
		strcpy(p, ".debug");
		fd = open(path, O_RDONLY);
	}
	dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	/* Some way into libc, past the start-up code. */
	while (dw && !found && dwarf_nextcu(dw, cuoff, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (++cus > 20 && dwarf_offdie(dw, cuoff + hsize, &cu) &&
		    find_inlined(&cu, &in, 0) && vaddr_to_off(LIBC, in.pc, &off) == 0)
			found = 1;
		cuoff = next;
	}
	if (!found) {
		skip("inline frames", "no debug info for " LIBC " (libc6-dbg)");
		if (dw)
			dwarf_end(dw);
		if (fd >= 0)
			close(fd);
		return;
	}
	s = symbols_new(&o);
	n = dso_resolve(symbols_dso(s, LIBC, NULL, 0), off, f, 16);
	ok(n >= 2 && f[0].inlined && f[0].name && !strcmp(f[0].name, in.name) &&
	   !f[n - 1].inlined && f[n - 1].name,
	   "libc 0x%" PRIx64 ": %s is inlined into %s (%d frames)", off, in.name,
	   n > 0 && f[n - 1].name ? f[n - 1].name : "-", n);
	ok(n >= 2 && f[1].line == (int)in.call_line && f[1].file && f[0].file && f[0].line > 0,
	   "the caller's line is the call site, %s:%d (want %d)", n >= 2 && f[1].file ? f[1].file : "-",
	   n >= 2 ? f[1].line : 0, (int)in.call_line);
	ok(n >= 2 && dso_resolve(symbols_dso(s, LIBC, NULL, 0), off, g, 1) == 1 && g[0].inlined &&
	   g[0].name == f[0].name, "max 1 keeps the innermost frame");
	/* The names die with s. */
	outer = n > 0 && f[n - 1].name ? strdup(f[n - 1].name) : NULL;
	symbols_free(s);
	o.inline_frames = 0;
	s = symbols_new(&o);
	n = dso_resolve(symbols_dso(s, LIBC, NULL, 0), off, g, 16);
	ok(n == 1 && !g[0].inlined && g[0].name && outer && !strcmp(g[0].name, outer),
	   "without inline_frames, one frame: %s", n > 0 && g[0].name ? g[0].name : "-");
	free(outer);
	symbols_free(s);
	dwarf_end(dw);
	close(fd);
}

static void test_kernel(void)
{
	FILE *k = fopen("/proc/kallsyms", "re");
	char line[512], name[256], prev[256] = "", type;
	unsigned long long addr, prev_addr = 0, text = 0;
	int prev_unique = 0, found = 0;
	struct symbols *s;
	struct frame_info f[4];
	int n;

	/* A text symbol after _text alone at its address, with a successor. */
	while (k && fgets(line, sizeof(line), k)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = addr;
		if (prev_unique && addr > prev_addr + 1 && text && prev_addr > text) {
			found = 1;
			break;
		}
		prev_unique = addr != prev_addr && (type == 't' || type == 'T') &&
			      !strchr(line, '[');
		prev_addr = addr;
		strcpy(prev, name);
	}
	if (k)
		fclose(k);
	if (!text) {
		skip("kernel symbols", "/proc/kallsyms hides addresses");
		return;
	}
	if (!found) {
		ok(0, "a kernel text symbol after _text");
		return;
	}
	s = symbols_new(NULL);
	n = dso_resolve(symbols_kernel(s), prev_addr + 1, f, 4);
	ok(n == 1 && !strcmp(f[0].name, prev) && f[0].sym_offset == 1,
	   "kernel: %llx is %s+1 (%s)", prev_addr + 1, prev, n ? f[0].name : "-");
	ok(dso_resolve(symbols_kernel(s), 0, f, 4) == 0, "kernel: address 0 is in nothing");
	ok(!strcmp(dso_short_name(symbols_kernel(s)), "[kernel.kallsyms]") && nwarnings(s) == 0,
	   "kernel: named [kernel.kallsyms], no warnings (%s)", last_warning(s));
	symbols_free(s);
}

/*
 * Kernel modules, from a kallsyms of our own: a module's function is named
 * in a dso of the module's name, as perf shows it ("[ext4]"); the
 * kernel's own functions stay in [kernel.kallsyms].
 */
static void test_modules(const char *tmp)
{
	char path[PATH_MAX];
	FILE *f;
	struct symbols_opts o = { .kallsyms = path };
	struct symbols *s;
	struct frame_info fi[4];
	static const struct {
		uint64_t addr;
		const char *name, *dso;
	} want[] = {
		{ 0xffffffff81001004ULL, "do_thing", "[kernel.kallsyms]" },
		{ 0xffffffffc0001010ULL, "ext4_fill_super", "[ext4]" },
		{ 0xffffffffc0002001ULL, "ext4_read", "[ext4]" },
		{ 0xffffffffc0010008ULL, "xfs_go", "[xfs]" },
	};

	snprintf(path, sizeof(path), "%s/kallsyms", tmp);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "write %s: %s", path, strerror(errno));
		return;
	}
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000000 T startup_64\n"
	      "ffffffff81001000 T do_thing\n"
	      "ffffffff81002000 D some_data\n"
	      "ffffffff81003000 T _etext\n"
	      "ffffffffc0001000 t ext4_fill_super\t[ext4]\n"
	      "ffffffffc0002000 t ext4_read\t[ext4]\n"
	      "ffffffffc0003000 d ext4_data\t[ext4]\n"
	      "ffffffffc0010000 t xfs_go\t[xfs]\n"
	      "ffffffffc0011000 t xfs_end\t[xfs]\n", f);
	fclose(f);
	s = symbols_new(&o);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int n = dso_resolve(symbols_kernel(s), want[i].addr, fi, 4);
		const char *dso = n ? dso_short_name(fi[0].dso ? fi[0].dso
							       : symbols_kernel(s)) : "-";

		ok(n == 1 && !strcmp(fi[0].name, want[i].name) && !strcmp(dso, want[i].dso),
		   "modules: %" PRIx64 " is %s in %s (%s in %s)", want[i].addr, want[i].name,
		   want[i].dso, n ? fi[0].name : "-", dso);
	}
	ok(nwarnings(s) == 0, "modules: no warnings (%s)", last_warning(s));
	symbols_free(s);

	/* The same table through the cache: written by one load, read by the next. */
	{
		struct kallsyms a = { 0 }, b = { 0 };
		char dir[PATH_MAX];
		int same;

		snprintf(dir, sizeof(dir), "%s/cache", tmp);
		kallsyms_load(&a, path, dir);
		kallsyms_load(&b, path, dir);
		if (access("/proc/sys/kernel/random/boot_id", R_OK)) {
			skip("the kallsyms cache", "no boot id");
		} else {
			same = a.n == b.n && !a.cached && b.cached && a.text_addr == b.text_addr;
			for (size_t i = 0; same && i < a.n; i++)
				same = a.syms[i].addr == b.syms[i].addr &&
				       !strcmp(a.names + a.syms[i].name, b.names + b.syms[i].name) &&
				       !strcmp(a.names + a.syms[i].module, b.names + b.syms[i].module);
			ok(same && a.n == 7, "modules: the cache gives back the table (%zu, %zu "
			   "symbols, cached %d %d)", a.n, b.n, a.cached, b.cached);
		}
		kallsyms_release(&a);
		kallsyms_release(&b);
	}
}

/*
 * The kernel's symbols are searched through an index of every
 * KSYM_STRIDE-th: around each stride's edges, the symbol holding an
 * address is the one a plain search over all of them finds.
 */
static void test_kallsyms_index(const char *tmp)
{
	char path[PATH_MAX];
	struct kallsyms k = { 0 };
	const size_t n = 3 * KSYM_STRIDE + 7;
	const uint64_t base = 0xffffffff81000000ULL;
	size_t bad = 0, checked = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms-index", tmp);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "write %s: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "%016" PRIx64 " T _text\n", base);
	for (size_t i = 1; i < n; i++)	/* gaps of 16 and 48 bytes */
		fprintf(f, "%016" PRIx64 " T fn%zu\n", base + 32 * i + (i % 2 ? 16 : 0), i);
	fclose(f);
	kallsyms_load(&k, path, NULL);
	for (uint64_t a = base - 64; k.n && a < base + 32 * n + 256; a += 4) {
		size_t want = 0;

		while (want < k.n && k.syms[want].addr <= a)
			want++;
		bad += kallsyms_upper(&k, a) != want;
		checked++;
	}
	ok(k.n == n && k.nindex == 4 && checked > 3000 && !bad,
	   "kallsyms: %zu symbols, %zu in the index; %zu of %zu look-ups differ from a search of all",
	   k.n, k.nindex, bad, checked);
	kallsyms_release(&k);
}

/*
 * file_pages_release(): what is resident of a private mapping goes,
 * above the bytes to keep, except a page a write copied, which keeps the
 * write; what went reads back as the file.
 */
static void test_pages_release(const char *tmp)
{
	char path[PATH_MAX];
	long page = sysconf(_SC_PAGESIZE);
	const size_t np = 64;
	size_t len = np * (size_t)page, gone_keep, gone, present = 0, same = 0;
	unsigned char *m, *buf;
	volatile unsigned char sum = 0;
	uint64_t *e;
	int fd, pm;

	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0) {
		skip("pages let go", "no /proc/self/pagemap");
		return;
	}
	snprintf(path, sizeof(path), "%s/pages", tmp);
	buf = malloc(len);
	e = calloc(np, sizeof(*e));
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + i / 4096);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
		ok(0, "write %s: %s", path, strerror(errno));
		goto out;
	}
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		ok(0, "mmap %s: %s", path, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < len; i += (size_t)page)
		sum += m[i];
	gone_keep = file_pages_release(m, len, len);
	m[5 * page + 3] ^= 0xff;	/* a private copy of page 5 */
	gone = file_pages_release(m, len, 0);
	if (pread(pm, e, np * sizeof(*e), (off_t)((uintptr_t)m / (uintptr_t)page * 8)) ==
	    (ssize_t)(np * sizeof(*e)))
		for (size_t i = 0; i < np; i++)
			present += e[i] >> 63 & 1;
	for (size_t i = 0; i < len; i++)
		same += m[i] == (i == 5 * (size_t)page + 3 ? (unsigned char)(buf[i] ^ 0xff) : buf[i]);
	ok(gone_keep == 0 && gone == len - (size_t)page && present == 1 && same == len,
	   "pages let go: %zu with all kept, %zu of %zu without; %zu resident after, "
	   "%zu of %zu bytes read back as written", gone_keep, gone, len, present, same, len);
	munmap(m, len);
out:
	if (fd >= 0)
		close(fd);
	close(pm);
	free(buf);
	free(e);
}

/*
 * Go's own function table (.gopclntab), of a real Go binary (the go
 * command itself, when installed): its functions, sorted and named; then
 * damaged at random, never a read outside it (ASan) nor a name that does
 * not end inside it.
 */
static void test_gosym(void)
{
	char path[PATH_MAX];
	int fd;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf_Data *d = NULL;
	struct gofunc *f;
	size_t n, named = 0, bad = 0;

	if (!realpath("/usr/bin/go", path) || (fd = open(path, O_RDONLY)) < 0) {
		printf("ok %d # SKIP no Go binary at /usr/bin/go\n", ++tap_n);
		return;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx))
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *nm;

			if (gelf_getshdr(scn, &sh) && (nm = elf_strptr(elf, shstrndx, sh.sh_name)) &&
			    !strcmp(nm, ".gopclntab")) {
				d = elf_getdata(scn, NULL);
				break;
			}
		}
	if (!d || !d->d_buf) {
		ok(0, "%s has a .gopclntab", path);
		goto out;
	}
	n = gosym_read(d->d_buf, d->d_size, 0, &f);
	for (size_t i = 0; i < n; i++) {
		named += !strcmp(f[i].name, "main.main") || !strcmp(f[i].name, "runtime.main");
		bad += f[i].start >= f[i].end || (i && f[i].start < f[i - 1].start);
	}
	ok(n > 1000 && named == 2 && !bad,
	   "%s: %zu Go functions, main.main and runtime.main among them, %zu out of order", path,
	   n, bad);
	free(f);
	{
		unsigned char *m = malloc(d->d_size);
		size_t outside = 0;

		for (int round = 0; round < 300; round++) {
			memcpy(m, d->d_buf, d->d_size);
			/* the header and the function table are where damage is felt */
			for (int k = 0; k < 1 + round % 8; k++)
				m[rnd() % (round % 2 ? 4096 : d->d_size)] = (unsigned char)rnd();
			n = gosym_read(m, round % 3 ? d->d_size : rnd() % d->d_size, 0, &f);
			for (size_t i = 0; i < n; i++)
				outside += (const unsigned char *)f[i].name < m ||
					   (const unsigned char *)f[i].name >= m + d->d_size ||
					   f[i].start >= f[i].end;
			free(f);
		}
		ok(!outside, "300 damaged copies of the table: %zu functions outside it", outside);
		free(m);
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("WORKLOADS") ? getenv("WORKLOADS")
								   : "tests/workloads";
	char shape[PATH_MAX], tmp[] = "/tmp/test-symbols.XXXXXX";
	char cmd[PATH_MAX + 16];

	rnd_state = 0x2545f4914f6cdd1dULL;	/* the hostile bytes this test has always used */
	elf_version(EV_CURRENT);
	/* Recorded paths are absolute; relative ones name no file. */
	snprintf(cmd, sizeof(cmd), "%s/shape", dir);
	if (!mkdtemp(tmp)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	if (realpath(cmd, shape)) {
		test_shape(shape, tmp);
		test_release(shape, tmp);
		test_shared_file(shape, tmp);
	} else {
		ok(0, "the shape workload is at %s: %s", cmd, strerror(errno));
		shape[0] = '\0';
	}
	test_nothing(tmp);
	test_libc();
	test_demangle();
	test_inline();
	test_kernel();
	test_modules(tmp);
	test_kallsyms_index(tmp);
	test_pages_release(tmp);
	test_gosym();
	if (shape[0])
		test_mutants(shape, tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return tap_done();
}
