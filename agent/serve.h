/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prof agent's pull endpoint: Go's net/http/pprof protocol, the part of
 * it that is CPU profiling. GET /debug/pprof/profile?seconds=N answers
 * with the gzipped pprof of the next N seconds (default 30, at most
 * 3600); /debug/pprof/ is the index. Nothing a request says is run:
 * only GET and HEAD, no body, headers bounded by a per-connection memory
 * limit, at most 16 connections (4 per address) and 4 scrapes waiting at
 * once, an idle connection dropped after 30 s. With a token, every
 * request must carry "Authorization: Bearer TOKEN".
 */
#ifndef PROF_AGENT_SERVE_H
#define PROF_AGENT_SERVE_H

#include "collect.h"

struct serve;

/*
 * Listen on addr ("HOST:PORT", "[V6]:PORT" or ":PORT" for every
 * address); token NULL for none. NULL after a one-line reason in err.
 */
struct serve *serve_start(const char *addr, const char *token, struct collect *c,
			  char *err, size_t errlen);
/* The address as bound (the port the kernel chose for port 0). */
const char *serve_address(const struct serve *s);
/* 1 when addr is a loopback address (127.0.0.0/8, ::1, localhost); -1 when it does not parse. */
int serve_is_loopback(const char *addr);
void serve_stop(struct serve *s);

#endif
