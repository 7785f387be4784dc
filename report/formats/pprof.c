// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format pprof: the first event as a gzip-compressed profile.proto (the
 * format of github.com/google/pprof, read by `go tool pprof`, Grafana
 * Pyroscope and Parca). One Location per address (inlined frames are
 * Lines of it, innermost first), one Function per name and file, one
 * Mapping per object with its build id; samples with the same stack and
 * command are one Sample with a "comm" label. Its second value is
 * "cpu"/"nanoseconds" for cpu-clock and task-clock, else the event's
 * name in "count".
 *
 * profile.proto by hand (pb.h); field numbers from pprof's
 * proto/profile.proto.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <zlib.h>

#include "buildid.h"
#include "format.h"
#include "pb.h"
#include "pprof.h"
#include "strpool.h"
#include "umap.h"
#include "objfile.h"
#include "module.h"
#include "utf8.h"
#include "xalloc.h"

/* --- the profile ------------------------------------------------------------ */

struct pfunc {
	uint64_t name, file;	/* string indices */
};

struct ploc {
	const struct dso *dso;
	uint64_t mapping, addr;
	size_t first, n;	/* lines[first .. first + n) */
	int kernel;
};

struct pline {
	uint64_t func, line;
};

struct pmap {
	const struct dso *dso;
	uint64_t start, limit;	/* its addresses: [start, limit) */
	uint64_t offset;	/* the file offset of start */
	int segment;		/* start, limit and offset are one PT_LOAD's of its file */
	uint64_t unnamed;	/* locations in it with no name: for pprof to symbolize */
	uint64_t hits;		/* samples whose leaf is in it */
	uint64_t progs;		/* samples of processes whose program it is */
	uint64_t id;		/* as written: the main program first (encode()) */
};

struct pprof {
	struct strpool *pool;
	struct umap strs, funcs, locs, samples, maps;
	struct umap fmemo;	/* a location's frames as resolved (pointers) -> its id: location_id() */
	struct umap progs;	/* per program (dso), how many samples: its val */
	const char **str;	/* the string table */
	size_t nstr, cap_str;
	struct pfunc *func;
	size_t nfunc, cap_func;
	struct ploc *loc;
	size_t nloc, cap_loc;
	struct pline *line;
	size_t nline, cap_line;
	struct pmap *map;
	size_t nmap, cap_map;
	uint64_t (*sval)[2];	/* per sample: count, period */
	size_t nsval, cap_sval;
	char vtype[64];		/* the value's sample type: cpu, or the event's name */
	int time_unit;
	int kernel_names_only;	/* kernel frames by name alone: no address (pprof_kernel_names_only()) */
	uint64_t count, value;	/* samples added, and their periods */
};

#define GROW(p, n, cap) do { \
	if ((n) == (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 16; \
		(p) = xreallocarray((p), (cap), sizeof(*(p))); \
	} \
} while (0)

/* The string table index of s ("" is 0). */
static uint64_t str_index(struct pprof *p, const char *s)
{
	const char *key;

	/* protobuf strings are UTF-8: pprof's Go decoder refuses others */
	if (s && !utf8_valid(s)) {
		char *fixed = utf8_fix(s);

		key = strpool_intern(p->pool, fixed);
		free(fixed);
	} else {
		key = strpool_intern(p->pool, s ? s : "");
	}
	uint64_t w = (uint64_t)(uintptr_t)key;
	int made;
	struct ukey *e = umap_get(&p->strs, &w, 1, p->nstr, &made);

	if (made) {
		GROW(p->str, p->nstr, p->cap_str);
		p->str[p->nstr++] = key;
	}
	return e->val;
}

void pprof_kernel_names_only(struct pprof *p, int on)
{
	p->kernel_names_only = on;
}

struct pprof *pprof_new(const char *event, int time_unit)
{
	struct pprof *p = xcalloc(1, sizeof(*p));

	p->pool = strpool_new();
	p->time_unit = time_unit;
	/*
	 * A sample type is a name (go tool pprof -sample_index=NAME): letters,
	 * digits and '_'. Pyroscope refuses a profile whose sample type has a
	 * '-' (pkg/validation/validate.go), and Parca's profile type joins
	 * fields with ':'; so off-cpu is off_cpu, sched:sched_switch
	 * sched_sched_switch.
	 */
	if (time_unit == 1) {
		snprintf(p->vtype, sizeof(p->vtype), "cpu");
	} else {
		size_t k = 0;

		for (const char *e = event; *e && k + 1 < sizeof(p->vtype); e++)
			p->vtype[k++] = (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
					(*e >= '0' && *e <= '9') ? *e : '_';
		p->vtype[k] = '\0';
	}
	str_index(p, "");
	return p;
}

void pprof_free(struct pprof *p)
{
	if (!p)
		return;
	umap_release(&p->strs);
	umap_release(&p->funcs);
	umap_release(&p->locs);
	umap_release(&p->fmemo);
	umap_release(&p->samples);
	umap_release(&p->maps);
	umap_release(&p->progs);
	free(p->str);
	free(p->func);
	free(p->loc);
	free(p->line);
	free(p->map);
	free(p->sval);
	strpool_free(p->pool);
	free(p);
}

static uint64_t func_id(struct pprof *p, const struct rframe *f)
{
	char buf[512];
	const char *name = f->name;
	uint64_t w[2];
	int made;
	struct ukey *e;

	if (!name) {
		if (f->dso && !dso_unknown(f->dso))
			snprintf(buf, sizeof(buf), "%s+0x%llx", dso_short_name(f->dso),
				 (unsigned long long)f->addr);
		else
			snprintf(buf, sizeof(buf), "[unknown]");
		name = buf;
	}
	w[0] = str_index(p, name);
	w[1] = str_index(p, f->file);
	e = umap_get(&p->funcs, w, 2, p->nfunc + 1, &made);
	if (made) {
		GROW(p->func, p->nfunc, p->cap_func);
		p->func[p->nfunc].name = w[0];
		p->func[p->nfunc++].file = w[1];
	}
	return e->val;
}

#define NO_SEGMENT UINT64_MAX

/*
 * The Mapping of dso d's PT_LOAD seg (NO_SEGMENT: its file is not here, or
 * the kernel), its index + 1: made when new, as the program header lays
 * the segment out (page-aligned as the kernel maps it), or from 0. A file
 * of several executable segments (node has three) has a Mapping each, so
 * that every address lies in one whose offset maps it to the file.
 */
static uint64_t mapping_of(struct pprof *p, const struct dso *d, const struct objfile *f,
			   uint64_t seg)
{
	uint64_t w[2] = { (uint64_t)(uintptr_t)d, seg };
	int made;
	struct ukey *e = umap_get(&p->maps, w, 2, p->nmap + 1, &made);

	if (made) {
		struct pmap *m;

		GROW(p->map, p->nmap, p->cap_map);
		m = &p->map[p->nmap++];
		memset(m, 0, sizeof(*m));
		m->dso = d;
		if (seg != NO_SEGMENT) {
			const GElf_Phdr *ph = &f->load[seg];
			uint64_t pg = ph->p_offset & 4095;

			m->segment = 1;
			m->start = ph->p_vaddr - pg;
			m->limit = ph->p_vaddr + ph->p_memsz;
			m->offset = ph->p_offset - pg;
		}
	}
	return e->val;
}

/* The Mapping of an address at file offset off of dso d; *addr, the address as written. */
static uint64_t mapping_id(struct pprof *p, const struct dso *d, uint64_t off, int kernel,
			   uint64_t *addr)
{
	const struct objfile *f = kernel ? NULL : dso_file(d);
	const GElf_Phdr *ph;
	uint64_t va, id;

	/* pprof and the fleet backends symbolize from the file's own addresses */
	if (f && objfile_vaddr(f, off, &va, &ph)) {
		*addr = va;
		return mapping_of(p, d, f, (uint64_t)(ph - f->load));
	}
	*addr = off;
	id = mapping_of(p, d, NULL, NO_SEGMENT);
	if (off + 1 > p->map[id - 1].limit)
		p->map[id - 1].limit = off + 1;	/* no file here: file offsets, from 0 */
	return id;
}

/*
 * The Location of frames f[0 .. n), which share an address: the inlined
 * functions, then the one they are inlined into.
 */
static uint64_t location_id(struct pprof *p, const struct rframe *f, int n)
{
	uint64_t w[2 + 2 * 64], mk[2 + 3 * 8];
	int k = 0, made, nk = 0;
	struct ukey *e;

	/*
	 * Seen before, the same frames as the resolver gave them (its names
	 * and files are interned: the same pointers), at the same address of
	 * the same file: the same location, without the string table's and
	 * the functions' look-ups of each frame, which a sample's every
	 * frame paid (the agent's profile: strpool_intern_len, umap_probe).
	 * Not for JIT code, whose addresses and names are used again.
	 */
	if (f[0].dso && n <= 8 && !dso_is_jit(f[0].dso)) {
		struct htab_probe hp;
		const struct ukey *m;

		mk[nk++] = (uint64_t)(uintptr_t)f[0].dso;
		mk[nk++] = f[0].addr << 1 | f[0].kernel;
		for (int i = 0; i < n; i++) {
			mk[nk++] = (uint64_t)(uintptr_t)f[i].name;
			mk[nk++] = (uint64_t)(uintptr_t)f[i].file;
			mk[nk++] = (uint64_t)(int64_t)f[i].line;
		}
		m = umap_probe(&p->fmemo, mk, (size_t)nk, &hp);
		if (m)
			return m->val;
	}

	/*
	 * A user-space frame without a name, in a file of its own, is left
	 * for pprof or the backend to name from the file (its build id):
	 * no Line, and its Mapping says it has no functions. Others keep a
	 * placeholder name ("[unknown]", the kernel's "+0x...").
	 */
	int symbolize = !f[0].name && n == 1 && f[0].dso && !f[0].kernel && !dso_unknown(f[0].dso) &&
			!dso_is_jit(f[0].dso) && !dso_is_anon(f[0].dso);

	int hide = f[0].kernel && p->kernel_names_only;

	w[k++] = (uint64_t)(uintptr_t)f[0].dso;
	w[k++] = (hide ? 0 : f[0].addr << 1) | f[0].kernel;
	for (int i = 0; i < n && i < 64 && !symbolize; i++) {
		w[k++] = func_id(p, &f[i]);
		w[k++] = (uint64_t)f[i].line;
	}
	e = umap_get(&p->locs, w, (size_t)k, p->nloc + 1, &made);
	if (made) {
		struct ploc *l;

		GROW(p->loc, p->nloc, p->cap_loc);
		l = &p->loc[p->nloc++];
		l->dso = f[0].dso;
		l->addr = f[0].addr;
		l->kernel = f[0].kernel;
		l->mapping = !f[0].dso ? 0 : hide ? mapping_of(p, f[0].dso, NULL, NO_SEGMENT) :
			     mapping_id(p, f[0].dso, f[0].addr, f[0].kernel, &l->addr);
		if (hide)
			l->addr = 0;	/* the kernel's layout (KASLR) stays on the host */
		if (symbolize)
			p->map[l->mapping - 1].unnamed++;
		l->first = p->nline;
		l->n = 0;
		for (int i = 2; i < k; i += 2) {
			GROW(p->line, p->nline, p->cap_line);
			p->line[p->nline].func = w[i];
			p->line[p->nline++].line = w[i + 1];
			l->n++;
		}
	}
	if (nk)
		umap_get(&p->fmemo, mk, (size_t)nk, e->val, &made);
	return e->val;
}

void pprof_add(struct pprof *p, const struct rsample *s, const char *const *labels, int nlabels)
{
	/* on the stack but for the deepest stacks: a malloc a sample showed in the agent's profile */
	uint64_t wbuf[256];
	size_t need = (size_t)s->nframes + 2 + 2 * (size_t)nlabels;
	uint64_t *w = need <= 256 ? wbuf : xreallocarray(NULL, need, sizeof(*w));
	size_t k = 0;
	int made;
	struct ukey *e;

	/* the key: how many labels, their keys and values, then the locations */
	w[k++] = (uint64_t)nlabels;
	for (int i = 0; i < 2 * nlabels; i++)
		w[k++] = str_index(p, labels[i]);
	for (int i = 0; i < s->nframes; ) {
		int j = i + 1;

		/* inlined frames come before the function they are in, at its address */
		while (j < s->nframes && s->frames[j - 1].inlined && s->frames[j].addr == s->frames[i].addr &&
		       s->frames[j].dso == s->frames[i].dso)
			j++;
		w[k++] = location_id(p, &s->frames[i], j - i);
		if (i == 0 && p->loc[w[k - 1] - 1].mapping)
			p->map[p->loc[w[k - 1] - 1].mapping - 1].hits++;
		i = j;
	}
	if (s->exe) {
		/* counted apart: a program none of whose code was sampled has no Mapping */
		uint64_t d = (uint64_t)(uintptr_t)s->exe;

		umap_get(&p->progs, &d, 1, 0, &made)->val++;
	}
	e = umap_get(&p->samples, w, k, p->nsval, &made);
	if (made) {
		GROW(p->sval, p->nsval, p->cap_sval);
		p->sval[p->nsval][0] = 0;
		p->sval[p->nsval++][1] = 0;
	}
	p->sval[e->val][0]++;
	p->sval[e->val][1] += s->period;
	p->count++;
	p->value += s->period;
	if (w != wbuf)
		free(w);
}

uint64_t pprof_count(const struct pprof *p, uint64_t *value)
{
	if (value)
		*value = p->value;
	return p->count;
}

static void value_type(struct pb *b, unsigned field, uint64_t type, uint64_t unit)
{
	struct pb m = { 0 };

	pb_u64(&m, 1, type);
	pb_u64(&m, 2, unit);
	pb_bytes(b, field, m.b ? m.b : (unsigned char *)"", m.n);
	free(m.b);
}

/*
 * pprof takes the first Mapping for the main program: the program of the
 * processes most samples are of (java, not libjvm.so where a JVM spends
 * its time, and which it may never run itself), then the busiest.
 */
static int by_hits(const void *a, const void *b, void *arg)
{
	const struct pprof *p = arg;
	const struct pmap *x = &p->map[*(const size_t *)a], *y = &p->map[*(const size_t *)b];

	if (x->progs != y->progs)
		return x->progs > y->progs ? -1 : 1;
	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static void encode(struct pprof *p, const struct pprof_window *win, struct pb *out)
{
	struct pb m = { 0 }, packed = { 0 };
	size_t *order;
	uint64_t t_samples = str_index(p, "samples"), u_count = str_index(p, "count");
	uint64_t t_value = str_index(p, p->vtype);
	uint64_t u_value = str_index(p, p->time_unit ? "nanoseconds" : "count");

	value_type(out, 1, t_samples, u_count);
	value_type(out, 1, t_value, u_value);
	for (size_t i = 0; i < p->samples.n; i++) {
		const struct ukey *e = &p->samples.ents[i];
		const uint64_t *w = p->samples.keys + e->off;
		size_t nl = (size_t)w[0], first = 1 + 2 * nl;
		struct pb label = { 0 };

		for (size_t j = first; j < e->len; j++)
			pb_varint(&packed, w[j]);
		pb_msg(&m, 1, &packed);
		pb_varint(&packed, p->sval[e->val][0]);
		pb_varint(&packed, p->sval[e->val][1]);
		pb_msg(&m, 2, &packed);
		for (size_t j = 0; j < nl; j++) {
			pb_u64(&label, 1, w[1 + 2 * j]);
			pb_u64(&label, 2, w[2 + 2 * j]);
			pb_msg(&m, 3, &label);
		}
		free(label.b);
		pb_msg(out, 2, &m);
	}
	/* the main program first (by_hits()) */
	order = xreallocarray(NULL, p->nmap ? p->nmap : 1, sizeof(*order));
	{
		for (size_t i = 0; i < p->nmap; i++) {
			uint64_t d = (uint64_t)(uintptr_t)p->map[i].dso;
			struct htab_probe hp;
			const struct ukey *pe = umap_probe(&p->progs, &d, 1, &hp);

			p->map[i].progs = pe ? pe->val : 0;
		}

		for (size_t i = 0; i < p->nmap; i++)
			order[i] = i;
		qsort_r(order, p->nmap, sizeof(*order), by_hits, p);
		for (size_t i = 0; i < p->nmap; i++)
			p->map[order[i]].id = i + 1;
	}
	for (size_t r = 0; r < p->nmap; r++) {
		size_t i = order[r];	/* the mapping of id r + 1 */
		const unsigned char *id;
		size_t n;
		char buf[2 * 64 + 1] = "";

		n = dso_build_id(p->map[i].dso, &id);
		if (n && n <= 64)
			buildid_hex(buf, id, n);
		pb_u64(&m, 1, r + 1);
		pb_u64(&m, 2, p->map[i].start);
		pb_u64(&m, 3, p->map[i].limit);
		pb_u64(&m, 4, p->map[i].offset);
		pb_u64(&m, 5, str_index(p, dso_path(p->map[i].dso)));
		pb_u64(&m, 6, str_index(p, buf));
		/* pprof symbolizes only a mapping that says it has none of these */
		if (!p->map[i].unnamed) {
			pb_u64(&m, 7, 1);	/* has_functions */
			pb_u64(&m, 8, 1);	/* has_filenames */
			pb_u64(&m, 9, 1);	/* has_line_numbers */
			pb_u64(&m, 10, 1);	/* has_inline_frames */
		}
		pb_msg(out, 3, &m);
	}
	free(order);
	for (size_t i = 0; i < p->nloc; i++) {
		const struct ploc *l = &p->loc[i];
		struct pb line = { 0 };

		pb_u64(&m, 1, i + 1);
		pb_u64(&m, 2, l->mapping ? p->map[l->mapping - 1].id : 0);
		pb_u64(&m, 3, l->addr);
		for (size_t j = 0; j < l->n; j++) {
			pb_u64(&line, 1, p->line[l->first + j].func);
			pb_u64(&line, 2, p->line[l->first + j].line);
			pb_msg(&m, 4, &line);
		}
		free(line.b);
		pb_msg(out, 4, &m);
	}
	for (size_t i = 0; i < p->nfunc; i++) {
		pb_u64(&m, 1, i + 1);
		pb_u64(&m, 2, p->func[i].name);
		pb_u64(&m, 3, p->func[i].name);
		pb_u64(&m, 4, p->func[i].file);
		pb_msg(out, 5, &m);
	}
	for (size_t i = 0; i < p->nstr; i++)
		pb_bytes(out, 6, p->str[i], strlen(p->str[i]));
	pb_u64(out, 9, win->time_ns);
	pb_u64(out, 10, win->duration_ns);
	value_type(out, 11, t_value, u_value);
	pb_u64(out, 12, win->period);
	pb_u64(out, 14, t_value);	/* default_sample_type */
	free(m.b);
	free(packed.b);
}

/* Every string the encoders name, in the table before it is written. */
static void intern_names(struct pprof *p)
{
	str_index(p, "samples");
	str_index(p, "count");
	str_index(p, p->vtype);
	str_index(p, p->time_unit ? "nanoseconds" : "count");
	for (size_t i = 0; i < p->nmap; i++) {
		const unsigned char *id;
		size_t n = dso_build_id(p->map[i].dso, &id);
		char hexid[2 * 64 + 1] = "";

		if (n && n <= 64)
			buildid_hex(hexid, id, n);
		str_index(p, hexid);
		str_index(p, dso_path(p->map[i].dso));
	}
}

int pprof_encode(struct pprof *p, const struct pprof_window *win, unsigned char **data,
		 size_t *len)
{
	struct pb raw = { 0 };

	intern_names(p);
	encode(p, win, &raw);
	return pb_gzip(&raw, data, len);
}

/* --- OTLP ------------------------------------------------------------------- */

/*
 * The agent's sample labels by OpenTelemetry's semantic conventions;
 * num: the value is an int. Other labels keep their names.
 */
static const struct {
	const char *label, *key;
	int num;
} otel_keys[] = {
	{ "pid", "process.pid", 1 },
	{ "process", "process.executable.name", 0 },
	{ "thread", "thread.name", 0 },
	{ "comm", "thread.name", 0 },
	{ "cgroup", "process.linux.cgroup", 0 },
	{ "container_id", "container.id", 0 },
	{ "pod_uid", "k8s.pod.uid", 0 },
};

/* An AnyValue: a string, or an int when num. */
static void any_value(struct pb *b, unsigned field, const char *v, int num)
{
	struct pb m = { 0 };

	if (num) {
		/* int_value: written even when 0, or the value would be unset */
		pb_varint(&m, 3 << 3);
		pb_varint(&m, (uint64_t)strtoll(v, NULL, 10));
	} else {
		pb_bytes(&m, 1, v, strlen(v));
	}
	pb_bytes(b, field, m.b, m.n);
	free(m.b);
}

/* A KeyValue (Resource's attributes). */
static void key_value(struct pb *b, unsigned field, const char *k, const char *v)
{
	struct pb m = { 0 };

	pb_bytes(&m, 1, k, strlen(k));
	any_value(&m, 2, v, 0);
	pb_bytes(b, field, m.b, m.n);
	free(m.b);
}

/* One Profile of the window: the sample counts (which 0) or their values (which 1). */
static void otlp_profile(struct pprof *p, const struct pprof_window *win, int which,
			 const uint64_t *stack, const uint64_t *attrs, const size_t *nattrs,
			 const uint64_t *snew, const uint64_t *anew, struct pb *out)
{
	struct pb m = { 0 }, t = { 0 };
	uint64_t t_value = snew[str_index(p, p->vtype)];
	uint64_t u_value = snew[str_index(p, p->time_unit ? "nanoseconds" : "count")];
	unsigned char id[16];
	uint64_t ids[16];
	size_t a = 0;

	if (which)
		value_type(out, 1, t_value, u_value);
	else
		value_type(out, 1, snew[str_index(p, "samples")], snew[str_index(p, "count")]);
	for (size_t i = 0; i < p->samples.n; i++) {
		const struct ukey *e = &p->samples.ents[i];
		uint64_t v = p->sval[e->val][which];
		size_t n = nattrs[i] < 16 ? nattrs[i] : 16;

		pb_u64(&m, 1, stack[i]);
		for (size_t j = 0; j < n; j++)
			ids[j] = anew[attrs[a + j]];
		if (n)
			pb_packed(&m, 2, ids, n, &t);
		a += nattrs[i];
		pb_varint(&t, v);
		pb_msg(&m, 4, &t);
		pb_msg(out, 2, &m);
	}
	pb_fixed64(out, 3, win->time_ns);
	pb_u64(out, 4, win->duration_ns);
	value_type(out, 5, t_value, u_value);
	pb_u64(out, 6, win->period);
	/* an id per profile, the same however often the spooled bytes are sent again */
	if (getrandom(id, sizeof(id), 0) == (ssize_t)sizeof(id))
		pb_bytes(out, 7, id, sizeof(id));
	free(m.b);
	free(t.b);
}

/* The attribute table: kv (key, value, as otel_keys' num) and its index, made when new. */
struct otlp_attrs {
	struct umap map;
	uint64_t (*kv)[3];
	size_t n, cap;
};

static uint64_t attr_id(struct otlp_attrs *a, const uint64_t kv[3])
{
	int made;
	struct ukey *e = umap_get(&a->map, kv, 3, a->n + 1, &made);

	if (made) {
		GROW(a->kv, a->n, a->cap);
		memcpy(a->kv[a->n++], kv, 3 * sizeof(*kv));
	}
	return e->val;
}

int pprof_encode_otlp(struct pprof *p, const struct pprof_window *win,
		      const char *const *resource, int nresource, unsigned char **data,
		      size_t *len)
{
	struct pb req = { 0 }, rp = { 0 }, sp = { 0 }, prof = { 0 }, dict = { 0 }, m = { 0 },
		  t = { 0 }, line = { 0 };
	struct umap stacks = { 0 };
	struct otlp_attrs at = { 0 };
	uint64_t *stack = xreallocarray(NULL, p->samples.n + 1, sizeof(*stack));
	size_t *nattrs = xreallocarray(NULL, p->samples.n + 1, sizeof(*nattrs));
	/* per mapping, its build id's attribute (0: none) */
	uint64_t *map_attr = xcalloc(p->nmap + 1, sizeof(*map_attr));
	uint64_t *attrs = NULL, kernel_attr, native_attr;
	size_t nattr_refs = 0, cap_refs = 0;
	int made;
	/* the dictionary's own numbering (below) */
	struct umap mdedup = { 0 }, ldedup = { 0 }, sdedup = { 0 };
	uint64_t *mnew, *lnew, *anew, *snew;
	size_t *mold, *lold, nmaps = 0, nlocs = 0;

	intern_names(p);

	/* the dictionary's stacks and sample attributes, their index 0 the empty one */
	for (size_t i = 0; i < p->samples.n; i++) {
		const struct ukey *e = &p->samples.ents[i];
		const uint64_t *w = p->samples.keys + e->off;
		size_t nl = (size_t)w[0], first = 1 + 2 * nl;
		struct ukey *se;

		se = umap_get(&stacks, w + first, e->len - first, stacks.n + 1, &made);
		stack[i] = se->val;
		nattrs[i] = 0;
		for (size_t j = 0; j < nl; j++) {
			const char *k = p->str[w[1 + 2 * j]];
			uint64_t kv[3] = { 0, w[2 + 2 * j], 0 };
			int dup = 0;

			for (size_t q = 0; q < sizeof(otel_keys) / sizeof(otel_keys[0]); q++)
				if (!strcmp(k, otel_keys[q].label)) {
					k = otel_keys[q].key;
					kv[2] = (uint64_t)otel_keys[q].num;
					break;
				}
			kv[0] = str_index(p, k);
			/* a key once per sample (comm and thread both say thread.name) */
			for (size_t q = nattr_refs - nattrs[i]; q < nattr_refs; q++)
				dup |= at.kv[attrs[q] - 1][0] == kv[0];
			if (dup)
				continue;
			GROW(attrs, nattr_refs, cap_refs);
			attrs[nattr_refs++] = attr_id(&at, kv);
			nattrs[i]++;
		}
	}
	/* the attributes of mappings and locations, after the samples' */
	{
		uint64_t kv[3] = { str_index(p, "profile.frame.type"), str_index(p, "kernel"), 0 };

		kernel_attr = attr_id(&at, kv);
		kv[1] = str_index(p, "native");
		native_attr = attr_id(&at, kv);
	}
	for (size_t i = 0; i < p->nmap; i++) {
		const unsigned char *id;
		size_t n = dso_build_id(p->map[i].dso, &id);
		char hexid[2 * 64 + 1];
		uint64_t kv[3] = { str_index(p, "process.executable.build_id.gnu"), 0, 0 };

		if (!n || n > 64)
			continue;
		buildid_hex(hexid, id, n);
		kv[1] = str_index(p, hexid);
		map_attr[i] = attr_id(&at, kv);
	}

	/*
	 * The dictionary holds what something refers to, each once, as the
	 * proto asks: Mappings that Locations name (files mapped by several
	 * dsos alike are one), the Locations and Stacks those make, the
	 * attributes in use, and the strings of all those. Each table gets
	 * its new indices here (*new[old]), index 0 the zero value.
	 */
	mnew = xcalloc(p->nmap + 1, sizeof(*mnew));
	mold = xreallocarray(NULL, p->nmap + 1, sizeof(*mold));
	lnew = xcalloc(p->nloc + 1, sizeof(*lnew));
	lold = xreallocarray(NULL, p->nloc + 1, sizeof(*lold));
	for (size_t i = 0; i < p->nloc; i++) {
		const struct ploc *l = &p->loc[i];
		uint64_t key[2 + 2 * 64];
		size_t k = 0;
		struct ukey *e;

		if (l->mapping && !mnew[l->mapping]) {
			const struct pmap *mp = &p->map[l->mapping - 1];
			uint64_t mk[5] = { mp->start, mp->limit, mp->offset,
					   str_index(p, dso_path(mp->dso)), map_attr[l->mapping - 1] };

			e = umap_get(&mdedup, mk, 5, nmaps + 1, &made);
			if (made)
				mold[++nmaps] = l->mapping - 1;
			mnew[l->mapping] = e->val;
		}
		key[k++] = l->mapping ? mnew[l->mapping] : 0;
		key[k++] = l->addr << 1 | (uint64_t)l->kernel;
		for (size_t j = 0; j < l->n && j < 64; j++) {
			key[k++] = p->line[l->first + j].func;
			key[k++] = p->line[l->first + j].line;
		}
		e = umap_get(&ldedup, key, k, nlocs + 1, &made);
		if (made)
			lold[++nlocs] = i;
		lnew[i + 1] = e->val;
	}
	/* the stacks, their locations renumbered; samples whose stacks became one share it */
	{
		uint64_t *snum = xreallocarray(NULL, stacks.n + 1, sizeof(*snum));
		uint64_t *w = NULL;
		size_t wcap = 0;

		for (size_t i = 0; i < stacks.n; i++) {
			const struct ukey *e = &stacks.ents[i];
			struct ukey *ne;

			if (e->len > wcap) {
				wcap = e->len;
				w = xreallocarray(w, wcap, sizeof(*w));
			}
			for (size_t j = 0; j < e->len; j++)
				w[j] = lnew[stacks.keys[e->off + j]];
			ne = umap_get(&sdedup, w, e->len, sdedup.n + 1, &made);
			snum[e->val] = ne->val;
		}
		for (size_t i = 0; i < p->samples.n; i++)
			stack[i] = snum[stack[i]];
		free(snum);
		free(w);
	}
	/* the attributes in use */
	anew = xcalloc(at.n + 1, sizeof(*anew));
	for (size_t i = 0; i < nattr_refs; i++)
		anew[attrs[i]] = 1;
	for (size_t k = 1; k <= nlocs; k++)
		anew[p->loc[lold[k]].kernel ? kernel_attr : native_attr] = 1;
	for (size_t k = 1; k <= nmaps; k++)
		if (map_attr[mold[k]])
			anew[map_attr[mold[k]]] = 1;
	for (size_t i = 1, n = 0; i <= at.n; i++)
		if (anew[i])
			anew[i] = ++n;
	/* the strings in use: the value types', the mappings', functions' and attribute keys' */
	snew = xcalloc(p->nstr + 1, sizeof(*snew));
	snew[str_index(p, "samples")] = snew[str_index(p, "count")] = 1;
	snew[str_index(p, p->vtype)] = 1;
	snew[str_index(p, p->time_unit ? "nanoseconds" : "count")] = 1;
	for (size_t k = 1; k <= nmaps; k++)
		snew[str_index(p, dso_path(p->map[mold[k]].dso))] = 1;
	for (size_t i = 0; i < p->nfunc; i++)
		snew[p->func[i].name] = snew[p->func[i].file] = 1;
	/* an attribute's value is written whole (any_value()): only its key is an index */
	for (size_t i = 1; i <= at.n; i++)
		if (anew[i])
			snew[at.kv[i - 1][0]] = 1;
	snew[0] = 0;
	for (size_t i = 1, n = 0; i < p->nstr; i++)
		if (snew[i])
			snew[i] = ++n;

	/* ExportProfilesServiceRequest: one ResourceProfiles, one ScopeProfiles */
	for (int i = 0; i < nresource; i++)
		key_value(&m, 1, resource[2 * i], resource[2 * i + 1]);
	pb_bytes(&rp, 1, m.b, m.n);	/* Resource, empty or not */
	m.n = 0;
	pb_bytes(&t, 1, "prof", 4);
	pb_bytes(&t, 2, PACKAGE_VERSION, strlen(PACKAGE_VERSION));
	pb_msg(&sp, 1, &t);		/* InstrumentationScope */
	for (int which = 0; which < 2; which++) {
		otlp_profile(p, win, which, stack, attrs, nattrs, snew, anew, &prof);
		pb_msg(&sp, 2, &prof);
	}
	pb_msg(&rp, 2, &sp);
	pb_msg(&req, 1, &rp);

	/* ProfilesDictionary, each table's index 0 its zero value */
	pb_bytes(&dict, 1, NULL, 0);
	for (size_t k = 1; k <= nmaps; k++) {
		const struct pmap *mp = &p->map[mold[k]];

		pb_u64(&m, 1, mp->start);
		pb_u64(&m, 2, mp->limit);
		pb_u64(&m, 3, mp->offset);
		pb_u64(&m, 4, snew[str_index(p, dso_path(mp->dso))]);
		if (map_attr[mold[k]]) {
			uint64_t a = anew[map_attr[mold[k]]];

			pb_packed(&m, 5, &a, 1, &t);
		}
		pb_bytes(&dict, 1, m.b, m.n);
		m.n = 0;
	}
	pb_bytes(&dict, 2, NULL, 0);
	for (size_t k = 1; k <= nlocs; k++) {
		const struct ploc *l = &p->loc[lold[k]];
		uint64_t kind = anew[l->kernel ? kernel_attr : native_attr];

		pb_u64(&m, 1, l->mapping ? mnew[l->mapping] : 0);
		pb_u64(&m, 2, l->addr);
		for (size_t j = 0; j < l->n; j++) {
			pb_u64(&line, 1, p->line[l->first + j].func);
			pb_u64(&line, 2, p->line[l->first + j].line);
			pb_bytes(&m, 3, line.b, line.n);
			line.n = 0;
		}
		pb_packed(&m, 4, &kind, 1, &t);
		pb_bytes(&dict, 2, m.b, m.n);
		m.n = 0;
	}
	pb_bytes(&dict, 3, NULL, 0);
	for (size_t i = 0; i < p->nfunc; i++) {
		pb_u64(&m, 1, snew[p->func[i].name]);
		pb_u64(&m, 2, snew[p->func[i].name]);
		pb_u64(&m, 3, snew[p->func[i].file]);
		pb_bytes(&dict, 3, m.b, m.n);
		m.n = 0;
	}
	{
		/* link_table[0]: zero ids of their lengths, as the proto asks */
		static const unsigned char zero[16];

		pb_bytes(&m, 1, zero, 16);
		pb_bytes(&m, 2, zero, 8);
		pb_msg(&dict, 4, &m);
	}
	for (size_t i = 0; i < p->nstr; i++)
		if (!i || snew[i])
			pb_bytes(&dict, 5, p->str[i], strlen(p->str[i]));
	pb_bytes(&dict, 6, NULL, 0);
	for (size_t i = 0; i < at.n; i++) {
		if (!anew[i + 1])
			continue;
		pb_u64(&m, 1, snew[at.kv[i][0]]);
		any_value(&m, 2, p->str[at.kv[i][1]], (int)at.kv[i][2]);
		pb_bytes(&dict, 6, m.b, m.n);
		m.n = 0;
	}
	pb_bytes(&dict, 7, NULL, 0);
	for (size_t i = 0; i < sdedup.n; i++) {
		const struct ukey *e = &sdedup.ents[i];

		pb_packed(&m, 1, sdedup.keys + e->off, e->len, &t);
		pb_bytes(&dict, 7, m.b, m.n);
		m.n = 0;
	}
	pb_msg(&req, 2, &dict);

	umap_release(&mdedup);
	umap_release(&ldedup);
	umap_release(&sdedup);
	free(mnew);
	free(mold);
	free(lnew);
	free(lold);
	free(anew);
	free(snew);
	umap_release(&stacks);
	umap_release(&at.map);
	free(stack);
	free(nattrs);
	free(attrs);
	free(at.kv);
	free(map_attr);
	free(rp.b);
	free(sp.b);
	free(prof.b);
	free(dict.b);
	free(m.b);
	free(t.b);
	free(line.b);
	return pb_gzip(&req, data, len);
}

/* The first event's profile to out: pprof, or OTLP with otlp. */
static int write_encoded(const struct profile *p, const struct format_view *v, FILE *out, int otlp)
{
	const struct profile_event *e = format_one_event(p, v, otlp ? "OTLP profile" : "pprof profile");
	struct pprof_window win = { .duration_ns = p->last_time - p->first_time };
	unsigned char *data;
	size_t len;
	int ret;

	if (!e)
		return 0;
	ret = otlp ? pprof_encode_otlp(e->collected, &win, NULL, 0, &data, &len)
		   : pprof_encode(e->collected, &win, &data, &len);
	if (ret)
		return ret;
	if (fwrite(data, 1, len, out) != len)
		ret = -EIO;
	free(data);
	return ret ? ret : ferror(out) ? -EIO : 0;
}

/* --- the format ------------------------------------------------------------- */

static void *collect_begin(void *ctx, const struct evdesc *ev)
{
	/* time: "cpu" for the clocks; off-cpu, preempted and wall (--wall) by their names */
	int clock = evkind_clock(ev->name);

	(void)ctx;
	return pprof_new(ev->name, clock ? 1 : format_time_event(ev) ? 2 : 0);
}

static void collect_add(void *state, const struct rsample *s)
{
	const char *label[2] = { "comm", s->comm };

	pprof_add(state, s, label, 1);
}

static void collect_free(void *state)
{
	pprof_free(state);
}

static const struct profile_collector collector = {
	.begin = collect_begin,
	.add = collect_add,
	.free = collect_free,
};

static int write_pprof(const struct profile *p, const struct format_view *v, FILE *out)
{
	return write_encoded(p, v, out, 0);
}

const struct format format_pprof = {
	.name = "pprof",
	.help = "the first event as a gzipped profile.proto (go tool pprof)",
	/* its functions have files, its lines numbers */
	.needs = FORMAT_SRCLINE | FORMAT_BINARY | FORMAT_CHAINS,
	.collector = &collector,
	.write = write_pprof,
};

static int write_otlp(const struct profile *p, const struct format_view *v, FILE *out)
{
	return write_encoded(p, v, out, 1);
}

const struct format format_otlp = {
	.name = "otlp",
	.help = "the first event as gzipped OpenTelemetry profiles (OTLP ProfilesData)",
	.needs = FORMAT_SRCLINE | FORMAT_BINARY | FORMAT_CHAINS,
	.collector = &collector,
	.write = write_otlp,
};
