/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prof agent's pull endpoint: Go's net/http/pprof protocol, the part of
 * it that is CPU profiling. GET /debug/pprof/profile?seconds=N answers
 * with the gzipped pprof of the next N seconds (default 30, at most
 * 3600); /debug/pprof/ is the index. Nothing a request says is run: only
 * GET and HEAD (and go tool pprof's POST to /debug/pprof/symbol, its body
 * dropped), on prof's server (src/httpd.h: every connection bounded in
 * time and count, Host checked), at most 4 scrapes in progress, each
 * cancelled when its client goes away.
 *
 * Who is served: with a token, whoever sends "Authorization: Bearer
 * TOKEN"; without one, only clients on this host whose socket is the
 * agent's own user's (or root's), which the kernel says (sock_diag for
 * TCP, SO_PEERCRED for a Unix socket): a host profile holds every user's
 * stacks, which perf_event_paranoid keeps from other users.
 */
#ifndef PROF_AGENT_SERVE_H
#define PROF_AGENT_SERVE_H

#include <stddef.h>

#include "collect.h"

struct serve;

/*
 * Listen on addr ("HOST:PORT", "[V6]:PORT", ":PORT" for every address,
 * or "unix:PATH"); token NULL for none; names, more names Host may say.
 * NULL after a one-line reason in err.
 */
struct serve *serve_start(const char *addr, const char *token, const char *const *names,
			  size_t nnames, struct collect *c, char *err, size_t errlen);
/* The address as bound (the port the kernel chose for port 0). */
const char *serve_address(const struct serve *s);
/*
 * 1 when addr is a loopback address (127.0.0.0/8, ::1, localhost) or a
 * Unix socket; 0 for another; -1 when it does not parse.
 */
int serve_is_loopback(const char *addr);
void serve_stop(struct serve *s);

#endif
