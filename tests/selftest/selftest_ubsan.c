/*
 * tests/selftest/selftest_ubsan.c - undefined behaviour that no case declared.
 *
 * Built with the sanitizer in every build (the Makefile's UBSAN_ALWAYS): the
 * runner's self-test proves that a UBSAN report fails the case it happens
 * in, as any other report does.
 */
#include "kunit/test.h"

static void undeclared_shift(struct kunit *test)
{
	volatile unsigned int one = 1, exponent = 32;
	volatile unsigned int r;

	r = one << exponent;
	KUNIT_EXPECT_EQ(test, r, r);
}

static struct kunit_case ubsan_cases[] = {
	KUNIT_CASE(undeclared_shift),
	{}
};
static struct kunit_suite ubsan_suite = { .name = "selftest_ubsan", .test_cases = ubsan_cases };
kunit_test_suite(ubsan_suite);
