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
 * Benchmarks never pass or fail; they only print.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "lib/compiler.h"

#define BENCH_SAMPLES	7

struct benchmark {
	const char *name;		/* shown in the table, and the key for baselines */
	const char *baseline;		/* name of the row to divide by, or NULL */
	unsigned long iters;		/* operations per sample */
	void (*run)(unsigned long iters);
};

#define BENCHMARK(id, row_name, baseline_name, nr_iters, fn)		\
	static const struct benchmark __bench_##id = {			\
		.name = row_name, .baseline = baseline_name,		\
		.iters = nr_iters, .run = fn };				\
	static const struct benchmark *const __bench_ptr_##id		\
	__used __section(".benchmarks") = &__bench_##id

void bench_run_all(const char *glob);

#endif
