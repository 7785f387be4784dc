/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each backend prof agent pushes to takes and answers, apart from
 * how it is sent (push.c, the spool and the senders): the names and
 * labels of Pyroscope's /ingest and Parca's WriteRaw, whether a 2xx
 * answer is the backend's own success, an OTLP partial success that
 * rejects the profiles, and a request's body read from where its window
 * is mapped. The push URLs' checks are here too (push.h declares them).
 */
#ifndef PROF_AGENT_BACKEND_H
#define PROF_AGENT_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "push.h"

/* Pyroscope's name?{labels}: labels_each()'s callback, arg a struct pyro_name. */
struct pyro_name {
	FILE *f;
	int n;			/* labels so far */
};
void backend_pyro_label(void *arg, const char *k, const char *v, size_t klen);

/* Parca's labels as JSON: the callback, arg a struct parca_labels. */
struct parca_labels {
	FILE *f;
};
void backend_parca_label(void *arg, const char *k, const char *v, size_t klen);
/* Parca's profile name for an event: process_cpu for CPU time, as its scrape names it. */
void backend_parca_name(const char *event, char *out, size_t n);

/*
 * Whether a 2xx answer of content type ctype is the backend's own
 * success: 1, or 0 and what to fix in why.
 */
int backend_success(enum push_kind kind, const char *ctype, char *why, size_t whylen);
/*
 * An OTLP ExportProfilesServiceResponse of n bytes that says the
 * collector rejected profiles: 1 and why; 0 for a plain success.
 */
int backend_otlp_rejected(const void *reply, size_t n, char *why, size_t whylen);

/*
 * A request's body read from the spooled window where it lies (mapped),
 * never copied whole: Pyroscope's form part as it is, Parca's JSON with
 * the window in base64 made as libcurl asks for it.
 */
struct body_src {
	const char *head;		/* before the data (Parca's JSON up to the base64) */
	size_t head_len;
	const unsigned char *data;
	size_t len;
	int base64;			/* the data as base64 */
	const char *tail;
	size_t tail_len;
	uint64_t off;			/* bytes of the body given so far */
};
uint64_t body_src_len(const struct body_src *b);
/* libcurl's read callback (arg: the body_src). */
size_t body_src_read(char *out, size_t size, size_t n, void *arg);

#endif
