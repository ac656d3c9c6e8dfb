/*
 * tests/bench/basic.c - the rows every later figure is read against:
 * an empty loop (the cost of the measuring itself) and 4 KiB memset and
 * memcpy, the size of one page.
 */
#include "bench/bench.h"
#include "lib/string.h"

static u8 page_a[4096] __aligned(4096);
static u8 page_b[4096] __aligned(4096);

static void run_empty(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		barrier();
}
BENCHMARK(calibration, "calibration: empty loop iteration", NULL, 100000, run_empty);

static void run_memset(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++) {
		memset(page_a, (int)i, sizeof(page_a));
		barrier();
	}
}
BENCHMARK(memset_4k, "memset 4 KiB", NULL, 2000, run_memset);

static void run_memcpy(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++) {
		memcpy(page_b, page_a, sizeof(page_a));
		barrier();
	}
}
BENCHMARK(memcpy_4k, "memcpy 4 KiB", "memset 4 KiB", 2000, run_memcpy);
