// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof view [FILE]`: the profile as prof report's HTML page, opened in
 * the user's browser (xdg-open) where there is a display; with none (an
 * ssh session), or with --serve, served on a loopback port at a URL with
 * a random token, printed, until interrupted, as samply does. The page is
 * made by prof report -F html: every option of prof report's views and
 * filters applies.
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
#include "opt.h"
#include "report.h"
#include "view.h"
#include "xalloc.h"

extern char **environ;

#define PORT_FIRST 3000		/* tried in turn when no --port is given, as samply does */
#define PORT_TRIES 100

static void usage_out(FILE *out)
{
	fputs("usage: prof view [FILE] [--serve] [--port N] [-o PAGE] [prof report's options]\n\n"
	      "Writes the profile (FILE, or -i FILE; default prof.data) as prof report --format html\n"
	      "does and opens the page in the browser (xdg-open). With no display, or --serve,\n"
	      "serves it on 127.0.0.1 instead and prints its URL until interrupted.\n\n"
	      "  --serve            serve the page even where there is a display\n"
	      "  --port N           serve on port N (default: the first free from 3000)\n"
	      "  -o, --output PAGE  keep the page as PAGE (default: a temporary file)\n"
	      "  -h, --help         show this help\n\n"
	      "Every option of prof report's views and filters applies (see prof report --help):\n"
	      "  --comm, --pid, --tid, --cpu, --time, --sort, --children, --latency, ...\n", out);
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

int cmd_view(int argc, char **argv)
{
	const char *output = NULL, *input = NULL;
	int serve_it = 0, port = 0, status;
	char **rargv = xcalloc((size_t)argc + 8, sizeof(*rargv));
	int rargc = 0;
	char tmp[4096], why[512];

	rargv[rargc++] = (char *)"report";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (i == 1 && a[0] != '-') {
			input = a;
		} else if (!strcmp(a, "--")) {
			break;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_out(stdout);
			free(rargv);
			return 0;
		} else if (!strcmp(a, "--serve")) {
			serve_it = 1;
		} else if (!strcmp(a, "--port") || !strncmp(a, "--port=", 7)) {
			const char *v = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : NULL;
			char *end;
			long p = v ? strtol(v, &end, 10) : 0;

			if (!v || !*v || *end || p < 1 || p > 65535) {
				fprintf(stderr, "prof: --port: give a port from 1 to 65535; "
					"see 'prof view --help'\n");
				free(rargv);
				return EXIT_USAGE;
			}
			port = (int)p;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strncmp(a, "--output=", 9)) {
			output = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : NULL;
			if (!output || !*output) {
				fprintf(stderr, "prof: --output: give a file name; see 'prof view --help'\n");
				free(rargv);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "-F") || !strncmp(a, "--format", 8) ||
			   (a[0] == '-' && a[1] == 'F')) {
			fprintf(stderr, "prof: %s: prof view writes the HTML page; prof report -F FORMAT "
				"writes the others\n", a);
			free(rargv);
			return EXIT_USAGE;
		} else {
			rargv[rargc++] = argv[i];
		}
	}
	if (!output) {
		const char *dir = getenv("TMPDIR");
		int fd;

		snprintf(tmp, sizeof(tmp), "%s/prof-view-XXXXXX.html", dir && *dir ? dir : "/tmp");
		fd = mkstemps(tmp, 5);
		if (fd < 0) {
			fprintf(stderr, "prof: cannot make a temporary file for the page in '%s': %s\n",
				dir && *dir ? dir : "/tmp", strerror(errno));
			free(rargv);
			return 1;
		}
		close(fd);
		output = tmp;
	}
	rargv[rargc++] = (char *)"-F";
	rargv[rargc++] = (char *)"html";
	rargv[rargc++] = (char *)"-o";
	rargv[rargc++] = (char *)output;
	if (input) {
		rargv[rargc++] = (char *)"-i";
		rargv[rargc++] = (char *)input;
	}
	status = cmd_report(rargc, rargv);
	free(rargv);
	if (status) {
		if (output == tmp)
			unlink(tmp);
		return status;
	}
	if (!serve_it && have_display()) {
		if (!open_browser(output, why, sizeof(why))) {
			fprintf(stderr, "prof: opened %s in the browser\n", output);
			return 0;
		}
		fprintf(stderr, "prof: warning: %s; serving the page instead\n", why);
	}
	status = serve(output, port);
	if (output == tmp)
		unlink(tmp);
	return status;
}
