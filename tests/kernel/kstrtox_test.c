/*
 * tests/kernel/kstrtox_test.c - the strict number parser (lib/kstrtox.c).
 *
 * Every class of input Linux's kstrto*() distinguishes, one case each:
 * what is accepted (and in which base), junk (-EINVAL), overflow (-ERANGE),
 * signs, the one trailing newline, and that a failure leaves the result
 * alone.  The monitor's arguments and the command line go through these.
 */
#include "kunit/test.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"

#define ULL_MAX		(~0ULL)
#define LL_MAX		((long long)(ULL_MAX >> 1))
#define LL_MIN		(-LL_MAX - 1)

struct ull_case {
	const char *s;
	unsigned int base;
	int err;
	unsigned long long value;	/* when err is 0 */
};

static void check_ull(struct kunit *test, const struct ull_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned long long v = 12345;
		int err = kstrtoull(c[i].s, c[i].base, &v);

		KUNIT_EXPECT_EQ_MSG(test, err, c[i].err, "kstrtoull(\"%s\", %u)", c[i].s,
				    c[i].base);
		KUNIT_EXPECT_EQ_MSG(test, v, c[i].err ? 12345 : c[i].value,
				    "kstrtoull(\"%s\", %u)", c[i].s, c[i].base);
	}
}

static void accepts_numbers_in_each_base(struct kunit *test)
{
	static const struct ull_case cases[] = {
		{ "0", 10, 0, 0 }, { "42", 10, 0, 42 }, { "+42", 10, 0, 42 },
		{ "010", 10, 0, 10 },		/* base 10: a leading 0 is just a zero */
		{ "010", 0, 0, 8 },		/* base 0: octal */
		{ "0x1f", 0, 0, 31 }, { "0X1F", 0, 0, 31 }, { "0x1f", 16, 0, 31 },
		{ "1f", 16, 0, 31 }, { "ff", 16, 0, 255 }, { "777", 8, 0, 511 },
		{ "0", 0, 0, 0 }, { "18446744073709551615", 10, 0, ULL_MAX },
		{ "0xffffffffffffffff", 0, 0, ULL_MAX },
	};

	check_ull(test, cases, ARRAY_SIZE(cases));
}

static void one_trailing_newline_is_accepted(struct kunit *test)
{
	static const struct ull_case cases[] = {
		{ "7\n", 10, 0, 7 }, { "0x10\n", 0, 0, 16 },
		{ "7\n\n", 10, -EINVAL, 0 }, { "\n", 10, -EINVAL, 0 }, { "7\r\n", 10, -EINVAL, 0 },
	};

	check_ull(test, cases, ARRAY_SIZE(cases));
}

static void junk_is_einval(struct kunit *test)
{
	static const struct ull_case cases[] = {
		{ "", 10, -EINVAL, 0 }, { "abc", 10, -EINVAL, 0 }, { "3dma", 10, -EINVAL, 0 },
		{ " 3", 10, -EINVAL, 0 }, { "3 ", 10, -EINVAL, 0 }, { "1.5", 10, -EINVAL, 0 },
		{ "-1", 10, -EINVAL, 0 },	/* no sign for the unsigned types */
		{ "+", 10, -EINVAL, 0 }, { "++1", 10, -EINVAL, 0 }, { "+-1", 10, -EINVAL, 0 },
		{ "0x10", 10, -EINVAL, 0 },	/* base 10 takes no prefix */
		{ "0x", 0, -EINVAL, 0 }, { "0x", 16, -EINVAL, 0 }, { "0xg", 0, -EINVAL, 0 },
		{ "08", 0, -EINVAL, 0 }, { "8", 8, -EINVAL, 0 }, { "1g", 16, -EINVAL, 0 },
	};

	check_ull(test, cases, ARRAY_SIZE(cases));
}

static void overflow_is_erange(struct kunit *test)
{
	static const struct ull_case cases[] = {
		{ "18446744073709551616", 10, -ERANGE, 0 },
		{ "99999999999999999999999999", 10, -ERANGE, 0 },
		{ "0x10000000000000000", 0, -ERANGE, 0 },
		{ "2000000000000000000000", 8, -ERANGE, 0 },
		{ "99999999999999999999x", 10, -ERANGE, 0 },	/* overflow wins over junk */
	};

	check_ull(test, cases, ARRAY_SIZE(cases));
}

static void signed_values_and_their_limits(struct kunit *test)
{
	long long ll = 5;

	KUNIT_EXPECT_EQ(test, kstrtoll("-42", 10, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, -42);
	KUNIT_EXPECT_EQ(test, kstrtoll("+42", 10, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, 42);
	KUNIT_EXPECT_EQ(test, kstrtoll("-0x10", 0, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, -16);
	KUNIT_EXPECT_EQ(test, kstrtoll("-0", 10, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, 0);
	KUNIT_EXPECT_EQ(test, kstrtoll("9223372036854775807", 10, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, LL_MAX);
	KUNIT_EXPECT_EQ(test, kstrtoll("-9223372036854775808", 10, &ll), 0);
	KUNIT_EXPECT_EQ(test, ll, LL_MIN);
	KUNIT_EXPECT_EQ(test, kstrtoll("9223372036854775808", 10, &ll), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoll("-9223372036854775809", 10, &ll), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoll("--1", 10, &ll), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoll("-+1", 10, &ll), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoll("-", 10, &ll), -EINVAL);
	KUNIT_EXPECT_EQ(test, ll, LL_MIN);	/* untouched by the failures */
}

static void narrow_types_check_their_range(struct kunit *test)
{
	unsigned int u = 9;
	int i = 9;

	KUNIT_EXPECT_EQ(test, kstrtouint("4294967295", 10, &u), 0);
	KUNIT_EXPECT_EQ(test, u, 4294967295U);
	KUNIT_EXPECT_EQ(test, kstrtouint("4294967296", 10, &u), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtouint("4294967297", 10, &u), -ERANGE);	/* no wrap to 1 */
	KUNIT_EXPECT_EQ(test, kstrtouint("-1", 10, &u), -EINVAL);
	KUNIT_EXPECT_EQ(test, u, 4294967295U);
	KUNIT_EXPECT_EQ(test, kstrtoint("-2147483648", 10, &i), 0);
	KUNIT_EXPECT_EQ(test, i, -2147483647 - 1);
	KUNIT_EXPECT_EQ(test, kstrtoint("2147483647", 10, &i), 0);
	KUNIT_EXPECT_EQ(test, i, 2147483647);
	KUNIT_EXPECT_EQ(test, kstrtoint("2147483648", 10, &i), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoint("-2147483649", 10, &i), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoint("x", 10, &i), -EINVAL);
	KUNIT_EXPECT_EQ(test, i, 2147483647);
}

static void long_variants_are_the_64_bit_ones(struct kunit *test)
{
	unsigned long ul = 0;
	long l = 0;

	KUNIT_EXPECT_EQ(test, kstrtoul("18446744073709551615", 10, &ul), 0);
	KUNIT_EXPECT_EQ(test, ul, ~0UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("18446744073709551616", 10, &ul), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtol("-9223372036854775808", 10, &l), 0);
	KUNIT_EXPECT_EQ(test, l, LL_MIN);
	KUNIT_EXPECT_EQ(test, kstrtol("12ab", 16, &l), 0);
	KUNIT_EXPECT_EQ(test, l, 0x12ab);
}

/* Linux's kstrtobool(): the first letter decides, the first two for on/off. */
static void bool_reads_yes_and_no(struct kunit *test)
{
	static const char *const yes[] = { "1", "y", "Y", "yes", "t", "true", "on", "ON", "On\n" };
	static const char *const no[] = { "0", "n", "N", "no", "f", "false", "off", "OFF", "oF" };
	static const char *const neither[] = { "", "o", "2", "maybe", " on", "-1", "x" };
	bool b;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		KUNIT_EXPECT_EQ_MSG(test, kstrtobool(yes[i], &b), 0, "\"%s\"", yes[i]);
		KUNIT_EXPECT_TRUE_MSG(test, b, "\"%s\"", yes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		b = true;
		KUNIT_EXPECT_EQ_MSG(test, kstrtobool(no[i], &b), 0, "\"%s\"", no[i]);
		KUNIT_EXPECT_FALSE_MSG(test, b, "\"%s\"", no[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(neither); i++) {
		b = true;
		KUNIT_EXPECT_EQ_MSG(test, kstrtobool(neither[i], &b), -EINVAL, "\"%s\"", neither[i]);
		KUNIT_EXPECT_TRUE_MSG(test, b, "\"%s\" left it alone", neither[i]);
	}
	KUNIT_EXPECT_EQ(test, kstrtobool(NULL, &b), -EINVAL);
}

static struct kunit_case kstrtox_cases[] = {
	KUNIT_CASE(accepts_numbers_in_each_base),
	KUNIT_CASE(one_trailing_newline_is_accepted),
	KUNIT_CASE(junk_is_einval),
	KUNIT_CASE(overflow_is_erange),
	KUNIT_CASE(signed_values_and_their_limits),
	KUNIT_CASE(narrow_types_check_their_range),
	KUNIT_CASE(long_variants_are_the_64_bit_ones),
	KUNIT_CASE(bool_reads_yes_and_no),
	{}
};

static struct kunit_suite kstrtox_suite = {
	.name = "kstrtox",
	.test_cases = kstrtox_cases,
	.strict = true,
};
kunit_test_suite(kstrtox_suite);
