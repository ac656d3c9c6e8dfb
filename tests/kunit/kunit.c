/*
 * tests/kunit/kunit.c - run the registered suites and print KTAP version 1.
 *
 * Each case runs between a setjmp() and the end of its function.  Three
 * things can jump back to that point early: a failed ASSERT, kunit_skip(),
 * and an oops inside the case (through set_oops_catcher()).  Whatever the
 * way out, the suite's exit() runs and the case's line is printed, so one
 * broken case never hides the results of the others.
 *
 * Before each case a KTAP diagnostic line "# <case>: running" is printed.
 * It is what lets the QEMU runner name the case that hung when it has to
 * kill a run at its timeout.
 *
 * Around each case the reports the kernel prints are counted against it
 * (reports.c); around each suite the memory held is compared (accounting.c).
 * Either can turn an "ok" into "not ok".
 */
#include <stdarg.h>
#include "kunit/internal.h"
#include "kernel/panic.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "arch/x86_64/cpu.h"
#include "lib/vsprintf.h"

extern struct kunit_suite *const __start_kunit_suites[], *const __stop_kunit_suites[];

struct kunit_totals {
	unsigned int passed, failed, skipped;
};

static struct kunit *current_test;
static unsigned int runner_cpu;		/* where the cases run */

struct kunit *kunit_get_current_test(void)
{
	return smp_processor_id() == runner_cpu ? current_test : NULL;
}

static void print_failure_header(struct kunit *test, bool assertion, const char *file, int line)
{
	printk("    # %s: %s FAILED at %s:%d\n", test->name,
	       assertion ? "ASSERTION" : "EXPECTATION", file, line);
}

static void print_user_message(const char *fmt, va_list args)
{
	char msg[256];

	if (!fmt || !fmt[0])
		return;
	vsnprintf(msg, sizeof(msg), fmt, args);
	printk("    %s\n", msg);
}

static void fail_and_maybe_abort(struct kunit *test, bool assertion)
{
	test->status = KUNIT_FAILURE;
	if (assertion)
		longjmp(*test->abort_env, 1);
}

void __kunit_fail(struct kunit *test, bool assertion, const char *file, int line,
		  const char *what, const char *fmt, ...)
{
	va_list args;

	print_failure_header(test, assertion, file, line);
	if (what)
		printk("    %s\n", what);
	va_start(args, fmt);
	print_user_message(fmt, args);
	va_end(args);
	fail_and_maybe_abort(test, assertion);
}

/* "Expected left == right, but" with both sides' values, already formatted. */
static void fail_comparison(struct kunit *test, bool assertion, const char *file, int line,
			    const char *expr, const char *left, const char *lval,
			    const char *right, const char *rval, const char *fmt, va_list args)
{
	print_failure_header(test, assertion, file, line);
	printk("    Expected %s, but\n", expr);
	printk("        %s == %s\n", left, lval);
	printk("        %s == %s\n", right, rval);
	print_user_message(fmt, args);
	fail_and_maybe_abort(test, assertion);
}

#define VALUE_TEXT	96

void __kunit_fail_binary(struct kunit *test, bool assertion, const char *file, int line,
			 const char *expr, const char *left, long long lval,
			 const char *right, long long rval, const char *fmt, ...)
{
	char l[VALUE_TEXT], r[VALUE_TEXT];
	va_list args;

	snprintf(l, sizeof(l), "%lld (%#llx)", lval, (unsigned long long)lval);
	snprintf(r, sizeof(r), "%lld (%#llx)", rval, (unsigned long long)rval);
	va_start(args, fmt);
	fail_comparison(test, assertion, file, line, expr, left, l, right, r, fmt, args);
	va_end(args);
}

void __kunit_fail_ptr(struct kunit *test, bool assertion, const char *file, int line,
		      const char *expr, const char *left, const void *lval,
		      const char *right, const void *rval, const char *fmt, ...)
{
	char l[VALUE_TEXT], r[VALUE_TEXT];
	va_list args;

	snprintf(l, sizeof(l), "%p", lval);
	snprintf(r, sizeof(r), "%p", rval);
	va_start(args, fmt);
	fail_comparison(test, assertion, file, line, expr, left, l, right, r, fmt, args);
	va_end(args);
}

void __kunit_fail_str(struct kunit *test, bool assertion, const char *file, int line,
		      const char *expr, const char *left, const char *lval,
		      const char *right, const char *rval, const char *fmt, ...)
{
	char l[VALUE_TEXT], r[VALUE_TEXT];
	va_list args;

	snprintf(l, sizeof(l), "\"%s\"", lval);
	snprintf(r, sizeof(r), "\"%s\"", rval);
	va_start(args, fmt);
	fail_comparison(test, assertion, file, line, expr, left, l, right, r, fmt, args);
	va_end(args);
}

/* @fmt with @args as one line at @level (exactly one '\n'), after "    # @name: " if @name */
static void print_line(const char *level, const char *name, const char *fmt, va_list args)
{
	char msg[256];

	vscnprintf(msg, sizeof(msg), fmt, args);
	if (msg[0] && msg[strlen(msg) - 1] == '\n')
		msg[strlen(msg) - 1] = '\0';
	if (name)
		printk("%s    # %s: %s\n", level, name, msg);
	else
		printk("%s%s\n", level, msg);
}

/** kunit_printk - a diagnostic line from a case, as "    # case: message" */
void kunit_printk(const char *level, const struct kunit *test, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(level, test->name, fmt, args);
	va_end(args);
}

/** kunit_log_line - kunit_log()'s line: the message as it is, at @level */
void kunit_log_line(const char *level, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_line(level, NULL, fmt, args);
	va_end(args);
}

static void set_comment(struct kunit *test, const char *fmt, va_list args)
{
	vscnprintf(test->status_comment, sizeof(test->status_comment), fmt, args);
}

/** kunit_mark_skipped - mark the case skipped, with a reason; it goes on */
void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	test->status = KUNIT_SKIPPED;
	va_start(args, fmt);
	set_comment(test, fmt, args);
	va_end(args);
}

/** kunit_skip - mark the case skipped, with a reason, and end it now */
void kunit_skip(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	test->status = KUNIT_SKIPPED;
	va_start(args, fmt);
	set_comment(test, fmt, args);
	va_end(args);
	longjmp(*test->abort_env, 1);
}

static void kfree_action(void *ptr)
{
	kfree(ptr);
}

/* Put @action(@ptr) at the head of the case's list; Return: 0 or -ENOMEM. */
static int add_resource(struct kunit *test, kunit_action_t *action, void *ptr, gfp_t gfp)
{
	struct kunit_resource *res = kmalloc(sizeof(*res), gfp);

	if (!res)
		return -ENOMEM;
	*res = (struct kunit_resource){ .next = test->resources, .action = action, .ptr = ptr };
	test->resources = res;
	return 0;
}

/**
 * kunit_kmalloc_array - @n * @size bytes that are freed when the case ends
 *
 * Return: the memory, or NULL (also if @n * @size overflows).
 */
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	void *ptr = kmalloc_array(n, size, gfp);

	if (ptr && add_resource(test, kfree_action, ptr, gfp & ~__GFP_ZERO)) {
		kfree(ptr);
		return NULL;
	}
	return ptr;
}

/**
 * kunit_add_action - call @action(@ctx) when the case ends (Linux's)
 *
 * After the suite's exit(), whether the case passed, failed, skipped or
 * oopsed; actions run newest first, after any memory kunit_kmalloc() gave
 * later than this call was freed.
 * Return: 0, or -ENOMEM (then @action will not run).
 */
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	return add_resource(test, action, ctx, GFP_KERNEL);
}

/**
 * kunit_add_action_or_reset - kunit_add_action(), or @action(@ctx) at once
 * if it cannot be deferred (Linux's)
 *
 * Return: 0, or -ENOMEM after running @action.
 */
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx)
{
	int err = kunit_add_action(test, action, ctx);

	if (err)
		action(ctx);
	return err;
}

/* Unlink the newest deferred @action(@ctx); Return: it, or NULL (the caller frees it). */
static struct kunit_resource *take_resource(struct kunit *test, kunit_action_t *action,
					    const void *ptr)
{
	for (struct kunit_resource **p = &test->resources; *p; p = &(*p)->next) {
		struct kunit_resource *res = *p;

		if (res->ptr == ptr && res->action == action) {
			*p = res->next;
			return res;
		}
	}
	return NULL;
}

/** kunit_remove_action - @action(@ctx) will not run after all (Linux's) */
void kunit_remove_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	kfree(take_resource(test, action, ctx));
}

/** kunit_release_action - run the deferred @action(@ctx) now, not at the end (Linux's) */
void kunit_release_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct kunit_resource *res = take_resource(test, action, ctx);

	if (!res)
		return;
	action(ctx);
	kfree(res);
}

/** kunit_kstrdup - a copy of @str freed when the case ends; Return: it, or NULL */
char *kunit_kstrdup(struct kunit *test, const char *str, gfp_t gfp)
{
	size_t size;
	char *copy;

	if (!str)
		return NULL;
	size = strlen(str) + 1;
	copy = kunit_kmalloc(test, size, gfp);
	if (copy)
		memcpy(copy, str, size);
	return copy;
}

/** kunit_kfree - free what kunit_kmalloc() gave before the case ends */
void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct kunit_resource *res = take_resource(test, kfree_action, ptr);

	if (!res) {
		KUNIT_FAIL(test, "kunit_kfree(%p): not from kunit_kmalloc()", ptr);
		return;
	}
	kfree(res->ptr);
	kfree(res);
}

static void free_resources(struct kunit *test)
{
	while (test->resources) {
		struct kunit_resource *res = test->resources;

		test->resources = res->next;
		res->action(res->ptr);
		kfree(res);
	}
}

/* An oops inside a case: fail it and resume the runner. */
static void catch_oops(void)
{
	struct kunit *test = current_test;

	printk("    # %s: test case crashed (oops above)\n", test->name);
	test->status = KUNIT_FAILURE;
	longjmp(*test->abort_env, 1);
}

/* Run one case (or one parameter of it) from init to exit. */
static void run_one(struct kunit_suite *suite, struct kunit_case *c, struct kunit *test)
{
	jmp_buf env;
	unsigned long flags = read_flags();

	test->abort_env = &env;
	test->strict = suite->strict;
	current_test = test;
	kunit_reports_case_begin(test);
	set_oops_catcher(catch_oops);
	if (!setjmp(env)) {
		if (!suite->init || !suite->init(test))
			c->run_case(test);
		else
			KUNIT_FAIL(test, "suite init() failed");
	}
	/* exit() runs even after an abort; an abort inside exit() ends it. */
	if (suite->exit && !setjmp(env))
		suite->exit(test);
	/* a lock the case left held is a report of the case's (lockdep on) */
	debug_check_no_locks_held("a test case ended");
	free_resources(test);
	set_oops_catcher(NULL);
	current_test = NULL;
	if (flags & X86_EFLAGS_IF)
		local_irq_enable();
	else
		local_irq_disable();
	kunit_reports_case_end(test);
}

static void print_result(int indent, bool ok, unsigned int nr, const char *name,
			 const struct kunit *test)
{
	if (test && test->status == KUNIT_SKIPPED)
		printk("%*s%s %u %s # SKIP %s\n", indent, "", "ok", nr, name,
		       test->status_comment);
	else
		printk("%*s%s %u %s\n", indent, "", ok ? "ok" : "not ok", nr, name);
}

static void init_test(struct kunit *test, const char *name)
{
	memset(test, 0, sizeof(*test));
	test->name = name;
	test->status = KUNIT_SUCCESS;
}

/*
 * A parameterised case: every parameter is a subtest of its own.  The case
 * fails if one of them failed, passes if one passed, and skips if all did:
 * with their reason, so that the runner can show why.
 *
 * The subtest has no plan line, as Linux's (lib/kunit/test.c, 6.x): KTAP puts
 * a plan right after the "# Subtest:" line, and a generator's count is known
 * only once it has run out.  A plan after the results is read by KTAP parsers
 * (Linux's kunit_parser.py) as the start of something else.
 */
static void run_param_case(struct kunit_suite *suite, struct kunit_case *c,
			   struct kunit *parent)
{
	char *why = parent->status_comment;
	char desc[KUNIT_PARAM_DESC_SIZE];
	const void *param = NULL;
	enum kunit_status result = KUNIT_SKIPPED;
	unsigned int nr = 0, skipped = 0;
	bool reasons_differ = false;
	struct kunit test;

	printk("        KTAP version 1\n        # Subtest: %s\n", c->name);
	for (;;) {
		desc[0] = '\0';
		if (c->generate_params)
			param = c->generate_params(parent, param, desc);
		else
			param = c->generate_params_noctx(param, desc);
		if (!param)
			break;
		init_test(&test, c->name);
		test.param_value = param;
		if (!desc[0])
			snprintf(desc, sizeof(desc), "param-%u", nr);
		run_one(suite, c, &test);
		print_result(8, test.status != KUNIT_FAILURE, ++nr, desc, &test);
		if (test.status == KUNIT_FAILURE)
			result = KUNIT_FAILURE;
		else if (test.status == KUNIT_SUCCESS && result != KUNIT_FAILURE)
			result = KUNIT_SUCCESS;
		else if (test.status == KUNIT_SKIPPED && !skipped++)
			strscpy(why, test.status_comment, KUNIT_STATUS_COMMENT_SIZE);
		else if (test.status == KUNIT_SKIPPED)
			reasons_differ |= strcmp(why, test.status_comment) != 0;
	}
	if (result == KUNIT_SKIPPED && !nr)
		strscpy(why, "no parameters", KUNIT_STATUS_COMMENT_SIZE);
	else if (result == KUNIT_SKIPPED && reasons_differ)
		snprintf(why, KUNIT_STATUS_COMMENT_SIZE,
			 "each of its %u parameters skipped, for different reasons", nr);
	parent->status = result;
}

/*
 * The filter: globs separated by commas, each "suite_glob" or
 * "suite_glob.case_glob" ("buddy*", "buddy.free_*,slab").  A suite runs if
 * one of them matches its name; a case of it, if one of those has no case
 * part or its case part matches the case's name too.
 */
#define MAX_FILTER_GLOBS	16

static char filter_text[256];
static struct {
	const char *suite, *cases;	/* cases: NULL for every case */
} filter[MAX_FILTER_GLOBS];
static unsigned int filter_nr;

static void parse_filter(const char *glob)
{
	char *part = filter_text;

	strscpy(filter_text, glob, sizeof(filter_text));
	for (filter_nr = 0; part && filter_nr < MAX_FILTER_GLOBS; filter_nr++) {
		char *comma = strchr(part, ','), *dot;

		if (comma)
			*comma = '\0';
		dot = strchr(part, '.');
		if (dot)
			*dot = '\0';
		filter[filter_nr].suite = part;
		filter[filter_nr].cases = dot ? dot + 1 : NULL;
		part = comma ? comma + 1 : NULL;
	}
}

static bool suite_selected(const struct kunit_suite *suite)
{
	for (unsigned int i = 0; i < filter_nr; i++) {
		if (glob_match(filter[i].suite, suite->name))
			return true;
	}
	return false;
}

static bool case_selected(const struct kunit_suite *suite, const struct kunit_case *c)
{
	for (unsigned int i = 0; i < filter_nr; i++) {
		if (glob_match(filter[i].suite, suite->name) &&
		    (!filter[i].cases || glob_match(filter[i].cases, c->name)))
			return true;
	}
	return false;
}

static void run_suite(struct kunit_suite *suite, unsigned int nr, struct kunit_totals *totals)
{
	struct kunit_totals mine = { 0 };
	unsigned int ncases = 0, i = 0;
	bool suite_ok;
	struct kunit test;
	int init_err = 0;

	for (struct kunit_case *c = suite->test_cases; c->run_case; c++)
		ncases += case_selected(suite, c);
	printk("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", suite->name, ncases);
	if (suite->suite_init)
		init_err = suite->suite_init(suite);
	for (struct kunit_case *c = suite->test_cases; c->run_case; c++) {
		if (!case_selected(suite, c))
			continue;
		init_test(&test, c->name);
		printk("    # %s: running\n", c->name);
		if (init_err) {
			printk("    # %s: suite_init() failed (%d)\n", c->name, init_err);
			test.status = KUNIT_FAILURE;
		}
		else if (c->generate_params || c->generate_params_noctx)
			run_param_case(suite, c, &test);
		else
			run_one(suite, c, &test);
		c->status = test.status;
		print_result(4, test.status != KUNIT_FAILURE, ++i, c->name, &test);
		if (test.status == KUNIT_FAILURE)
			mine.failed++;
		else if (test.status == KUNIT_SKIPPED)
			mine.skipped++;
		else
			mine.passed++;
	}
	if (suite->suite_exit && !init_err)
		suite->suite_exit(suite);
	suite_ok = kunit_accounting_check(suite);
	suite_ok &= !kunit_reports_outside(suite);
	printk("# %s: pass:%u fail:%u skip:%u total:%u\n", suite->name,
	       mine.passed, mine.failed, mine.skipped, ncases);
	suite_ok &= !mine.failed && !init_err;
	printk("%s %u %s\n", suite_ok ? "ok" : "not ok", nr, suite->name);
	totals->passed += mine.passed;
	totals->failed += mine.failed;
	totals->skipped += mine.skipped;
}

/**
 * kunit_run_all_tests - run every registered suite that matches @glob
 * @glob: "*" for all, "suite_glob" or "suite_glob.case_glob", or several
 *	  of those separated by commas
 *
 * Context: boot CPU, from kmain, after every subsystem is initialised.
 * Return: the number of failed cases.
 */
int kunit_run_all_tests(const char *glob)
{
	struct kunit_totals totals = { 0 };
	unsigned int nsuites = 0, nr = 0;

	runner_cpu = smp_processor_id();
	parse_filter(glob);
	for (struct kunit_suite *const *s = __start_kunit_suites; s < __stop_kunit_suites; s++)
		nsuites += suite_selected(*s);
	kunit_reports_start();
	kunit_accounting_start();
	printk("KTAP version 1\n1..%u\n", nsuites);
	kunit_reports_outside(NULL);	/* during boot */
	for (struct kunit_suite *const *s = __start_kunit_suites; s < __stop_kunit_suites; s++) {
		if (suite_selected(*s))
			run_suite(*s, ++nr, &totals);
	}
	if (!totals.passed && !totals.failed && !totals.skipped) {
		/* Say what exists, so a mistyped filter is not a silent success. */
		printk("# kunit: no test matches '%s'; the suites are:", glob);
		for (struct kunit_suite *const *s = __start_kunit_suites; s < __stop_kunit_suites;
		     s++)
			printk(KERN_CONT " %s", (*s)->name);
		printk(KERN_CONT "\n");
	}
	kunit_reports_outside(NULL);
	kunit_reports_stop();
	printk("# Totals: pass:%u fail:%u skip:%u total:%u\n", totals.passed,
	       totals.failed, totals.skipped,
	       totals.passed + totals.failed + totals.skipped);
	return totals.failed;
}
