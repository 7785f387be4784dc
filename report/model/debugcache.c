// SPDX-License-Identifier: GPL-2.0-or-later
/* The cache of inflated debug files: see debugcache.h. */
#include "config.h"

#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "debugcache.h"
#include "file.h"
#include "kallsyms.h"
#include "xalloc.h"

/*
 * Below this much inflated DWARF, inflating (about 0.1 ms for 32 KiB)
 * costs no more than opening and checking a cached copy.
 */
#define WORTH_CACHING	(32 * 1024)
/*
 * Past this, a file claims more than any real one holds: left alone. So is
 * one that claims more than zlib's best ratio (1032:1) of its own size.
 */
#define TOO_BIG		((uint64_t)1 << 30)
#define ZLIB_RATIO	1032

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char *dir;		/* .../prof/debug, made; NULL for no cache */
static pthread_mutex_t write_mu = PTHREAD_MUTEX_INITIALIZER;

static void dir_init(void)
{
	char *top = kallsyms_cache_dir();
	size_t n;

	if (!top)
		return;
	n = strlen(top) + sizeof("/debug");
	dir = xmalloc(n);
	snprintf(dir, n, "%s/debug", top);
	if (cache_make_dir(top) || (mkdir(dir, 0700) < 0 && errno != EEXIST)) {
		free(dir);
		dir = NULL;
	}
	free(top);
}

/*
 * How much DWARF e holds compressed, inflated; 0 when none, or when the
 * file is not one to copy: a dwz file's client (its .gnu_debugaltlink is
 * looked for beside it), section numbers past the ELF header's fields.
 */
static uint64_t compressed_dwarf(Elf *e, int fd)
{
	size_t shnum, shstrndx;
	uint64_t total = 0;
	Elf_Scn *scn = NULL;
	struct stat st;

	if (fstat(fd, &st) || elf_kind(e) != ELF_K_ELF || elf_getshdrnum(e, &shnum) || shnum >= SHN_LORESERVE ||
	    elf_getshdrstrndx(e, &shstrndx) || shstrndx >= SHN_LORESERVE)
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Chdr ch;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			return 0;
		if (!strcmp(name, ".gnu_debugaltlink"))
			return 0;
		if (!(sh.sh_flags & SHF_COMPRESSED) || strncmp(name, ".debug_", 7))
			continue;
		if (!gelf_getchdr(scn, &ch))
			return 0;
		total += ch.ch_size;
		if (total > TOO_BIG || total / ZLIB_RATIO > (uint64_t)st.st_size)
			return 0;
	}
	return total;
}

/* e's build id as hex into hex (2 * 64 + 1 bytes); its length in bytes, or 0. */
static size_t build_id_hex(Elf *e, char *hex)
{
	const void *p;
	ssize_t len = dwelf_elf_gnu_build_id(e, &p);

	if (len < 2 || len > 64)
		return 0;
	buildid_hex(hex, p, (size_t)len);
	return (size_t)len;
}

/*
 * The cached file at path, if it is whole and of build id hex: its
 * descriptor, or -1. Whole: every section and the section headers lie
 * within the file (they are written last), nothing is compressed, and
 * there is DWARF (the stripped program has the same build id).
 */
static int open_cached(const char *path, const char *hex)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char got[2 * 64 + 1];
	struct stat st;
	GElf_Ehdr eh;
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	size_t shnum, shstrndx;
	int ok = 0, dwarf = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		goto out;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getshdrnum(e, &shnum) ||
	    elf_getshdrstrndx(e, &shstrndx) ||
	    eh.e_shoff > (uint64_t)st.st_size ||
	    (uint64_t)st.st_size - eh.e_shoff < (uint64_t)shnum * eh.e_shentsize ||
	    !build_id_hex(e, got) || strcmp(got, hex))
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_flags & SHF_COMPRESSED))
			goto out;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_offset > (uint64_t)st.st_size ||
		    sh.sh_size > (uint64_t)st.st_size - sh.sh_offset)
			goto out;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info") && sh.sh_size)
			dwarf = 1;
	}
	ok = dwarf;
out:
	if (e)
		elf_end(e);
	if (!ok) {
		close(fd);
		return -1;
	}
	futimens(fd, NULL);	/* used now: the last to go when the cache is pruned */
	return fd;
}

/* in, with its compressed sections inflated, written to fd; 0 or -1. */
static int write_inflated(Elf *in, int fd)
{
	Elf *out = elf_begin(fd, ELF_C_WRITE, NULL);
	GElf_Ehdr eh, oh;
	size_t phnum;
	Elf_Scn *scn = NULL;
	int rc = -1;

	if (!out || !gelf_getehdr(in, &eh) || elf_getphdrnum(in, &phnum) ||
	    !gelf_newehdr(out, gelf_getclass(in)) || !gelf_getehdr(out, &oh))
		goto out;
	memcpy(oh.e_ident, eh.e_ident, EI_NIDENT);
	oh.e_type = eh.e_type;
	oh.e_machine = eh.e_machine;
	oh.e_version = eh.e_version;
	oh.e_entry = eh.e_entry;
	oh.e_flags = eh.e_flags;
	oh.e_shstrndx = eh.e_shstrndx;
	if (!gelf_update_ehdr(out, &oh))
		goto out;
	/* The program headers as they were: a debug file's describe the program's layout. */
	if (phnum && !gelf_newphdr(out, phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(in, (int)i, &ph) || !gelf_update_phdr(out, (int)i, &ph))
			goto out;
	}
	while ((scn = elf_nextscn(in, scn))) {
		Elf_Scn *os = elf_newscn(out);
		Elf_Data *d = NULL;
		GElf_Shdr sh;

		if (!os || !gelf_getshdr(scn, &sh))
			goto out;
		if ((sh.sh_flags & SHF_COMPRESSED) &&
		    (elf_compress(scn, 0, 0) < 0 || !gelf_getshdr(scn, &sh)))
			goto out;
		if (sh.sh_type == SHT_NOBITS) {
			/* libelf sizes sections by their data: a NOBITS one by a NULL buffer */
			Elf_Data *od = elf_newdata(os);

			if (!od)
				goto out;
			od->d_buf = NULL;
			od->d_type = ELF_T_BYTE;
			od->d_size = sh.sh_size;
			od->d_align = sh.sh_addralign ? sh.sh_addralign : 1;
			od->d_version = EV_CURRENT;
		} else {
			while ((d = elf_getdata(scn, d))) {
				Elf_Data *od = elf_newdata(os);

				if (!od)
					goto out;
				*od = *d;	/* the buffer stays in, until in ends */
			}
		}
		if (!gelf_update_shdr(os, &sh))
			goto out;
	}
	if (elf_update(out, ELF_C_WRITE) >= 0)
		rc = 0;
out:
	if (out)
		elf_end(out);
	return rc;
}

/*
 * Keep the cache under DEBUGCACHE_MAX: remove the files used least lately
 * (not the temporary ones being written, ".NAME.XXXXXX", but those left
 * by a writer that died: file_temp_abandoned()).
 */
static void prune(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct ent { char name[256]; time_t t; unsigned long long size; } *v = NULL;
	size_t n = 0, cap = 0;
	unsigned long long total = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		size_t len = strlen(de->d_name);

		if (len >= sizeof(v->name) || !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (de->d_name[0] == '.') {
			if (file_temp_abandoned(de->d_name, &st))
				unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		memcpy(v[n].name, de->d_name, len + 1);
		v[n].t = st.st_mtime;
		v[n].size = (unsigned long long)st.st_size;
		total += v[n].size;
		n++;
	}
	while (total > DEBUGCACHE_MAX && n > 1) {
		size_t old = 0;

		for (size_t i = 1; i < n; i++)
			if (v[i].t < v[old].t)
				old = i;
		unlinkat(dirfd(d), v[old].name, 0);
		total -= v[old].size;
		v[old] = v[--n];
	}
	closedir(d);
	free(v);
}

/*
 * After a write of len bytes (under write_mu): prune at the first write
 * of the process, then once a sixteenth of the cache's bound is written
 * since. Pruning reads the whole folder: at every write, the answers a
 * system-wide report keeps for its 200 files were 130,000 fstatat calls
 * on a folder of 600, and made a warm report slower than a cold one.
 */
static void written(unsigned long long len)
{
	static int pruned;
	static unsigned long long since;

	since += len;
	if (pruned && since < DEBUGCACHE_MAX / 16)
		return;
	prune();
	pruned = 1;
	since = 0;
}

/* The cache's file for build id hex, ending in ext; free it. */
static char *hex_path(const char *hex, const char *ext)
{
	size_t n = strlen(dir) + strlen(hex) + strlen(ext) + 2;
	char *path = xmalloc(n);

	snprintf(path, n, "%s/%s%s", dir, hex, ext);
	return path;
}

static char *cache_path(const char *hex)
{
	return hex_path(hex, ".debug");
}

char *debugcache_path(const unsigned char *bid, size_t len, const char *ext)
{
	char hex[2 * 64 + 1];

	pthread_once(&dir_once, dir_init);
	if (!dir || len < 2 || len > 64)
		return NULL;
	buildid_hex(hex, bid, len);
	return hex_path(hex, ext);
}

int debugcache_put(const char *path, const void *buf, size_t len)
{
	int err, rc;

	pthread_mutex_lock(&write_mu);
	rc = file_put(path, 0600, buf, len, &err);
	if (rc == 0)
		written(len);
	pthread_mutex_unlock(&write_mu);
	return rc;
}

/* Write the inflated copy of the debug file e (build id hex), unless one is there. */
static void cache_write(const char *hex, Elf *e)
{
	char *path = cache_path(hex), *tmp = NULL;
	int fd, err, ok;

	/* One writer a process; another process's rename is atomic. */
	pthread_mutex_lock(&write_mu);
	fd = open_cached(path, hex);
	if (fd >= 0) {
		close(fd);
	} else if ((fd = file_create(path, 0600, &tmp, &err)) >= 0) {
		ok = write_inflated(e, fd) == 0;
		/*
		 * libelf wrote it in large writes, which the page cache keeps
		 * as large folios, and a fault on a mapping maps a whole folio:
		 * the next reports had 5.5 MB of this file resident, against
		 * 2.1 once its pages were read back from the disk. Written
		 * out and dropped, they are read back in readahead's pieces.
		 */
		if (ok && fdatasync(fd) == 0)
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		ok = close(fd) == 0 && ok;
		if (file_commit(tmp, path, ok, &err) == 0 && ok) {
			struct stat st;

			written(stat(path, &st) ? 0 : (unsigned long long)st.st_size);
		}
		free(tmp);
	}
	pthread_mutex_unlock(&write_mu);
	free(path);
}

/*
 * The build id of mod as hex, when its debug file is still to be found:
 * libdwfl asks again for a dwz file (.gnu_debugaltlink) once it has one.
 */
static int wanted_id(Dwfl_Module *mod, char *hex)
{
	const unsigned char *bits;
	const char *debugfile = NULL;
	GElf_Addr vaddr;
	int len;

	dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	if (debugfile)
		return 0;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
	if (len < 2 || len > 64)
		return 0;
	buildid_hex(hex, bits, (size_t)len);
	return 1;
}

/*
 * The cached copy when there is one, whole and of mod's build id. Else
 * what libdwfl's own search finds, and a copy of it is written for the
 * next report when its DWARF is compressed: this once, libdwfl inflates
 * the file it opened itself.
 */
int debugcache_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	char hex[2 * 64 + 1], got[2 * 64 + 1];
	int fd, want;
	Elf *e;

	pthread_once(&dir_once, dir_init);
	want = dir && wanted_id(mod, hex);
	if (want) {
		char *path = cache_path(hex);

		fd = open_cached(path, hex);
		if (fd >= 0) {
			*debuginfo_file_name = path;
			return fd;
		}
		free(path);
	}
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);
	if (fd < 0 || !want)
		return fd;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && compressed_dwarf(e, fd) >= WORTH_CACHING && build_id_hex(e, got) && !strcmp(got, hex))
		cache_write(hex, e);
	if (e)
		elf_end(e);
	return fd;
}
