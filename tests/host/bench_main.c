/*
 * tests/host/bench_main.c - main() of the host benchmarks (see bench_host.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_host.h"

static size_t find(const char *prog, const char *name)
{
	const char *what;

	for (size_t i = 0; i < bench.nr_scenarios; i++) {
		if (!strcmp(bench.describe(i, &what), name))
			return i;
	}
	fprintf(stderr, "%s: no scenario '%s'\n", prog, name);
	exit(2);
}

static double native_ns(size_t i)
{
	const unsigned long n = 2000000;
	struct timespec t0, t1;

	bench.setup(i);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bench.run(i, n);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
}

int main(int argc, char **argv)
{
	const char *what;

	if (argc == 2 && !strcmp(argv[1], "--title")) {
		printf("%s\n", bench.title);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < bench.nr_scenarios; i++) {
			const char *name = bench.describe(i, &what);

			printf("%s\t%s\n", name, what);
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--native")) {
		for (size_t i = 0; i < bench.nr_scenarios; i++)
			printf("%s\t%.1f\n", bench.describe(i, &what), native_ns(i));
		return 0;
	}
	if (argc == 3) {
		size_t i = find(argv[0], argv[1]);

		bench.setup(i);
		bench.run(i, strtoul(argv[2], NULL, 0));
		return 0;
	}
	fprintf(stderr, "usage: %s SCENARIO N | --native | --list | --title\n", argv[0]);
	return 2;
}
