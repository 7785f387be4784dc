// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF unwinding with libdwfl, as elfutils' stack(1) and perf's
 * unwind-libdw do, but with one Dwfl per process kept across samples
 * (rebuilt only when the process's mappings change): the modules are
 * reported once, their CFI parsed once. libdwfl reads the registers and
 * the stack copy through our callbacks, and its own ELF files for the
 * rest; where a frame has no CFI, its backend falls back to the frame
 * pointer.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs.h"
#include "unwind.h"
#include "xalloc.h"

/* The sample being unwound: what the callbacks read. */
struct uctx {
	int pid, tid;
	uint64_t dwarf[REGS_DWARF_MAX];
	int ndwarf;
	uint64_t pc, sp;
	const unsigned char *stack;
	uint64_t stack_len;
	uint64_t *pcs;
	int n, max;
};

struct uproc {
	int pid;
	unsigned gen;
	int ok;			/* attached: samples can unwind */
	Dwfl *dwfl;
	struct uctx ctx;
};

struct unwind {
	char *debuginfo_path;
	Dwfl_Callbacks cb;
	struct uproc **procs;	/* open addressing by pid */
	size_t nprocs, cap;
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uctx *c = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = c;
	return c->tid;
}

/* Memory is the stack copy: from the sampled sp up. Anything else, libdwfl reads from files. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uctx *c = arg;

	(void)dwfl;
	if (addr < c->sp || addr - c->sp > c->stack_len || c->stack_len - (addr - c->sp) < 8)
		return false;
	memcpy(result, c->stack + (addr - c->sp), 8);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uctx *c = arg;

	dwfl_thread_state_register_pc(thread, c->pc);
	return dwfl_thread_state_registers(thread, 0, (unsigned)c->ndwarf, c->dwarf);
}

/*
 * No separate debug files for unwinding. libdwfl looks for .debug_frame
 * where .eh_frame has no entry for a pc, and a separate debug file means
 * loading all of it (libc6-dbg inflates 40 ms of compressed DWARF), again
 * in each process's Dwfl: that was most of a dwarf report's time. Debian's
 * binaries carry .eh_frame for all their code; where it has no entry,
 * elfutils falls back to the frame pointer.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc; (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Thread_Callbacks callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct unwind *unwind_new(const char *symfs)
{
	struct unwind *u = xcalloc(1, sizeof(*u));

	if (symfs && symfs[0]) {
		size_t n = strlen(symfs) + sizeof(":.debug:/usr/lib/debug:/usr/lib/debug");

		u->debuginfo_path = xmalloc(n);
		snprintf(u->debuginfo_path, n, ":.debug:%s/usr/lib/debug:/usr/lib/debug", symfs);
	}
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = no_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &u->debuginfo_path;
	u->cap = 64;
	u->procs = xcalloc(u->cap, sizeof(*u->procs));
	return u;
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->cap; i++)
		if (u->procs[i]) {
			if (u->procs[i]->dwfl)
				dwfl_end(u->procs[i]->dwfl);
			free(u->procs[i]);
		}
	free(u->procs);
	free(u->debuginfo_path);
	free(u);
}

static struct uproc *get_proc(struct unwind *u, int pid)
{
	size_t i;

	if ((u->nprocs + 1) * 2 > u->cap) {
		struct uproc **old = u->procs;
		size_t n = u->cap;

		u->cap *= 2;
		u->procs = xcalloc(u->cap, sizeof(*u->procs));
		for (size_t k = 0; k < n; k++)
			if (old[k]) {
				for (i = (size_t)(unsigned)old[k]->pid * 2654435761u & (u->cap - 1);
				     u->procs[i]; i = (i + 1) & (u->cap - 1))
					;
				u->procs[i] = old[k];
			}
		free(old);
	}
	for (i = (size_t)(unsigned)pid * 2654435761u & (u->cap - 1); u->procs[i];
	     i = (i + 1) & (u->cap - 1))
		if (u->procs[i]->pid == pid)
			return u->procs[i];
	u->procs[i] = xcalloc(1, sizeof(**u->procs));
	u->procs[i]->pid = pid;
	u->procs[i]->gen = ~0u;
	u->nprocs++;
	return u->procs[i];
}

/* A Dwfl with the process's files at their load addresses, attached to our callbacks. */
static void build(struct unwind *u, struct uproc *p, const struct unwind_map *maps, size_t n)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->ok = 0;
	p->dwfl = dwfl_begin(&u->cb);
	if (!p->dwfl)
		return;
	dwfl_report_begin(p->dwfl);
	for (size_t i = 0; i < n; i++) {
		const char *base;

		if (!maps[i].path)
			continue;
		/* A file's segments share one load bias: report it once. */
		if (i && maps[i - 1].path == maps[i].path)
			continue;
		base = strrchr(maps[i].path, '/');
		dwfl_report_elf(p->dwfl, base ? base + 1 : maps[i].path, maps[i].path, -1,
				maps[i].start - maps[i].pgoff, false);
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	p->ok = dwfl_attach_state(p->dwfl, NULL, p->pid, &callbacks, &p->ctx);
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uctx *c = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation) || pc == 0)
		return DWARF_CB_ABORT;
	c->pcs[c->n++] = pc;
	return c->n < c->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int unwind_user(struct unwind *u, int pid, unsigned gen, const struct unwind_map *maps,
		size_t n, const struct sample *s, uint64_t regs_mask, uint64_t *pcs, int max)
{
	struct uproc *p;
	struct uctx *c;

	if (!s->nr_user_regs || !s->user_regs || !s->stack || !s->stack_dyn_size || max < 1)
		return 0;
	p = get_proc(u, pid);
	c = &p->ctx;
	c->ndwarf = regs_to_dwarf(s->user_regs, (size_t)s->nr_user_regs, regs_mask, c->dwarf,
				  &c->pc, &c->sp);
	if (!c->ndwarf)
		return 0;
	if (p->gen != gen) {
		build(u, p, maps, n);
		p->gen = gen;
	}
	if (!p->ok)
		return 0;
	c->pid = pid;
	c->tid = (int)s->tid;
	c->stack = s->stack;
	c->stack_len = s->stack_dyn_size;
	c->pcs = pcs;
	c->n = 0;
	c->max = max;
	dwfl_getthread_frames(p->dwfl, c->tid, frame_cb, c);
	return c->n;
}
