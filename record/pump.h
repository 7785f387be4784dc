/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The drain in two threads. The recorder's own thread empties the rings
 * and does nothing else with what it takes: each pass copies every ring's
 * new records into a buffer of the pump's and hands the ring's space back
 * to the kernel at once. A worker thread takes the passes in order and
 * does the rest: the leaf repair's scan of the pass's maps, the record
 * filters (drain.h), the file's rounds, compression and writes, and the
 * held files' expiry. So a slow filter, a level of zstd or a slow disk
 * delays the file, not the rings: the kernel loses records only when the
 * pump's buffers (16 of a ring's size for each ring) are full too.
 *
 * The worker owns the writer, the filters and their state (the fold, the
 * leaf repair, the codemap, keep, hold, carry) from pump_start() to
 * pump_stop(); the recorder's thread touches them only after pump_idle()
 * said the worker has done everything handed to it, and before the next
 * pump_pass().
 */
#ifndef PROF_RECORD_PUMP_H
#define PROF_RECORD_PUMP_H

struct recorder;

/*
 * The worker started (rc->pump), held: passes wait for pump_hold(rc, 0).
 * 0, or -1 after a message.
 */
int pump_start(struct recorder *rc);
/*
 * Held (on), the worker takes no pass, so that the recorder's thread may
 * write (the header, the processes already running) while pump_pass()
 * still empties the rings; call it on only with the worker idle.
 */
void pump_hold(struct recorder *rc, int on);
/*
 * pump_pass(), for a long write of the recorder's own (a synth tick, with
 * the worker held): a system-wide recording at 40 kHz filled its rings in
 * the 50-100 ms that writing the running processes took.
 */
void pump_tick(void *rc);
/*
 * One pass over the rings, copied and handed to the worker; with snap,
 * the overwrite rings' newest records too (--overwrite: at the end and at
 * --switch-output). 0, or -1 when the worker failed (it said why).
 */
int pump_pass(struct recorder *rc, int snap);
/* Wait until the worker has done every pass handed to it: 0, or -1 as above. */
int pump_idle(struct recorder *rc);
/* pump_idle(), then the worker ended and its buffers freed (rc->pump NULL). */
int pump_stop(struct recorder *rc);
/* On the way out of a failure: what waits thrown away, the worker ended (NULL: nothing). */
void pump_drop(struct recorder *rc);

#endif
