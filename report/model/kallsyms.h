/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's text symbols from /proc/kallsyms, kept in a per-boot cache
 * file so that a report need not make the kernel print them again.
 */
#ifndef PROF_REPORT_KALLSYMS_H
#define PROF_REPORT_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A symbol: its address, and where its name and its module's name start
 * in kallsyms.names (the module's is "" for the kernel itself).
 */
struct ksym {
	uint64_t addr;
	uint32_t name, module;
};

struct kallsyms {
	const struct ksym *syms;	/* sorted by address, one per address */
	size_t n;
	const char *names;	/* NUL-terminated names, at syms[i].name */
	uint64_t text_addr;	/* where _text is: 0 when not listed */
	uint64_t stext_addr;	/* where _stext is */
	int hidden;		/* addresses hidden by kptr_restrict */
	int err;		/* errno when /proc/kallsyms could not be read; 0 */
	int cached;		/* read from the cache file */
	/* what to free: the text and the table, or the mapped cache file */
	char *text;
	struct ksym *table;
	void *map;
	size_t map_len;
	/* syms[i * KSYM_STRIDE].addr: a search reads a page of syms, not 18 */
	uint64_t *index;
	size_t nindex;
};

#define KSYM_STRIDE 256

/*
 * Fill k (zeroed by the caller) with the running kernel's text symbols
 * (types t, T, w, W). They come from the cache file when it was written
 * in this boot with the same modules loaded; otherwise from kallsyms_path
 * (normally "/proc/kallsyms"; kernel modules' symbols, "ADDR t NAME
 * [MODULE]", keep their module), and then the cache is written, unless the
 * addresses are hidden. cache_dir is the directory of the cache, made
 * when missing (mode 0700); NULL for no cache. Touches nothing but k and
 * the cache, so that a thread can do it. Errors leave k->err set and
 * k->names NULL; a cache that cannot be read or written is passed by.
 */
void kallsyms_load(struct kallsyms *k, const char *kallsyms_path, const char *cache_dir);
void kallsyms_release(struct kallsyms *k);

/* How many of k's symbols start at or below a: the one holding a is the last of them. */
size_t kallsyms_upper(const struct kallsyms *k, uint64_t a);

/*
 * The cache directory for this user: $XDG_CACHE_HOME/prof, else
 * $HOME/.cache/prof; NULL when neither is set, or when PROF_NO_CACHE is.
 * Free it with free().
 */
char *kallsyms_cache_dir(void);

/* mkdir -p for the last two levels of dir (~/.cache/prof), private to the user; 0 or -1. */
int cache_make_dir(const char *dir);

#endif
