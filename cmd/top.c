// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof top`: the hottest functions now, of the host or of given
 * processes or a command, refreshed every few seconds over a decaying
 * window (each refresh keeps 7/8 of what was counted, as perf top does),
 * on a full screen with keys, or as one table per interval on a pipe.
 *
 * The samples come as the agent's do, from the live source
 * (report/model/live.h): prof's recorder as a child writing into a pipe,
 * its records fed to a profile, which resolves, filters and adds them up
 * as prof report's does, in a histogram by process, file and function
 * (and, zoomed into a function's callers, the graph of its callers). Each
 * refresh takes the profile's sums of the interval and resets it; here
 * they are added to three decaying tables at once (by function, by file,
 * by process), so that a key switches between them at no cost.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "ctree.h"
#include "hist.h"
#include "htab.h"
#include "live.h"
#include "opt.h"
#include "opts.h"
#include "parse.h"
#include "record.h"
#include "strpool.h"
#include "symbols.h"
#include "top.h"
#include "utf8.h"
#include "xalloc.h"

enum view { V_SYM, V_DSO, V_PROC, V_CALLERS, NVIEW };

static const char *const view_names[NVIEW] = { "function", "shared object", "process",
					       "callers" };

struct top_opts {
	struct record_opts rec;
	double delay;		/* -d: seconds between refreshes */
	int entries;		/* -E: rows a table shows (0: what fits) */
	int zero;		/* -z: no decay, each refresh counts afresh */
	int hide_kernel, hide_user;	/* -K, -U */
	int sort;		/* -s: the first view */
	int stdio;		/* --stdio: tables on standard output */
	double duration;	/* --duration: stop after */
	int record_child;	/* the recorder, run by prof top itself */
};

/*
 * A row: what it counts (by view; texts in the top's pool, as the
 * profile's histogram names them), and its decayed weight.
 */
struct ent {
	const char *a, *b;	/* SYM: function, file; CALLERS: the caller (NULL: none);
				 * DSO: file; PROC: command */
	uint64_t c;		/* SYM, CALLERS, DSO: kernel (FRAME_KERNEL); PROC: pid */
	double w;
};

struct tab {
	struct ent *e;
	size_t n, cap;
	struct htab h;
};

struct top {
	struct top_opts *o;
	struct profile_opts po;		/* the live profile's */
	struct live live;
	struct tab t[NVIEW];
	struct strpool *pool;	/* the rows' texts: the profile's go at each reset */
	uint64_t interval_samples, samples;
	uint64_t lost;		/* as of the last refresh */
	/* zoom: what is counted (the profile's filters, po.f) */
	long zpid;		/* 0: every process */
	const char *zcomm;
	const char *zdso;	/* NULL: every file */
	const char *zname;	/* V_CALLERS: the function whose callers are counted */
	const char *zname_dso;
	int view;
};

/* --- counting ------------------------------------------------------------------------------ */

static uint64_t ent_hash(const void *a, const void *b, uint64_t c)
{
	uint64_t w[3] = { (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b, c };

	return htab_hash_words(w, 3);
}

static uint64_t row_hash(const void *ctx, size_t i)
{
	const struct ent *e = &((const struct tab *)ctx)->e[i];

	return ent_hash(e->a, e->b, e->c);
}

/* Add w to the row of a, b, c (texts interned in the top's pool), made when new. */
static void tab_add(struct tab *t, const void *a, const void *b, uint64_t c, double w)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&t->h, ent_hash(a, b, c), &p);
	while (htab_next(&t->h, &p, &i))
		if (t->e[i].a == a && t->e[i].b == b && t->e[i].c == c) {
			t->e[i].w += w;
			return;
		}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->e = xreallocarray(t->e, t->cap, sizeof(*t->e));
	}
	t->e[t->n] = (struct ent){ .a = a, .b = b, .c = c, .w = w };
	htab_put(&t->h, &p, (uint32_t)t->n++);
}

/* Keep 7/8 of each row (none with -z), and drop the rows that have faded to nothing. */
static void tab_decay(struct tab *t, int zero)
{
	double total = 0;
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++)
		total += t->e[i].w;
	for (size_t i = 0; i < t->n; i++) {
		struct ent e = t->e[i];

		e.w = zero ? 0 : e.w * 7 / 8;
		if (e.w > total * 1e-5)
			t->e[k++] = e;
	}
	t->n = k;
	htab_reindex(&t->h, k, row_hash, t);
}

static void tabs_reset(struct top *tp)
{
	for (int v = 0; v < NVIEW; v++) {
		tp->t[v].n = 0;
		htab_clear(&tp->t[v].h);
	}
}

static const char *text(struct top *tp, const char *s)
{
	return s ? strpool_intern_text(tp->pool, s, strlen(s)) : NULL;
}

/* The callers of the zoomed function in hist h's entry e: its graph's first level. */
static void add_callers(struct top *tp, const struct hist *h, const struct hist_entry *e)
{
	const struct ctree *t = hist_tree(h);
	const struct ctree_node *root = t ? ctree_node(t, e->tree) : NULL;

	if (!root)
		return;
	if (root->self_period)
		tab_add(&tp->t[V_CALLERS], NULL, NULL, 0, (double)root->self_period);
	for (uint32_t k = root->first_child; k; k = ctree_node(t, k)->next_sibling) {
		const struct ctree_node *n = ctree_node(t, k);

		tab_add(&tp->t[V_CALLERS], text(tp, n->name), NULL, n->flags & FRAME_KERNEL,
			(double)n->period);
	}
}

/* The interval's sums, from the profile's histograms, into the tables. */
static void add_interval(struct top *tp, const struct profile *p)
{
	for (size_t i = 0; i < p->nev; i++) {
		struct hist *h = p->ev[i].hist;
		const struct hist_entry *const *ents;
		size_t n;

		if (!h)
			continue;
		ents = hist_sorted(h, &n);
		for (size_t k = 0; k < n; k++) {
			const struct hist_entry *e = ents[k];
			const char *sym = text(tp, hist_text(e, HIST_SYM));
			const char *dso = text(tp, hist_text(e, HIST_DSO));
			uint64_t kernel = e->flags & FRAME_KERNEL;
			double w = (double)e->self;

			if (!e->self)
				continue;
			tab_add(&tp->t[V_SYM], sym, dso, kernel, w);
			tab_add(&tp->t[V_DSO], dso, NULL, kernel, w);
			tab_add(&tp->t[V_PROC], text(tp, hist_text(e, HIST_COMM)), NULL,
				strtoull(hist_text(e, HIST_PID), NULL, 10), w);
			if (tp->zname && sym == tp->zname && dso == tp->zname_dso)
				add_callers(tp, h, e);
		}
	}
}

/*
 * What the profile counts, as the zoom says: its filters, and the graph
 * of callers while they are shown. With the profile held (live_snapshot()).
 */
static void set_counting(struct top *tp, struct profile *p)
{
	struct profile_filters *f = &tp->po.f;

	f->pid = &tp->zpid;
	f->npid = tp->zpid ? 1 : 0;
	f->dso = &tp->zdso;
	f->ndso = tp->zdso ? 1 : 0;
	tp->po.ho.graph = tp->zname ? HIST_GRAPH_CALLEE : HIST_GRAPH_NONE;
	profile_refilter(p);
}

/* --- the table ----------------------------------------------------------------------------- */

struct snap {
	struct ent *e;
	size_t n;
	double total;
	uint64_t samples;	/* this interval's */
	int view;
};

static int by_weight(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;

	return a->w < b->w ? 1 : a->w > b->w ? -1 : 0;
}

/*
 * An interval ends: the window decays, the profile's sums of the interval
 * are added, and the profile starts the next one afresh.
 */
static void end_interval(struct top *tp)
{
	char err[512];
	struct profile *p;

	for (int v = 0; v < NVIEW; v++)
		tab_decay(&tp->t[v], tp->o->zero);
	p = live_snapshot(&tp->live, err, sizeof(err));
	if (!p)
		return;
	add_interval(tp, p);
	tp->interval_samples = p->kept;
	tp->samples += p->kept;
	live_release(&tp->live, 1);
	tp->lost = live_lost(&tp->live);
}

/* Samples the profile has taken in (the filters' or not) since the last refresh. */
static uint64_t pending(struct top *tp)
{
	char err[512];
	struct profile *p = live_snapshot(&tp->live, err, sizeof(err));
	uint64_t n;

	if (!p)
		return 0;
	n = p->samples;
	live_release(&tp->live, 0);
	return n;
}

/* The current view's rows, heaviest first. */
static void take_snapshot(struct top *tp, struct snap *sn)
{
	const struct tab *t;

	sn->view = tp->view;
	t = &tp->t[sn->view];
	free(sn->e);
	sn->e = xcalloc(t->n ? t->n : 1, sizeof(*t->e));
	if (t->n)
		memcpy(sn->e, t->e, t->n * sizeof(*t->e));
	sn->n = t->n;
	sn->samples = tp->interval_samples;
	sn->total = 0;
	for (size_t i = 0; i < sn->n; i++)
		sn->total += sn->e[i].w;
	qsort(sn->e, sn->n, sizeof(*sn->e), by_weight);
}

/* s made fit for a screen: valid UTF-8, no control character, at most cols characters: how many. */
static int put_text(FILE *out, const char *s, int cols)
{
	char *fixed = utf8_fix(s ? s : "");
	int n = 0;

	for (const char *p = fixed; *p && n < cols; n++) {
		int len = utf8_len(p);

		if ((unsigned char)*p < 0x20 || *p == 0x7f || (len == 2 && (unsigned char)p[0] == 0xc2 &&
							       (unsigned char)p[1] < 0xa0))
			fputc('?', out);	/* C0, DEL and C1: a terminal's escapes */
		else
			fwrite(p, 1, (size_t)len, out);
		p += len;
	}
	free(fixed);
	return n;
}

/* One row's text, at most cols characters. */
static void put_row(FILE *out, const struct snap *sn, const struct ent *e, int cols)
{
	char pct[16];
	int left;

	snprintf(pct, sizeof(pct), "%7.2f%%  ", sn->total > 0 ? 100 * e->w / sn->total : 0.0);
	fputs(pct, out);
	left = cols - (int)strlen(pct);
	if (left <= 0)
		return;
	switch (sn->view) {
	case V_SYM: {
		int w = put_text(out, e->b ? e->b : "[unknown]", left < 20 ? left : 20);

		/* the shared object in 20 columns, cut where longer */
		for (; w < 22 && w < left; w++)
			fputc(' ', out);
		left -= 22;
		if (left <= 4)
			return;
	}
		/* fall through */
	case V_CALLERS:
		if (left <= 4)
			return;
		fputs(e->c & FRAME_KERNEL ? "[k] " : "[.] ", out);
		put_text(out, e->a ? e->a : sn->view == V_SYM ? "[unknown]" : "[no caller]", left - 4);
		break;
	case V_DSO:
		put_text(out, e->a ? e->a : "[unknown]", left);
		break;
	case V_PROC: {
		char pid[16];

		snprintf(pid, sizeof(pid), "%7llu  ", (unsigned long long)e->c);
		put_text(out, pid, left);
		left -= 9;
		if (left > 0)
			put_text(out, e->a, left);
		break;
	}
	}
}

static const char *column_heads(int view)
{
	switch (view) {
	case V_DSO:
		return "Overhead  Shared Object";
	case V_PROC:
		return "Overhead      Pid  Command";
	case V_CALLERS:
		return "Overhead  Caller";
	default:
		return "Overhead  Shared Object         Symbol";
	}
}

/* What the table counts: the zoom, said in a few words, into buf. */
static void zoom_text(struct top *tp, int view, char *buf, size_t len)
{
	buf[0] = '\0';
	if (view == V_CALLERS && tp->zname)
		snprintf(buf, len, "; callers of %s (%s)", tp->zname,
			 tp->zname_dso ? tp->zname_dso : "[unknown]");
	else if (tp->zpid)
		snprintf(buf, len, "; process %ld (%s)", tp->zpid, tp->zcomm);
	else if (tp->zdso)
		snprintf(buf, len, "; only %s", tp->zdso);
}

static void put_header(FILE *out, struct top *tp, const struct snap *sn, double secs,
		       uint64_t lost, int cols)
{
	char when[16], zoomed[600], buf[1024];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	zoom_text(tp, sn->view, zoomed, sizeof(zoomed));
	snprintf(buf, sizeof(buf), "prof top %s: %.0f samples/s, %s, %llu lost; by %s%s%s", when,
		 secs > 0 ? (double)sn->samples / secs : 0.0, tp->o->rec.events[0],
		 (unsigned long long)lost, view_names[sn->view],
		 tp->o->zero ? "" : " (decaying)", zoomed);
	put_text(out, buf, cols);
}

/* --- the screen ---------------------------------------------------------------------------- */

static struct termios saved_tty;
static int tty_on;

static void screen_end(void)
{
	if (!tty_on)
		return;
	tty_on = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
	fputs("\033[?25h\033[?1049l", stdout);	/* the cursor back, the screen as it was */
	fflush(stdout);
}

static int screen_begin(void)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &saved_tty))
		return -1;
	raw = saved_tty;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &raw))
		return -1;
	tty_on = 1;
	atexit(screen_end);
	fputs("\033[?1049h\033[?25l", stdout);	/* the other screen, no cursor */
	fflush(stdout);
	return 0;
}

static void screen_size(int *rows, int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void draw(struct top *tp, const struct snap *sn, double secs, uint64_t lost, int sel,
		 int paused)
{
	int rows, cols, body;

	screen_size(&rows, &cols);
	fputs("\033[H", stdout);
	put_header(stdout, tp, sn, secs, lost, cols);
	fputs("\033[K\n", stdout);
	put_text(stdout, column_heads(sn->view), cols);
	fputs("\033[K\n", stdout);
	body = rows - 3;
	for (int i = 0; i < body && (size_t)i < sn->n; i++) {
		if (i == sel)
			fputs("\033[7m", stdout);
		put_row(stdout, sn, &sn->e[i], cols);
		fputs(i == sel ? "\033[K\033[0m\n" : "\033[K\n", stdout);
	}
	fputs("\033[J", stdout);
	fprintf(stdout, "\033[%d;1H", rows);
	put_text(stdout, paused ? "PAUSED  p resume  q quit"
			 : "q quit  s sort  Enter zoom  Esc back  p pause  z zero", cols);
	fputs("\033[K", stdout);
	fflush(stdout);
}

/* --- keys ------------------------------------------------------------------------------------ */

enum { K_NONE, K_QUIT, K_SORT, K_UP, K_DOWN, K_ZOOM, K_BACK, K_PAUSE, K_ZERO };

static int key_of(const char *b, ssize_t n)
{
	if (n <= 0)
		return K_NONE;
	if (b[0] == 0x1b) {
		if (n == 1)
			return K_BACK;	/* Esc alone */
		if (n >= 3 && b[1] == '[')
			return b[2] == 'A' ? K_UP : b[2] == 'B' ? K_DOWN : b[2] == 'D' ? K_BACK :
			       b[2] == 'C' ? K_ZOOM : K_NONE;
		return K_NONE;
	}
	switch (b[0]) {
	case 'q': case 'Q': return K_QUIT;
	case 's': return K_SORT;
	case 'k': return K_UP;
	case 'j': return K_DOWN;
	case '\r': case '\n': return K_ZOOM;
	case 0x7f: case 'b': return K_BACK;
	case 'p': case ' ': return K_PAUSE;
	case 'z': return K_ZERO;
	}
	return K_NONE;
}

/*
 * What the profile counts changed: the interval so far, counted the old
 * way, is dropped, and the next is counted the new.
 */
static void recount(struct top *tp)
{
	char err[512];
	struct profile *p = live_snapshot(&tp->live, err, sizeof(err));

	if (!p)
		return;
	set_counting(tp, p);
	live_release(&tp->live, 1);
}

/* Zoom into the selected row, or out: what is counted changes, and counting starts again. */
static void zoom(struct top *tp, const struct snap *sn, int sel, int in)
{
	if (!in) {
		if (tp->view == V_CALLERS) {
			tp->view = V_SYM;	/* the functions were counted all along */
			tp->zname = NULL;
			recount(tp);
			return;
		}
		if (!tp->zpid && !tp->zdso)
			return;
		tp->zpid = 0;
		tp->zdso = NULL;
		tp->view = V_SYM;
		tabs_reset(tp);
		recount(tp);
		return;
	}
	if (sel < 0 || (size_t)sel >= sn->n || sn->view != tp->view)
		return;
	switch (tp->view) {
	case V_SYM:
		if (!sn->e[sel].a)
			return;
		tp->zname = sn->e[sel].a;
		tp->zname_dso = sn->e[sel].b;
		tp->t[V_CALLERS].n = 0;
		htab_clear(&tp->t[V_CALLERS].h);
		tp->view = V_CALLERS;
		break;
	case V_PROC:
		tp->zpid = (long)sn->e[sel].c;
		tp->zcomm = sn->e[sel].a;
		tp->view = V_SYM;
		tabs_reset(tp);
		break;
	case V_DSO:
		if (!sn->e[sel].a)
			return;
		tp->zdso = sn->e[sel].a;
		tp->view = V_SYM;
		tabs_reset(tp);
		break;
	default:
		return;
	}
	recount(tp);
}

/* --- options --------------------------------------------------------------------------------- */

enum { T_DELAY = 1, T_ENTRIES, T_SORT, T_DURATION, T_CGROUP };

static int top_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct top_opts *t = st->ctx;
	char *end;

	switch (o->val) {
	case T_CGROUP: {
		char err[256];

		if (record_opts_cgroup(&t->rec, arg, err, sizeof(err)))
			return opt_error(st, "%s", err);
		break;
	}
	case T_DELAY:
	case T_DURATION: {
		double v;

		if (parse_seconds(arg, &v) || v <= 0 || (o->val == T_DELAY && v < 0.1))
			return opt_error(st, "'%s' is not a number of seconds%s", arg,
					 o->val == T_DELAY ? " (0.1 or more)" : "");
		if (o->val == T_DELAY)
			t->delay = v;
		else
			t->duration = v;
		break;
	}
	case T_ENTRIES: {
		long v = strtol(arg, &end, 10);

		if (end == arg || *end || v < 1 || v > 100000)
			return opt_error(st, "'%s' is not a number of rows (1 or more)", arg);
		t->entries = (int)v;
		break;
	}
	case T_SORT:
		if (!strcmp(arg, "sym") || !strcmp(arg, "symbol") || !strcmp(arg, "dso,sym"))
			t->sort = V_SYM;
		else if (!strcmp(arg, "dso"))
			t->sort = V_DSO;
		else if (!strcmp(arg, "pid") || !strcmp(arg, "comm") || !strcmp(arg, "comm,pid") ||
			 !strcmp(arg, "pid,comm"))
			t->sort = V_PROC;
		else
			return opt_error(st, "'%s' is not sym, dso or pid", arg);
		break;
	}
	return 0;
}

#define TO struct top_opts

static const struct opt top_options[] = {
	OPT_CALL('d', "delay", "SECONDS", top_cb, T_DELAY,
		 "refresh every SECONDS (default 2)"),
	OPT_CALL('E', "entries", "N", top_cb, T_ENTRIES,
		 "show N rows (default: what fits; 20 with --stdio)"),
	OPT_SET('z', "zero", TO, zero, 1, "count each refresh afresh, with no decay"),
	OPT_SET('K', "hide-kernel-symbols", TO, hide_kernel, 1, "leave kernel samples out"),
	OPT_SET('U', "hide-user-symbols", TO, hide_user, 1, "leave user samples out"),
	OPT_PERF_SET(0, "hide_kernel_symbols", TO, hide_kernel, 1),
	OPT_PERF_SET(0, "hide_user_symbols", TO, hide_user, 1),
	OPT_CALL('s', "sort", "KEY", top_cb, T_SORT,
		 "sym (functions, the default), dso or pid"),
	OPT_SET(0, "stdio", TO, stdio, 1,
		"print a table each refresh on standard output\n"
		"(the default when it is not a terminal)"),
	OPT_CALL(0, "duration", "SECONDS", top_cb, T_DURATION, "stop after SECONDS"),
	OPT_CALL('G', "cgroup", "LIST", top_cb, T_CGROUP,
		 "sample the events before it only in these\n"
		 "cgroups (under /sys/fs/cgroup), as prof record -G"),
	LIVE_OPTIONS(TO, rec, record_child),
	OPT_END(),
};

#undef TO

static void top_usage(FILE *out)
{
	fputs("usage: prof top [options]\n"
	      "       prof top -p PID[,PID...] [options]\n"
	      "       prof top [options] -- command [args]\n"
	      "       prof top --stdio -d SECONDS [options] | ...\n"
	      "\n"
	      "prof record's options below say what to sample; here -g is on, and -a\n"
	      "is the target where no -p, -t, -C or command is given.\n"
	      "Keys: s sort (function, shared object, process), arrows or j/k\n"
	      "select, Enter zoom (into a process, a file, or a function's callers),\n"
	      "Esc back, p pause, z zero, q quit.\n"
	      "\n", out);
	opt_usage(out, top_options);
}

/* --- the loop --------------------------------------------------------------------------------- */

/* Print the table of the interval that ends, on a pipe. */
static void print_table(FILE *out, struct top *tp, const struct snap *sn, double secs,
			uint64_t lost)
{
	int rows = tp->o->entries ? tp->o->entries : 20;

	fputs("# ", out);
	put_header(out, tp, sn, secs, lost, 4096);
	fputs("\n# ", out);
	fputs(column_heads(sn->view), out);
	fputc('\n', out);
	for (int i = 0; i < rows && (size_t)i < sn->n; i++) {
		put_row(out, sn, &sn->e[i], 4096);
		fputc('\n', out);
	}
	fputc('\n', out);
	fflush(out);
}

static int run_top(struct top_opts *o, int argc, char **argv)
{
	struct top tp = { .o = o, .view = o->sort };
	/* functions as their symbols have them, as perf top shows them: no inline frames */
	struct symbols_opts so = { .demangle = 1 };
	struct live *live = &tp.live;
	struct snap sn = { 0 };
	FILE *errf = NULL;
	sigset_t mask;
	int sfd, tui, status = 0, ended = 0, sel = 0, paused = 0, sampling = 0;
	double start, last, end = 0;

	tui = !o->stdio && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	tp.pool = strpool_new();
	for (int v = 0; v < NVIEW; v++)
		htab_init(&tp.t[v].h);
	/*
	 * The profile: every sample's stack resolved (for the callers of a
	 * function), added up by process, file and function, in any order;
	 * threads and files let go as they go
	 */
	tp.po = (struct profile_opts){
		.input = "the recorder's stream",
		.so = so,
		.chains = 1,
		.flat = 1,
		.ho = { .keys = { HIST_PID, HIST_COMM, HIST_DSO, HIST_SYM }, .nkeys = 4 },
		.f = { .t_start = -1, .t_end = -1, .hide_kernel = o->hide_kernel,
		       .hide_user = o->hide_user },
		.forget_exited = 1,
		.trim_idle = 60 * 1000000000ULL,
	};
	tp.po.sym = symbols_new(&so);
	if (!tp.po.sym) {
		fprintf(stderr, "prof: top: cannot start the symbolizer: %s\n", strerror(errno));
		return 1;
	}
	*live = (struct live){ .cmd = "top", .argv = argv, .argc = argc, .po = &tp.po,
			       .err_fd = -1, .child_fd = -1 };
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGWINCH);
	sigaddset(&mask, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (tui) {
		/* the recorder's messages would draw over the screen: kept, and said at the end */
		errf = tmpfile();
		live->err_fd = errf ? fileno(errf) : -1;
	}
	if (live_start(live)) {
		status = 1;
		goto out;
	}
	if (tui && screen_begin())
		tui = 0;
	start = last = mono_s();
	if (o->duration)
		end = start + o->duration;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN },
					 { .fd = STDIN_FILENO, .events = POLLIN } };
		double now = mono_s(), next;
		int wait, quit = 0, redraw = 0;

		/*
		 * The first interval begins with the first sample, not with the
		 * recorder's start (its maps and files take a while on a busy
		 * host): the first table was made of 2 samples
		 */
		if (!sampling) {
			sampling = pending(&tp) > 0;
			if (sampling)
				last = now;
		}
		next = last + o->delay;
		wait = (int)((next - now) * 1000);

		if (wait < 0)
			wait = 0;
		if (wait > 200)
			wait = 200;
		if (poll(pfd, tui ? 2 : 1, wait) > 0) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGWINCH)
					redraw = 1;
				else if (si.ssi_signo != SIGCHLD)
					quit = 1;
			}
			if (tui && (pfd[1].revents & POLLIN)) {
				char b[64];
				ssize_t n = read(STDIN_FILENO, b, sizeof(b));

				switch (key_of(b, n)) {
				case K_QUIT: quit = 1; break;
				case K_SORT:
					if (tp.view == V_CALLERS) {
						tp.view = V_SYM;
						tp.zname = NULL;
						recount(&tp);
					} else {
						tp.view = (tp.view + 1) % V_CALLERS;
					}
					sel = 0;
					redraw = 1;
					break;
				case K_UP: sel = sel > 0 ? sel - 1 : 0; redraw = 1; break;
				case K_DOWN: sel = (size_t)sel + 1 < sn.n ? sel + 1 : sel; redraw = 1; break;
				case K_ZOOM: zoom(&tp, &sn, sel, 1); sel = 0; redraw = 1; break;
				case K_BACK: zoom(&tp, &sn, sel, 0); sel = 0; redraw = 1; break;
				case K_PAUSE: paused = !paused; redraw = 1; break;
				case K_ZERO: o->zero = !o->zero; redraw = 1; break;
				}
			}
		}
		if (quit)
			break;
		if (live_reap(live, &status)) {
			ended = 1;
			/* it could not start (no such process, no such command): it said why */
			if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) &&
			    !tp.samples && !pending(&tp))	/* the stream is read */
				break;
		}
		now = mono_s();
		if (end && now >= end)
			ended = 2;
		if (now >= next || ended) {
			/* the interval ends: the window decays, the interval's samples join it */
			end_interval(&tp);
			take_snapshot(&tp, &sn);
			if (tui && !paused)
				draw(&tp, &sn, now - last, tp.lost, sel, paused);
			else if (!tui)
				print_table(stdout, &tp, &sn, now - last, tp.lost);
			last = now;
		} else if (redraw && tui) {
			take_snapshot(&tp, &sn);
			if ((size_t)sel >= sn.n)
				sel = sn.n ? (int)sn.n - 1 : 0;
			draw(&tp, &sn, now - last, tp.lost, sel, paused);
		}
		if (ended)
			break;
	}
	if (live->child)
		status = live_end(live);
out:
	screen_end();
	if (errf) {
		char buf[4096];
		size_t n;

		rewind(errf);
		while ((n = fread(buf, 1, sizeof(buf), errf)) > 0)
			fwrite(buf, 1, n, stderr);
		fclose(errf);
	}
	if (ended == 1) {
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

		if (tp.samples || !code)
			fprintf(stderr, "prof: top: %s; %llu samples, %llu lost records\n",
				o->rec.argv ? "the command ended" : "the processes it watched ended",
				(unsigned long long)tp.samples, (unsigned long long)live_lost(live));
		status = code;
	} else {
		status = 0;
	}
	if (sfd >= 0)
		close(sfd);
	free(sn.e);
	for (int v = 0; v < NVIEW; v++) {
		free(tp.t[v].e);
		htab_release(&tp.t[v].h);
	}
	if (live->err[0])
		fprintf(stderr, "prof: top: %s\n", live->err);
	live_end(live);
	live_free(live);
	strpool_free(tp.pool);
	symbols_free(tp.po.sym);
	return status;
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = { 0 };
	char err[512];
	int first, ret;

	record_opts_init(&o.rec);
	o.delay = 2;
	ret = opt_parse(top_options, &o, OPT_STOP_AT_WORD, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		top_usage(stdout);
		record_opts_release(&o.rec);
		return 0;
	}
	if (ret) {
		record_opts_release(&o.rec);
		return opt_say("top", ret, err);
	}
	if (first < argc) {
		o.rec.argv = argv + first;
		o.rec.argc = argc - first;
	}
	if (!o.rec.argv && !o.rec.nr_pids && !o.rec.nr_tids && !o.rec.has_cpus)
		o.rec.all_cpus = 1;
	if (o.rec.callchain == CALLCHAIN_NONE)
		o.rec.callchain = CALLCHAIN_FP;	/* the callers of a function, when zoomed */
	if (o.record_child)
		live_child_opts(&o.rec);
	if (record_opts_check(&o.rec, "cpu-clock", err, sizeof(err))) {
		fprintf(stderr, "prof: %s; see 'prof top --help'\n", err);
		record_opts_release(&o.rec);
		return EXIT_USAGE;
	}
	/* record_main() takes o.rec over, and leaves it empty */
	ret = o.record_child ? record_main(&o.rec, argc, argv) : run_top(&o, argc, argv);
	record_opts_release(&o.rec);
	return ret;
}
