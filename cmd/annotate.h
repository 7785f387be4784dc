/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof annotate`: a hot function's samples by source line and instruction. */
#ifndef PROF_CMD_ANNOTATE_H
#define PROF_CMD_ANNOTATE_H

int cmd_annotate(int argc, char **argv);

#endif
