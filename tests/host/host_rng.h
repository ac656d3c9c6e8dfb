/*
 * tests/host/host_rng.h - a small, fast pseudo-random generator (splitmix64)
 * for the randomized tests, the benchmarks' traces and the host's
 * get_random_long(): the same seed gives the same sequence.
 */
#ifndef TESTS_HOST_HOST_RNG_H
#define TESTS_HOST_HOST_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The tests' generator: set host_rng_state to the seed. */
static uint64_t host_rng_state;

static inline uint64_t host_rng(void)
{
	return splitmix64(&host_rng_state);
}

#endif
