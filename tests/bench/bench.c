/*
 * tests/bench/bench.c - time the registered benchmarks and print the table.
 *
 * Every row is measured first, then the table is printed, so a row can be
 * shown relative to a baseline that comes later in link order.  Figures are
 * kept in tenths of a cycle (there is no floating point in the kernel).
 * Rows that name a Linux key are listed once more after the table, one
 * "bench: linux KEY FIGURE NAME" line each, for the runner to set beside
 * Linux's figures (tests/bench/linux-reference.txt).
 */
#include "bench/bench.h"
#include "arch/x86_64/cpu.h"
#include "kernel/printk.h"
#include "mm/vmstat.h"
#include "lib/string.h"

#define MAX_ROWS	128

extern const struct benchmark *const __start_benchmarks[], *const __stop_benchmarks[];

struct result {
	const struct benchmark *b;
	u64 tenths;		/* median cycles per op, times 10 */
	u64 events;		/* b->event per 1,000 ops, times 1,000 */
};

static void sort_u64(u64 *v, int n)
{
	for (int i = 1; i < n; i++) {
		u64 x = v[i];
		int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Calibration rows first, then by name, so related rows stand together. */
static bool row_before(const struct result *a, const struct result *b)
{
	bool cal_a = !strncmp(a->b->name, "calibration", 11);
	bool cal_b = !strncmp(b->b->name, "calibration", 11);

	if (cal_a != cal_b)
		return cal_a;
	return strcmp(a->b->name, b->b->name) < 0;
}

static void sort_rows(struct result *rows, int n)
{
	for (int i = 1; i < n; i++) {
		struct result x = rows[i];
		int j = i;

		for (; j > 0 && row_before(&x, &rows[j - 1]); j--)
			rows[j] = rows[j - 1];
		rows[j] = x;
	}
}

static u64 paused_at, excluded;	/* of the sample being measured */

/** bench_pause - stop counting (a row's set-up) until bench_resume() */
void bench_pause(void)
{
	paused_at = rdtsc_ordered();
}

/** bench_resume - count again */
void bench_resume(void)
{
	excluded += rdtsc_ordered() - paused_at;
}

static struct result measure(const struct benchmark *b)
{
	u64 samples[BENCH_SAMPLES];
	unsigned long events;

	b->run(b->iters);	/* warm caches and TLBs; not counted */
	events = b->counts ? global_vm_event(b->event) : 0;
	for (int i = 0; i < BENCH_SAMPLES; i++) {
		u64 t0;

		excluded = 0;
		t0 = rdtsc_ordered();
		b->run(b->iters);
		samples[i] = (rdtsc_ordered() - t0 - excluded) * 10 / b->iters;
	}
	if (b->counts)
		events = (global_vm_event(b->event) - events) * 1000000 /
			 (BENCH_SAMPLES * b->iters);
	sort_u64(samples, BENCH_SAMPLES);
	return (struct result){ b, samples[BENCH_SAMPLES / 2], events };
}

static const struct result *find_row(const struct result *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(rows[i].b->name, name))
			return &rows[i];
	}
	return NULL;
}

static void print_row(const struct result *r, const struct result *base)
{
	printk("bench: %-44s %10llu.%llu", r->b->name,
	       (unsigned long long)(r->tenths / 10), (unsigned long long)(r->tenths % 10));
	if (base && base->tenths) {
		u64 ratio = r->tenths * 100 / base->tenths;

		printk(KERN_CONT "  %4llu.%02llux %s", (unsigned long long)(ratio / 100),
		       (unsigned long long)(ratio % 100), base->b->name);
	}
	if (r->b->counts)
		printk(KERN_CONT "  [%llu.%03llu %s per 1000 ops]",
		       (unsigned long long)(r->events / 1000),
		       (unsigned long long)(r->events % 1000), vm_event_names[r->b->event]);
	printk(KERN_CONT "\n");
}

/**
 * bench_run_all - measure every benchmark whose name matches @glob, print a table
 *
 * Context: boot CPU, after every subsystem is up.
 */
void bench_run_all(const char *glob)
{
	static struct result rows[MAX_ROWS];
	int n = 0;

	for (const struct benchmark *const *b = __start_benchmarks;
	     b < __stop_benchmarks && n < MAX_ROWS; b++) {
		if (glob_match(glob, (*b)->name))
			rows[n++] = measure(*b);
	}
	sort_rows(rows, n);
	printk("bench: %-44s %12s  %s\n", "benchmark", "cycles/op", "ratio");
	for (int i = 0; i < n; i++)
		print_row(&rows[i], rows[i].b->baseline ?
			  find_row(rows, n, rows[i].b->baseline) : NULL);
	for (int i = 0; i < n; i++) {
		if (rows[i].b->linux_key)
			printk("bench: linux %s %llu.%llu %s\n", rows[i].b->linux_key,
			       (unsigned long long)(rows[i].tenths / 10),
			       (unsigned long long)(rows[i].tenths % 10), rows[i].b->name);
	}
	/* Counts, not times: stress-highalloc's rows (highalloc_bench.c) come once, after the table. */
	if (glob_match(glob, "highalloc"))
		stress_highalloc_report();
	printk("bench: done (%d rows, median of %d samples each)\n", n, BENCH_SAMPLES);
}
