/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoints (-e sched:sched_switch): their ids from tracefs, and the
 * tracing data perf writes beside them (PERF_RECORD_HEADER_TRACING_DATA:
 * the formats of the events, so that a reader decodes their raw fields).
 */
#ifndef PROF_RECORD_TRACEFS_H
#define PROF_RECORD_TRACEFS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The id of tracepoint "SYS:NAME" (name, as given to -e). 0 and *id; or
 * -1 with a one-line reason in err (no such tracepoint, tracefs not
 * mounted or not readable).
 */
int tracefs_event_id(const char *name, uint64_t *id, char *err, size_t errlen);

/*
 * tracefs's list of tracepoints (available_events: "sched:sched_switch"
 * a line), malloc'ed, *len bytes; NULL with a one-line reason in err.
 */
char *tracefs_available(size_t *len, char *err, size_t errlen);

/*
 * The tracing data of the n tracepoints names[] ("SYS:NAME"), laid out as
 * perf's trace-event-info writes it (version 0.6): header_page,
 * header_event, no ftrace formats, each system's event formats, no
 * kallsyms, the printk formats, no saved cmdlines. Malloc'ed, *len bytes;
 * NULL with a reason in err.
 */
unsigned char *tracefs_tracing_data(const char *const *names, size_t n, size_t *len,
				    char *err, size_t errlen);

/*
 * Set --filter's filter on the fd of tracepoint event: 0, or -1 having
 * said in one line why the kernel refused it and what it takes.
 */
int tracefs_set_filter(int fd, const char *filter, const char *event);

#endif
