// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - the terminal progress bar (sim/base/progress.h).
 */
#include "sim/base/progress.h"

#include <string.h>
#include <time.h>

static int64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

void progress_bar(FILE *f, const char *name, long done, long total, long scale,
		  const char *unit)
{
	char bar[41];
	int n = total > 0 ? (int)(done * 40 / total) : 40;

	n = n < 0 ? 0 : n > 40 ? 40 : n;
	memset(bar, '#', (size_t)n);
	memset(bar + n, '.', (size_t)(40 - n));
	bar[40] = '\0';
	/* a long name is cut so that the line still fits a terminal */
	if (name)
		fprintf(f, "\r%.30s [%s] %ld/%ld %s", name, bar, done / scale, total / scale, unit);
	else
		fprintf(f, "\r[%s] %ld/%ld %s", bar, done / scale, total / scale, unit);
	fflush(f);
}

void progress_init(struct progress *p, FILE *f, const char *unit, long scale)
{
	p->f = f;
	p->unit = unit;
	p->scale = scale > 0 ? scale : 1;
	p->start_ns = monotonic_ns();
	p->next_ns = p->start_ns + PROGRESS_DELAY_NS;
	p->drawn = false;
}

void progress_update(struct progress *p, const char *name, long done, long total)
{
	int64_t now;

	if (!p || !p->f)
		return;
	now = monotonic_ns();
	if (now < p->next_ns && !(p->drawn && done >= total))
		return;
	p->next_ns = now + PROGRESS_INTERVAL_NS;
	/* Pad: a shorter name than the last one leaves no characters behind. */
	progress_bar(p->f, name, done, total, p->scale, p->unit);
	fputs("     ", p->f);
	p->drawn = true;
}

void progress_trace_time(struct progress *p, unsigned int *calls, int64_t at_ns,
			 int64_t start_ns, int64_t end_ns)
{
	if ((++*calls % 4096 && at_ns < end_ns) || end_ns <= start_ns)
		return;
	/* in ms, shown as whole seconds (p->scale 1000) */
	progress_update(p, NULL, (long)((at_ns - start_ns) / 1000000),
			(long)((end_ns - start_ns) / 1000000));
}

void progress_end(struct progress *p)
{
	if (!p || !p->f || !p->drawn)
		return;
	fputc('\n', p->f);
	fflush(p->f);
	p->drawn = false;
}
