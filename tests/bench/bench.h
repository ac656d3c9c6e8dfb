/*
 * bench/bench.h - benchmarks that run inside the kernel (make bench).
 *
 * A benchmark row is a function that performs @iters operations; the
 * framework times it with a serialised rdtsc, repeats it BENCH_SAMPLES
 * times and reports the median cycles per operation.  A row may name
 * another row as its baseline and is then also shown as a ratio to it:
 * ratios within one run are what to compare, since absolute cycles under
 * QEMU mean little.  Register a row from any file under tests/bench/:
 *
 *	static void run_memset(unsigned long iters) { ... }
 *	BENCHMARK(memset_4k, "memset 4 KiB", NULL, 1000, run_memset);
 *
 * A row whose workload is one that make bench-linux measures on Linux names that row's key
 * with BENCHMARK_LINUX(); make bench then shows Linux's figure beside ours (docs/bench.md
 * defines each key's workload, which the row must match exactly):
 *
 *	BENCHMARK_LINUX(page_order3, "page alloc+free order-3", NULL, "page_order3",
 *			10000, run_order3);
 *
 * Benchmarks never pass or fail; they only print.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "lib/compiler.h"

#define BENCH_SAMPLES	7

struct benchmark {
	const char *name;		/* shown in the table, and the key for baselines */
	const char *baseline;		/* name of the row to divide by, or NULL */
	const char *linux_key;		/* make bench-linux's key for this workload, or NULL */
	unsigned long iters;		/* operations per sample */
	void (*run)(unsigned long iters);
	bool counts;			/* also count @event per 1,000 ops */
	int event;			/* an enum vm_event_item */
};

#define BENCHMARK_LINUX(id, row_name, baseline_name, key, nr_iters, fn)	\
	static const struct benchmark __bench_##id = {			\
		.name = row_name, .baseline = baseline_name,		\
		.linux_key = key, .iters = nr_iters, .run = fn };	\
	static const struct benchmark *const __bench_ptr_##id		\
	__used __section(".benchmarks") = &__bench_##id

#define BENCHMARK(id, row_name, baseline_name, nr_iters, fn)		\
	BENCHMARK_LINUX(id, row_name, baseline_name, NULL, nr_iters, fn)

/*
 * A row that also shows how often a vmstat event happened, per 1,000
 * operations of the measured samples (the TLB flushes of the vmalloc
 * space, say): a count, as exact as the instructions.
 */
#define BENCHMARK_COUNTING(id, row_name, baseline_name, key, nr_iters, fn, item) \
	static const struct benchmark __bench_##id = {			\
		.name = row_name, .baseline = baseline_name,		\
		.linux_key = key, .iters = nr_iters, .run = fn,		\
		.counts = true, .event = item };			\
	static const struct benchmark *const __bench_ptr_##id		\
	__used __section(".benchmarks") = &__bench_##id

void bench_run_all(const char *glob);
void stress_highalloc_report(void);

/* Set-up inside a row that must not be counted: between bench_pause() and bench_resume(). */
void bench_pause(void);
void bench_resume(void);

#endif
