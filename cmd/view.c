// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof view [FILE]`: the profile as prof report's HTML page, opened in
 * the user's browser (xdg-open) where there is a display; with none (an
 * ssh session), or with --serve, served on a loopback port at a URL with
 * a random token, printed, until interrupted, as samply does. It is prof
 * report with the HTML page for its format: report's option table joined
 * into its own, the report written by report_write(), so that every
 * option of prof report's views and filters applies.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "httpd.h"
#include "format.h"
#include "opt.h"
#include "report.h"
#include "report-run.h"
#include "view.h"
#include "xalloc.h"

extern char **environ;

#define PORT_FIRST 3000		/* tried in turn when no --port is given, as samply does */
#define PORT_TRIES 100

struct viewcmd {
	struct report r;
	int serve;		/* --serve */
	int port;		/* --port; 0: the first free from PORT_FIRST */
};

static int port_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	char *end;
	long p = strtol(arg, &end, 10);

	(void)o;
	if (!*arg || *end || p < 1 || p > 65535)
		return opt_error(st, "--port: give a port from 1 to 65535");
	((struct viewcmd *)st->ctx)->port = (int)p;
	return 0;
}

static const struct opt view_cmd_options[] = {
	OPT_SET(0, "serve", struct viewcmd, serve, 1,
		"serve the page even where there is a display"),
	OPT_CALL(0, "port", "N", port_cb, 0, "serve on port N (default: the first free from 3000)"),
	OPT_TABLE(report_options, struct viewcmd, r),
	OPT_END(),
};

static void usage_out(FILE *out)
{
	fputs("usage: prof view [FILE] [--serve] [--port N] [-o PAGE] [prof report's options]\n\n"
	      "Writes the profile (FILE, or -i FILE; default prof.data) as prof report --format html\n"
	      "does and opens the page in the browser (xdg-open). With no display, or --serve,\n"
	      "serves it on 127.0.0.1 instead and prints its URL until interrupted; -o PAGE keeps\n"
	      "the page (default: a temporary file). Every option of prof report's views and\n"
	      "filters applies.\n\n", out);
	opt_usage(out, view_cmd_options);
}

/* Whether the session has a display xdg-open can open a browser on. */
static int have_display(void)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");

	return (x && *x) || (w && *w);
}

/* xdg-open page; 0 when it said it opened it, else -1 with why. */
static int open_browser(const char *page, char *why, size_t len)
{
	char *argv[] = { (char *)"xdg-open", (char *)page, NULL };
	pid_t pid;
	int st, err = posix_spawnp(&pid, "xdg-open", NULL, NULL, argv, environ);

	if (err) {
		snprintf(why, len, "cannot run xdg-open: %s", strerror(err));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, len, "xdg-open: %s", strerror(errno));
			return -1;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(why, len, "xdg-open failed (exit status %d)",
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return -1;
	}
	return 0;
}

struct page {
	const char *token;
	const char *html;
	size_t len;
};

/* The page at /TOKEN/ (and /TOKEN/profile.html), 404 for anything else. */
static int on_request(void *ctx, const struct httpd_req *r, const struct httpd_peer *peer,
		      struct httpd_reply *rep, void **job)
{
	static const char missing[] = "not found: open the URL prof view printed\n";
	const struct page *pg = ctx;
	size_t t = strlen(pg->token);
	int head = !strcmp(r->method, "HEAD");

	(void)peer;
	(void)job;
	if (strcmp(r->method, "GET") && !head) {
		*rep = (struct httpd_reply){ .status = 405, .data = "only GET\n", .len = 9 };
		return 0;
	}
	if (r->path[0] == '/' && !strncmp(r->path + 1, pg->token, t) && r->path[t + 1] == '/' &&
	    (!r->path[t + 2] || !strcmp(r->path + t + 2, "profile.html"))) {
		*rep = (struct httpd_reply){ .status = 200, .type = "text/html; charset=utf-8",
					     .data = pg->html, .len = pg->len, .no_body = head };
		return 0;
	}
	*rep = (struct httpd_reply){ .status = 404, .data = missing, .len = sizeof(missing) - 1 };
	return 0;
}

static int no_poll(void *ctx, void *job, struct httpd_reply *rep)
{
	(void)ctx;
	(void)job;
	(void)rep;
	return 1;
}

static void no_cancel(void *ctx, void *job)
{
	(void)ctx;
	(void)job;
}

/* Serve page until SIGINT or SIGTERM. */
static int serve(const char *file, int port)
{
	size_t n;
	int err, sig;
	char *html = file_read_regular(file, SIZE_MAX, &n, &err);
	unsigned char r[16];
	char token[2 * sizeof(r) + 1], addr[32], why[512];
	struct page pg = { .token = token };
	struct httpd_handler h = { .ctx = &pg, .request = on_request, .poll = no_poll,
				   .cancel = no_cancel };
	struct httpd_opts o = { .listen = addr, .port_tries = port ? 0 : PORT_TRIES - 1 };
	struct httpd *srv;
	sigset_t mask, old;

	if (!html) {
		fprintf(stderr, "prof: cannot read the page '%s': %s\n", file, strerror(err));
		return 1;
	}
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		fprintf(stderr, "prof: cannot make the page's URL: %s\n", strerror(errno));
		free(html);
		return 1;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		snprintf(token + 2 * i, 3, "%02x", r[i]);
	pg.html = html;
	pg.len = n;
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port ? port : PORT_FIRST);
	/* the server's thread leaves the signals to this one */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	srv = httpd_start(&o, &h, why, sizeof(why));
	if (!srv) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "prof: %s%s\n", why,
			port ? "; give another --port" : "");
		free(html);
		return 1;
	}
	printf("http://127.0.0.1:%u/%s/\n", httpd_port(srv), token);
	fflush(stdout);
	fprintf(stderr, "prof: serving the page at the URL above until interrupted (Ctrl-C); "
		"from another machine: ssh -L %u:127.0.0.1:%u HOST, then open it there\n",
		httpd_port(srv), httpd_port(srv));
	sigwait(&mask, &sig);
	httpd_stop(srv);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(html);
	return 0;
}

/* Parse into v: -1 to go on, or the exit status (--help, bad options). */
static int parse_options(struct viewcmd *v, int argc, char **argv)
{
	const struct format *html = format_find("html");
	char err[512];
	int first, ret = opt_parse(view_cmd_options, v, OPT_PERMUTE, argc, argv, &first, err,
				   sizeof(err));

	if (ret == 1) {
		usage_out(stdout);
		return 0;
	}
	if (!ret && v->r.format != html) {
		fprintf(stderr, "prof: -F: prof view writes the HTML page; prof report -F FORMAT "
			"writes the others\n");
		return EXIT_USAGE;
	}
	if (!ret && argc - first > 1) {
		snprintf(err, sizeof(err), "unexpected argument '%s': one profile at most",
			 argv[first + 1]);
		ret = -1;
	}
	if (!ret && first < argc)
		v->r.input = argv[first];	/* prof view FILE, as -i FILE */
	if (!ret)
		ret = report_ready(&v->r, err, sizeof(err));
	return ret ? opt_say("view", ret, err) : -1;
}

int cmd_view(int argc, char **argv)
{
	struct viewcmd v = { .port = 0 };
	int status;
	char tmp[4096], why[512];

	report_init(&v.r, "view", format_find("html"));
	status = parse_options(&v, argc, argv);
	if (status >= 0) {
		report_release(&v.r);
		return status;
	}
	if (!v.r.output) {
		const char *dir = getenv("TMPDIR");
		int fd;

		snprintf(tmp, sizeof(tmp), "%s/prof-view-XXXXXX.html", dir && *dir ? dir : "/tmp");
		fd = mkstemps(tmp, 5);
		if (fd < 0) {
			fprintf(stderr, "prof: cannot make a temporary file for the page in '%s': %s\n",
				dir && *dir ? dir : "/tmp", strerror(errno));
			report_release(&v.r);
			return 1;
		}
		close(fd);
		v.r.output = tmp;
	}
	status = report_write(&v.r);
	report_release(&v.r);
	if (status) {
		if (v.r.output == tmp)
			unlink(tmp);
		return status;
	}
	if (!v.serve && have_display()) {
		if (!open_browser(v.r.output, why, sizeof(why))) {
			fprintf(stderr, "prof: opened %s in the browser\n", v.r.output);
			return 0;
		}
		fprintf(stderr, "prof: warning: %s; serving the page instead\n", why);
	}
	status = serve(v.r.output, v.port);
	if (v.r.output == tmp)
		unlink(tmp);
	return status;
}
