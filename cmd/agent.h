/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof agent`: continuous profiling of the host, pulled over HTTP and pushed to backends. */
#ifndef PROF_CMD_AGENT_H
#define PROF_CMD_AGENT_H

/* Runs `prof agent`; argv[0] is "agent". Returns the exit status. */
int cmd_agent(int argc, char **argv);

#endif
