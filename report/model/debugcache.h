// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache of inflated debug files. Debian's -dbg and -dbgsym packages
 * ship .debug_* sections compressed (SHF_COMPRESSED), and libdw inflates
 * every one of them each time it opens the file: 40 ms of zlib and 10 MB
 * of heap for libc6-dbg's libc, in every report, twice with -g (names and
 * the unwinder's CFI). The first report writes the file with its sections
 * inflated to $XDG_CACHE_HOME/prof/debug/BUILDID.debug (else
 * ~/.cache/prof/debug), and later ones map that instead: nothing to
 * inflate, and only the pages used are read. See doc/DESIGN.md.
 */
#ifndef PROF_DEBUGCACHE_H
#define PROF_DEBUGCACHE_H

#include <elfutils/libdwfl.h>

/*
 * A Dwfl_Callbacks.find_debuginfo: dwfl_standard_find_debuginfo(), then,
 * when the file it found has compressed DWARF, the cached copy of it
 * (written first when missing or damaged). Whatever fails falls back on
 * the file found: the cache only saves time. No cache when
 * PROF_NO_CACHE is set, when neither XDG_CACHE_HOME nor HOME is, and for
 * files that point to a dwz file (.gnu_debugaltlink: found beside them).
 */
int debugcache_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name);

/*
 * The path of the cache's file for build id bid (len bytes), ending in ext
 * (".fn"); NULL when there is no cache. Free it.
 */
char *debugcache_path(const unsigned char *bid, size_t len, const char *ext);

/* Write len bytes of buf as path in the cache, whole or not at all; 0 or -1. */
int debugcache_put(const char *path, const void *buf, size_t len);

/* The cache's size limit: past it, the files used least recently go. */
#define DEBUGCACHE_MAX	((unsigned long long)2 << 30)

#endif
