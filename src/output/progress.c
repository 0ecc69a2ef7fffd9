// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/log.h"
#include "progress.h"
#include "core/runner.h"

#define BAR_CELLS 20

void mb_progress_duration(char *buf, size_t len, double seconds)
{
	long s = (long)(seconds + 0.5);

	if (seconds < 0)
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else if (s >= 60)
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	else
		snprintf(buf, len, "%ld s", s);
}

void mb_progress_format(char *buf, size_t len, int done, int total, double elapsed, double left,
			const char *what, int width)
{
	char bar[BAR_CELLS + 1], el[32], lf[32];
	int fill = total > 0 ? done * BAR_CELLS / total : 0;
	int n;

	for (int i = 0; i < BAR_CELLS; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_CELLS] = '\0';
	mb_progress_duration(el, sizeof(el), elapsed);
	mb_progress_duration(lf, sizeof(lf), left);
	n = snprintf(buf, len, "[%s] %d/%d points, %s elapsed, ~%s left%s%s", bar, done, total, el,
		     lf, what && *what ? ": " : "", what ? what : "");
	/* Never wrap: a wrapped line cannot be redrawn in place. */
	if (width > 0 && n >= width && (size_t)width < len)
		buf[width - 1] = '\0';
}

static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col;
}

static double left_estimate(const struct mb_progress *p, double elapsed)
{
	double rest = p->est_total - p->est_done;

	/* Scale what is left by how the finished points compared with their estimate. */
	if (p->est_done > 0 && elapsed > 0)
		rest *= elapsed / p->est_done;
	return rest < 0 ? 0 : rest;
}

static void draw(struct mb_progress *p, const char *what)
{
	double elapsed = (double)(mb_now_ns() - p->t0) / 1e9;
	char buf[512];

	if (!p->bar)
		return;
	mb_progress_format(buf, sizeof(buf), p->done, p->total, elapsed,
			   left_estimate(p, elapsed), what, term_width());
	mb_log_status(buf);
}

void mb_progress_start(struct mb_progress *p, int total, double est_total, bool bar, bool lines)
{
	memset(p, 0, sizeof(*p));
	p->total = total;
	p->est_total = est_total;
	p->t0 = mb_now_ns();
	p->bar = bar;
	p->lines = lines;
}

void mb_progress_begin(struct mb_progress *p, const char *what)
{
	draw(p, what);
}

void mb_progress_end(struct mb_progress *p, double est, const char *line)
{
	p->done++;
	p->est_done += est;
	if (p->lines) {
		if (p->bar)
			fputs("\r\033[K", stderr);
		fprintf(stderr, "[%d/%d] %s\n", p->done, p->total, line);
		fflush(stderr);
	}
	draw(p, NULL);
}

void mb_progress_stop(struct mb_progress *p)
{
	if (p->bar)
		mb_log_status(NULL);
}
