// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine stage (machine.h): processes, threads and maps as the
 * records change them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "itab.h"
#include "jitdump.h"
#include "machine.h"
#include "pdata.h"
#include "resolve.h"
#include "strpool.h"
#include "symbols.h"
#include "u64map.h"
#include "vdso.h"
#include "xalloc.h"

/* Threads looked up by tid & (TMEMO - 1): samples of a few threads alternate. */
#define TMEMO 16

/*
 * How long a thread is kept after its EXIT record (forget mode): samples
 * stamped after it still come (its last moments in the kernel, its last
 * switch out; another CPU's ring read later) and are named as the thread
 * was, not ":TID". In the records' time.
 */
#define FORGET_GRACE_NS (1000000000ULL)

/* A file's build id from perf's build-id table (HEADER_BUILD_ID), by path. */
struct bident {
	const char *path;	/* malloc'd */
	unsigned char id[20];
	size_t len;
};

struct machine {
	struct symbols *sym;
	struct resolver *res;
	struct strpool *pool;	/* the threads' names */
	struct itab threads, procs;
	/* the last sample's process and thread: hot loops sample one of each */
	struct proc *last_proc;
	struct thread *last_thread;
	struct thread *tmemo[TMEMO];
	unsigned map_gen;	/* the last struct proc gen handed out */
	int forget;		/* machine_forget_exited() */
	int data;		/* machine_data_maps() */
	/* the cgroups' paths by id (CGROUP records): the index of each in cgname */
	struct u64map cgroups;
	const char **cgname;
	size_t ncg, cg_cap;
	machine_forget_fn forget_fn;
	void *forget_ctx;
	/* EXITs of forget mode waiting out FORGET_GRACE_NS, oldest first from pex_head */
	struct pending_exit {
		uint64_t time;
		int pid, tid;	/* tid 0: cancelled, the pid and tid are another's now */
	} *pex;
	size_t npex, pex_head, pex_cap;
	/* perf's build-id table, for maps whose MMAP2 carries none */
	struct bident *bids;
	size_t nbids, bids_cap;
	struct htab bidtab;
};

void machine_data_maps(struct machine *m, int on)
{
	m->data = on;
}

struct machine *machine_new(struct symbols *sym, struct resolver *res)
{
	struct machine *m = xcalloc(1, sizeof(*m));

	m->sym = sym;
	m->res = res;
	m->pool = strpool_new();
	u64map_init(&m->cgroups);
	return m;
}

void machine_cgroup(struct machine *m, uint64_t id, const char *path, size_t len)
{
	const char *name = strpool_intern_text(m->pool, path, len);
	uint32_t i;

	if (u64map_get(&m->cgroups, id, &i)) {
		m->cgname[i] = name;	/* an id used again: the newer path */
		return;
	}
	m->cgname = xgrow(m->cgname, &m->cg_cap, m->ncg + 1, sizeof(*m->cgname));
	m->cgname[m->ncg] = name;
	u64map_add(&m->cgroups, id, (uint32_t)m->ncg++);
}

const char *machine_cgroup_name(const struct machine *m, uint64_t id)
{
	uint32_t i;

	return u64map_get(&m->cgroups, id, &i) ? m->cgname[i] : NULL;
}

static void free_proc(void *v)
{
	struct proc *p = v;

	maps_release(&p->maps);
	maps_release(&p->dmaps);
	resolver_pjit_reset(p->jit);
	free(p->jit);
	free(p);
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nbids; i++)
		free((char *)m->bids[i].path);
	free(m->bids);
	htab_release(&m->bidtab);
	free(m->pex);
	itab_release(&m->threads, free);
	itab_release(&m->procs, free_proc);
	u64map_release(&m->cgroups);
	free(m->cgname);
	strpool_free(m->pool);
	free(m);
}

void machine_forget_exited(struct machine *m, int on, machine_forget_fn fn, void *ctx)
{
	m->forget = on;
	m->forget_fn = fn;
	m->forget_ctx = ctx;
}

const char *machine_intern(struct machine *m, const char *str)
{
	return strpool_intern(m->pool, str);
}

static int mark_map(void *arg, const struct map *mp)
{
	(void)arg;
	dso_mark_live(mp->dso);
	return 0;
}

void machine_mark_live(struct machine *m)
{
	for (size_t i = 0; i < itab_count(&m->procs); i++) {
		struct proc *p = m->procs.vals[i];

		if (!p)
			continue;
		maps_each(&p->maps, mark_map, NULL);
		dso_mark_live(p->exe);
		if (p->jit)
			dso_mark_live(p->jit->dso);
	}
}

/* A thread's memos of lookups let go of it. */
static void forget_memos(struct machine *m)
{
	m->last_thread = NULL;
	memset(m->tmemo, 0, sizeof(m->tmemo));
}

/* An EXIT of tid (of process pid): the thread goes, and the process with its first thread. */
static void forget(struct machine *m, int pid, int tid)
{
	struct thread *t = itab_get(&m->threads, tid);
	struct proc *p;

	if (t && t->pid == pid) {
		if (m->forget_fn)
			m->forget_fn(m->forget_ctx, pid, tid);
		free(t);
		itab_put(&m->threads, tid, NULL);
		forget_memos(m);
	}
	if (pid != tid || !(p = itab_get(&m->procs, pid)))
		return;
	free_proc(p);
	itab_put(&m->procs, pid, NULL);
	m->last_proc = NULL;
}

void machine_exit(struct machine *m, int pid, int tid, uint64_t now)
{
	if (!m->forget)
		return;
	if (!now) {		/* no time to wait by */
		forget(m, pid, tid);
		return;
	}
	if (m->pex_head && m->pex_head * 2 >= m->npex) {
		memmove(m->pex, m->pex + m->pex_head, (m->npex - m->pex_head) * sizeof(*m->pex));
		m->npex -= m->pex_head;
		m->pex_head = 0;
	}
	if (m->npex == m->pex_cap) {
		m->pex_cap = m->pex_cap ? 2 * m->pex_cap : 64;
		m->pex = xreallocarray(m->pex, m->pex_cap, sizeof(*m->pex));
	}
	m->pex[m->npex++] = (struct pending_exit){ now, pid, tid };
}

void machine_due(struct machine *m, uint64_t now)
{
	while (m->pex_head < m->npex && m->pex[m->pex_head].time + FORGET_GRACE_NS <= now) {
		struct pending_exit *e = &m->pex[m->pex_head++];

		if (e->tid)
			forget(m, e->pid, e->tid);
	}
}

/*
 * A FORK of tid in process pid: a waiting EXIT of a thread at that tid, or
 * of the first thread of a process at that pid (which would take the
 * process with it), is of one gone; it must not forget the new one.
 */
static void forget_cancel(struct machine *m, int pid, int tid)
{
	for (size_t i = m->pex_head; i < m->npex; i++) {
		struct pending_exit *e = &m->pex[i];

		if (e->tid == tid || (e->tid == pid && e->pid == pid))
			e->tid = 0;
	}
}

/* Process pid, made with no maps when there is none. */
static struct proc *get_proc(struct machine *m, int pid)
{
	struct proc *p = itab_get(&m->procs, pid);

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		/*
		 * Unique over the machine, not per process: a memo of a freed
		 * process's maps (forget mode) must not fit one made at the
		 * same address since.
		 */
		p->gen = ++m->map_gen;
		p->jit = xcalloc(1, sizeof(*p->jit));
		maps_init(&p->maps);
		maps_init(&p->dmaps);
		itab_put(&m->procs, pid, p);
	}
	return p;
}

struct proc *machine_proc(struct machine *m, int pid)
{
	/* Processes live as long as the machine (but forget mode's). */
	if (!m->last_proc || m->last_proc->pid != pid)
		m->last_proc = itab_get(&m->procs, pid);
	return m->last_proc;
}

static struct thread *get_thread(struct machine *m, int pid, int tid)
{
	struct thread *t = itab_get(&m->threads, tid);

	if (!t) {
		char name[32];

		t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		t->pid = pid;
		/* the idle task has no COMM record: perf calls it swapper too */
		if (tid == 0)
			snprintf(name, sizeof(name), "swapper");
		else
			snprintf(name, sizeof(name), ":%d", tid);
		t->comm = strpool_intern(m->pool, name);
		itab_put(&m->threads, tid, t);
	}
	return t;
}

struct thread *machine_thread(struct machine *m, int pid, int tid)
{
	struct thread *t = m->last_thread;

	if (!t || t->tid != tid) {
		struct thread **slot = &m->tmemo[tid & (TMEMO - 1)];

		t = *slot;
		if (!t || t->tid != tid)
			t = *slot = get_thread(m, pid, tid);
		m->last_thread = t;
	}
	return t;
}

void machine_add_build_id(struct machine *m, const char *path, size_t plen,
			  const unsigned char *id, size_t len)
{
	struct htab_probe p;
	uint32_t i;
	char *copy;

	htab_probe(&m->bidtab, htab_hash_bytes(path, plen), &p);
	while (htab_next(&m->bidtab, &p, &i))
		if (!strncmp(m->bids[i].path, path, plen) && !m->bids[i].path[plen])
			return;	/* the first of a path: one file a path in one recording */
	m->bids = xgrow(m->bids, &m->bids_cap, m->nbids + 1, sizeof(*m->bids));
	copy = xmalloc(plen + 1);
	memcpy(copy, path, plen);
	copy[plen] = '\0';
	m->bids[m->nbids].path = copy;
	memcpy(m->bids[m->nbids].id, id, len);
	m->bids[m->nbids].len = len;
	htab_put(&m->bidtab, &p, (uint32_t)m->nbids++);
}

/* The build id perf's table gives the file at path (len bytes): NULL when none. */
static const unsigned char *build_id_of(struct machine *m, const char *path, size_t len,
					size_t *idlen)
{
	struct htab_probe p;
	uint32_t i;

	if (!m->nbids)
		return NULL;
	htab_probe(&m->bidtab, htab_hash_bytes(path, len), &p);
	while (htab_next(&m->bidtab, &p, &i))
		if (!strncmp(m->bids[i].path, path, len) && !m->bids[i].path[len]) {
			*idlen = m->bids[i].len;
			return m->bids[i].id;
		}
	return NULL;
}

void machine_mmap(struct machine *m, const struct kevent *k)
{
	const struct mmap_event *me = &k->mmap;
	struct map mp = { .since = 0 };
	char name[4096];
	size_t namelen;

	namelen = me->name_len < sizeof(name) ? me->name_len : sizeof(name) - 1;
	memcpy(name, me->name, namelen);
	name[namelen] = '\0';
	if (me->len == 0 || me->start + me->len < me->start)
		return;		/* empty or wrapping: nothing to map */
	if ((k->misc & PERF_RECORD_MISC_MMAP_DATA) && !m->data)
		return;		/* data (dwarf mode records them for perf): no samples there */
	mp.start = me->start;
	mp.end = me->start + me->len;
	mp.pgoff = me->pgoff;
	if (!strncmp(name, "[kernel.kallsyms]", 17)) {
		/* The kernel resolves from kallsyms, checked against where it was. */
		symbols_kernel_map(m->sym, name + 17, me->pgoff, me->start, me->len);
		return;
	}
	if ((int32_t)me->pid == -1) {
		/* kernel modules: named from kallsyms, placed by these for another boot */
		symbols_kernel_module_map(m->sym, name, me->start, me->len);
		return;
	}
	if (m->forget) {
		/* a live host (prof agent): the file mapped, though its path moved on */
		struct live_map lm = { (int)me->pid, me->start, me->start + me->len,
				       me->maj, me->min, me->ino, me->ino_gen };
		const struct vdso_image *v;
		const unsigned char *id = me->build_id;
		size_t idlen = me->build_id_len;

		/* a live recorder asks for no build ids: a native vDSO is this kernel's */
		if (!idlen && vdso_is_native(name, namelen, me->start) && (v = vdso_own())) {
			id = v->id;
			idlen = v->id_len;
		}
		mp.dso = symbols_dso_live(m->sym, name, id, idlen, &lm);
	} else if (me->build_id_len) {
		mp.dso = symbols_dso(m->sym, name, me->build_id, me->build_id_len);
	} else {
		/* perf records build ids in its table, not its MMAP2s */
		size_t idlen = 0;
		const unsigned char *id = build_id_of(m, name, namelen, &idlen);

		mp.dso = symbols_dso(m->sym, name, id, idlen);
	}
	{
		struct proc *pr = get_proc(m, (int)me->pid);

		/* machine_data_maps(): every map in the data addresses' set, in order */
		if (m->data)
			maps_insert(&pr->dmaps, &mp);
		if (k->misc & PERF_RECORD_MISC_MMAP_DATA)
			return;		/* no code there: the code's maps stay as they were */
		/* exec maps the program first, then its interpreter and libraries */
		if (!pr->exe && name[0] == '/' && !jitdump_path(name))
			pr->exe = mp.dso;
		/* the newer map wins over whatever it overlaps */
		maps_insert(&pr->maps, &mp);
		pr->gen = ++m->map_gen;
		if (jitdump_path(name))	/* a JIT runtime's jitdump, mapped so that its path is known */
			resolver_jitdump_mapped(pr->jit, name);
	}
}

void machine_comm(struct machine *m, const struct kevent *k, uint64_t now)
{
	struct thread *t = get_thread(m, (int)k->pid, (int)k->tid);

	t->pid = (int)k->pid;
	t->comm = strpool_intern_text(m->pool, k->comm, k->comm_len);
	/* exec replaces the image: its new mappings follow this record */
	if (k->misc & PERF_RECORD_MISC_COMM_EXEC) {
		struct proc *pr = get_proc(m, (int)k->pid);

		maps_release(&pr->maps);
		maps_release(&pr->dmaps);
		pr->gen = ++m->map_gen;
		pr->start = now;
		pr->exe = NULL;
		resolver_pjit_reset(pr->jit);
	}
}

void machine_namespaces(struct machine *m, const struct kevent *k)
{
	uint64_t di[2];
	char buf[48];

	if (k->nr_ns <= PDATA_NS_CGROUP)
		return;
	memcpy(di, k->ns + 16 * PDATA_NS_CGROUP, 16);
	snprintf(buf, sizeof(buf), "%llu/0x%llx", (unsigned long long)di[0],
		 (unsigned long long)di[1]);
	get_thread(m, (int)k->pid, (int)k->tid)->cgroup_ns = machine_intern(m, buf);
}

void machine_fork(struct machine *m, const struct kevent *k)
{
	struct thread *parent, *old, *t;

	if (m->npex > m->pex_head)
		forget_cancel(m, (int)k->pid, (int)k->tid);
	parent = itab_get(&m->threads, (int)k->ptid);
	old = itab_get(&m->threads, (int)k->tid);
	t = xcalloc(1, sizeof(*t));	/* a reused tid is a new thread */
	t->pid = (int)k->pid;
	t->tid = (int)k->tid;
	t->comm = parent ? parent->comm : get_thread(m, (int)k->ppid, (int)k->ptid)->comm;
	/* its parent's namespaces until its own NAMESPACES record, which the kernel writes next */
	t->cgroup_ns = parent ? parent->cgroup_ns : NULL;
	/*
	 * A synthesized FORK (time 0) after the thread's synthesized COMM, as
	 * prof before 0.2 wrote them for -p and -t: the thread keeps its name.
	 */
	if (old && !k->time && old->pid == (int)k->pid && old->comm && old->comm[0] != ':')
		t->comm = old->comm;
	forget_memos(m);	/* it may be the one freed */
	/* looked up again: get_thread() above may have made the one at tid */
	free(itab_get(&m->threads, t->tid));
	itab_put(&m->threads, t->tid, t);
	if (k->pid != k->ppid) {	/* a new process: it starts with its parent's maps */
		struct proc *pp = itab_get(&m->procs, (int)k->ppid);
		struct proc *np = get_proc(m, (int)k->pid);

		if (pp) {
			maps_copy(&np->maps, &pp->maps);
			maps_copy(&np->dmaps, &pp->dmaps);
			np->exe = pp->exe;
		} else {
			maps_release(&np->maps);
			maps_release(&np->dmaps);
			np->exe = NULL;
		}
		np->gen = ++m->map_gen;
		np->start = k->time;
		resolver_pjit_reset(np->jit);
	}
}
