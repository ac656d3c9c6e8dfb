/*
 * tests/host/bench_host.h - what a host benchmark (tests/host/bench_*.c)
 * gives bench_main.c, which is the main() of all of them:
 *
 *	bench_NAME SCENARIO N	set SCENARIO up, then N pairs in measured_loop()
 *	bench_NAME --native	every scenario natively: ns per pair
 *	bench_NAME --list	the scenarios, one a line: name<TAB>description
 *	bench_NAME --title	the title of the table
 *
 * tests/host/bench.sh runs each scenario under callgrind with N and 2N
 * pairs, counting only inside measured_loop(), and divides the difference
 * by N: instructions per pair, exactly, with the set-up and the loop's
 * entry and exit cancelled out.
 */
#ifndef TESTS_HOST_BENCH_HOST_H
#define TESTS_HOST_BENCH_HOST_H

#include <stddef.h>

struct bench {
	const char *title;
	size_t nr_scenarios;
	/* scenario @i's name, and what it measures in *@what */
	const char *(*describe)(size_t i, const char **what);
	/* get scenario @i ready (not measured) */
	void (*setup)(size_t i);
	/* @n pairs of scenario @i, inside the bench's measured_loop() */
	void (*run)(size_t i, unsigned long n);
};

extern const struct bench bench;

/* measured_loop() must stay one function of its own, for callgrind's --toggle-collect */
#ifdef __clang__
#define __noclone
#else
#define __noclone	__attribute__((noclone))
#endif

#endif
