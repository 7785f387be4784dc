// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof agent`: profiles the host (or given processes, commands or
 * cgroups) for as long as it runs, at a low rate, and hands what it
 * sampled on as pprof: to whoever scrapes its Go-style endpoint, and to
 * Pyroscope or Parca each window.
 *
 * Two processes: prof record, run again as `prof agent --record-child`
 * with the agent's own options, writes its stream into a pipe; the agent
 * reads it through a session (report/model) that never ends, names every
 * frame on the host while the files are there, and aggregates by window
 * (agent/collect.c). The recorder keeps its rings drained whatever the
 * agent does: a slow backend or a busy symbolizer never costs samples.
 * Should the recorder die, it is started again.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "asan.h"
#include "cgroup.h"
#include "child.h"
#include "clock.h"
#include "collect.h"
#include "file.h"
#include "live.h"
#include "opt.h"
#include "opts.h"
#include "parse.h"
#include "pdata.h"
#include "push.h"
#include "reader.h"
#include "record.h"
#include "serve.h"
#include "session.h"
#include "symbols.h"
#include "xalloc.h"

/*
 * Whether the agent gives back its memory block by block at its end: under
 * the sanitizers, whose leak check must see what it really lost; else the
 * exit does, at no cost (the model of a host after minutes of churn, each
 * file's symbols and DWARF indexes, took 10-15 ms of CPU to free).
 */
#define FREE_AT_EXIT PROF_ASAN

#define DEFAULT_LISTEN "127.0.0.1:6061"
#define DEFAULT_FREQ 49
#define DEFAULT_WINDOW 10
#define DEFAULT_SPOOL_BYTES (64ull << 20)

struct agent_opts {
	struct record_opts rec;
	const char *listen;
	const char *token_file;
	char **hosts;			/* --allow-host */
	size_t nhosts;
	char **push;
	size_t npush;
	const char *spool;
	uint64_t spool_bytes;
	const char *push_token_file;
	const char *push_password_file;
	const char *tenant;
	const char *app;
	char **labels;
	size_t nlabels;
	char **comms;
	size_t ncomms;
	char **cgroups;
	size_t ncgroups;
	unsigned sample_labels;
	int sample_labels_given;
	double window;
	double duration;
	double symbols_idle;	/* --symbols-idle: 0 keeps files open */
	uint64_t heap_budget;	/* --heap-budget: 0 no bound */
	int idle;
	int kernel_addresses;
	int quiet;
	int record_child;
};

enum {
	A_PUSH, A_WINDOW, A_SPOOL_SIZE, A_LABEL, A_COMM, A_CGROUP, A_SAMPLE_LABELS, A_DURATION,
	A_SYMBOLS_IDLE, A_HEAP_BUDGET, A_ALLOW_HOST,
};

/* "64M", "1G", "512K" or bytes: 0, or -1 when it is no size. */
static int parse_size(const char *arg, uint64_t *out)
{
	char num[32];
	size_t n = strlen(arg);
	unsigned shift = 0;
	uint64_t v;

	if (n && n < sizeof(num) && strchr("KMG", arg[n - 1])) {
		shift = arg[n - 1] == 'K' ? 10 : arg[n - 1] == 'M' ? 20 : 30;
		n--;
	}
	if (n >= sizeof(num))
		return -1;
	memcpy(num, arg, n);
	num[n] = '\0';
	if (parse_u64(num, 0, (1ull << 50) >> shift, &v))
		return -1;
	*out = v << shift;
	return 0;
}

static void push_word(char ***v, size_t *n, const char *w)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(w);
}

/* A list "a,b,c" into v, each word non-empty. */
static int push_list(struct opt_state *st, char ***v, size_t *n, const char *arg)
{
	const char *p = arg;

	for (;;) {
		size_t k = strcspn(p, ",");
		char *w;

		if (!k)
			return opt_error(st, "%s: '%s' has an empty item", st->name, arg);
		w = xmalloc(k + 1);
		memcpy(w, p, k);
		w[k] = '\0';
		push_word(v, n, w);
		free(w);
		if (!p[k])
			return 0;
		p += k + 1;
	}
}

static int agent_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct agent_opts *a = st->ctx;
	uint64_t v;

	switch (o->val) {
	case A_PUSH: {
		char err[256];

		if (push_kind_of(arg, err, sizeof(err)) < 0)
			return opt_error(st, "%s", err);
		push_word(&a->push, &a->npush, arg);
		return 0;
	}
	case A_WINDOW:
		if (parse_seconds(arg, &a->window) || a->window < 1 || a->window > 3600 ||
		    a->window != (double)(uint64_t)a->window)
			return opt_error(st, "--window: '%s' is not a whole number of seconds from "
					 "1 to 3600", arg);
		return 0;
	case A_DURATION:
		if (parse_seconds(arg, &a->duration) || a->duration <= 0)
			return opt_error(st, "--duration: '%s' is not a positive number of seconds", arg);
		return 0;
	case A_SPOOL_SIZE:
		if (parse_size(arg, &v) || v < 16384)
			return opt_error(st, "--spool-size: '%s' is not a size of 16K or more (64M, 1G)",
					 arg);
		a->spool_bytes = v;
		return 0;
	case A_SYMBOLS_IDLE:
		if (parse_seconds(arg, &a->symbols_idle) || a->symbols_idle < 0 ||
		    a->symbols_idle > 1e6)
			return opt_error(st, "--symbols-idle: '%s' is not a number of seconds (0 keeps "
					 "files open)", arg);
		return 0;
	case A_HEAP_BUDGET:
		if (parse_size(arg, &a->heap_budget))
			return opt_error(st, "--heap-budget: '%s' is not a size (64M, 1G; 0 for no "
					 "bound)", arg);
		return 0;
	case A_LABEL: {
		const char *eq = strchr(arg, '=');

		if (!eq || eq == arg || !eq[1] || strspn(arg, "abcdefghijklmnopqrstuvwxyz"
						       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
						       (size_t)(eq - arg) || (arg[0] >= '0' && arg[0] <= '9'))
			return opt_error(st, "--label: '%s' is not KEY=VALUE with a key of letters, "
					 "digits and _", arg);
		if (!strncmp(arg, "host=", 5) || !strncmp(arg, "__", 2))
			return opt_error(st, "--label: '%s': the key is prof's own", arg);
		push_word(&a->labels, &a->nlabels, arg);
		return 0;
	}
	case A_COMM:
		return push_list(st, &a->comms, &a->ncomms, arg);
	case A_ALLOW_HOST:
		if (!arg[0] || strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789-.") != strlen(arg))
			return opt_error(st, "--allow-host: '%s' is not a host name (letters, digits, "
					 "- and .)", arg);
		push_word(&a->hosts, &a->nhosts, arg);
		return 0;
	case A_CGROUP:
		if (arg[0] != '/')
			return opt_error(st, "--cgroup: '%s' is not a cgroup path (/system.slice/x."
					 "service, as /proc/PID/cgroup says)", arg);
		push_word(&a->cgroups, &a->ncgroups, arg);
		return 0;
	case A_SAMPLE_LABELS: {
		char **w = NULL;
		size_t n = 0;
		int ret = 0;

		a->sample_labels = 0;
		a->sample_labels_given = 1;
		if (!strcmp(arg, "none"))
			return 0;
		if (!strcmp(arg, "all")) {
			a->sample_labels = LABEL_ALL;
			return 0;
		}
		if (push_list(st, &w, &n, arg))
			return -1;
		for (size_t i = 0; i < n && !ret; i++) {
			if (!strcmp(w[i], "pid"))
				a->sample_labels |= LABEL_PID;
			else if (!strcmp(w[i], "process"))
				a->sample_labels |= LABEL_PROCESS;
			else if (!strcmp(w[i], "thread"))
				a->sample_labels |= LABEL_THREAD;
			else if (!strcmp(w[i], "container"))
				a->sample_labels |= LABEL_CONTAINER;
			else
				ret = opt_error(st, "--sample-labels: '%s' is not pid, process, thread, "
						"container, all or none", w[i]);
		}
		for (size_t i = 0; i < n; i++)
			free(w[i]);
		free(w);
		return ret;
	}
	}
	return 0;
}

#define AO struct agent_opts

static const struct opt agent_options[] = {
	OPT_STRING(0, "listen", "ADDR:PORT", AO, listen,
		   "serve /debug/pprof/profile here (default\n"
		   DEFAULT_LISTEN "; unix:PATH a Unix socket;\n"
		   "none: do not); without --token-file only the\n"
		   "agent's own user is served, and only loopback"),
	OPT_STRING(0, "token-file", "FILE", AO, token_file,
		   "serve whoever sends this token:\n"
		   "Authorization: Bearer TOKEN"),
	OPT_CALL(0, "allow-host", "NAME", agent_cb, A_ALLOW_HOST,
		 "a name requests may give as Host, besides\n"
		 "IP addresses, localhost and this host's name"),
	OPT_CALL(0, "push", "URL", agent_cb, A_PUSH,
		 "send each window to this backend (repeatable):\n"
		 "Pyroscope at URL/ingest, Parca where the URL\n"
		 "ends in /api/profiles/writeraw, an OpenTelemetry\n"
		 "collector where it ends in /v1development/profiles"),
	OPT_CALL(0, "window", "SECONDS", agent_cb, A_WINDOW,
		 "how long a window lasts (default 10)"),
	OPT_STRING(0, "spool", "DIR", AO, spool,
		   "where windows wait until sent (default\n"
		   "/var/lib/prof/agent, or ~/.local/state/prof/agent)"),
	OPT_CALL(0, "spool-size", "SIZE", agent_cb, A_SPOOL_SIZE,
		 "spool bytes per backend (default 64M)"),
	OPT_STRING(0, "push-token-file", "FILE", AO, push_token_file,
		   "send Authorization: Bearer with this token\n"
		   "(else $PROF_PUSH_TOKEN's)"),
	OPT_STRING(0, "push-password-file", "FILE", AO, push_password_file,
		   "the password for a --push URL's user\n"
		   "(https://USER@HOST; else $PROF_PUSH_PASSWORD)"),
	OPT_STRING(0, "tenant", "ID", AO, tenant, "X-Scope-OrgID, for a multi-tenant Pyroscope"),
	OPT_STRING(0, "app", "NAME", AO, app, "Pyroscope's application name (default prof)"),
	OPT_CALL(0, "label", "KEY=VALUE", agent_cb, A_LABEL,
		 "a label on every window (repeatable)"),
	OPT_CALL(0, "sample-labels", "LIST", agent_cb, A_SAMPLE_LABELS,
		 "what labels each sample: pid, process,\n"
		 "thread, container (default: all but pid),\n"
		 "all, or none"),
	OPT_CALL(0, "comm", "NAMES", agent_cb, A_COMM,
		 "only threads of these names (comm)"),
	OPT_CALL('G', "cgroup", "PATH", agent_cb, A_CGROUP,
		 "only processes in this cgroup or under it,\n"
		 "or matching it as a glob (repeatable)"),
	OPT_SET(0, "idle", AO, idle, 1, "keep the idle task's samples (swapper)"),
	OPT_SET(0, "kernel-addresses", AO, kernel_addresses, 1,
		"send kernel frames' addresses too (by default\n"
		"their names alone leave the host)"),
	OPT_CALL(0, "duration", "SECONDS", agent_cb, A_DURATION, "stop after SECONDS"),
	OPT_CALL(0, "symbols-idle", "SECONDS", agent_cb, A_SYMBOLS_IDLE,
		 "close a file's debug info when no new address has needed it for\n"
		 "SECONDS (default 60; 0: never)"),
	OPT_CALL(0, "heap-budget", "SIZE", agent_cb, A_HEAP_BUDGET,
		 "past this much heap, close files' debug info, the least\n"
		 "recently needed first (default 64M; 0: no bound)"),
	OPT_SET('q', "quiet", AO, quiet, 1, "say nothing but errors"),
	LIVE_OPTIONS(AO, rec, record_child),
	OPT_END(),
};

#undef AO

static void agent_usage(FILE *out)
{
	fputs("usage: prof agent [options]\n"
	      "       prof agent --push http://pyroscope:4040 [options]\n"
	      "       prof agent -p PID[,PID...] --listen 127.0.0.1:6061 [options]\n"
	      "\n"
	      "prof record's options below say what to sample; here -e defaults to\n"
	      "cpu-clock, -F to 49 and -g is on, and -a is the target where no -p, -t\n"
	      "or -C is given.\n"
	      "\n", out);
	opt_usage(out, agent_options);
}

static void opts_release(struct agent_opts *a)
{
	char **lists[] = { a->push, a->labels, a->comms, a->cgroups, a->hosts };
	size_t ns[] = { a->npush, a->nlabels, a->ncomms, a->ncgroups, a->nhosts };

	for (int l = 0; l < 5; l++) {
		for (size_t i = 0; i < ns[l]; i++)
			free(lists[l][i]);
		free(lists[l]);
	}
	record_opts_release(&a->rec);
}

/* Whether t is all a bearer token's characters (RFC 6750's b64token). */
static int is_token(const char *t)
{
	return strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") ==
	       strlen(t);
}

/*
 * A secret from a file: its first line, which must not be empty, of
 * token characters (a bearer token) or of any printable ones (a
 * password); the file readable by its owner alone, as ssh wants its
 * keys. NULL after a message.
 */
static char *read_secret(const char *opt, const char *path, int token)
{
	size_t len;
	int err;
	char *b = file_read_regular(path, 4096, &len, &err);
	char *t;
	struct stat st;

	if (!b) {
		fprintf(stderr, "prof: %s: cannot read '%s': %s\n", opt, path, strerror(err));
		return NULL;
	}
	b = xreallocarray(b, len + 1, 1);
	b[len] = '\0';
	b[strcspn(b, "\r\n")] = '\0';
	t = token ? b + strspn(b, " \t") : b;
	if (!*t || (token && !is_token(t))) {
		fprintf(stderr, "prof: %s: '%s' holds no %s on its first line%s\n", opt, path,
			token ? "token" : "password", token ? " (letters, digits and -._~+/=)" : "");
		free(b);
		return NULL;
	}
	for (const char *c = t; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			fprintf(stderr, "prof: %s: '%s' has a control character on its first line\n",
				opt, path);
			free(b);
			return NULL;
		}
	if (stat(path, &st) == 0 && (st.st_mode & 0077)) {
		fprintf(stderr, "prof: %s: '%s' can be read by others (mode %03o); chmod 600 it\n",
			opt, path, (unsigned)(st.st_mode & 0777));
		free(b);
		return NULL;
	}
	t = xstrdup(t);
	free(b);
	return t;
}

/* A secret from --OPT's file, else from the environment variable env; NULL with *bad when wrong. */
static char *secret_of(const char *opt, const char *path, const char *env, int token, int *bad)
{
	const char *v = getenv(env);

	if (path) {
		char *t = read_secret(opt, path, token);

		*bad = !t;
		return t;
	}
	if (!v || !*v)
		return NULL;
	if (token && !is_token(v)) {
		fprintf(stderr, "prof: $%s is not a token (letters, digits and -._~+/=)\n", env);
		*bad = 1;
		return NULL;
	}
	return xstrdup(v);
}

/* --- the recorder and its reader ------------------------------------------------- */

struct agent {
	struct agent_opts *o;
	struct collect *coll;
	struct symbols *sym;
	struct pusher *push;
	struct profile_opts po;		/* its profile's */
	struct live live;		/* the recorder, feeding a profile */
	int restarts;
};

/* collect_opts.poke: the recorder woken for a pass now (SIGURG only wakes its loop) */
static void poke_recorder(void *arg)
{
	struct agent *ag = arg;
	pid_t child = __atomic_load_n(&ag->live.child, __ATOMIC_RELAXED);

	if (child > 0)
		kill(child, SIGURG);
}

/*
 * Before the recorder is stopped: what it has read, delivered while it
 * lives. Its passes for new programs are written out at its clock, and
 * the file of a program deleted at its exit is opened through the
 * recorder's hold, which ends with the recorder: read after, the last
 * second's short programs went unnamed. Waited for while the delivery
 * moves (a loaded host's agent is seconds behind), up to 10 s; 1.5 s
 * without a sample delivered (an idle host, or a filter) ends the wait.
 */
static void settle(struct agent *ag)
{
	uint64_t t0 = mono_ns(), moved = t0, poked = t0, seen = collect_delivered(ag->coll), d;
	struct timespec ms10 = { 0, 10000000 };

	poke_recorder(ag);
	while (ag->live.child && (d = collect_delivered(ag->coll)) < t0) {
		uint64_t now = mono_ns();

		if (d != seen)
			seen = d, moved = now;
		if (now - moved > 1500000000ULL || now - t0 > 10000000000ULL)
			break;
		if (now - poked > 200000000ULL)
			poked = now, poke_recorder(ag);
		nanosleep(&ms10, NULL);
	}
}

static void on_window(void *arg, const struct window *w)
{
	struct agent *ag = arg;

	if (ag->push)
		pusher_window(ag->push, w);
}

static char *default_spool(void)
{
	const char *state = getenv("STATE_DIRECTORY"), *home = getenv("HOME");
	char buf[4096];

	/* systemd's StateDirectory=, then root's, then the user's */
	if (state && state[0] == '/' && !strchr(state, ':'))
		snprintf(buf, sizeof(buf), "%s/spool", state);
	else if (!geteuid())
		snprintf(buf, sizeof(buf), "/var/lib/prof/agent");
	else if (getenv("XDG_STATE_HOME") && getenv("XDG_STATE_HOME")[0] == '/')
		snprintf(buf, sizeof(buf), "%s/prof/agent", getenv("XDG_STATE_HOME"));
	else
		snprintf(buf, sizeof(buf), "%s/.local/state/prof/agent", home ? home : "/tmp");
	return xstrdup(buf);
}

static int run_agent(struct agent_opts *o, int argc, char **argv)
{
	struct agent ag = { .o = o };
	struct collect_opts co = { 0 };
	struct symbols_opts so = { .demangle = 1, .inline_frames = 1, .srcline = 1 };
	struct serve *srv = NULL;
	char err[512], *token = NULL, *push_token = NULL, *push_password = NULL, *spool = NULL;
	const char **resource = NULL;
	struct utsname u;
	sigset_t mask;
	int sfd = -1, status = 1, loopback, signalled = 0;
	double end = 0, backoff = 1, restart_at = 0;
	struct pollfd pfd;

	if (strcmp(o->listen, "none")) {
		loopback = serve_is_loopback(o->listen);
		if (loopback < 0) {
			fprintf(stderr, "prof: --listen: '%s' is not HOST:PORT with a port from 0 to "
				"65535, or unix:PATH (127.0.0.1:6061, [::1]:6061, 0.0.0.0:6061); see "
				"'prof agent --help'\n", o->listen);
			return EXIT_USAGE;
		}
		if (!loopback && !o->token_file) {
			fprintf(stderr, "prof: --listen %s: other hosts could read this host's "
				"profiles; give --token-file FILE, whose token requests must carry\n",
				o->listen);
			return EXIT_USAGE;
		}
	} else if (!o->npush) {
		fprintf(stderr, "prof: --listen none and no --push: the profiles would go nowhere; "
			"see 'prof agent --help'\n");
		return EXIT_USAGE;
	}
	if (o->token_file && !(token = read_secret("--token-file", o->token_file, 1)))
		return EXIT_USAGE;
	{
		int bad = 0;

		push_token = secret_of("--push-token-file", o->push_token_file, "PROF_PUSH_TOKEN", 1,
				       &bad);
		if (!bad)
			push_password = secret_of("--push-password-file", o->push_password_file,
						  "PROF_PUSH_PASSWORD", 0, &bad);
		if (!bad && push_password) {
			size_t users = 0;

			for (size_t i = 0; i < o->npush; i++)
				users += (size_t)push_has_user(o->push[i]);
			if (!users) {
				fprintf(stderr, "prof: a push password (%s) but no --push URL names its "
					"user: give it as https://USER@HOST\n", o->push_password_file ?
					"--push-password-file" : "$PROF_PUSH_PASSWORD");
				bad = 1;
			}
		}
		if (bad) {
			free(token);
			free(push_token);
			free(push_password);
			return EXIT_USAGE;
		}
	}
	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "unknown");

	co.window_ns = (uint64_t)o->window * 1000000000;
	co.grace_ns = 2000000000;
	co.poke = poke_recorder;
	co.poke_ctx = &ag;
	co.labels = o->sample_labels;
	co.kernel_addresses = o->kernel_addresses;
	co.cgroups = o->cgroups;
	co.ncgroups = o->ncgroups;
	co.period_ns = o->rec.freq ? 1000000000 / o->rec.freq : 0;
	/* OTLP's Resource: the app as service.name, the host, --label's pairs */
	for (size_t i = 0; i < o->npush; i++)
		co.otlp |= push_kind_of(o->push[i], err, sizeof(err)) == PUSH_OTLP;
	if (co.otlp) {
		resource = xreallocarray(NULL, 2 * (o->nlabels + 2), sizeof(*resource));
		resource[0] = "service.name";
		resource[1] = o->app;
		resource[2] = "host.name";
		resource[3] = u.nodename;
		for (size_t i = 0; i < o->nlabels; i++) {
			const char *eq = strchr(o->labels[i], '=');
			char *k = xstrdup(o->labels[i]);

			k[eq - o->labels[i]] = '\0';
			resource[4 + 2 * i] = k;
			resource[5 + 2 * i] = eq + 1;
		}
		co.resource = (const char *const *)resource;
		co.nresource = (int)o->nlabels + 2;
	}
	ag.coll = collect_new(&co);
	ag.sym = symbols_new(&so);
	if (!ag.sym) {
		fprintf(stderr, "prof: agent: cannot set up the symbolizer: %s\n", strerror(errno));
		goto out;
	}

	/* Signals come through a signalfd; every thread started from here on blocks them. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		fprintf(stderr, "prof: agent: signalfd: %s\n", strerror(errno));
		goto out;
	}

	if (o->npush) {
		struct push_opts po = {
			.urls = o->push, .nurls = o->npush,
			.spool_bytes = o->spool_bytes,
			.app = o->app, .tenant = o->tenant, .token = push_token,
			.password = push_password,
			.host = u.nodename, .labels = o->labels, .nlabels = o->nlabels,
			.freq = o->rec.freq, .quiet = o->quiet,
		};

		spool = o->spool ? xstrdup(o->spool) : default_spool();
		po.spool = spool;
		ag.push = pusher_new(&po, err, sizeof(err));
		if (!ag.push) {
			fprintf(stderr, "prof: %s\n", err);
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (strcmp(o->listen, "none")) {
		srv = serve_start(o->listen, token, (const char *const *)o->hosts, o->nhosts, ag.coll, err,
				  sizeof(err));
		if (!srv) {
			fprintf(stderr, "prof: --listen: %s\n", err);
			status = EXIT_USAGE;
			goto out;
		}
		{
			const char *a = serve_address(srv), *who = token ?
				" to whoever sends the bearer token" :
				" to this user only (--token-file serves others)";

			if (!o->quiet && !strncmp(a, "unix:", 5))
				fprintf(stderr, "prof: agent: serving /debug/pprof/profile on %s%s "
					"; curl --unix-socket %s http://localhost/debug/pprof/profile\n",
					a, who, a + 5);
			else if (!o->quiet)
				fprintf(stderr, "prof: agent: serving http://%s/debug/pprof/profile%s\n",
					a, who);
		}
	}
	/*
	 * Its profile: every sample resolved whole, in time order (a window
	 * ends when the samples of its end are in), handed to the collector
	 * once the filters kept it; threads and files let go as they go
	 */
	ag.po = (struct profile_opts){
		.input = "the recorder's stream",
		.sym = ag.sym,
		.chains = 1,
		.ordered = 1,
		.collector = &collect_collector,
		.collector_ctx = ag.coll,
		.f = { .comm = (const char *const *)o->comms, .ncomm = o->ncomms,
		       .no_idle = !o->idle, .t_start = -1, .t_end = -1 },
		.forget_exited = 1,
		.trim_idle = o->symbols_idle > 0 ? (uint64_t)(o->symbols_idle * 1e9) : 0,
		.trim_budget = (size_t)o->heap_budget,
	};
	ag.live = (struct live){ .cmd = "agent", .argv = argv, .argc = argc, .po = &ag.po,
				 .err_fd = -1, .child_fd = -1 };
	if (live_start(&ag.live))
		goto out;
	if (!o->quiet)
		fprintf(stderr, "prof: agent: sampling %s at %llu Hz, %g s windows%s\n",
			o->rec.all_cpus || o->rec.has_cpus ? "every process" : "the processes given",
			(unsigned long long)o->rec.freq, o->window,
			o->npush ? "" : "; nothing pushed (no --push)");
	if (o->duration)
		end = mono_s() + o->duration;
	pfd.fd = sfd;
	pfd.events = POLLIN;
	for (;;) {
		int stop = 0;
		/*
		 * Awake when there is work: a signal (SIGCHLD: the recorder
		 * ended), a window to open or close, the end, a restart; and
		 * at least every 2 s. An idle host's agent is not woken 5
		 * times a second to find nothing to do.
		 */
		double wait = (double)collect_due(ag.coll, mono_ns()) / 1e9, now = mono_s();

		if (wait > 2)
			wait = 2;
		if (end && end - now < wait)
			wait = end - now;
		if (!ag.live.child && restart_at && restart_at - now < wait)
			wait = restart_at - now;
		if (poll(&pfd, 1, wait > 0 ? (int)(wait * 1000) + 1 : 0) > 0) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD)
					stop = signalled = 1;
		}
		if (end && mono_s() >= end)
			stop = 1;
		if (stop)
			break;
		if (live_reap(&ag.live, &status)) {
			/* a recorder that failed at once, with its reason said, failed for good */
			int early = WIFEXITED(status) && WEXITSTATUS(status) && !ag.restarts &&
				    mono_s() - ag.live.started < 3;

			if (early) {
				/* it could not start: its error said why; nothing to retry */
				status = WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : 1;
				goto out;
			}
			fprintf(stderr, "prof: agent: the recorder %s %d; starting it again in %g s\n",
				WIFSIGNALED(status) ? "was killed by signal" : "exited with status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), backoff);
			restart_at = mono_s() + backoff;
			backoff = backoff * 2 > 60 ? 60 : backoff * 2;
		}
		if (!ag.live.child && restart_at && mono_s() >= restart_at) {
			restart_at = 0;
			ag.restarts++;
			if (live_start(&ag.live))
				goto out;
		}
		if (ag.live.child && mono_s() - ag.live.started > 60)
			backoff = 1;
		collect_tick(ag.coll, mono_ns(), 0, on_window, &ag);
	}
	status = 0;
	if (ag.live.child) {
		int st;

		settle(&ag);
		st = live_end(&ag.live);

		if (WIFEXITED(st) && WEXITSTATUS(st))
			status = 1;
	}
	/* the window in progress, cut short: nothing sampled is left behind */
	collect_tick(ag.coll, mono_ns(), 1, on_window, &ag);
	if (!o->quiet) {
		struct collect_stats st;

		uint64_t closed, reopened;

		collect_stats(ag.coll, &st);
		symbols_trim_counts(ag.sym, &closed, &reopened);
		fprintf(stderr, "prof: agent: %llu windows (%llu without samples), %llu samples "
			"(%llu late), %llu lost records, %llu scrapes; %llu files' debug info "
			"closed, %llu opened again; %llu files of exited processes let go\n",
			(unsigned long long)st.windows, (unsigned long long)st.empty,
			(unsigned long long)st.samples, (unsigned long long)st.late,
			(unsigned long long)live_lost(&ag.live), (unsigned long long)st.scrapes,
			(unsigned long long)closed, (unsigned long long)reopened,
			(unsigned long long)symbols_released(ag.sym));
	}
out:
	live_end(&ag.live);
	if (ag.live.err[0])
		fprintf(stderr, "prof: agent: %s\n", ag.live.err);
	if (FREE_AT_EXIT)
		live_free(&ag.live);
	serve_stop(srv);
	/*
	 * At the end of --duration, a request in flight has 5 s to end; told
	 * to stop, 0.5 s: the agent is gone within 2 s of SIGTERM, and what
	 * was not sent waits in the spool for the next run.
	 */
	pusher_free(ag.push, signalled ? 500 : 5000);
	if (FREE_AT_EXIT) {
		collect_free(ag.coll);
		symbols_free(ag.sym);
	} else {
		/* every window is sent or spooled: the rest goes with the process */
		symbols_stop(ag.sym);
	}
	if (sfd >= 0)
		close(sfd);
	free(token);
	free(push_token);
	free(push_password);
	free(spool);
	for (size_t i = 0; resource && i < o->nlabels; i++)
		free((char *)resource[4 + 2 * i]);
	free(resource);
	return status;
}

int cmd_agent(int argc, char **argv)
{
	struct agent_opts o = { 0 };
	char err[512];
	int first, ret;

	record_opts_init(&o.rec);
	o.listen = DEFAULT_LISTEN;
	o.window = DEFAULT_WINDOW;
	o.symbols_idle = 60;
	o.heap_budget = 64ull << 20;
	o.spool_bytes = DEFAULT_SPOOL_BYTES;
	o.app = "prof";
	/* pid makes a series of every process a backend sees: each short one a new one */
	o.sample_labels = LABEL_ALL & ~LABEL_PID;
	ret = opt_parse(agent_options, &o, OPT_NO_WORDS, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		agent_usage(stdout);
		opts_release(&o);
		return 0;
	}
	if (ret) {
		opts_release(&o);
		return opt_say("agent", ret, err);
	}
	if (!o.rec.freq_given && !o.rec.period)
		o.rec.freq = DEFAULT_FREQ;
	if (!o.rec.nr_pids && !o.rec.nr_tids && !o.rec.has_cpus)
		o.rec.all_cpus = 1;
	if (o.rec.callchain == CALLCHAIN_NONE)
		o.rec.callchain = CALLCHAIN_FP;
	if (o.record_child) {
		live_child_opts(&o.rec);	/* the recorder, into the agent's pipe */
		/*
		 * a pass a second: the agent's windows wait 2 s for their
		 * samples, and a scrape's end pokes it (poke_recorder())
		 */
		o.rec.drain_ms = 1000;
		/* the kernel says each sample's cgroup: no /proc/PID/cgroup per process and window */
		o.rec.all_cgroups = cgroup_samples();
	}
	/* CPU time by default: what every backend shows as CPU */
	if (record_opts_check(&o.rec, "cpu-clock", err, sizeof(err))) {
		fprintf(stderr, "prof: %s; see 'prof agent --help'\n", err);
		opts_release(&o);
		return EXIT_USAGE;
	}
	/* record_main() takes o.rec over, and leaves it empty */
	ret = o.record_child ? record_main(&o.rec, argc, argv) : run_agent(&o, argc, argv);
	opts_release(&o);
	return ret;
}
