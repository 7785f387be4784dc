/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prof agent's push side: each closed window goes into a spool directory
 * per backend (one file per window and event), from which a thread per
 * backend sends it, oldest first, and deletes it once the backend said
 * 2xx. A backend that is down or slow holds up only its own thread:
 * windows wait on disk, are sent again with backoff (1 s doubling to
 * 60 s), and survive a restart of the agent. The spool is bounded: past
 * its size, the oldest windows go, and the agent says how many.
 *
 * Delivery is at least once: a window whose request was answered but
 * whose file was not yet deleted when the agent died is sent again.
 *
 * Backends, told apart by the URL's path:
 *   .../api/profiles/writeraw      Parca's WriteRaw (JSON, the pprof in base64)
 *   .../v1development/profiles     an OpenTelemetry collector: OTLP/HTTP, protobuf
 *   anything else                  Grafana Pyroscope: POST URL/ingest, the pprof in a form
 */
#ifndef PROF_AGENT_PUSH_H
#define PROF_AGENT_PUSH_H

#include <stddef.h>
#include <stdint.h>

#include "collect.h"

enum push_kind { PUSH_PYROSCOPE, PUSH_PARCA, PUSH_OTLP };

struct push_opts {
	char **urls;			/* --push, each */
	size_t nurls;
	const char *spool;		/* --spool: the directory */
	uint64_t spool_bytes;		/* --spool-size, per backend */
	const char *app;		/* --app: Pyroscope's application name */
	const char *tenant;		/* --tenant: X-Scope-OrgID */
	const char *token;		/* --push-token-file's token: Authorization: Bearer (URLs without a user) */
	const char *password;		/* --push-password-file's: basic authentication's, for URLs with a user */
	const char *host;		/* the host label */
	char **labels;			/* --label K=V, each */
	size_t nlabels;
	uint64_t freq;			/* samples per second, for Pyroscope's sampleRate */
	int quiet;
};

struct pusher;

/*
 * Make the spool directories and start a thread per backend: what an
 * earlier run left in the spool is sent first. NULL after a one-line
 * reason in err.
 */
struct pusher *pusher_new(const struct push_opts *o, char *err, size_t errlen);
/* Spool w for every backend. */
void pusher_window(struct pusher *p, const struct window *w);
/* Stop the threads: a request in flight is given up to wait_ms to end. */
void pusher_free(struct pusher *p, int wait_ms);

/* The kind of backend url names; -1 for a URL prof cannot send to (or with a password), with why. */
int push_kind_of(const char *url, char *err, size_t errlen);
/* Whether url names a user (USER@host): basic authentication, with push_opts' password. */
int push_has_user(const char *url);

#endif
