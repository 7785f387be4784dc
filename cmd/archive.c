// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof archive`: every executable file a profile's processes mapped with
 * a recorded build id, and its separate debug file when there is one,
 * packed into a tar file laid out as perf's build-id cache
 * (.build-id/ab/cdef.../elf and .../debug). Extracted into ~/.debug on
 * another machine, it is where prof report (and perf report) look for a
 * file by build id: the profile then reads there as it did here, with no
 * option. The tar format is POSIX ustar, written here: a header block per
 * file, its bytes, two zero blocks at the end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "decode.h"
#include "evtab.h"
#include "buildid.h"
#include "cli.h"
#include "file.h"
#include "htab.h"
#include "objfile.h"
#include "pdata.h"
#include "reader.h"
#include "session.h"
#include "symbols.h"
#include "vdso.h"
#include "xalloc.h"


struct archive_args {
	const char *input, *output, *symfs;
};

static const struct opt archive_options[] = {
	OPT_STRING('i', "input", "FILE", struct archive_args, input,
		   "the profile (default prof.data)"),
	OPT_STRING('o', "output", "FILE", struct archive_args, output,
		   "the archive (default FILE.tar)"),
	OPT_STRING(0, "symfs", "DIR", struct archive_args, symfs,
		   "look for the files under DIR first, as prof report does"),
	OPT_HELP(),
	OPT_END(),
};

struct tar {
	FILE *out;
	uint64_t bytes, files;
};

static void octal(char *field, size_t len, uint64_t v)
{
	snprintf(field, len, "%0*llo", (int)len - 1, (unsigned long long)v);
}

/* One file's header and bytes (from fd, size bytes). 0, or -errno. */
static int tar_add(struct tar *t, const char *name, int fd, uint64_t size)
{
	unsigned char h[512] = { 0 };
	char buf[1 << 16];
	unsigned sum = 0;
	uint64_t left = size;

	if (strlen(name) >= 100)
		return -ENAMETOOLONG;
	memcpy(h, name, strlen(name));
	octal((char *)h + 100, 8, 0644);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, size);
	octal((char *)h + 136, 12, (uint64_t)time(NULL));
	memset(h + 148, ' ', 8);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	fwrite(h, 1, sizeof(h), t->out);
	while (left) {
		ssize_t n = read(fd, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf));

		if (n <= 0)
			return n < 0 ? -errno : -EIO;	/* the file shrank under us */
		fwrite(buf, 1, (size_t)n, t->out);
		left -= (uint64_t)n;
	}
	if (size % 512) {
		memset(buf, 0, 512);
		fwrite(buf, 1, 512 - size % 512, t->out);
	}
	t->bytes += 512 + (size + 511) / 512 * 512;
	t->files++;
	return ferror(t->out) ? -EIO : 0;
}

/* Add the regular file at path as name. 0, 1 when it is not there, or -errno. */
static int tar_file(struct tar *t, const char *name, const char *path)
{
	int err, fd = file_open_regular(path, &err);
	struct stat st;
	int ret;

	if (fd < 0)
		return 1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return 1;
	}
	ret = tar_add(t, name, fd, (uint64_t)st.st_size);
	close(fd);
	return ret;
}

struct seen {
	unsigned char id[20];
	size_t len;
};

int cmd_archive(int argc, char **argv)
{
	const char *input, *output;
	char *outname = NULL, *tmp = NULL;
	struct symbols_opts so = { 0 };
	struct symbols *sym = NULL;
	struct reader *rd = NULL;
	struct reader_record rec;
	struct seen *seen = NULL;
	size_t nseen = 0, seen_cap = 0, missing = 0, noid = 0;
	struct htab seentab;	/* seen by build id */
	struct tar t = { 0 };
	struct evtab et;
	struct archive_args aa = { "prof.data", NULL, NULL };
	int first, ret, status = 1;
	char err[512];

	ret = opt_parse(archive_options, &aa, OPT_NO_WORDS, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		fputs("usage: prof archive [-i FILE] [-o ARCHIVE] [--symfs DIR]\n\n", stdout);
		opt_usage(stdout, archive_options);
		fputs("\nThen, on the machine that reports: tar xf ARCHIVE -C ~/.debug\n", stdout);
		return 0;
	}
	if (ret)
		return opt_say("archive", ret, err);
	input = aa.input;
	output = aa.output;
	so.symfs = aa.symfs;
	evtab_init(&et);
	htab_init(&seentab);

	if (!strcmp(input, "-")) {
		fprintf(stderr, "prof: prof archive reads a file, not standard input: give -i FILE\n");
		return EXIT_USAGE;
	}
	if (!output) {
		outname = xmalloc(strlen(input) + 5);
		sprintf(outname, "%s.tar", input);
		output = outname;
	}
	rd = cli_open_input(input);
	if (!rd)
		goto out;
	sym = symbols_new(&so);
	if (!sym) {
		fprintf(stderr, "prof: --symfs '%s': %s\n", so.symfs ? so.symfs : "",
			strerror(errno));
		goto out;
	}
	t.out = cli_create_output(output, &tmp);
	if (!t.out)
		goto out;
	while ((ret = reader_next(rd, &rec)) > 0) {
		const struct perf_event_header *h = rec.hdr;
		const struct evdesc *e;
		struct kevent k;
		struct sample id;
		struct dso *d;
		const struct objfile *f;
		char name[128], debug[256];
		int vdso = 0;

		if (h->type == PDATA_HEADER_ATTR) {
			if (evtab_add_record(&et, h))
				continue;	/* a bad attr: its records are left out */
			continue;
		}
		if (h->type != PERF_RECORD_MMAP2)
			continue;
		e = evtab_find(&et, h);
		if (!e || decode_kernel(&e->attr, h, &k, &id) || !(k.mmap.prot & 4) ||
		    !k.mmap.name_len ||
		    (k.mmap.name[0] != '/' && !(vdso = vdso_named(k.mmap.name, k.mmap.name_len))))
			continue;
		if (!k.mmap.build_id_len || k.mmap.build_id_len > 20) {
			noid++;
			continue;
		}
		{
			struct htab_probe p;
			uint32_t j;
			int dup = 0;

			htab_probe(&seentab, htab_hash_bytes(k.mmap.build_id, k.mmap.build_id_len), &p);
			while (!dup && htab_next(&seentab, &p, &j))
				dup = seen[j].len == k.mmap.build_id_len &&
				      !memcmp(seen[j].id, k.mmap.build_id, seen[j].len);
			if (dup)
				continue;
			if (nseen == seen_cap) {
				seen_cap = seen_cap ? 2 * seen_cap : 64;
				seen = xreallocarray(seen, seen_cap, sizeof(*seen));
			}
			memcpy(seen[nseen].id, k.mmap.build_id, k.mmap.build_id_len);
			seen[nseen].len = k.mmap.build_id_len;
			htab_put(&seentab, &p, (uint32_t)nseen++);
		}
		{
			char *path = xmalloc(k.mmap.name_len + 1);

			memcpy(path, k.mmap.name, k.mmap.name_len);
			path[k.mmap.name_len] = '\0';
			/* the symbolizer's answer: the file at its path, or by build id */
			d = symbols_dso(sym, path, k.mmap.build_id, k.mmap.build_id_len);
			free(path);
		}
		dso_settle(d);
		f = dso_file(d);
		if (!f || f->fd < 0) {
			missing++;
			continue;
		}
		/* a vDSO as perf keeps one, .build-id/ab/cdef.../vdso */
		buildid_path(name, sizeof(name), NULL, k.mmap.build_id, k.mmap.build_id_len,
			     vdso ? "/vdso" : "/elf");
		if ((ret = tar_file(&t, name, f->path)) < 0)
			break;
		buildid_path(name, sizeof(name), NULL, k.mmap.build_id, k.mmap.build_id_len, "/debug");
		if (buildid_path(debug, sizeof(debug), "/usr/lib/debug", k.mmap.build_id,
				 k.mmap.build_id_len, ".debug") == 0 &&
		    (ret = tar_file(&t, name, debug)) < 0)
			break;
		ret = 1;
	}
	if (ret < 0 && ret != -EBADMSG) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", output, strerror(-ret));
		goto out;
	}
	if (ret == -EBADMSG)
		fprintf(stderr, "prof: warning: '%s' is corrupt at offset %" PRIu64 " (%s); archiving "
			"the files before it\n", input, reader_error_offset(rd), reader_error(rd));
	{
		char zero[1024] = { 0 };

		fwrite(zero, 1, sizeof(zero), t.out);
	}
	if (fflush(t.out) || ferror(t.out)) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", output, strerror(errno ? errno : EIO));
		goto out;
	}
	status = 0;
	fprintf(stderr, "prof: %" PRIu64 " files (%.1f MiB) of %zu build ids to '%s'%s; on the "
		"machine that reports: tar xf '%s' -C ~/.debug\n", t.files,
		(double)t.bytes / (1024 * 1024), nseen, output, "", output);
	if (missing)
		fprintf(stderr, "prof: warning: %zu files of the profile's build ids are nowhere "
			"here (not at their path, not in the build-id cache)\n", missing);
	if (noid)
		fprintf(stderr, "prof: warning: %zu mappings have no build id recorded; their files "
			"are not archived\n", noid);
out:
	if (t.out)
		fclose(t.out);
	status = cli_commit_output(tmp, output, status);
	free(tmp);
	free(seen);
	htab_release(&seentab);
	evtab_release(&et);
	free(outname);
	symbols_free(sym);
	reader_free(rd);
	return status;
}
