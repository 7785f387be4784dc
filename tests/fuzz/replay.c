// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer:
 * `make check` replays the crashes kept in tests/data/bad and the seeds
 * through the very code the fuzzers run (zstd's regression_driver.c does
 * the same), under the sanitizers in CI's second build.
 *   replay-TARGET FILE|DIR...   exit 0 when every input ran
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("replay");
				exit(1);
			}
		}
		got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int inputs = 0, bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			bad++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad += one(argv[i]) < 0;
			inputs++;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				bad += one(path) < 0;
				inputs++;
			}
		}
		if (d)
			closedir(d);
	}
	printf("replayed %d inputs\n", inputs);
	return bad ? 1 : 0;
}
