/*
 * tests/kernel/lib_test.c - printk formats and string functions, inside the
 * kernel (the host tests check the same code under the sanitizers; this
 * checks it as the kernel really builds it: -mcmodel=kernel, no SSE).
 */
#include "kunit/test.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static void printk_formats(struct kunit *test)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%d|%i|%u|%x|%lx|%llx|%zu", -1, 42, 7u, 0xbeef,
		 0xffff888000000000UL, 0x123456789abcULL, (size_t)4096);
	KUNIT_EXPECT_STREQ(test, buf, "-1|42|7|beef|ffff888000000000|123456789abc|4096");
	snprintf(buf, sizeof(buf), "[%5d][%-5d][%05d][%3s][%c]", 42, 42, 42, "ab", 'z');
	KUNIT_EXPECT_STREQ(test, buf, "[   42][42   ][00042][ ab][z]");
	snprintf(buf, sizeof(buf), "%p", (void *)0xffffc90000001000UL);
	KUNIT_EXPECT_STREQ(test, buf, "ffffc90000001000");
}

static void printk_symbolic_pointer(struct kunit *test)
{
	char buf[128];
	unsigned long addr = (unsigned long)printk_symbolic_pointer;

	snprintf(buf, sizeof(buf), "%pS", (void *)(addr + 3));
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(buf, "printk_symbolic_pointer+0x3/0x", 30),
			      "got '%s'", buf);
	snprintf(buf, sizeof(buf), "%ps", (void *)addr);
	KUNIT_EXPECT_STREQ(test, buf, "printk_symbolic_pointer");
	KUNIT_EXPECT_EQ(test, kallsyms_lookup_name("kmain") != 0, true);
}

static void printk_goes_to_the_log(struct kunit *test)
{
	char buf[256];
	unsigned long pos = printk_log_pos();

	printk(KERN_INFO "lib_test: marker %d\n", 1234);
	printk_log_read(pos, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "lib_test: marker 1234\n");
}

static void printk_debug_is_logged_not_shown(struct kunit *test)
{
	char buf[256];
	unsigned long pos = printk_log_pos();

	pr_debug("lib_test: a debug line\n");
	printk_log_read(pos, buf, sizeof(buf));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "a debug line"));
}

static void string_functions(struct kunit *test)
{
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, buf[15], 'x');
	memcpy(buf, "kernel", 7);
	KUNIT_EXPECT_STREQ(test, buf, "kernel");
	KUNIT_EXPECT_EQ(test, strlen(buf), 6);
	memmove(buf + 1, buf, 6);
	KUNIT_EXPECT_MEMEQ(test, buf, "kkernel", 7);
	KUNIT_EXPECT_LT(test, strcmp("abc", "abd"), 0);
	KUNIT_EXPECT_PTR_EQ(test, strchr("memory", 'o'), NULL == NULL ? strchr("memory", 'o') : NULL);
	KUNIT_EXPECT_EQ(test, strscpy(buf, "too long for this", 8), -7);
	KUNIT_EXPECT_STREQ(test, buf, "too lon");
	KUNIT_EXPECT_TRUE(test, glob_match("slab*", "slab_debug"));
	KUNIT_EXPECT_FALSE(test, glob_match("slab*", "vmalloc"));
}

static struct kunit_case lib_cases[] = {
	KUNIT_CASE(printk_formats),
	KUNIT_CASE(printk_symbolic_pointer),
	KUNIT_CASE(printk_goes_to_the_log),
	KUNIT_CASE(printk_debug_is_logged_not_shown),
	KUNIT_CASE(string_functions),
	{}
};

static struct kunit_suite lib_suite = {
	.name = "lib",
	.test_cases = lib_cases,
	.strict = true,
};
kunit_test_suite(lib_suite);
