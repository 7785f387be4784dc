// SPDX-License-Identifier: GPL-2.0-or-later
/* Where files are kept by build id: see buildid.h. */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildid.h"

int buildid_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (dir && dir[0])
		n = snprintf(buf, len, "%s", dir);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.debug", home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int buildid_path(char *buf, size_t buflen, const char *dir, const unsigned char *id, size_t len,
		 const char *tail)
{
	char hex[2 * 64 + 1];
	int n;

	if (len < 2 || len > 64)
		return -1;
	buildid_hex(hex, id, len);
	n = snprintf(buf, buflen, "%s%s.build-id/%.2s/%s%s", dir ? dir : "", dir ? "/" : "", hex,
		     hex + 2, tail);
	return n < 0 || (size_t)n >= buflen ? -1 : 0;
}

void buildid_hex(char *hex, const unsigned char *id, size_t len)
{
	static const char digit[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		hex[2 * i] = digit[id[i] >> 4];
		hex[2 * i + 1] = digit[id[i] & 15];
	}
	hex[2 * len] = '\0';
}

size_t buildid_read(int fd, unsigned char *id)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > 256)
		return 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		unsigned char notes[1024];
		size_t len, at = 0;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return 0;
		if (ph.p_type != PT_NOTE)
			continue;
		len = ph.p_filesz < sizeof(notes) ? (size_t)ph.p_filesz : sizeof(notes);
		if (pread(fd, notes, len, (off_t)ph.p_offset) != (ssize_t)len)
			continue;
		while (at + sizeof(Elf64_Nhdr) <= len) {
			Elf64_Nhdr nh;
			size_t name, desc;

			memcpy(&nh, notes + at, sizeof(nh));
			name = at + sizeof(nh);
			desc = name + ((nh.n_namesz + 3) & ~3u);
			if (desc > len || nh.n_descsz > len - desc)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(notes + name, "GNU", 4) && nh.n_descsz && nh.n_descsz <= 20) {
				memcpy(id, notes + desc, nh.n_descsz);
				return nh.n_descsz;
			}
			at = desc + ((nh.n_descsz + 3) & ~3u);
		}
	}
	return 0;
}
