// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's processes and threads, by id, and each process's maps
 * (a persistent treap, maps.h), as MMAP, COMM, FORK and EXIT records
 * change them. On the delivery thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "decode.h"
#include "file.h"
#include "htab.h"
#include "jit.h"
#include "jitdump.h"
#include "maps.h"
#include "pdata.h"
#include "session.h"
#include "strpool.h"
#include "symbols.h"
#include "tpfmt.h"
#include "unwind.h"
#include "xalloc.h"

#include "session-int.h"

/* Insert or replace. */
static void itab_put(struct itab *t, int key, void *val)
{
	struct htab_probe p;
	size_t n = htab_count(&t->t);
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key) {
			t->vals[i] = val;
			return;
		}
	if (n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->keys = xreallocarray(t->keys, t->cap, sizeof(*t->keys));
		t->vals = xreallocarray(t->vals, t->cap, sizeof(*t->vals));
	}
	t->keys[n] = key;
	t->vals[n] = val;
	htab_put(&t->t, &p, (uint32_t)n);
}

void ss_free_itab(struct itab *t, int procs)
{
	for (size_t i = 0; i < htab_count(&t->t); i++) {
		if (!t->vals[i])
			continue;
		if (procs) {
			struct proc *p = t->vals[i];

			maps_release(&p->maps);
			resolver_pjit_reset(p->jit);
			free(p->jit);
		} else {
			free(((struct thread *)t->vals[i])->cs);
		}
		free(t->vals[i]);
	}
	free(t->keys);
	free(t->vals);
	htab_release(&t->t);
}

/* --- threads and maps ------------------------------------------------- */

static int mark_map(void *arg, const struct map *mp)
{
	(void)arg;
	dso_mark_live(mp->dso);
	return 0;
}

/*
 * Let go of the files no live process maps, nor a parked sample names,
 * and no new address has needed for idle_ns (session_trim_symbols()),
 * every few seconds. With session_forget_exited() only: a report keeps
 * every process, and every file is mapped.
 */
#define RELEASE_EVERY_NS (5 * 1000000000ULL)

void ss_release_files(struct session *s, uint64_t now)
{
	if (!s->forget || now - s->release_last < RELEASE_EVERY_NS)
		return;
	s->release_last = now;
	symbols_mark_begin(s->sym);
	for (size_t i = 0; i < htab_count(&s->procs.t); i++) {
		struct proc *p = s->procs.vals[i];

		if (!p)
			continue;
		maps_each(&p->maps, mark_map, NULL);
		dso_mark_live(p->exe);
		if (p->jit)
			dso_mark_live(p->jit->dso);
	}
	for (size_t i = 0; i < s->npraw; i++)
		dso_mark_live(s->praw[i].dso);
	for (size_t i = 0; i < s->npk; i++)
		dso_mark_live((struct dso *)s->pk[i].exe);
	ss_sums_mark_live(s);
	if (symbols_release(s->sym, s->trim_idle, resolver_forget_file, s->res))
		resolver_forget_memo(s->res);
}

/* An EXIT of tid (of process pid): the thread goes, and the process with its first thread. */
void ss_forget(struct session *s, int pid, int tid)
{
	struct thread *t = ss_itab_get(&s->threads, tid);
	struct proc *p;

	if (t && t->pid == pid) {
		ss_cs_drop(s, t);
		free(t);
		itab_put(&s->threads, tid, NULL);
		s->last_thread = NULL;
		memset(s->tmemo, 0, sizeof(s->tmemo));
	}
	if (pid != tid || !(p = ss_itab_get(&s->procs, pid)))
		return;
	maps_release(&p->maps);
	resolver_pjit_reset(p->jit);
	free(p->jit);
	free(p);
	itab_put(&s->procs, pid, NULL);
	s->last_proc = NULL;
}

/*
 * How long a thread is kept after its EXIT record (forget mode): samples
 * stamped after it still come (its last moments in the kernel, its last
 * switch out; another CPU's ring read later) and are named as the thread
 * was, not ":TID". In the records' time.
 */
#define FORGET_GRACE_NS (1000000000ULL)

void ss_forget_later(struct session *s, int pid, int tid)
{
	if (!s->now) {		/* no time to wait by */
		ss_forget(s, pid, tid);
		return;
	}
	if (s->pex_head && s->pex_head * 2 >= s->npex) {
		memmove(s->pex, s->pex + s->pex_head, (s->npex - s->pex_head) * sizeof(*s->pex));
		s->npex -= s->pex_head;
		s->pex_head = 0;
	}
	if (s->npex == s->pex_cap) {
		s->pex_cap = s->pex_cap ? 2 * s->pex_cap : 64;
		s->pex = xreallocarray(s->pex, s->pex_cap, sizeof(*s->pex));
	}
	s->pex[s->npex++] = (struct pending_exit){ s->now, pid, tid };
}

/* Forget the threads whose grace is over by the time of the record being delivered. */
void ss_forget_due(struct session *s)
{
	while (s->pex_head < s->npex && s->pex[s->pex_head].time + FORGET_GRACE_NS <= s->now) {
		struct pending_exit *e = &s->pex[s->pex_head++];

		if (e->tid)
			ss_forget(s, e->pid, e->tid);
	}
}

/*
 * A FORK of tid in process pid: a waiting EXIT of a thread at that tid, or
 * of the first thread of a process at that pid (which would take the
 * process with it), is of one gone; it must not forget the new one.
 */
void ss_forget_cancel(struct session *s, int pid, int tid)
{
	for (size_t i = s->pex_head; i < s->npex; i++) {
		struct pending_exit *e = &s->pex[i];

		if (e->tid == tid || (e->tid == pid && e->pid == pid))
			e->tid = 0;
	}
}

struct proc *ss_get_proc(struct session *s, int pid)
{
	struct proc *p = ss_itab_get(&s->procs, pid);

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		/*
		 * Unique over the session, not per process: a memo of a freed
		 * process's maps (session_forget_exited()) must not fit one made
		 * at the same address since.
		 */
		p->gen = ++s->map_gen;
		p->jit = xcalloc(1, sizeof(*p->jit));
		maps_init(&p->maps);
		itab_put(&s->procs, pid, p);
	}
	return p;
}

struct thread *ss_get_thread(struct session *s, int pid, int tid)
{
	struct thread *t = ss_itab_get(&s->threads, tid);

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
		t->comm = strpool_intern(s->pool, name);
		itab_put(&s->threads, tid, t);
	}
	return t;
}

/* Put m in p's maps, cutting away whatever it overlaps: the newer map wins. */
static void insert_map(struct session *s, struct proc *p, const struct map *m)
{
	maps_insert(&p->maps, m);
	p->gen = ++s->map_gen;
}

void ss_do_mmap(struct session *s, const struct kevent *k)
{
	const struct mmap_event *me = &k->mmap;
	struct map m;
	char name[4096];
	size_t namelen;

	namelen = me->name_len < sizeof(name) ? me->name_len : sizeof(name) - 1;
	memcpy(name, me->name, namelen);
	name[namelen] = '\0';
	if (me->len == 0 || me->start + me->len < me->start)
		return;		/* empty or wrapping: nothing to map */
	if (k->misc & PERF_RECORD_MISC_MMAP_DATA)
		return;		/* data (dwarf mode records them for perf): no samples there */
	m.start = me->start;
	m.end = me->start + me->len;
	m.pgoff = me->pgoff;
	if (!strncmp(name, "[kernel.kallsyms]", 17)) {
		/* The kernel resolves from kallsyms, checked against where it was. */
		symbols_kernel_map(s->sym, name + 17, me->pgoff, me->start, me->len);
		return;
	}
	if ((int32_t)me->pid == -1) {
		/* kernel modules: named from kallsyms, placed by these for another boot */
		symbols_kernel_module_map(s->sym, name, me->start, me->len);
		return;
	}
	if (s->forget) {
		/* a live host (prof agent): the file mapped, though its path moved on */
		struct live_map lm = { (int)me->pid, me->start, me->start + me->len,
				       me->maj, me->min, me->ino };

		m.dso = symbols_dso_live(s->sym, name, me->build_id, me->build_id_len, &lm);
	} else if (me->build_id_len) {
		m.dso = symbols_dso(s->sym, name, me->build_id, me->build_id_len);
	} else {
		/* perf records build ids in its table, not its MMAP2s */
		size_t idlen = 0;
		const unsigned char *id = ss_build_id_of(s, name, namelen, &idlen);

		m.dso = symbols_dso(s->sym, name, id, idlen);
	}
	{
		struct proc *pr = ss_get_proc(s, (int)me->pid);

		/* exec maps the program first, then its interpreter and libraries */
		if (!pr->exe && name[0] == '/' && !jitdump_path(name))
			pr->exe = m.dso;
		insert_map(s, pr, &m);
	}
	if (jitdump_path(name)) {
		/* a JIT runtime's jitdump, mapped so that its path is known */
		resolver_jitdump_mapped(ss_get_proc(s, (int)me->pid)->jit, name);
	}
}

void ss_do_comm(struct session *s, const struct kevent *k)
{
	struct thread *t = ss_get_thread(s, (int)k->pid, (int)k->tid);

	t->pid = (int)k->pid;
	t->comm = strpool_intern_text(s->pool, k->comm, k->comm_len);
	/* exec replaces the image: its new mappings follow this record */
	if (k->misc & PERF_RECORD_MISC_COMM_EXEC) {
		struct proc *pr = ss_get_proc(s, (int)k->pid);

		maps_release(&pr->maps);
		pr->gen = ++s->map_gen;
		pr->start = s->now;
		pr->exe = NULL;
		resolver_pjit_reset(pr->jit);
	}
}

void ss_do_fork(struct session *s, const struct kevent *k)
{
	if (s->npex > s->pex_head)
		ss_forget_cancel(s, (int)k->pid, (int)k->tid);
	struct thread *parent = ss_itab_get(&s->threads, (int)k->ptid), *t;

	struct thread *old = ss_itab_get(&s->threads, (int)k->tid);

	t = xcalloc(1, sizeof(*t));	/* a reused tid is a new thread */
	t->pid = (int)k->pid;
	t->tid = (int)k->tid;
	t->comm = parent ? parent->comm : ss_get_thread(s, (int)k->ppid, (int)k->ptid)->comm;
	/*
	 * A synthesized FORK (time 0) after the thread's synthesized COMM, as
	 * prof before 0.2 wrote them for -p and -t: the thread keeps its name.
	 */
	if (old && !k->time && old->pid == (int)k->pid && old->comm && old->comm[0] != ':')
		t->comm = old->comm;
	s->last_thread = NULL;	/* it may be the one freed */
	memset(s->tmemo, 0, sizeof(s->tmemo));
	/* looked up again: ss_get_thread() above may have made the one at tid */
	old = ss_itab_get(&s->threads, t->tid);
	if (old)
		ss_set_on_cpu(s, old, 0);
	if (old) {
		/* the new thread keeps an off-CPU interval begun before its FORK was seen */
		t->out_time = old->out_time;
		t->out_state = old->out_state;
		t->out_cpu = old->out_cpu;
		ss_cs_drop(s, old);
	}
	free(old);
	itab_put(&s->threads, t->tid, t);
	if (k->pid != k->ppid) {	/* a new process: it starts with its parent's maps */
		struct proc *pp = ss_itab_get(&s->procs, (int)k->ppid);
		struct proc *np = ss_get_proc(s, (int)k->pid);

		if (pp) {
			maps_copy(&np->maps, &pp->maps);
			np->exe = pp->exe;
		} else {
			maps_release(&np->maps);
			np->exe = NULL;
		}
		np->gen = ++s->map_gen;
		np->start = k->time;
		resolver_pjit_reset(np->jit);
	}
}
