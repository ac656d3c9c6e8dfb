/*
 * tests/host/bench_kmalloc.c - the slab's kmalloc()+kfree() on the host
 * beside the malloc()+free() of other allocators, on the same traces (not
 * a test).  How a bench runs and is counted: bench_host.h;
 * tests/host/bench_peers.sh puts the allocators side by side.
 *
 * The file is built once per allocator, each its own program so that no
 * two allocators share a process:
 *
 *   bench_kmalloc_slab      -DBENCH_SLAB: kmalloc(size, GFP_KERNEL) and kfree()
 *                           of mm/slab.c over the host's buddy allocator, built
 *                           as the benchmark kernel is (-O2, CONFIG_DEBUG_VM=0,
 *                           CONFIG_SLUB_DEBUG=0), one CPU, one node
 *   bench_kmalloc_glibc     malloc() and free() of the C library
 *   bench_kmalloc_jemalloc  ... linked with -ljemalloc
 *   bench_kmalloc_tcmalloc  ... linked with -ltcmalloc_minimal
 *   bench_kmalloc_mimalloc  ... linked with -lmimalloc
 *
 * A peer's program checks that malloc() really is its allocator's.  Each
 * program's --title is its allocator's name: the column of the table.
 *
 * The traces: a pair (allocate, free) at a fixed size, known when compiled
 * as it mostly is in a kernel (kmalloc(sizeof(...))), and once with the size
 * known only at run time; then a random trace: 1,000 live objects, each
 * step frees one of them chosen at random and allocates a new one of a
 * random size from 8 B to 4 KiB (every power-of-two range equally likely),
 * the same sequence (seed) for everyone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_host.h"
#include "host_rng.h"

#ifdef BENCH_SLAB
#include "mm_host.h"
#include "mm/slab_internal.h"

#define MiB	(1UL << 20)

#define ALLOC(size)	kmalloc(size, GFP_KERNEL)
#define FREE(p)		kfree(p)

static void allocator_init(void)
{
	static const struct host_range ram[] = { { 1 * MiB, 255 * MiB, 0 } };

	host_printk_quiet = true;
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 1);
	kmem_cache_init();
}
#else
#define ALLOC(size)	malloc(size)
#define FREE(p)		free(p)

/* Is malloc() the one of the library this program was linked with (BENCH_LIB)? */
static void allocator_init(void)
{
	Dl_info info;

	if (!dladdr((void *)malloc, &info) || !info.dli_fname ||
	    !strstr(info.dli_fname, strcmp(BENCH_LIB, "glibc") ? BENCH_LIB : "libc.so")) {
		fprintf(stderr, "bench_kmalloc_%s: malloc() is not %s's but %s's\n", BENCH_LIB,
			BENCH_LIB, info.dli_fname ? info.dli_fname : "?");
		exit(1);
	}
}
#endif

#define LIVE		1000
#define TRACE		(1 << 16)	/* steps of the random trace, repeated as needed */
#define TRACE_SEED	0x5eedb0a7ULL

enum { PAIR_8, PAIR_64, PAIR_256, PAIR_1K, PAIR_4K, PAIR_64_RUNTIME, RANDOM, NR_SCENARIOS };

static const struct {
	const char *name, *what;
} scenarios[NR_SCENARIOS] = {
	[PAIR_8] = { "pair-8", "alloc+free of 8 B (size known when compiled)" },
	[PAIR_64] = { "pair-64", "alloc+free of 64 B" },
	[PAIR_256] = { "pair-256", "alloc+free of 256 B" },
	[PAIR_1K] = { "pair-1024", "alloc+free of 1 KiB" },
	[PAIR_4K] = { "pair-4096", "alloc+free of 4 KiB" },
	[PAIR_64_RUNTIME] = { "pair-64-rt", "alloc+free of 64 B, size known only at run time" },
	[RANDOM] = { "random", "free one of 1,000 live objects, alloc 8 B-4 KiB (random, "
			       "same trace)" },
};

static void *live[LIVE];
static unsigned short trace_slot[TRACE];
static unsigned short trace_size[TRACE];
static unsigned long trace_pos;
static volatile size_t runtime_64 = 64;

/* Keep the compiler from dropping an allocation nobody reads. */
static inline void escape(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

#define PAIRS(size)							\
	for (unsigned long i = 0; i < n; i++) {				\
		void *p = ALLOC(size);					\
									\
		escape(p);						\
		FREE(p);						\
	}

/* What callgrind counts: n pairs of scenario @s and nothing else. */
__attribute__((noinline)) __noclone void measured_loop(unsigned int s, unsigned long n)
{
	size_t size = runtime_64;

	switch (s) {
	case PAIR_8:
		PAIRS(8);
		break;
	case PAIR_64:
		PAIRS(64);
		break;
	case PAIR_256:
		PAIRS(256);
		break;
	case PAIR_1K:
		PAIRS(1024);
		break;
	case PAIR_4K:
		PAIRS(4096);
		break;
	case PAIR_64_RUNTIME:
		PAIRS(size);
		break;
	default:
		for (unsigned long i = 0; i < n; i++, trace_pos++) {
			unsigned int slot = trace_slot[trace_pos % TRACE];

			FREE(live[slot]);
			live[slot] = ALLOC(trace_size[trace_pos % TRACE]);
			escape(live[slot]);
		}
	}
}

/* 8 B to 4 KiB, each power-of-two range [2^k, 2^(k+1)) as likely as the others */
static unsigned short random_size(void)
{
	uint64_t r = host_rng();
	unsigned int k = 3 + r % 9;

	return (unsigned short)((1U << k) + (r >> 8) % (1U << k));
}

static void setup(size_t i)
{
	static bool ready;

	if (!ready) {
		allocator_init();
		host_rng_state = TRACE_SEED;
		for (unsigned int t = 0; t < TRACE; t++) {
			trace_slot[t] = (unsigned short)(host_rng() % LIVE);
			trace_size[t] = random_size();
		}
		for (unsigned int l = 0; l < LIVE; l++)
			live[l] = ALLOC(random_size());
		ready = true;
	}
	/* warm up: every path taken once, the caches hot; the trace starts from the top */
	measured_loop((unsigned int)i, 2 * TRACE);
	trace_pos = 0;
}

static void run(size_t i, unsigned long n)
{
	measured_loop((unsigned int)i, n);
}

static const char *describe(size_t i, const char **what)
{
	*what = scenarios[i].what;
	return scenarios[i].name;
}

const struct bench bench = {
#ifdef BENCH_SLAB
	.title = "slab",
#else
	.title = BENCH_LIB,
#endif
	.nr_scenarios = NR_SCENARIOS,
	.describe = describe,
	.setup = setup,
	.run = run,
};
