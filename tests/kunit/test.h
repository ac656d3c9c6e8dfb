/*
 * kunit/test.h - a subset of Linux's KUnit, for tests that run in the kernel.
 *
 * Write a suite exactly as for Linux:
 *
 *	static void add_test(struct kunit *test)
 *	{
 *		KUNIT_EXPECT_EQ(test, 1 + 1, 2);
 *	}
 *	static struct kunit_case example_cases[] = {
 *		KUNIT_CASE(add_test),
 *		{}
 *	};
 *	static struct kunit_suite example_suite = {
 *		.name = "example",
 *		.test_cases = example_cases,
 *	};
 *	kunit_test_suite(example_suite);
 *
 * Drop the file in tests/kernel/ and it is built and registered: the macro
 * puts a pointer to the suite in the .kunit_test_suites section.  Results
 * are printed as KTAP version 1 on COM1.
 *
 * EXPECT failures mark the case failed and go on; ASSERT failures (and
 * kunit_skip()) end the case at once.  A case that oopses is caught: the
 * oops is printed, the case fails, the next case runs.
 *
 * Two checks run around every case and suite without being asked for.
 * In a suite that says .strict = true (every suite in this repository)
 * they fail it; in one written as for Linux they are diagnostics, and only
 * what fails a Linux KUnit test fails it (an oops, KASAN, UBSAN):
 *   - a case fails if the kernel printed a report (WARNING, BUG, Oops, page
 *     allocation failure, vmalloc error, OOM killer, UBSAN, fault
 *     injection) that it did not declare with kunit_expect_report(), or if
 *     a report it declared did not come (tests/kunit/reports.c);
 *   - a suite fails if it leaves memory behind: slab objects, pages,
 *     vmalloc areas, per-CPU memory (tests/kunit/accounting.c), unless it
 *     says why it keeps some with .keeps_memory.
 */
#ifndef KUNIT_TEST_H
#define KUNIT_TEST_H

#include "lib/compiler.h"
#include "lib/err.h"
#include "lib/string.h"
#include "lib/vsprintf.h"
#include "kernel/printk.h"
#include "lib/atomic.h"
#include "arch/x86_64/setjmp.h"
#include "mm/slab.h"

#define KUNIT_PARAM_DESC_SIZE	128
#define KUNIT_STATUS_COMMENT_SIZE 256
#define KUNIT_MAX_EXPECTED_REPORTS 8	/* kunit_expect_report()s per case */
#define KUNIT_REPORTS_KEPT	3	/* undeclared reports whose first line is kept */
#define KUNIT_REPORT_LINE	128	/* ... this much of it */

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit;

/* A case's or suite's speed (Linux's attributes); a filter may leave slow ones out. */
enum kunit_speed {
	KUNIT_SPEED_UNSET,
	KUNIT_SPEED_VERY_SLOW,
	KUNIT_SPEED_SLOW,
	KUNIT_SPEED_NORMAL,
};

struct kunit_attributes {
	enum kunit_speed speed;
};

/*
 * A generator of parameters: given the last one (NULL at first), the next,
 * with its description in @desc; NULL when there are no more.  Linux 6.18
 * gave it the test as its first argument; KUNIT_CASE_PARAM() takes either
 * form, and the runner calls the one the case has.
 */
typedef const void *kunit_gen_params_t(struct kunit *test, const void *prev, char *desc);
typedef const void *kunit_gen_params_noctx_t(const void *prev, char *desc);

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	kunit_gen_params_t *generate_params;
	kunit_gen_params_noctx_t *generate_params_noctx;	/* the form before 6.18 */
	struct kunit_attributes attr;
	enum kunit_status status;	/* set by the runner */
};

struct kunit_suite {
	const char *name;
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
	struct kunit_attributes attr;
	const char *keeps_memory;	/* why the suite leaves memory behind on purpose */
	bool strict;			/* undeclared reports and leaks fail it (above) */
};

/* A report a case said would come, and how many times it came. */
struct kunit_expected_report {
	const char *text;		/* a part of its first line */
	unsigned int seen;
	bool optional;			/* kunit_allow_report(): none is fine too */
};

struct kunit {
	void *priv;			/* for the suite's init/exit and cases */
	const char *name;		/* the case's name */
	const void *param_value;	/* the current parameter, if any */
	enum kunit_status status;
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
	jmp_buf *abort_env;		/* where ASSERT and skip jump to */
	struct kunit_resource *resources;	/* undone after the case, newest first */
	/* Reports printed while the case ran (tests/kunit/reports.c) */
	struct kunit_expected_report expected[KUNIT_MAX_EXPECTED_REPORTS];
	unsigned int nr_expected;
	unsigned int nr_undeclared;
	unsigned int nr_fatal;		/* of them, KASAN, UBSAN or oops reports */
	bool strict;			/* the suite's .strict */
	char undeclared[KUNIT_REPORTS_KEPT][KUNIT_REPORT_LINE];
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_ATTR(test_name, attributes)				\
	{ .run_case = test_name, .name = #test_name, .attr = attributes }
#define KUNIT_CASE_SLOW(test_name)					\
	KUNIT_CASE_ATTR(test_name, { .speed = KUNIT_SPEED_SLOW })
#define KUNIT_CASE_PARAM_ATTR(test_name, gen_params, attributes)	\
	{ .run_case = test_name, .name = #test_name, .attr = attributes,	\
	  .generate_params = _Generic((gen_params),			\
		kunit_gen_params_noctx_t *: (kunit_gen_params_t *)NULL,	\
		default: (gen_params)),					\
	  .generate_params_noctx = _Generic((gen_params),		\
		kunit_gen_params_noctx_t *: (gen_params),		\
		default: (kunit_gen_params_noctx_t *)NULL) }
#define KUNIT_CASE_PARAM(test_name, gen_params)				\
	KUNIT_CASE_PARAM_ATTR(test_name, gen_params, {})

/* The generator of parameters from an array; @describe writes desc for __next. */
#define __KUNIT_ARRAY_GEN(name, array, describe)			\
	static const void *name##_gen_params(struct kunit *test, const void *prev, char *desc) \
	{								\
		(void)test;						\
		__typeof__((array)[0]) *__next = prev ?			\
			((__typeof__((array)[0]) *)prev) + 1 : (array);	\
		if (__next - (array) < (long)ARRAY_SIZE(array)) {	\
			describe;					\
			return __next;					\
		}							\
		return NULL;						\
	}

/* Parameters from an array, described by get_desc(param, desc). */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	__KUNIT_ARRAY_GEN(name, array, {				\
		void (*__get_desc)(__typeof__(__next), char *) = get_desc; \
		if (__get_desc)						\
			__get_desc(__next, desc);			\
	})

/* Parameters from an array of structures, each described by its member @desc_member. */
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)		\
	__KUNIT_ARRAY_GEN(name, array,					\
			  strscpy(desc, __next->desc_member, KUNIT_PARAM_DESC_SIZE))

#define __KUNIT_CONCAT2(a, b)	a##b
#define __KUNIT_CONCAT(a, b)	__KUNIT_CONCAT2(a, b)

#define kunit_test_suites(...)						\
	static struct kunit_suite *__KUNIT_CONCAT(__kunit_suites_, __LINE__)[] \
	__used __section(".kunit_test_suites") __aligned(8) = { __VA_ARGS__ }

#define kunit_test_suite(suite)	kunit_test_suites(&suite)
/* No module is unloaded here, so no test needs its __init code kept apart. */
#define kunit_test_init_section_suites(...)	kunit_test_suites(__VA_ARGS__)
#define kunit_test_init_section_suite(suite)	kunit_test_suite(suite)

/* Linux test files end with these; here there are no modules, so they declare nothing. */
#define MODULE_LICENSE(x)	extern int __kunit_no_modules
#define MODULE_DESCRIPTION(x)	extern int __kunit_no_modules
#define MODULE_AUTHOR(x)	extern int __kunit_no_modules
#define MODULE_IMPORT_NS(ns)	extern int __kunit_no_modules

/* Reporting */
void kunit_printk(const char *level, const struct kunit *test, const char *fmt, ...)
	__printf(3, 4);
void kunit_log_line(const char *level, const char *fmt, ...) __printf(2, 3);
/* A line as it is, at @level, from a case or a suite (Linux's) */
#define kunit_log(level, test_or_suite, fmt, ...)			\
	do {								\
		(void)(test_or_suite);					\
		kunit_log_line(level, fmt, ##__VA_ARGS__);		\
	} while (0)
#define kunit_info(test, fmt, ...)	kunit_printk("\0016", test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_printk("\0014", test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_printk("\0013", test, fmt, ##__VA_ARGS__)

void kunit_mark_skipped(struct kunit *test, const char *fmt, ...) __printf(2, 3);
__noreturn void kunit_skip(struct kunit *test, const char *fmt, ...) __printf(2, 3);

/*
 * kunit_expect_report - the case will make the kernel print a report whose
 * first line contains @text, on purpose: "BUG: kfree of", "Redzone
 * overwritten", "page allocation failure", "invoked oom-killer".  Any
 * number of such reports is then allowed, and at least one must come
 * (unless the case is skipped).  Call it in the case (or in init()) before
 * the report; @text must live until the case ends (a string literal).
 */
void kunit_expect_report(struct kunit *test, const char *text);

/*
 * kunit_allow_report - as kunit_expect_report(), but none need come: for a
 * case whose reports depend on where it is run (a sweep that fails each
 * allocation of a call in turn, some of them made with __GFP_NOWARN).  A
 * case that knows its reports declares them with kunit_expect_report().
 */
void kunit_allow_report(struct kunit *test, const char *text);

/*
 * Memory that lives until the end of the case, freed after exit() even if
 * the case failed or oopsed (Linux's kunit_kmalloc() and friends).  Free
 * it early with kunit_kfree(), never with kfree().  Any other undoing can
 * be deferred the same way with kunit_add_action() (Linux's): the actions
 * run after exit(), the last added first.
 */
typedef void (kunit_action_t)(void *);

struct kunit_resource {
	struct kunit_resource *next;
	kunit_action_t *action;		/* run with ptr at the end of the case */
	void *ptr;
};

void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp);
void kunit_kfree(struct kunit *test, const void *ptr);
char *kunit_kstrdup(struct kunit *test, const char *str, gfp_t gfp);
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx);
void kunit_remove_action(struct kunit *test, kunit_action_t *action, void *ctx);
void kunit_release_action(struct kunit *test, kunit_action_t *action, void *ctx);

static inline void *kunit_kmalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, 1, size, gfp);
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp | __GFP_ZERO);
}

/* The runner, for kmain: run the suites matching @glob ("suite*" or "suite.case"). */
int kunit_run_all_tests(const char *glob);

/*
 * kunit_get_current_test - the case running now on this CPU, or NULL (on
 * another CPU, or between cases).  Linux's, also in kunit/test-bug.h.
 */
struct kunit *kunit_get_current_test(void);

/* Failure reporting behind the macros; not called directly. */
void __kunit_fail(struct kunit *test, bool assertion, const char *file, int line,
		  const char *what, const char *fmt, ...);
void __kunit_fail_binary(struct kunit *test, bool assertion, const char *file, int line,
			 const char *expr, const char *left, long long lval,
			 const char *right, long long rval, const char *fmt, ...);
void __kunit_fail_ptr(struct kunit *test, bool assertion, const char *file, int line,
		      const char *expr, const char *left, const void *lval,
		      const char *right, const void *rval, const char *fmt, ...);
void __kunit_fail_str(struct kunit *test, bool assertion, const char *file, int line,
		      const char *expr, const char *left, const char *lval,
		      const char *right, const char *rval, const char *fmt, ...);

/*
 * The checks.  Each takes an optional message: KUNIT_EXPECT_EQ_MSG(test, a,
 * b, "after %d rounds", n).  The "" in front lets the message be absent.
 */
#define __KUNIT_BOOL(test, is_assert, cond, expect_true, ...)		\
	do {								\
		if ((bool)(cond) != (bool)(expect_true))		\
			__kunit_fail(test, is_assert, __FILE__, __LINE__, \
				     (expect_true) ? "Expected " #cond " to be true." \
						   : "Expected " #cond " to be false.", \
				     "" __VA_ARGS__);			\
	} while (0)

#define __KUNIT_BINARY(test, is_assert, left, op, right, ...)		\
	do {								\
		__typeof__(left) __left = (left);			\
		__typeof__(right) __right = (right);			\
		if (!(__left op __right))				\
			__kunit_fail_binary(test, is_assert, __FILE__, __LINE__, \
					    #left " " #op " " #right,	\
					    #left, (long long)__left,	\
					    #right, (long long)__right,	\
					    "" __VA_ARGS__);		\
	} while (0)

#define __KUNIT_PTR(test, is_assert, left, op, right, ...)		\
	do {								\
		const void *__left = (left);				\
		const void *__right = (right);				\
		if (!(__left op __right))				\
			__kunit_fail_ptr(test, is_assert, __FILE__, __LINE__, \
					 #left " " #op " " #right,	\
					 #left, __left, #right, __right, \
					 "" __VA_ARGS__);		\
	} while (0)

#define __KUNIT_STR(test, is_assert, left, op, right, ...)		\
	do {								\
		const char *__left = (left);				\
		const char *__right = (right);				\
		if (!(strcmp(__left, __right) op 0))			\
			__kunit_fail_str(test, is_assert, __FILE__, __LINE__, \
					 #left " " #op " " #right,	\
					 #left, __left, #right, __right, \
					 "" __VA_ARGS__);		\
	} while (0)

#define __KUNIT_MEM(test, is_assert, left, op, right, size, ...)	\
	do {								\
		if (!(memcmp((left), (right), (size)) op 0))		\
			__kunit_fail(test, is_assert, __FILE__, __LINE__, \
				     "Expected memory " #left " " #op " " #right \
				     " over " #size " bytes.", "" __VA_ARGS__); \
	} while (0)

#define KUNIT_FAIL(test, ...)						\
	__kunit_fail(test, false, __FILE__, __LINE__, NULL, __VA_ARGS__)
#define KUNIT_ASSERT_FAILURE(test, ...)					\
	__kunit_fail(test, true, __FILE__, __LINE__, NULL, __VA_ARGS__)
#define KUNIT_SUCCEED(test)		do { (void)(test); } while (0)

#define KUNIT_EXPECT_TRUE(test, c)		__KUNIT_BOOL(test, false, c, true)
#define KUNIT_EXPECT_FALSE(test, c)		__KUNIT_BOOL(test, false, c, false)
#define KUNIT_EXPECT_EQ(test, l, r)		__KUNIT_BINARY(test, false, l, ==, r)
#define KUNIT_EXPECT_NE(test, l, r)		__KUNIT_BINARY(test, false, l, !=, r)
#define KUNIT_EXPECT_LT(test, l, r)		__KUNIT_BINARY(test, false, l, <, r)
#define KUNIT_EXPECT_LE(test, l, r)		__KUNIT_BINARY(test, false, l, <=, r)
#define KUNIT_EXPECT_GT(test, l, r)		__KUNIT_BINARY(test, false, l, >, r)
#define KUNIT_EXPECT_GE(test, l, r)		__KUNIT_BINARY(test, false, l, >=, r)
#define KUNIT_EXPECT_PTR_EQ(test, l, r)		__KUNIT_PTR(test, false, l, ==, r)
#define KUNIT_EXPECT_PTR_NE(test, l, r)		__KUNIT_PTR(test, false, l, !=, r)
#define KUNIT_EXPECT_NULL(test, p)		__KUNIT_PTR(test, false, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(test, p)		__KUNIT_PTR(test, false, p, !=, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p)	__KUNIT_BOOL(test, false, !IS_ERR_OR_NULL(p), true)
#define KUNIT_EXPECT_STREQ(test, l, r)		__KUNIT_STR(test, false, l, ==, r)
#define KUNIT_EXPECT_STRNEQ(test, l, r)		__KUNIT_STR(test, false, l, !=, r)
#define KUNIT_EXPECT_MEMEQ(test, l, r, n)	__KUNIT_MEM(test, false, l, ==, r, n)
#define KUNIT_EXPECT_MEMNEQ(test, l, r, n)	__KUNIT_MEM(test, false, l, !=, r, n)

#define KUNIT_ASSERT_TRUE(test, c)		__KUNIT_BOOL(test, true, c, true)
#define KUNIT_ASSERT_FALSE(test, c)		__KUNIT_BOOL(test, true, c, false)
#define KUNIT_ASSERT_EQ(test, l, r)		__KUNIT_BINARY(test, true, l, ==, r)
#define KUNIT_ASSERT_NE(test, l, r)		__KUNIT_BINARY(test, true, l, !=, r)
#define KUNIT_ASSERT_LT(test, l, r)		__KUNIT_BINARY(test, true, l, <, r)
#define KUNIT_ASSERT_LE(test, l, r)		__KUNIT_BINARY(test, true, l, <=, r)
#define KUNIT_ASSERT_GT(test, l, r)		__KUNIT_BINARY(test, true, l, >, r)
#define KUNIT_ASSERT_GE(test, l, r)		__KUNIT_BINARY(test, true, l, >=, r)
#define KUNIT_ASSERT_PTR_EQ(test, l, r)		__KUNIT_PTR(test, true, l, ==, r)
#define KUNIT_ASSERT_PTR_NE(test, l, r)		__KUNIT_PTR(test, true, l, !=, r)
#define KUNIT_ASSERT_NULL(test, p)		__KUNIT_PTR(test, true, p, ==, NULL)
#define KUNIT_ASSERT_NOT_NULL(test, p)		__KUNIT_PTR(test, true, p, !=, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p)	__KUNIT_BOOL(test, true, !IS_ERR_OR_NULL(p), true)
#define KUNIT_ASSERT_STREQ(test, l, r)		__KUNIT_STR(test, true, l, ==, r)
#define KUNIT_ASSERT_STRNEQ(test, l, r)		__KUNIT_STR(test, true, l, !=, r)
#define KUNIT_ASSERT_MEMEQ(test, l, r, n)	__KUNIT_MEM(test, true, l, ==, r, n)
#define KUNIT_ASSERT_MEMNEQ(test, l, r, n)	__KUNIT_MEM(test, true, l, !=, r, n)

#define KUNIT_EXPECT_TRUE_MSG(test, c, ...)	__KUNIT_BOOL(test, false, c, true, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(test, c, ...)	__KUNIT_BOOL(test, false, c, false, __VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, false, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, ...) __KUNIT_PTR(test, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(test, p, ...)	__KUNIT_PTR(test, false, p, ==, NULL, __VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, ...)	__KUNIT_PTR(test, false, p, !=, NULL, __VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, ...)	__KUNIT_STR(test, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, n, ...) __KUNIT_MEM(test, false, l, ==, r, n, __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(test, c, ...)	__KUNIT_BOOL(test, true, c, true, __VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(test, c, ...)	__KUNIT_BOOL(test, true, c, false, __VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, !=, r, __VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, >, r, __VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, >=, r, __VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, ...)	__KUNIT_PTR(test, true, p, !=, NULL, __VA_ARGS__)

#define KUNIT_EXPECT_PTR_NE_MSG(test, l, r, ...) __KUNIT_PTR(test, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, ...) \
	__KUNIT_BOOL(test, false, !IS_ERR_OR_NULL(p), true, __VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(test, l, r, ...) __KUNIT_STR(test, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, n, ...) __KUNIT_MEM(test, false, l, !=, r, n, __VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, <, r, __VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(test, l, r, ...)	__KUNIT_BINARY(test, true, l, <=, r, __VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, ...) __KUNIT_PTR(test, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(test, l, r, ...) __KUNIT_PTR(test, true, l, !=, r, __VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(test, p, ...)	__KUNIT_PTR(test, true, p, ==, NULL, __VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, ...) \
	__KUNIT_BOOL(test, true, !IS_ERR_OR_NULL(p), true, __VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(test, l, r, ...)	__KUNIT_STR(test, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(test, l, r, ...) __KUNIT_STR(test, true, l, !=, r, __VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ_MSG(test, l, r, n, ...) __KUNIT_MEM(test, true, l, ==, r, n, __VA_ARGS__)
#define KUNIT_ASSERT_MEMNEQ_MSG(test, l, r, n, ...) __KUNIT_MEM(test, true, l, !=, r, n, __VA_ARGS__)

#endif
