// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "jitdump.h"
#include "pdata.h"
#include "xalloc.h"

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int jitdump_header(const void *data, size_t len, struct jitdump_header *h, const char **why)
{
	const unsigned char *p = data;
	uint32_t magic, total;

	if (len < 4) {
		*why = "too short for a jitdump header";
		return -1;
	}
	magic = u32_at(p);
	if (magic == JITDUMP_MAGIC_SWAPPED) {
		*why = "a jitdump of the other byte order";
		return -1;
	}
	if (magic != JITDUMP_MAGIC) {
		*why = "not a jitdump (no JiTD magic)";
		return -1;
	}
	if (len < JITDUMP_HEADER_MIN) {
		*why = "cut short in its header";
		return -1;
	}
	total = u32_at(p + 8);
	if (total < JITDUMP_HEADER_MIN || total > len) {
		*why = "its header's size is wrong";
		return -1;
	}
	h->version = u32_at(p + 4);
	h->elf_mach = u32_at(p + 12);
	h->pid = u32_at(p + 20);
	h->timestamp = u64_at(p + 24);
	h->flags = u64_at(p + 32);
	h->size = total;
	return 0;
}

int jitdump_next(const void *data, size_t len, size_t *off, struct jitdump_rec *r,
		 const char **why)
{
	const unsigned char *p = data;
	uint32_t size;

	if (*off >= len)
		return 0;
	if (len - *off < 16) {
		*why = "a record cut short";
		return -1;
	}
	size = u32_at(p + *off + 4);
	if (size < 16 || size > len - *off) {
		*why = size < 16 ? "a record with a size under 16 bytes" : "a record cut short";
		return -1;
	}
	r->id = u32_at(p + *off);
	r->timestamp = u64_at(p + *off + 8);
	r->p = p + *off;
	r->size = size;
	*off += size;
	return 1;
}

int jitdump_code_load(const struct jitdump_rec *r, struct jit_code_load *out)
{
	const unsigned char *p = r->p, *nul;

	if (r->size < 57)
		return -1;
	out->pid = u32_at(p + 16);
	out->tid = u32_at(p + 20);
	out->vma = u64_at(p + 24);
	out->code_addr = u64_at(p + 32);
	out->code_size = u64_at(p + 40);
	out->code_index = u64_at(p + 48);
	nul = memchr(p + 56, 0, r->size - 56);
	if (!nul)
		return -1;
	out->name = (const char *)(p + 56);
	out->name_len = (size_t)(nul - (p + 56));
	out->code_off = (size_t)(nul + 1 - p);
	return 0;
}

int jitdump_code_move(const struct jitdump_rec *r, struct jit_code_move *out)
{
	const unsigned char *p = r->p;

	if (r->size < 64)
		return -1;
	out->pid = u32_at(p + 16);
	out->tid = u32_at(p + 20);
	out->vma = u64_at(p + 24);
	out->old_code_addr = u64_at(p + 32);
	out->new_code_addr = u64_at(p + 40);
	out->code_size = u64_at(p + 48);
	out->code_index = u64_at(p + 56);
	return 0;
}

int jitdump_debug_info(const struct jitdump_rec *r, struct jit_debug_info *out)
{
	if (r->size < 32)
		return -1;
	out->code_addr = u64_at(r->p + 16);
	out->nr_entry = u64_at(r->p + 24);
	out->off = 32;
	return 0;
}

int jitdump_debug_entry(const struct jitdump_rec *r, size_t *off, struct jit_debug_entry *e)
{
	const unsigned char *p = r->p, *nul;

	if (*off > r->size || r->size - *off < 17)
		return -1;
	e->addr = u64_at(p + *off);
	e->line = u32_at(p + *off + 8);
	e->discrim = u32_at(p + *off + 12);
	nul = memchr(p + *off + 16, 0, r->size - *off - 16);
	if (!nul)
		return -1;
	e->file = (const char *)(p + *off + 16);
	*off = (size_t)(nul + 1 - p);
	return 1;
}

int jitdump_unwinding_info(const struct jitdump_rec *r, struct jit_unwinding_info *out)
{
	if (r->size < 40)
		return -1;
	out->unwind_data_size = u64_at(r->p + 16);
	out->eh_frame_hdr_size = u64_at(r->p + 24);
	out->mapped_size = u64_at(r->p + 32);
	if (out->unwind_data_size > r->size - 40 ||
	    out->eh_frame_hdr_size > out->unwind_data_size)
		return -1;
	out->data = r->p + 40;
	return 0;
}

unsigned char *jitdump_strip(const void *data, size_t len, size_t *out_len)
{
	struct jitdump_header h;
	struct jitdump_rec r;
	const char *why;
	unsigned char *out;
	size_t off, n;

	if (jitdump_header(data, len, &h, &why))
		return NULL;
	out = xmalloc(len);
	memcpy(out, data, h.size);
	n = h.size;
	off = h.size;
	while (jitdump_next(data, len, &off, &r, &why) == 1) {
		struct jit_code_load cl;
		size_t keep = r.size;

		if (r.id == JIT_CODE_LOAD && !jitdump_code_load(&r, &cl))
			keep = cl.code_off;
		memcpy(out + n, r.p, keep);
		if (keep != r.size) {
			uint32_t k = (uint32_t)keep;

			memcpy(out + n + 4, &k, 4);
		}
		n += keep;
	}
	*out_len = n;
	return out;
}

int prof_ext_of(const struct perf_event_header *h, struct prof_ext *x)
{
	if (h->type != PDATA_HEADER_EVENT_TYPE || h->size < sizeof(*h) + sizeof(*x))
		return 0;
	memcpy(x, h + 1, sizeof(*x));
	return x->magic == PROF_EXT_MAGIC;
}

int jitdump_path(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n < 10 || strncmp(b, "jit-", 4) || strcmp(b + n - 5, ".dump"))
		return 0;
	for (const char *c = b + 4; c < b + n - 5; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

uint64_t prof_ext_budget(uint64_t file_size)
{
	const uint64_t floor = (uint64_t)4 << 20, per_byte = 8;
	uint64_t b = file_size > UINT64_MAX / per_byte ? UINT64_MAX : file_size * per_byte;

	return b > floor ? b : floor;
}
