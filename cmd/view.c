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

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "opt.h"
#include "report.h"
#include "view.h"
#include "xalloc.h"

extern char **environ;

#define PORT_FIRST 3000		/* tried in turn when no --port is given, as samply does */
#define PORT_TRIES 100

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

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

static void put_all(int fd, const char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR && !stop)
			continue;
		if (w <= 0)
			return;	/* the browser went away: its loss */
		b += w;
		n -= (size_t)w;
	}
}

/* One request on c: the page at /TOKEN/, 404 for anything else. */
static void answer(int c, const char *token, const char *page, size_t n)
{
	char req[8192], head[512], path[64];
	size_t got = 0;
	struct timeval tv = { .tv_sec = 5 };
	int get, ok;

	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (got < sizeof(req) - 1) {
		ssize_t r = read(c, req + got, sizeof(req) - 1 - got);

		if (r <= 0)
			break;
		got += (size_t)r;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[got] = '\0';
	get = !strncmp(req, "GET ", 4);
	if (!get && strncmp(req, "HEAD ", 5))
		ok = -1;
	else {
		const char *p = req + (get ? 4 : 5);
		size_t len = strcspn(p, " ?\r\n");

		snprintf(path, sizeof(path), "/%s/", token);
		ok = (len == strlen(path) && !strncmp(p, path, len)) ||
		     (len == strlen(path) + 12 && !strncmp(p, path, strlen(path)) &&
		      !strncmp(p + strlen(path), "profile.html", 12));
	}
	if (ok > 0) {
		snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
			 "Content-Length: %zu\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n", n);
		put_all(c, head, strlen(head));
		if (get)
			put_all(c, page, n);
	} else {
		static const char body[] = "not found: open the URL prof view printed\n";

		snprintf(head, sizeof(head), "HTTP/1.1 %s\r\nContent-Type: text/plain\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n",
			 ok < 0 ? "405 Method Not Allowed" : "404 Not Found", sizeof(body) - 1);
		put_all(c, head, strlen(head));
		put_all(c, body, sizeof(body) - 1);
	}
	close(c);
}

/* A listening socket on 127.0.0.1: port, or the first free from PORT_FIRST; -1 after a line. */
static int listen_on(int port, int *bound)
{
	int first = port ? port : PORT_FIRST, last = port ? port : PORT_FIRST + PORT_TRIES - 1;

	for (int p = first; p <= last; p++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p) };
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

		if (s < 0) {
			fprintf(stderr, "prof: cannot serve the page: %s\n", strerror(errno));
			return -1;
		}
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(s, (struct sockaddr *)&a, sizeof(a)) && !listen(s, 16)) {
			*bound = p;
			return s;
		}
		if (errno != EADDRINUSE || p == last) {
			fprintf(stderr, "prof: cannot serve on 127.0.0.1:%d: %s%s\n", p, strerror(errno),
				port ? "; give another --port" : "");
			close(s);
			return -1;
		}
		close(s);
	}
	return -1;
}

/* Serve page until SIGINT or SIGTERM. */
static int serve(const char *file, int port)
{
	size_t n;
	int err;
	char *page = file_read_regular(file, SIZE_MAX, &n, &err);
	unsigned char r[12];
	char token[2 * sizeof(r) + 1];
	struct sigaction sa = { .sa_handler = on_signal };
	int s, bound = 0;

	if (!page) {
		fprintf(stderr, "prof: cannot read the page '%s': %s\n", file, strerror(err));
		return 1;
	}
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		fprintf(stderr, "prof: cannot make the page's URL: %s\n", strerror(errno));
		free(page);
		return 1;
	}
	for (size_t i = 0; i < sizeof(r); i++)
		snprintf(token + 2 * i, 3, "%02x", r[i]);
	s = listen_on(port, &bound);
	if (s < 0) {
		free(page);
		return 1;
	}
	/* no SA_RESTART: the signal ends accept() */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	printf("http://127.0.0.1:%d/%s/\n", bound, token);
	fflush(stdout);
	fprintf(stderr, "prof: serving the page at the URL above until interrupted (Ctrl-C); "
		"from another machine: ssh -L %d:127.0.0.1:%d HOST, then open it there\n", bound,
		bound);
	while (!stop) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			fprintf(stderr, "prof: cannot serve the page: %s\n", strerror(errno));
			break;
		}
		answer(c, token, page, n);
	}
	close(s);
	free(page);
	return stop ? 0 : 1;
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
