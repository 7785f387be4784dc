/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Long text on a terminal through a pager, as git and perf's --stdio users know it. */
#ifndef PROF_CMD_PAGER_H
#define PROF_CMD_PAGER_H

/*
 * When standard output is a terminal, send it through a pager:
 * $PROF_PAGER, else $PAGER, else less (with LESS=FRX unless LESS is set:
 * it quits at once when the text fits the screen, and keeps colours and
 * the screen); none when that is empty or "cat", or less is not
 * installed. 1 when one runs.
 */
int pager_start(void);
/* The text is all written: close the pipe and wait for the user to leave the pager. */
void pager_end(void);

#endif
