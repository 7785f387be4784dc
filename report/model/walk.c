// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk stage (walk.h): a sample's addresses, and their frames.
 */
#include "config.h"

#include <stdlib.h>

#include "machine.h"
#include "resolve.h"
#include "unwind.h"
#include "walk.h"
#include "xalloc.h"

struct walk {
	struct resolver *res;
	int leaf_only;
	/* the sample being walked (walk_start()) */
	const struct proc *pr;
	const struct evdesc *e;
	const struct sample *smp;
	int kernel, mended;
	uint64_t upcs[MAX_FRAMES];
	unsigned char upcs_fl[MAX_FRAMES];	/* how upcs[i] was found: UNWIND_* */
	int nupcs;
	struct unwind_stop ustop;	/* why its unwinding stopped */
	struct walk_marks marks;
	/* walk_frames(): the frames, their process, whether to wait for files */
	struct rframe frames[MAX_FRAMES];
	int n, nowait;
};

struct walk *walk_new(struct resolver *res)
{
	struct walk *w = xcalloc(1, sizeof(*w));

	w->res = res;
	return w;
}

void walk_free(struct walk *w)
{
	free(w);
}

void walk_leaf_only(struct walk *w, int on)
{
	w->leaf_only = on;
}

int walk_is_leaf_only(const struct walk *w)
{
	return w->leaf_only;
}

const struct walk_marks *walk_marks(const struct walk *w)
{
	return &w->marks;
}

void walk_start(struct walk *w, const struct proc *pr, const struct evdesc *e,
		const struct sample *smp, int kernel, int mended)
{
	w->pr = pr;
	w->e = e;
	w->smp = smp;
	w->kernel = kernel;
	w->mended = mended;
	w->nupcs = w->leaf_only ? 0 : resolver_unwind(w->res, pr, e, smp, w->upcs, w->upcs_fl,
						      MAX_FRAMES, &w->ustop);
}

/* Whether user address a of pr can be code: in a mapping of it, or JIT code its runtime named. */
static int code_address(struct walk *w, const struct proc *pr, uint64_t a)
{
	struct rawf r;

	if (maps_find(&pr->maps, a))
		return 1;
	/* JIT code runs in anonymous mappings, which MMAP records name; or a runtime's map names it */
	resolver_locate(w->res, pr, a, 0, 1, &r);
	return r.jit != NULL;
}

int walk_each(struct walk *w, walk_fn fn, void *arg)
{
	const struct sample *smp = w->smp;
	const struct proc *pr = w->pr;
	struct walk_marks *mk = &w->marks;
	int n = 0, got = 0;
	/* the chain's return addresses are checked against the process's maps, where it has some */
	int check = pr && pr->maps.nr;

	mk->repaired = 0;
	mk->put_back = 0;
	mk->cut = 0;
	if (smp->nr_chain && !w->leaf_only) {
		int ctx_kernel = w->kernel, first = 1, first_user = 0, user_n = 0;

		for (uint64_t i = 0; i < smp->nr_chain && got < MAX_FRAMES; i++) {
			uint64_t a = smp->chain[i];

			if (a >= PERF_CONTEXT_MAX) {
				ctx_kernel = a == PERF_CONTEXT_KERNEL || a == PERF_CONTEXT_GUEST_KERNEL;
				first_user = a == PERF_CONTEXT_USER;
				continue;
			}
			/*
			 * A return address in the first 64 KiB is where the kernel's
			 * walk of frame pointers ran off the stack (an outermost
			 * frame's 0, a frameless function's data: curl's 0x1000),
			 * never code: Linux maps nothing below vm.mmap_min_addr, 65536
			 * by default on x86 (32768 on arm64), and no program is linked
			 * there.
			 */
			if (!ctx_kernel && !first && a < 0x10000)
				continue;
			/*
			 * A return address in no mapping of the process is where the
			 * kernel's walk of frame pointers went through a function
			 * built without them (lua -O2, xz): the saved rbp it followed
			 * was data, and everything from here on is garbage
			 * (0x64904f6a09002404 is not even a user address). The chain
			 * ends here; the sample says so (rsample.cut). The first user
			 * address is the interrupted pc: no return address, kept.
			 */
			if (!ctx_kernel && user_n++ && check && !code_address(w, pr, a)) {
				mk->cut = 1;
				break;
			}
			n = fn(arg, a, ctx_kernel, !first, 0);
			if (n < 0)
				return -1;
			got = n;
			first = 0;
			if (first_user) {
				/* frameless functions' callers, which the chain skips: from the stack */
				uint64_t ras[8], next = i + 1 < smp->nr_chain ? smp->chain[i + 1] : 0;
				int k = resolver_leaf_returns(w->res, pr, w->e, smp, a, ras, 8);

				first_user = 0;
				for (int j = 0; j < k && ras[j] != next; j++) {
					n = fn(arg, ras[j], 0, 1, 0);
					if (n < 0)
						return -1;
					got = n;
					mk->put_back = 1;
				}
			}
		}
		/* here, or by the recorder: then the callers are in the chain */
		mk->repaired = mk->put_back || (w->mended && got > 1);
	}
	mk->unwind_end = w->nupcs ? w->ustop.end : 0;
	mk->unwind_at = -1;
	if (w->nupcs && !w->leaf_only) {
		for (int i = 0; i < w->nupcs; i++) {
			if (i == w->ustop.at)
				mk->unwind_at = got;
			/* the interrupted pcs are no return addresses; the rest are */
			n = fn(arg, w->upcs[i], 0, !(w->upcs_fl[i] & UNWIND_EXACT),
			       (w->upcs_fl[i] & UNWIND_FP) != 0);
			if (n < 0)
				return -1;
			got = n;
		}
	}
	if (got == 0)
		n = fn(arg, smp->ip, w->kernel, 0, 0);
	return n;
}

static int frame_one(void *arg, uint64_t a, int kernel, int caller, int by_fp)
{
	struct walk *w = arg;
	int n = resolver_frames(w->res, w->frames, w->n, w->pr, a, kernel, caller, w->nowait);

	for (int i = w->n; by_fp && i < n; i++)
		w->frames[i].by_fp = 1;
	w->n = n;
	return n;
}

int walk_frames(struct walk *w, int nowait, const struct rframe **frames)
{
	w->n = 0;
	w->nowait = nowait;
	if (walk_each(w, frame_one, w) < 0)
		return -1;
	/* the frame to blame, as a frame's index */
	if (w->marks.unwind_at >= w->n)
		w->marks.unwind_at = -1;
	*frames = w->frames;
	return w->n;
}
