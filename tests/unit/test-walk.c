// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk stage (report/model/walk.h) alone: a call chain's addresses
 * come out innermost first, kernel then user, the first of each part no
 * caller; context markers are followed; return addresses in the first
 * 64 KiB are skipped; a return address in no mapping of the process cuts
 * the chain there, and says so; a leaf-only walk and a sample without a
 * chain give the sampled address alone; a recorder's mending counts as a
 * repair when callers came of it; frames resolve through the resolver.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "resolve.h"
#include "symbols.h"
#include "tap.h"
#include "walk.h"

/* no /tmp/perf-PID.map can exist for it: above any pid_max */
#define PID 4194305

struct seen {
	int n;
	uint64_t a[32];
	int kernel[32], caller[32];
	int stop_at;
};

static int one(void *arg, uint64_t a, int kernel, int caller, int by_fp)
{
	struct seen *v = arg;

	(void)by_fp;
	if (v->n < 32) {
		v->a[v->n] = a;
		v->kernel[v->n] = kernel;
		v->caller[v->n] = caller;
	}
	v->n++;
	return v->stop_at && v->n == v->stop_at ? -1 : v->n;
}

int main(void)
{
	struct symbols *sym = symbols_new(NULL);
	struct resolver *res = resolver_new(sym);
	struct machine *m = machine_new(sym, res);
	struct walk *w = walk_new(res);
	struct evdesc e;
	struct sample smp;
	struct seen v;
	struct kevent k;
	const struct proc *pr;
	const struct rframe *frames;
	const uint64_t K1 = 0xffffffff81000100ULL, K2 = 0xffffffff81000200ULL;
	const uint64_t U1 = 0x401000, U2 = 0x402000, U3 = 0x403000;
	uint64_t chain[] = { PERF_CONTEXT_KERNEL, K1, K2, PERF_CONTEXT_USER, U1, U2, 0x1000, U3,
			     0x64904f6a09002404ULL, 0x404000 };
	int n;

	memset(&k, 0, sizeof(k));
	k.type = PERF_RECORD_MMAP2;
	k.mmap.pid = k.mmap.tid = PID;
	k.mmap.start = 0x400000;
	k.mmap.len = 0x10000;
	k.mmap.name = "/opt/app/bin/app";
	k.mmap.name_len = strlen(k.mmap.name);
	machine_mmap(m, &k);
	pr = machine_proc(m, PID);
	memset(&e, 0, sizeof(e));
	evdesc_init(&e);
	e.attr.type = PERF_TYPE_SOFTWARE;
	memset(&smp, 0, sizeof(smp));
	smp.pid = smp.tid = PID;
	smp.ip = K1;
	smp.chain = chain;
	smp.nr_chain = sizeof(chain) / sizeof(chain[0]);

	memset(&v, 0, sizeof(v));
	walk_start(w, pr, &e, &smp, 1, 0);
	walk_each(w, one, &v);
	ok(v.n == 5, "kernel 2, user 3 addresses (%d)", v.n);
	ok(v.a[0] == K1 && v.kernel[0] && !v.caller[0], "the kernel's first: the sampled pc");
	ok(v.a[1] == K2 && v.kernel[1] && v.caller[1], "then its caller");
	ok(v.a[2] == U1 && !v.kernel[2] && v.caller[2], "the user part after the marker");
	ok(v.a[3] == U2 && v.a[4] == U3, "0x1000 skipped: no code is below 64 KiB");
	ok(walk_marks(w)->cut == 1, "cut at a return address in no mapping");
	ok(walk_marks(w)->repaired == 0 && walk_marks(w)->unwind_end == 0 &&
	   walk_marks(w)->unwind_at == -1, "nothing repaired or unwound");

	memset(&v, 0, sizeof(v));
	walk_start(w, pr, &e, &smp, 1, 1);
	walk_each(w, one, &v);
	ok(walk_marks(w)->repaired == 1, "the recorder's mending is a repair when callers came");

	memset(&v, 0, sizeof(v));
	v.stop_at = 2;
	ok(walk_each(w, one, &v) == -1 && v.n == 2, "a walk stops at fn's -1");

	walk_leaf_only(w, 1);
	memset(&v, 0, sizeof(v));
	walk_start(w, pr, &e, &smp, 1, 1);
	walk_each(w, one, &v);
	ok(v.n == 1 && v.a[0] == K1 && v.kernel[0], "leaf only: the sampled pc alone");
	ok(walk_marks(w)->repaired == 0, "and no repair");
	walk_leaf_only(w, 0);

	smp.nr_chain = 0;
	smp.ip = U1;
	memset(&v, 0, sizeof(v));
	walk_start(w, pr, &e, &smp, 0, 0);
	walk_each(w, one, &v);
	ok(v.n == 1 && v.a[0] == U1 && !v.kernel[0] && !v.caller[0], "no chain: the ip alone");

	/* no process known: nothing is cut, there are no maps to check against */
	smp.nr_chain = sizeof(chain) / sizeof(chain[0]);
	memset(&v, 0, sizeof(v));
	walk_start(w, NULL, &e, &smp, 1, 0);
	walk_each(w, one, &v);
	ok(v.n == 7 && walk_marks(w)->cut == 0, "without maps the chain is whole (%d)", v.n);

	walk_start(w, pr, &e, &smp, 1, 0);
	n = walk_frames(w, 0, &frames);
	ok(n == 5, "five frames (%d)", n);
	ok(n == 5 && frames[0].kernel && !frames[2].kernel, "kernel frames, then user ones");
	ok(n == 5 && frames[2].dso && !strcmp(dso_path(frames[2].dso), "/opt/app/bin/app") &&
	   frames[2].addr == U1 - 0x400000,
	   "a user frame is placed in its file, at its offset (%#llx)",
	   n == 5 ? (unsigned long long)frames[2].addr : 0ULL);

	walk_free(w);
	machine_free(m);
	resolver_free(res);
	symbols_free(sym);
	return tap_done();
}
