// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine stage (report/model/machine.h) alone: maps placed per
 * process, the newer over the older; a program is the first file mapped;
 * FORK copies the parent's maps and names the child as its parent; exec
 * (COMM with the exec flag) empties them; perf's build-id table names
 * files MMAP2 records do not; threads never seen are ":TID"; forget mode
 * lets a thread go a second after its EXIT, not before, and a FORK that
 * reuses its tid cancels that. The tables of threads and processes
 * (src/itab.h) drop the slots of those gone once they are most of them.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "itab.h"
#include "machine.h"
#include "resolve.h"
#include "symbols.h"
#include "tap.h"

static void mmap_ev(struct machine *m, int pid, uint64_t start, uint64_t len, const char *name)
{
	struct kevent k;

	memset(&k, 0, sizeof(k));
	k.type = PERF_RECORD_MMAP2;
	k.pid = k.tid = (uint32_t)pid;
	k.mmap.pid = k.mmap.tid = (uint32_t)pid;
	k.mmap.start = start;
	k.mmap.len = len;
	k.mmap.name = name;
	k.mmap.name_len = strlen(name);
	machine_mmap(m, &k);
}

static void comm_ev(struct machine *m, int pid, int tid, const char *comm, int exec, uint64_t now)
{
	struct kevent k;

	memset(&k, 0, sizeof(k));
	k.type = PERF_RECORD_COMM;
	k.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	k.pid = (uint32_t)pid;
	k.tid = (uint32_t)tid;
	k.comm = comm;
	k.comm_len = strlen(comm);
	machine_comm(m, &k, now);
}

static void fork_ev(struct machine *m, int pid, int tid, int ppid, int ptid, uint64_t time)
{
	struct kevent k;

	memset(&k, 0, sizeof(k));
	k.type = PERF_RECORD_FORK;
	k.pid = (uint32_t)pid;
	k.tid = (uint32_t)tid;
	k.ppid = (uint32_t)ppid;
	k.ptid = (uint32_t)ptid;
	k.time = time;
	machine_fork(m, &k);
}

static const char *dso_at(struct machine *m, int pid, uint64_t a)
{
	struct proc *p = machine_proc(m, pid);
	const struct map *mp = p ? maps_find(&p->maps, a) : NULL;

	return mp ? dso_path(mp->dso) : "-";
}

static int forgotten[8], nforgot;

static void forgot(void *ctx, int pid, int tid)
{
	(void)ctx;
	(void)pid;
	if (nforgot < 8)
		forgotten[nforgot++] = tid;
}

/*
 * A host's tids come and go: the table holds what lives, not every tid
 * it ever had (a live reader's tables grew by each thread the host ran,
 * up to pid_max, and were walked whole at each release).
 */
static void test_itab(void)
{
	struct itab t = { HTAB_INIT, NULL, NULL, 0, 0 };
	static int v[20000];
	int found = 1, gone = 1, again;
	size_t peak = 0;

	for (int k = 1; k <= 20000; k++) {
		itab_put(&t, k, &v[k - 1]);
		if (k > 10)
			itab_put(&t, k - 10, NULL);	/* ten live at a time */
		if (itab_count(&t) > peak)
			peak = itab_count(&t);
	}
	for (int k = 1; k <= 20000; k++) {
		if (k > 19990)
			found &= itab_get(&t, k) == &v[k - 1];
		else
			gone &= itab_get(&t, k) == NULL;
	}
	itab_put(&t, 5, &v[4]);	/* a tid used again */
	again = itab_get(&t, 5) == &v[4] && itab_get(&t, 20000) == &v[19999];
	ok(found && gone && again && peak <= 2 * ITAB_EMPTY_MIN + 10,
	   "20000 tids, ten at a time: at most %zu slots (%d), the live found (%d), the gone not (%d), "
	   "one used again (%d)", peak, 2 * ITAB_EMPTY_MIN + 10, found, gone, again);
	itab_release(&t, NULL);
}

int main(void)
{
	struct symbols *sym = symbols_new(NULL);
	struct resolver *res = resolver_new(sym);
	struct machine *m = machine_new(sym, res);
	static const unsigned char id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
	const unsigned char *got;
	struct proc *p;
	unsigned gen;

	ok(machine_proc(m, 10) == NULL, "a process nothing made is NULL");
	mmap_ev(m, 10, 0x400000, 0x10000, "/opt/app/bin/app");
	mmap_ev(m, 10, 0x7f0000000000, 0x200000, "/opt/app/lib/libx.so");
	p = machine_proc(m, 10);
	ok(p && p->exe && !strcmp(dso_path(p->exe), "/opt/app/bin/app"),
	   "the program is the first file mapped (%s)", p && p->exe ? dso_path(p->exe) : "-");
	ok(!strcmp(dso_at(m, 10, 0x7f0000001000), "/opt/app/lib/libx.so"), "an address in a map");
	gen = p->gen;
	mmap_ev(m, 10, 0x7f0000000000, 0x1000, "/opt/app/lib/liby.so");
	ok(!strcmp(dso_at(m, 10, 0x7f0000000800), "/opt/app/lib/liby.so") &&
	   !strcmp(dso_at(m, 10, 0x7f0000001800), "/opt/app/lib/libx.so"),
	   "the newer map wins where they overlap, the older keeps the rest");
	ok(p->gen != gen, "a map changes the process's gen");

	comm_ev(m, 10, 10, "app", 0, 0);
	fork_ev(m, 11, 11, 10, 10, 100);
	ok(!strcmp(dso_at(m, 11, 0x400100), "/opt/app/bin/app"), "a child has its parent's maps");
	ok(!strcmp(machine_thread(m, 11, 11)->comm, "app"), "and its name (%s)",
	   machine_thread(m, 11, 11)->comm);
	ok(machine_proc(m, 11)->gen != machine_proc(m, 10)->gen, "a gen of its own");
	ok(machine_proc(m, 11)->start == 100, "it starts at its FORK");
	comm_ev(m, 11, 11, "sh", 1, 200);
	ok(!strcmp(dso_at(m, 11, 0x400100), "-") && machine_proc(m, 11)->exe == NULL,
	   "exec empties its maps and program");
	ok(machine_proc(m, 11)->start == 200, "and starts it again");
	ok(!strcmp(dso_at(m, 10, 0x400100), "/opt/app/bin/app"), "the parent keeps its own");
	ok(!strcmp(machine_thread(m, 99, 99)->comm, ":99"), "a thread never named is :TID");
	ok(!strcmp(machine_thread(m, 0, 0)->comm, "swapper"), "tid 0 is swapper");
	ok(machine_intern(m, "x") == machine_intern(m, "x"), "one name, one pointer");

	machine_add_build_id(m, "/opt/app/lib/libz.so", strlen("/opt/app/lib/libz.so"), id, 20);
	mmap_ev(m, 10, 0x7f1000000000, 0x1000, "/opt/app/lib/libz.so");
	{
		struct map const *mp = maps_find(&machine_proc(m, 10)->maps, 0x7f1000000000);
		size_t n = mp ? dso_build_id(mp->dso, &got) : 0;

		ok(n == 20 && !memcmp(got, id, 20), "perf's build-id table names a file (%zu bytes)", n);
	}

	/* forget mode */
	machine_forget_exited(m, 1, forgot, NULL);
	fork_ev(m, 20, 20, 10, 10, 1000);
	fork_ev(m, 20, 21, 20, 20, 1000);
	machine_exit(m, 20, 21, 2000);
	machine_due(m, 2000 + 999999999);
	ok(nforgot == 0, "a thread stays for a second after its EXIT");
	machine_due(m, 2000 + 1000000000);
	ok(nforgot == 1 && forgotten[0] == 21, "then goes (%d: %d)", nforgot, forgotten[0]);
	ok(!strcmp(machine_thread(m, 20, 21)->comm, ":21"), "and is new when seen again");
	machine_exit(m, 20, 20, 3000);
	fork_ev(m, 20, 20, 10, 10, 3500);	/* the pid reused within the second */
	machine_due(m, 3000 + 2000000000);
	ok(nforgot == 1 && machine_proc(m, 20), "a FORK reusing the pid cancels its forgetting");
	machine_exit(m, 20, 20, 5000);
	machine_due(m, 5000 + 1000000000);
	ok(nforgot == 2 && forgotten[1] == 20 && machine_proc(m, 20) == NULL,
	   "the first thread's EXIT takes the process (%d)", nforgot);

	machine_free(m);
	resolver_free(res);
	symbols_free(sym);
	test_itab();
	return tap_done();
}
