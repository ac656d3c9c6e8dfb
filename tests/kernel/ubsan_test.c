/*
 * tests/kernel/ubsan_test.c - each kind of undefined behaviour the sanitizer
 * checks is reported, in Linux's words, and the kernel goes on.
 *
 * This file is always built with the sanitizer (the Makefile's UBSAN_ALWAYS),
 * so every `make test` machine runs the handlers of kernel/ubsan.c, not only
 * the UBSAN=1 kernel.  As Linux's lib/test_ubsan.c, each case does one
 * undefined thing on purpose - through volatile variables, so that the
 * compiler cannot see it coming and refuse to build, or fold it away - and
 * declares the report it expects; then it checks the report's second line,
 * which says what the values were.  __builtin_unreachable() is left out: its
 * report ends in a panic.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "kernel/panic.h"
#include "arch/x86_64/setjmp.h"
#include "lib/vsprintf.h"

static unsigned long pos;

static int ubsan_init(struct kunit *test)
{
	(void)test;
	pos = printk_log_pos();
	return 0;
}

/* Expect "UBSAN: @kind in tests/kernel/ubsan_test.c:@line:" followed by @what. */
static void expect_report(struct kunit *test, const char *kind, int line, const char *what)
{
	const char *log = log_since(pos);
	char head[96];

	snprintf(head, sizeof(head), "UBSAN: %s in tests/kernel/ubsan_test.c:%d:", kind, line);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, head), "%s", head);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, what), "%s", what);
}

static void shift_out_of_bounds(struct kunit *test)
{
	volatile unsigned long one = 1;
	volatile int exponent = 64, negative = -1, minus_one = -1, big = INT_MAX / 2 + 1;
	volatile unsigned long r;
	volatile int s;
	int line;

	kunit_expect_report(test, "UBSAN: shift-out-of-bounds");
	r = one << exponent, line = __LINE__;
	/* gcc says 'long unsigned int', clang 'unsigned long' */
	expect_report(test, "shift-out-of-bounds", line,
		      "shift exponent 64 is too large for 64-bit type '");
	r = one >> negative, line = __LINE__;
	expect_report(test, "shift-out-of-bounds", line, "shift exponent -1 is negative");
	s = minus_one << 1, line = __LINE__;
	expect_report(test, "shift-out-of-bounds", line, "left shift of negative value -1");
	s = big << 2, line = __LINE__;
	expect_report(test, "shift-out-of-bounds", line,
		      "left shift of 1073741824 by 2 places cannot be represented in type 'int'");
	(void)r;
	(void)s;
}

static void array_index_out_of_bounds(struct kunit *test)
{
	int array[4] = { 1, 2, 3, 4 };
	volatile int index = 4, v;
	int line;

	/* its address escapes: on the stack (clang would make a constant array a global) */
	__asm__ __volatile__("" : : "r"(array) : "memory");
	kunit_expect_report(test, "UBSAN: array-index-out-of-bounds");
	if (CONFIG_KASAN)	/* the read is past the array's stack redzone too */
		kunit_expect_report(test, "BUG: KASAN: stack-out-of-bounds");
	v = array[index], line = __LINE__;	/* a read: the stack stays whole */
	expect_report(test, "array-index-out-of-bounds", line,
		      "index 4 is out of range for type 'int");
	(void)v;
}

static void signed_integer_overflow(struct kunit *test)
{
	volatile int max = INT_MAX, min = INT_MIN, r;
	int line;

	kunit_expect_report(test, "UBSAN: signed-integer-overflow");
	kunit_expect_report(test, "UBSAN: negation-overflow");
	r = max + 1, line = __LINE__;
	expect_report(test, "signed-integer-overflow", line,
		      "2147483647 + 1 cannot be represented in type 'int'");
	r = min - 1, line = __LINE__;
	expect_report(test, "signed-integer-overflow", line,
		      "-2147483648 - 1 cannot be represented in type 'int'");
	r = max * 2, line = __LINE__;
	expect_report(test, "signed-integer-overflow", line,
		      "2147483647 * 2 cannot be represented in type 'int'");
	r = -min, line = __LINE__;
	expect_report(test, "negation-overflow", line,
		      "negation of -2147483648 cannot be represented in type 'int'");
	(void)r;
}

static jmp_buf divide_env;

static void back_here(void)
{
	longjmp(divide_env, 1);
}

/*
 * The sanitizer reports, then the division runs as written: on x86 a
 * division by zero traps (#DE), an oops this case catches itself.
 */
static void division_by_zero(struct kunit *test)
{
	volatile int sixteen = 16, zero = 0, r = 0;
	oops_catcher_t kunit_catcher;
	volatile int line = 0;

	kunit_expect_report(test, "UBSAN: division-overflow");
	kunit_expect_report(test, "divide error");
	kunit_catcher = set_oops_catcher(back_here);
	if (!setjmp(divide_env)) {
		line = __LINE__, r = sixteen / zero;
		KUNIT_FAIL(test, "16 / 0 did not trap");
	}
	set_oops_catcher(kunit_catcher);
	expect_report(test, "division-overflow", line, "division by zero");
	(void)r;
}

/* A bool is 0 or 1; any other byte read as a bool is undefined. */
static void invalid_bool(struct kunit *test)
{
	volatile unsigned char byte = 5;
	volatile bool b;
	int line;

	kunit_expect_report(test, "UBSAN: invalid-load");
	b = *(volatile bool *)&byte, line = __LINE__;
	/* gcc says '_Bool', clang 'volatile bool' */
	expect_report(test, "invalid-load", line, "load of value 5 is not a valid value for type '");
	(void)b;
}

static struct kunit_case ubsan_cases[] = {
	KUNIT_CASE(shift_out_of_bounds),
	KUNIT_CASE(array_index_out_of_bounds),
	KUNIT_CASE(signed_integer_overflow),
	KUNIT_CASE(division_by_zero),
	KUNIT_CASE(invalid_bool),
	{}
};

static struct kunit_suite ubsan_suite = {
	.name = "ubsan",
	.init = ubsan_init,
	.test_cases = ubsan_cases,
	.strict = true,
};
kunit_test_suite(ubsan_suite);
