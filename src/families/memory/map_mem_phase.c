// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * map-mem's progress: the phase now running (creating, filling, ...), as a status line on
 * stderr when it is a terminal and -q is not given: a 1M-entry fill or delete, or making
 * thousands of owners, takes seconds. The fill, delete and count loops call the stop callback
 * once per chunk of entries, which redraws it. Never in the stdout document.
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "core/run.h"
#include "util/log.h"
#include "map_mem_run.h"

static struct {
	bool on;
	char what[128];
	uint32_t nr, chunk, calls;
	uint64_t t0, drawn;
} prog;

void mm_phase_init(void)
{
	prog.on = isatty(STDERR_FILENO) && !mb_log_quiet();
}

static void phase_draw(void)
{
	double s = (double)(mb_now_ns() - prog.t0) / 1e9;
	uint64_t done = (uint64_t)prog.calls * prog.chunk;
	char line[256];

	if (prog.nr)
		snprintf(line, sizeof(line), "%s: %.0f %% of %u, %.1f s", prog.what,
			 100.0 * (double)(done < prog.nr ? done : prog.nr) / prog.nr, prog.nr, s);
	else
		snprintf(line, sizeof(line), "%s, %.1f s", prog.what, s);
	prog.drawn = mb_now_ns();
	mb_log_status(line);
}

void mm_phase(uint32_t nr, uint32_t chunk, const char *fmt, ...)
{
	va_list ap;

	if (!prog.on)
		return;
	va_start(ap, fmt);
	vsnprintf(prog.what, sizeof(prog.what), fmt, ap);
	va_end(ap);
	prog.nr = nr;
	prog.chunk = chunk;
	prog.calls = 0;
	prog.t0 = mb_now_ns();
	phase_draw();
}

bool mm_phase_tick(void)
{
	if (prog.on) {
		prog.calls++;
		if (mb_now_ns() - prog.drawn > 200000000ULL)
			phase_draw();
	}
	return mb_interrupted();
}

bool mm_phase_stop(void *ctx)
{
	(void)ctx;
	return mm_phase_tick();
}

void mm_phase_clear(void)
{
	if (prog.on)
		mb_log_status(NULL);
}
