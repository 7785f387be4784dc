// SPDX-License-Identifier: GPL-2.0-or-later
/* Dynamic probes from perf_event_open. See probe.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pmu.h"
#include "opt.h"
#include "parse.h"
#include "probe.h"
#include "xalloc.h"

/* The strings config1 points at: kept, reachable, until the process ends. */
static struct kept {
	struct kept *next;
	char s[];
} *kept;

static const char *keep(const char *s)
{
	size_t n = strlen(s) + 1;
	struct kept *k = xmalloc(sizeof(*k) + n);

	memcpy(k->s, s, n);
	k->next = kept;
	kept = k;
	return k->s;
}

static const struct {
	const char *prefix, *pmu;
	int ret;
} kinds[] = {
	{ "uprobe:", "uprobe", 0 },
	{ "uretprobe:", "uprobe", 1 },
	{ "kprobe:", "kprobe", 0 },
	{ "kretprobe:", "kprobe", 1 },
	{ "usdt:", "uprobe", 0 },	/* a statically defined probe: its ELF note */
};

int probe_spec(const char *spec)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(spec, kinds[i].prefix, strlen(kinds[i].prefix)))
			return 1;
	return 0;
}

/* The PMU's type, or -1 when the kernel has no such PMU. */
static long pmu_type(const char *pmu)
{
	char buf[32];
	uint64_t t;

	if (pmu_read(pmu, "type", buf, sizeof(buf)) || parse_u64(buf, 0, UINT32_MAX, &t))
		return -1;
	return (long)t;
}

int probe_attr(const struct perf_event_attr *a)
{
	static long types[2] = { -2, -2 };

	if (types[0] == -2) {
		types[0] = pmu_type("uprobe");
		types[1] = pmu_type("kprobe");
	}
	return a->type >= PERF_TYPE_MAX && ((long)a->type == types[0] || (long)a->type == types[1]);
}

/* An executable named without a '/', found in $PATH, into buf: 0, or -1. */
static int in_path(const char *name, char *buf, size_t size)
{
	const char *p = getenv("PATH");

	while (p && *p) {
		size_t n = strcspn(p, ":");

		if (n && (size_t)snprintf(buf, size, "%.*s/%s", (int)n, p, name) < size &&
		    access(buf, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

/* The file offset of address addr of e, in the PT_LOAD that holds it (flags: PF_X wanted, or 0): 0, or -1. */
static int vaddr_offset(Elf *e, uint64_t addr, unsigned flags, uint64_t *off)
{
	size_t nph;

	if (elf_getphdrnum(e, &nph))
		return -1;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & flags) == flags &&
		    addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

/*
 * The file offset of symbol sym (+off) or of address addr (sym NULL) in
 * ELF file path: 0, or -1 with a reason.
 */
static int elf_offset(const char *spec, const char *path, const char *sym, uint64_t addr,
		      uint64_t off, uint64_t *out, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1, global = 0, local = 0, locals = 1;
	int ifunc = 0;
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	size_t nph;
	uint64_t size = 0, laddr = 0, lsize = 0;

	if (fd < 0)
		return opt_fail(err, len, "-e %s: cannot open %s: %s", spec, path, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &nph)) {
		opt_fail(err, len, "-e %s: %s is not an ELF file", spec, path);
		goto out;
	}
	/* the symbol, in .symtab or .dynsym: a global, or a local when only one has the name */
	while (sym && !global && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; !global && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;
			size_t nl;

			if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF || !s.st_value ||
			    !(n = elf_strptr(e, sh.sh_link, s.st_name)))
				continue;
			nl = strcspn(n, "@");	/* malloc@@GLIBC_2.2.5 is malloc */
			if (nl != strlen(sym) || strncmp(n, sym, nl))
				continue;
			if (GELF_ST_TYPE(s.st_info) == STT_GNU_IFUNC) {
				ifunc = 1;
			} else if (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
				   GELF_ST_TYPE(s.st_info) != STT_NOTYPE) {
				continue;
			} else if (GELF_ST_BIND(s.st_info) != STB_LOCAL) {
				addr = s.st_value;
				size = s.st_size;
				global = 1;
			} else if (!local) {
				laddr = s.st_value;
				lsize = s.st_size;
				local = 1;
			} else if (s.st_value != laddr) {
				locals++;
			}
		}
	}
	if (sym && !global && !local) {
		if (ifunc)
			opt_fail(err, len, "-e %s: %s is an IFUNC in %s: its address is the resolver's; "
				 "probe the implementation the resolver picks (prof report names it)",
				 spec, sym, path);
		else
			opt_fail(err, len, "-e %s: no function '%s' in the symbols of %s (a stripped "
				 "file: give an address, uprobe:%s:0xADDR)", spec, sym, path, path);
		goto out;
	}
	if (sym && !global) {
		if (locals > 1) {
			opt_fail(err, len, "-e %s: %d local functions are called '%s' in %s; give the "
				 "address of one, uprobe:%s:0xADDR", spec, locals, sym, path, path);
			goto out;
		}
		addr = laddr;
		size = lsize;
	}
	if (sym && size && off >= size) {
		opt_fail(err, len, "-e %s: +%llu is past the end of %s (%llu bytes)", spec,
			 (unsigned long long)off, sym, (unsigned long long)size);
		goto out;
	}
	addr += off;
	if (vaddr_offset(e, addr, PF_X, out) == 0)
		ret = 0;
	else
		opt_fail(err, len, "-e %s: 0x%llx is in no executable segment of %s", spec,
			 (unsigned long long)addr, path);
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/*
 * The USDT probe provider:name of ELF file path, from its .note.stapsdt
 * (systemtap's sys/sdt.h: the probe's address, .stapsdt.base's as
 * linked, the semaphore's, then "provider\0name\0args\0"): its file
 * offset and its semaphore's (0: none). 0, or -1 with a reason.
 */
static int usdt_find(const char *spec, const char *path, const char *provider, const char *name,
		     uint64_t *off, uint64_t *sem_off, char *err, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0, ret = -1, notes = 0;
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	size_t shstr;
	uint64_t base_now = 0, pc = 0, base = 0, sem = 0;

	if (fd < 0)
		return opt_fail(err, len, "-e %s: cannot open %s: %s", spec, path, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstr)) {
		opt_fail(err, len, "-e %s: %s is not an ELF file", spec, path);
		goto out;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh) || !(sname = elf_strptr(e, shstr, sh.sh_name)))
			continue;
		if (!strcmp(sname, ".stapsdt.base"))
			base_now = sh.sh_addr;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t at = 0, noff, doff;
		const char *sname;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(sname = elf_strptr(e, shstr, sh.sh_name)) || strcmp(sname, ".note.stapsdt") ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while ((at = gelf_getnote(d, at, &nh, &noff, &doff)) > 0) {
			const char *desc = (const char *)d->d_buf + doff, *p, *end = desc + nh.n_descsz;
			size_t w = gelf_getclass(e) == ELFCLASS32 ? 4 : 8;
			uint64_t v[3] = { 0, 0, 0 };

			if (nh.n_type != 3 || nh.n_namesz != 8 ||
			    memcmp((const char *)d->d_buf + noff, "stapsdt", 8) || nh.n_descsz < 3 * w + 2)
				continue;
			notes++;
			for (int i = 0; i < 3; i++)
				memcpy(&v[i], desc + i * w, w);	/* little-endian, as the host */
			p = desc + 3 * w;
			if (strnlen(p, (size_t)(end - p)) == (size_t)(end - p) || strcmp(p, provider))
				continue;
			p += strlen(p) + 1;
			if (p >= end || strnlen(p, (size_t)(end - p)) == (size_t)(end - p) || strcmp(p, name))
				continue;
			if (found && v[0] != pc) {
				opt_fail(err, len, "-e %s: %s:%s is at more than one place in %s; prof "
					 "probes one: give uprobe:%s:0xADDRESS (readelf -n lists them)", spec,
					 provider, name, path, path);
				goto out;
			}
			pc = v[0];
			base = v[1];
			sem = v[2];
			found = 1;
		}
	}
	if (!found) {
		opt_fail(err, len, "-e %s: %s has no USDT probe %s:%s (%d in its .note.stapsdt; readelf "
			 "-n lists them)", spec, path, provider, name, notes);
		goto out;
	}
	/* prelinked since it was built: the probe moved as .stapsdt.base did */
	if (base && base_now)
		pc += base_now - base;
	if (vaddr_offset(e, pc, PF_X, off)) {
		opt_fail(err, len, "-e %s: 0x%llx is in no executable segment of %s", spec,
			 (unsigned long long)pc, path);
		goto out;
	}
	*sem_off = 0;
	if (sem && vaddr_offset(e, sem, 0, sem_off)) {
		opt_fail(err, len, "-e %s: its semaphore 0x%llx is in no segment of %s", spec,
			 (unsigned long long)sem, path);
		goto out;
	}
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* Whether the kernel has a function called name, as /proc/kallsyms says (-1: cannot tell). */
static int kernel_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t n = strlen(name);
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *s = strchr(line, ' ');

		/* "ADDR T name [module]" */
		if (s && (s = strchr(s + 1, ' ')) && !strncmp(s + 1, name, n) &&
		    (s[1 + n] == '\n' || s[1 + n] == '\t' || s[1 + n] == ' ' || !s[1 + n]))
			found = 1;
	}
	fclose(f);
	return found;
}

/* "NAME[+OFF]" or "0xADDR" into name (NULL for an address), *addr and *off. */
static int split_place(const char *spec, const char *place, char *name, size_t size,
		       uint64_t *addr, uint64_t *off, char *err, size_t len)
{
	const char *plus = strchr(place, '+');
	size_t n = plus ? (size_t)(plus - place) : strlen(place);

	*addr = *off = 0;
	if (!n)
		return opt_fail(err, len, "-e %s: name the function to probe, or its address", spec);
	if (!strncmp(place, "0x", 2) || !strncmp(place, "0X", 2)) {
		char *end;

		errno = 0;
		*addr = strtoull(place + 2, &end, 16);
		if (plus || errno || end == place + 2 || *end || !*addr)
			return opt_fail(err, len, "-e %s: '%s' is not an address", spec, place);
		name[0] = '\0';
		return 0;
	}
	if (n >= size || strspn(place, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789_.$") < n)
		return opt_fail(err, len, "-e %s: '%.*s' is not a function's name", spec, (int)n, place);
	memcpy(name, place, n);
	name[n] = '\0';
	if (plus && parse_u64(plus + 1, 0, UINT32_MAX, off))
		return opt_fail(err, len, "-e %s: '%s' is not an offset into the function", spec, plus);
	return 0;
}

/* The lowest bit of the uprobe PMU's ref_ctr_offset field ("config:32-63"), or -1 without. */
static long ref_ctr_shift(void)
{
	char fmt[64];
	uint64_t lo;

	if (pmu_read("uprobe", "format/ref_ctr_offset", fmt, sizeof(fmt)) || strncmp(fmt, "config:", 7))
		return -1;
	fmt[7 + strcspn(fmt + 7, "-")] = '\0';
	return parse_u64(fmt + 7, 0, 63, &lo) ? -1 : (long)lo;
}

int probe_parse(const char *spec, struct perf_event_attr *a, char *err, size_t len)
{
	size_t k = 0;
	const char *rest, *place;
	char name[256], rel[64], fmt[128];
	uint64_t addr, off;
	long type;

	while (k < sizeof(kinds) / sizeof(kinds[0]) &&
	       strncmp(spec, kinds[k].prefix, strlen(kinds[k].prefix)))
		k++;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return opt_fail(err, len, "-e %s: not a probe", spec);
	rest = spec + strlen(kinds[k].prefix);
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	type = pmu_type(kinds[k].pmu);
	if (type < 0)
		return opt_fail(err, len, "-e %s: the kernel has no %s PMU (%s/%s: Linux 4.17 or later, "
				"with CONFIG_%s_EVENTS)", spec, kinds[k].pmu, pmu_source(),
				kinds[k].pmu, kinds[k].pmu[0] == 'u' ? "UPROBE" : "KPROBE");
	a->type = (uint32_t)type;
	if (kinds[k].ret) {
		snprintf(rel, sizeof(rel), "format/retprobe");
		if (pmu_read(kinds[k].pmu, rel, fmt, sizeof(fmt)) ||
		    strncmp(fmt, "config:", 7) || parse_u64(fmt + 7, 0, 63, &off))
			return opt_fail(err, len, "-e %s: the %s PMU has no retprobe bit (%s/%s/format)",
					spec, kinds[k].pmu, pmu_source(), kinds[k].pmu);
		a->config = 1ULL << off;
	}
	if (kinds[k].pmu[0] == 'u') {
		char path[PATH_MAX], real[PATH_MAX];
		struct stat st;

		const char *provider = NULL;

		/* PATH:PLACE, the place after the last ':' (a path may hold ':'); USDT: PATH:PROVIDER:NAME */
		place = strrchr(rest, ':');
		if (place && !strcmp(kinds[k].prefix, "usdt:")) {
			const char *p = place;

			while (p > rest && p[-1] != ':')
				p--;
			if (p <= rest + 1 || place == p)
				return opt_fail(err, len, "-e %s: give usdt:PATH:PROVIDER:NAME", spec);
			provider = p;
			place = p - 1;
		}
		if (!place || place == rest || (size_t)(place - rest) >= sizeof(path))
			return opt_fail(err, len, "-e %s: give %sPATH:FUNCTION[+OFFSET] or "
					"%sPATH:0xADDRESS", spec, kinds[k].prefix, kinds[k].prefix);
		memcpy(path, rest, (size_t)(place - rest));
		path[place - rest] = '\0';
		place++;
		if (!strchr(path, '/') && in_path(path, real, sizeof(real)) == 0)
			snprintf(path, sizeof(path), "%s", real);
		if (!realpath(path, real) || stat(real, &st) || !S_ISREG(st.st_mode))
			return opt_fail(err, len, "-e %s: no file %s%s", spec, path,
					strchr(path, '/') ? "" : " here or in $PATH");
		if (provider) {
			char prov[128];
			uint64_t sem = 0;
			size_t pl = strcspn(provider, ":");
			long lo = ref_ctr_shift();

			if (pl >= sizeof(prov))
				return opt_fail(err, len, "-e %s: give usdt:PATH:PROVIDER:NAME", spec);
			memcpy(prov, provider, pl);
			prov[pl] = '\0';
			if (usdt_find(spec, real, prov, provider + pl + 1, &off, &sem, err, len))
				return -1;
			if (sem && lo < 0)
				return opt_fail(err, len, "-e %s: the probe has a semaphore, which the "
						"kernel's uprobe PMU cannot set (no format/ref_ctr_offset: "
						"Linux 4.20 or later)", spec);
			/* the kernel counts the probe's users in its semaphore, which the program reads */
			if (sem)
				a->config |= sem << lo;
			a->config1 = (uint64_t)(uintptr_t)keep(real);
			a->config2 = off;
			a->sample_period = 1;
			return 0;
		}
		if (split_place(spec, place, name, sizeof(name), &addr, &off, err, len) ||
		    elf_offset(spec, real, name[0] ? name : NULL, addr, off, &off, err, len))
			return -1;
		if (kinds[k].ret && !name[0])
			return opt_fail(err, len, "-e %s: a return probe is placed on a function's "
					"entry: name the function", spec);
		a->config1 = (uint64_t)(uintptr_t)keep(real);	/* uprobe_path */
		a->config2 = off;				/* probe_offset */
	} else {
		if (split_place(spec, rest, name, sizeof(name), &addr, &off, err, len))
			return -1;
		if (name[0] && kernel_has(name) == 0)
			return opt_fail(err, len, "-e %s: the kernel has no function '%s' (/proc/kallsyms)",
					spec, name);
		if (kinds[k].ret && off)
			return opt_fail(err, len, "-e %s: a return probe is placed on a function's "
					"entry: no +OFFSET", spec);
		if (name[0]) {
			a->config1 = (uint64_t)(uintptr_t)keep(name);	/* kprobe_func */
			a->config2 = off;				/* probe_offset */
		} else {
			a->config2 = addr;				/* kprobe_addr */
		}
	}
	/* every hit: what a probe is placed for (the kernel samples each anyway) */
	a->sample_period = 1;
	return 0;
}

const char *probe_refused(const char *name, int err, char *buf, size_t len)
{
	if (err == EACCES || err == EPERM)
		snprintf(buf, len, "probe '%s' refused (%s): the kernel makes probes for root "
			 "or a holder of CAP_PERFMON only", name, strerror(err));
	else if (err == ENOENT || err == EINVAL || err == EILSEQ || err == EBUSY)
		snprintf(buf, len, "the kernel cannot place probe '%s' (%s): not on an "
			 "instruction's start, in code it does not let probes into, or a file it "
			 "cannot read", name, strerror(err));
	else
		snprintf(buf, len, "cannot open probe '%s': %s", name, strerror(err));
	return buf;
}
