/*
 * tests/host/host_test.h - the smallest test harness that does the job.
 *
 *	HOST_TEST(name) { CHECK(x == 1); CHECK_STREQ(s, "abc"); }
 *
 * Each test program includes this once; main() runs every HOST_TEST in
 * order of definition and ends with "N passed, N failed".  The sanitizers
 * abort the program on the first error, which the runner counts as failure.
 * host_rng() (host_rng.h) is the randomized tests' generator.
 */
#ifndef TESTS_HOST_HOST_TEST_H
#define TESTS_HOST_HOST_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "host_rng.h"

#define HOST_TESTS_MAX	256

struct host_test {
	const char *name;
	void (*fn)(void);
};

static struct host_test host_tests[HOST_TESTS_MAX];
static int host_nr_tests, host_case_failed;

#define HOST_TEST(name)							\
	static void name(void);						\
	__attribute__((constructor)) static void register_##name(void)	\
	{								\
		host_tests[host_nr_tests++] = (struct host_test){ #name, name }; \
	}								\
	static void name(void)

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("    %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			host_case_failed = 1;				\
		}							\
	} while (0)

#define CHECK_STREQ(a, b)						\
	do {								\
		const char *__a = (a), *__b = (b);			\
		if (strcmp(__a, __b)) {					\
			printf("    %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, __a, __b); \
			host_case_failed = 1;				\
		}							\
	} while (0)

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);	/* a crash keeps the lines before it */
	for (int i = 0; i < host_nr_tests; i++) {
		host_case_failed = 0;
		host_tests[i].fn();
		printf("%s %d %s\n", host_case_failed ? "not ok" : "ok", i + 1, host_tests[i].name);
		if (host_case_failed)
			failed++;
		else
			passed++;
	}
	printf("%s: %d passed, %d failed\n", argv[0], passed, failed);
	return failed != 0;
}

#endif
