// SPDX-License-Identifier: GPL-2.0-or-later
/* What an event's samples weigh. See evkind.h. */
#include "config.h"

#include <string.h>

#include "evkind.h"

int evkind_time(const char *name, uint64_t config)
{
	return config == ~0ULL && (!strcmp(name, "off-cpu") || !strcmp(name, "preempted") ||
				   !strcmp(name, "wall"));
}

int evkind_clock(const char *name)
{
	return !strcmp(name, "cpu-clock") || !strcmp(name, "task-clock");
}

int evkind_ns(const char *name, uint64_t config)
{
	return evkind_clock(name) || evkind_time(name, config);
}
