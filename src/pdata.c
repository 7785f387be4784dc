// SPDX-License-Identifier: GPL-2.0-or-later
/* Names of record types and features, for prof script and messages. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "pdata.h"

static const char *const kernel_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
};

static const char *const user_names[] = {
	[PDATA_HEADER_ATTR - 64] = "ATTR",
	[PDATA_HEADER_EVENT_TYPE - 64] = "EVENT_TYPE",
	[PDATA_HEADER_TRACING_DATA - 64] = "TRACING_DATA",
	[PDATA_HEADER_BUILD_ID - 64] = "BUILD_ID",
	[PDATA_FINISHED_ROUND - 64] = "FINISHED_ROUND",
	[PDATA_ID_INDEX - 64] = "ID_INDEX",
	[PDATA_AUXTRACE_INFO - 64] = "AUXTRACE_INFO",
	[PDATA_AUXTRACE - 64] = "AUXTRACE",
	[PDATA_AUXTRACE_ERROR - 64] = "AUXTRACE_ERROR",
	[PDATA_THREAD_MAP - 64] = "THREAD_MAP",
	[PDATA_CPU_MAP - 64] = "CPU_MAP",
	[PDATA_STAT_CONFIG - 64] = "STAT_CONFIG",
	[PDATA_STAT - 64] = "STAT",
	[PDATA_STAT_ROUND - 64] = "STAT_ROUND",
	[PDATA_EVENT_UPDATE - 64] = "EVENT_UPDATE",
	[PDATA_TIME_CONV - 64] = "TIME_CONV",
	[PDATA_HEADER_FEATURE - 64] = "FEATURE",
	[PDATA_COMPRESSED - 64] = "COMPRESSED",
	[PDATA_FINISHED_INIT - 64] = "FINISHED_INIT",
	[PDATA_COMPRESSED2 - 64] = "COMPRESSED2",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *const pdata_ns_names[PDATA_NS_NR] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

const char *pdata_record_name(uint32_t type)
{
	if (type < ARRAY_SIZE(kernel_names))
		return kernel_names[type];
	if (type >= 64 && type - 64 < ARRAY_SIZE(user_names))
		return user_names[type - 64];
	return NULL;
}

const char *pdata_feature_name(uint64_t id)
{
	switch (id) {
	case PDATA_FEAT_TRACING_DATA: return "tracing_data";
	case PDATA_FEAT_BUILD_ID: return "build_id";
	case PDATA_FEAT_HOSTNAME: return "hostname";
	case PDATA_FEAT_OSRELEASE: return "osrelease";
	case PDATA_FEAT_VERSION: return "version";
	case PDATA_FEAT_ARCH: return "arch";
	case PDATA_FEAT_NRCPUS: return "nrcpus";
	case PDATA_FEAT_CPUDESC: return "cpudesc";
	case PDATA_FEAT_CPUID: return "cpuid";
	case PDATA_FEAT_TOTAL_MEM: return "total_mem";
	case PDATA_FEAT_CMDLINE: return "cmdline";
	case PDATA_FEAT_EVENT_DESC: return "event_desc";
	case PDATA_FEAT_GROUP_DESC: return "group_desc";
	case PDATA_FEAT_BRANCH_STACK: return "branch_stack";
	case PDATA_FEAT_CLOCKID: return "clockid";
	case PDATA_FEAT_COMPRESSED: return "compressed";
	case PDATA_FEAT_CLOCK_DATA: return "clock_data";
	default: return NULL;
	}
}

int pdata_anon_name(const char *name, size_t len)
{
	static const char *const pre[] = { "//anon", "[anon", "/memfd:", "/anon_hugepage",
					   "/dev/zero" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (len >= strlen(pre[i]) && !memcmp(name, pre[i], strlen(pre[i])))
			return 1;
	return len == 6 && !memcmp(name, "[heap]", 6);
}
