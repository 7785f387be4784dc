// SPDX-License-Identifier: GPL-2.0-or-later
/* The warnings about a profile's input: one wording for every command. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "reader.h"
#include "session.h"
#include "symbols.h"
#include "warn.h"

void input_warnings(const char *input, const struct reader *rd, const struct session *ss,
		    uint64_t nskip, uint64_t first, const char *why, const char *verb)
{
	uint64_t bytes, at;
	const char *zwhy;
	uint64_t nz = reader_damaged(rd, &bytes, &at, &zwhy);

	if (ss) {
		uint64_t unrounded = session_unrounded(ss);
		size_t more;

		for (const char *const *w = session_jit_warnings(ss, &more); *w; w++)
			fprintf(stderr, "prof: warning: %s\n", *w);
		if (more)
			fprintf(stderr, "prof: warning: and %zu more problems with JIT code\n", more);
		nskip = session_skipped(ss, &first, &why);
		if (unrounded)
			fprintf(stderr, "prof: warning: '%s' has stretches of over 32 MiB without "
				"FINISHED_ROUND records; their records were put in time order 32 MiB "
				"at a time\n", input);
	}
	if (nz)
		fprintf(stderr, "prof: warning: '%s': %" PRIu64 " damaged compressed record%s "
			"skipped (%" PRIu64 " bytes, the first at offset %" PRIu64 ": %s); "
			"%s the rest\n", input, nz, nz == 1 ? "" : "s", bytes, at, zwhy, verb);
	if (nskip)
		fprintf(stderr, "prof: warning: '%s': %" PRIu64 " record%s that prof cannot use "
			"skipped (the first at offset %" PRIu64 ": %s); %s the rest\n", input,
			nskip, nskip == 1 ? "" : "s", first, why, verb);
	if (reader_truncated(rd))
		fprintf(stderr, "prof: warning: '%s' is truncated at offset %" PRIu64
			"; %s the records before it\n", input, reader_offset(rd), verb);
}

void symbols_warnings_print(const struct symbols *sym)
{
	size_t more;

	for (const char *const *w = symbols_warnings(sym, &more); w && *w; w++)
		fprintf(stderr, "prof: warning: %s\n", *w);
	if (more)
		fprintf(stderr, "prof: warning: and %zu more files like these resolve nothing\n",
			more);
}
