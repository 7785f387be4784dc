// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof convert`: a profile rewritten as perf.data in file mode, its
 * records uncompressed: what the tools that read neither prof's pipe-mode
 * stream nor zstd frames read (Debian 12's hotspot 1.3, and perf report's
 * --children, which perf 6.1 ignores on pipe input). The layout: the
 * 104-byte header, the data section (every kernel record and round, as
 * the reader gives them: decompressed), the features (their table of
 * sections, in bit order, where perf looks for it: right after the data;
 * then their bodies), then each event's ids and the attrs section.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "convert.h"
#include "evtab.h"
#include "cli.h"
#include "decode.h"
#include "jitdump.h"
#include "pdata.h"
#include "reader.h"
#include "xalloc.h"


struct convert_args {
	const char *input, *output;
};

static const struct opt convert_options[] = {
	OPT_STRING('i', "input", "FILE", struct convert_args, input,
		   "the profile (default prof.data)"),
	OPT_STRING('o', "output", "FILE", struct convert_args, output,
		   "the perf.data to write (default FILE.perf)"),
	OPT_HELP(),
	OPT_END(),
};

struct attr_out {
	unsigned char attr[PDATA_ATTR_SIZE];
	uint64_t *ids;
	size_t nids;
};

struct feat_out {
	uint64_t id;
	unsigned char *body;
	size_t len, cap;
};

struct section {
	uint64_t offset, size;
};

struct carried_out {
	FILE *out;
	uint64_t bytes, records;
	uint64_t budget;	/* bytes of carried records to write at most */
	uint64_t dropped;	/* records left out for it */
};

/* What carried JIT files the conversion keeps at most, as a report takes them. */
static uint64_t carried_budget(const char *input)
{
	struct stat st;

	if (strcmp(input, "-") && !stat(input, &st) && S_ISREG(st.st_mode))
		return prof_ext_budget((uint64_t)st.st_size);
	return prof_ext_budget(0);
}

static int put_carried(void *arg, const struct perf_event_header *h)
{
	struct carried_out *cv = arg;
	struct prof_ext x;

	if (!prof_ext_of(h, &x) || x.kind == PROF_EXT_TRAILER)
		return 0;	/* it points into the file it ends */
	if (cv->dropped || h->size > cv->budget - cv->bytes) {
		cv->dropped++;
		return 0;
	}
	fwrite(h, 1, h->size, cv->out);
	cv->bytes += h->size;
	cv->records++;
	return 0;
}

/*
 * Feature id's body: a copy of len bytes at data, in place of an earlier
 * one of that id, or after it when append is set (build ids).
 */
static void add_feature(struct feat_out **feats, size_t *nfeats, uint64_t id, const void *data,
			size_t len, int append)
{
	struct feat_out *f = NULL;

	if (append)
		for (size_t i = 0; i < *nfeats; i++)
			if ((*feats)[i].id == id)
				f = &(*feats)[i];
	if (!f) {
		*feats = xreallocarray(*feats, *nfeats + 1, sizeof(**feats));
		f = &(*feats)[(*nfeats)++];
		f->id = id;
		f->body = NULL;
		f->len = f->cap = 0;
	}
	if (len + 1 > f->cap - f->len) {	/* doubled: build ids come one by one */
		f->cap = f->len + len + 1 > 2 * f->cap ? f->len + len + 1 : 2 * f->cap;
		f->body = xreallocarray(f->body, f->cap, 1);
	}
	memcpy(f->body + f->len, data, len);
	f->len += len;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args ca = { "prof.data", NULL };
	const char *input, *output;
	char err[512];
	char *outname = NULL, *tmp = NULL;
	struct reader *rd = NULL;
	struct reader_record rec;
	struct attr_out *attrs = NULL;
	struct feat_out *feats = NULL;
	size_t nattrs = 0, attrs_cap = 0, nfeats = 0;
	uint64_t records = 0, pos, data_size = 0;
	struct carried_out cv = { NULL, 0, 0, 0, 0 };
	struct prof_ext cx;
	int carried;
	FILE *out = NULL;
	int first, ret, status = 1;

	ret = opt_parse(convert_options, &ca, OPT_NO_WORDS, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		fputs("usage: prof convert [-i FILE] [-o OUTPUT]\n\n", stdout);
		opt_usage(stdout, convert_options);
		return 0;
	}
	if (ret)
		return opt_say("convert", ret, err);
	input = ca.input;
	output = ca.output;
	if (!output) {
		const char *base = strcmp(input, "-") ? input : "stdin";

		outname = xmalloc(strlen(base) + sizeof(".perf"));
		sprintf(outname, "%s.perf", base);
		output = outname;
	}
	rd = cli_open_input(input);
	if (!rd)
		goto out;
	out = cli_create_output(output, &tmp);
	if (!out)
		goto out;
	/* the header, written again at the end once the sections are known */
	{
		unsigned char zero[PDATA_FILE_HEADER_SIZE] = { 0 };

		fwrite(zero, 1, sizeof(zero), out);
	}
	/*
	 * The JIT code prof carries goes first: a file-mode reader meets it
	 * before the samples (prof's pipe-mode file ends with it, and a
	 * trailer that says where).
	 */
	cv.out = out;
	cv.budget = carried_budget(input);
	carried = reader_read_ahead(input, PDATA_HEADER_EVENT_TYPE, put_carried, &cv) > 0;
	data_size += cv.bytes;
	records += cv.records;
	if (!carried && cv.bytes) {
		/* a trailer not believed: they are read where they stand, so none twice */
		if (fflush(out) || fseek(out, PDATA_FILE_HEADER_SIZE, SEEK_SET) ||
		    ftruncate(fileno(out), PDATA_FILE_HEADER_SIZE)) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", output, strerror(errno));
			goto out;
		}
		data_size = records = 0;
	}
	if (!carried)
		cv.bytes = cv.records = cv.dropped = 0;
	while ((ret = reader_next(rd, &rec)) > 0) {
		const struct perf_event_header *h = rec.hdr;

		if (h->type == PDATA_HEADER_ATTR) {
			struct attr_record ar;
			uint32_t asz = PDATA_ATTR_SIZE;

			if (decode_attr(h, &ar))
				continue;
			attrs = xgrow(attrs, &attrs_cap, nattrs + 1, sizeof(*attrs));
			memset(&attrs[nattrs], 0, sizeof(attrs[nattrs]));
			/* what the record holds of the attr, zero-extended */
			memcpy(attrs[nattrs].attr, &ar.attr,
			       sizeof(ar.attr) < PDATA_ATTR_SIZE ? sizeof(ar.attr) : PDATA_ATTR_SIZE);
			memcpy(attrs[nattrs].attr + 4, &asz, 4);	/* attr.size: what is written */
			attrs[nattrs].ids = xcalloc(ar.nids ? ar.nids : 1, sizeof(uint64_t));
			memcpy(attrs[nattrs].ids, ar.ids, ar.nids * sizeof(uint64_t));
			attrs[nattrs++].nids = ar.nids;
			continue;
		}
		/*
		 * What pipe mode says in records, file mode says in features:
		 * the tracing data (tracepoints' formats, without which perf
		 * refuses the file) and the build ids, their records end to end.
		 */
		if (h->type == PDATA_HEADER_TRACING_DATA) {
			size_t len;
			const unsigned char *td = reader_tracing_data(rd, &len);

			if (td)
				add_feature(&feats, &nfeats, PDATA_FEAT_TRACING_DATA, td, len, 0);
			continue;
		}
		if (h->type == PDATA_HEADER_BUILD_ID) {
			add_feature(&feats, &nfeats, PDATA_FEAT_BUILD_ID, h, h->size, 1);
			continue;
		}
		if (h->type == PDATA_HEADER_FEATURE) {
			struct feature f;

			if (decode_feature(h, &f))
				continue;
			/* the records are decompressed now; features past the bitmap are lost */
			if (f.id == PDATA_FEAT_COMPRESSED || f.id == 0 || f.id >= PDATA_FEAT_LAST)
				continue;
			add_feature(&feats, &nfeats, f.id, f.data, f.len, 0);
			continue;
		}
		/* kernel records and rounds; the pipe's own (FINISHED_INIT...) stay out */
		if (!carried && prof_ext_of(h, &cx)) {
			uint64_t b = cv.bytes, n = cv.records;

			put_carried(&cv, h);	/* no trailer: where they are, then */
			data_size += cv.bytes - b;
			records += cv.records - n;
			continue;
		}
		if (h->type >= 64 && h->type != PDATA_FINISHED_ROUND)
			continue;
		fwrite(h, 1, h->size, out);
		data_size += h->size;
		records++;
	}
	if (ret < 0 && ret != -EBADMSG) {
		fprintf(stderr, "prof: cannot read '%s': %s\n", input, strerror(-ret));
		goto out;
	}
	if (ret == -EBADMSG)
		fprintf(stderr, "prof: warning: '%s' is corrupt at offset %" PRIu64 " (%s); converting "
			"the records before it\n", input, reader_error_offset(rd), reader_error(rd));
	if (cv.dropped)
		fprintf(stderr, "prof: warning: '%s' carries more JIT code than a profile of its size "
			"holds (over %" PRIu64 " MiB): %" PRIu64 " records of it left out\n", input,
			cv.budget >> 20, cv.dropped);
	if (!nattrs) {
		fprintf(stderr, "prof: '%s' describes no event: nothing to convert\n", input);
		goto out;
	}
	/* perf reads the features' table right after the data: then them, then the attrs */
	pos = PDATA_FILE_HEADER_SIZE + data_size;
	{
		struct section *idsec = xcalloc(nattrs, sizeof(*idsec));
		struct section attrs_sec, data_sec = { PDATA_FILE_HEADER_SIZE, data_size };
		uint64_t hdr[PDATA_FILE_HEADER_SIZE / 8] = { 0 };
		unsigned char bits[32] = { 0 };
		struct section *fsec = xcalloc(nfeats ? nfeats : 1, sizeof(*fsec));
		size_t order[PDATA_FEAT_LAST], nord = 0;

		/* features in bit order, each once (the last given wins) */
		for (uint64_t bit = 1; bit < PDATA_FEAT_LAST; bit++) {
			size_t last = nfeats;

			for (size_t i = 0; i < nfeats; i++)
				if (feats[i].id == bit)
					last = i;
			if (last < nfeats) {
				order[nord++] = last;
				bits[bit / 8] |= (unsigned char)(1u << (bit % 8));
			}
		}
		pos += nord * sizeof(struct section);
		for (size_t k = 0; k < nord; k++) {
			fsec[k].offset = pos;
			fsec[k].size = feats[order[k]].len;
			pos += fsec[k].size;
		}
		fwrite(fsec, sizeof(*fsec), nord, out);
		for (size_t k = 0; k < nord; k++)
			fwrite(feats[order[k]].body, 1, feats[order[k]].len, out);
		for (size_t i = 0; i < nattrs; i++) {
			idsec[i].offset = pos;
			idsec[i].size = attrs[i].nids * 8;
			fwrite(attrs[i].ids, 8, attrs[i].nids, out);
			pos += idsec[i].size;
		}
		attrs_sec.offset = pos;
		attrs_sec.size = nattrs * (PDATA_ATTR_SIZE + 16);
		for (size_t i = 0; i < nattrs; i++) {
			fwrite(attrs[i].attr, 1, PDATA_ATTR_SIZE, out);
			fwrite(&idsec[i], sizeof(idsec[i]), 1, out);
		}
		pos += attrs_sec.size;
		hdr[0] = PDATA_MAGIC;
		hdr[1] = PDATA_FILE_HEADER_SIZE;
		hdr[2] = PDATA_ATTR_SIZE + 16;
		hdr[3] = attrs_sec.offset;
		hdr[4] = attrs_sec.size;
		hdr[5] = data_sec.offset;
		hdr[6] = data_sec.size;
		/* hdr[7], hdr[8]: event_types, none */
		memcpy(&hdr[9], bits, sizeof(bits));
		if (fflush(out) || fseek(out, 0, SEEK_SET) ||
		    fwrite(hdr, 1, sizeof(hdr), out) != sizeof(hdr) || fflush(out) || ferror(out)) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", output,
				strerror(errno ? errno : EIO));
			free(idsec);
			free(fsec);
			goto out;
		}
		free(idsec);
		free(fsec);
	}
	status = 0;
	fprintf(stderr, "prof: %" PRIu64 " records of %zu events to '%s' (perf.data, file mode, "
		"uncompressed), for hotspot and perf report --children\n", records, nattrs, output);
out:
	if (out)
		fclose(out);
	status = cli_commit_output(tmp, output, status);
	free(tmp);
	for (size_t i = 0; i < nattrs; i++)
		free(attrs[i].ids);
	free(attrs);
	for (size_t i = 0; i < nfeats; i++)
		free(feats[i].body);
	free(feats);
	free(outname);
	reader_free(rd);
	return status;
}
