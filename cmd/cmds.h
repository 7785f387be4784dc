/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands main() dispatches to. */
#ifndef PROF_CMDS_H
#define PROF_CMDS_H

#include "agent.h"
#include "annotate.h"
#include "archive.h"
#include "convert.h"
#include "diffcmd.h"
#include "list.h"
#include "record.h"
#include "report.h"
#include "script.h"
#include "stat.h"
#include "top.h"
#include "view.h"

#endif
