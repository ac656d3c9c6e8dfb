/*
 * tests/kunit/reports.c - no report goes unnoticed: a case fails if the
 * kernel printed a report the case did not declare.
 *
 * Linux's test robot treats any WARNING, BUG or Oops in a log as a failure,
 * even if every test said "ok": the kernel found itself wrong.  Here the
 * rule is checked in the kernel, where printk knows where each message
 * starts: a probe on the console (register_trace_console(), Linux's console
 * tracepoint) looks at the first words of every line as it is printed, on
 * any CPU.  A line that starts a report is counted against the case that
 * is running, whichever CPU printed it:
 *
 *   WARNING:  BUG:  BUG <cache>  kernel BUG at  <name>: 0000 [#N] SMP (an oops)
 *   UBSAN:  FAULT_INJECTION:  page allocation failure:  vmalloc error:
 *   invoked oom-killer:  SLUB: Unable to allocate memory
 *   percpu: allocation failed
 *
 * (after "kmem: " or "kmem ", the name Linux would give of the task).  An
 * oops that starts with "BUG: unable to handle ..." or "kernel BUG at" is
 * one report, not two with its "Oops: ... [#N]" line.
 *
 * A case that provokes a report on purpose (a double free, an OOM) says so
 * with kunit_expect_report(test, "part of the first line"); then any number
 * of such reports is fine, and at least one must come.  When the case ends,
 * each undeclared report (the first KUNIT_REPORTS_KEPT of them, by their
 * first line) and each declared one that never came is printed as a
 * diagnostic.  Reports while no case runs (during boot, in a suite's
 * suite_init() or suite_exit(), in the accounting between suites) are
 * printed as "report outside any case" lines.
 *
 * Who fails for them: a suite that says .strict (every suite of this
 * repository) fails the case, or the suite, for any of them.  A suite
 * written as for Linux, without .strict, fails only for what fails a
 * Linux KUnit test too: a KASAN report, UBSAN, an oops; the allocators'
 * reports of a misuse (docs/design.md: reported in one line, and the kernel
 * goes on) are then diagnostics, so a suite that double-frees on purpose
 * to see the kernel survive passes, as it would on Linux.  Boot's reports
 * fail the run whatever the suites say.
 */
#include "kunit/internal.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* Where a report goes: the running case, or the reports outside any case. */
static struct kunit *report_case;
static struct {
	unsigned int nr;
	unsigned int nr_fatal;
	char first[KUNIT_REPORT_LINE];
} outside;

/* The probe's state: it sees messages, which may end mid-line. */
static bool at_line_start = true;
static bool oops_begun;		/* the next "[#N] SMP" line belongs to this oops */

/*
 * What fails a Linux KUnit test as well, and so fails any case here,
 * .strict or not (with the oopses below).
 */
static const char *const fatal_starts[] = { "BUG: KASAN:", "UBSAN:" };

static const char *const report_starts[] = {
	"WARNING:", "BUG:", "BUG ", "kernel BUG at", "UBSAN:", "FAULT_INJECTION:",
	"page allocation failure:", "vmalloc error:", "invoked oom-killer:",
	"SLUB: Unable to allocate memory", "percpu: allocation failed",
};

/* The first lines of an oops that a "<what>: 0000 [#N] SMP" line follows. */
static const char *const oops_starts[] = {
	"BUG: unable to handle", "BUG: kernel NULL pointer dereference", "kernel BUG at",
};

static bool starts_with(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* traps.c's die(): "invalid opcode: 0000 [#1] SMP", "Oops: 0002 [#3] SMP" */
static bool is_oops_header(const char *line, size_t len)
{
	const char *p = memchr(line, ':', len), *end = line + len;

	if (!p || p == line || line[0] == ' ' || end - p < 14 || memcmp(p, ": ", 2))
		return false;
	for (p += 2; p < end && *p != ' '; p++) {
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	}
	if (end - p < 9 || memcmp(p, " [#", 3) || memcmp(end - 5, "] SMP", 5))
		return false;
	for (p += 3; p < end - 5; p++) {
		if (*p < '0' || *p > '9')
			return false;
	}
	return true;
}

enum report_kind { NOT_A_REPORT, REPORT, FATAL_REPORT };

/* @begun: the state of the oops being read ("its [#N] line is to come"), the caller's. */
static enum report_kind report_kind(const char *line, size_t len, bool *begun)
{
	if (starts_with(line, len, "kmem: "))
		line += 6, len -= 6;
	else if (starts_with(line, len, "kmem "))
		line += 5, len -= 5;
	if (is_oops_header(line, len)) {
		bool part_of_one = *begun;

		*begun = false;
		return part_of_one ? NOT_A_REPORT : FATAL_REPORT;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(oops_starts); i++) {
		if (starts_with(line, len, oops_starts[i])) {
			*begun = true;
			return FATAL_REPORT;
		}
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(fatal_starts); i++) {
		if (starts_with(line, len, fatal_starts[i]))
			return FATAL_REPORT;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(report_starts); i++) {
		if (starts_with(line, len, report_starts[i]))
			return REPORT;
	}
	return NOT_A_REPORT;
}

/**
 * kunit_line_is_report - does @line (@len bytes, no newline) start a report?
 * @oops_begun: the caller's state across lines (false at first), so that
 *              an oops counts once, not again at its "[#N] SMP" line
 *
 * The rule a case is failed by, for code that counts reports outside
 * KUnit (the allocator torture, tests/torture/).
 */
bool kunit_line_is_report(const char *line, size_t len, bool *oops_begun)
{
	return report_kind(line, len, oops_begun) != NOT_A_REPORT;
}

static bool declared(struct kunit *test, const char *line)
{
	unsigned int n = READ_ONCE(test->nr_expected);
	bool found = false;

	for (unsigned int i = 0; i < n && i < KUNIT_MAX_EXPECTED_REPORTS; i++) {
		if (strstr(line, test->expected[i].text)) {
			test->expected[i].seen++;
			found = true;
		}
	}
	return found;
}

static void record(const char *text, size_t len, enum report_kind kind)
{
	struct kunit *test = READ_ONCE(report_case);
	char line[KUNIT_REPORT_LINE];

	len = min(len, sizeof(line) - 1);
	memcpy(line, text, len);
	line[len] = '\0';
	if (!test) {
		if (!outside.nr++)
			strscpy(outside.first, line, sizeof(outside.first));
		outside.nr_fatal += kind == FATAL_REPORT;
		return;
	}
	if (declared(test, line))
		return;
	if (test->nr_undeclared < KUNIT_REPORTS_KEPT)
		strscpy(test->undeclared[test->nr_undeclared], line, KUNIT_REPORT_LINE);
	test->nr_undeclared++;
	test->nr_fatal += kind == FATAL_REPORT;
}

/* The console probe: called with printk's lock held, so one at a time. */
static void report_probe(void *data, const char *text, size_t len)
{
	const char *end = text + len;

	(void)data;
	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		size_t n = (nl ? nl : end) - text;

		enum report_kind kind = at_line_start ? report_kind(text, n, &oops_begun) :
							NOT_A_REPORT;

		if (kind != NOT_A_REPORT)
			record(text, n, kind);
		at_line_start = nl;
		text = nl ? nl + 1 : end;
	}
}

static void declare_report(struct kunit *test, const char *text, bool optional)
{
	unsigned int n = test->nr_expected;

	if (n == KUNIT_MAX_EXPECTED_REPORTS) {
		KUNIT_FAIL(test, "more than %d reports declared (\"%s\")",
			   KUNIT_MAX_EXPECTED_REPORTS, text);
		return;
	}
	test->expected[n].text = text;
	test->expected[n].seen = 0;
	test->expected[n].optional = optional;
	__atomic_store_n(&test->nr_expected, n + 1, __ATOMIC_RELEASE);
}

/**
 * kunit_expect_report - declare a report the running case will provoke
 *
 * See tests/kunit/test.h.  Context: the case, its init() or exit().
 */
void kunit_expect_report(struct kunit *test, const char *text)
{
	declare_report(test, text, false);
}

/**
 * kunit_allow_report - declare a report the running case may or may not provoke
 *
 * See tests/kunit/test.h.  Context: the case, its init() or exit().
 */
void kunit_allow_report(struct kunit *test, const char *text)
{
	declare_report(test, text, true);
}

/**
 * kunit_reports_start - watch the console from now on, and look at the boot log
 *
 * Reports printed before the tests (during boot) count as outside any case.
 * Context: kunit_run_all_tests(), before the first suite.
 */
void kunit_reports_start(void)
{
	static char boot_log[16384];	/* the newest 16 KiB of it */

	printk_log_read(0, boot_log, sizeof(boot_log));
	report_probe(NULL, boot_log, strlen(boot_log));
	at_line_start = true;
	if (register_trace_console(report_probe, NULL))
		printk("# kunit: cannot watch the console for reports (no free probe)\n");
}

/** kunit_reports_stop - stop watching the console */
void kunit_reports_stop(void)
{
	unregister_trace_console(report_probe, NULL);
}

/** kunit_reports_case_begin - reports are @test's from now on */
void kunit_reports_case_begin(struct kunit *test)
{
	WRITE_ONCE(report_case, test);
}

/**
 * kunit_reports_case_end - no more reports for @test; fail it if they were wrong
 *
 * Prints each undeclared report's first line, and each declared report
 * that did not come (unless the case was skipped: a skipped case may stop
 * before provoking anything).  Undeclared reports fail a .strict suite's
 * case; in another suite only a KASAN, UBSAN or oops report does.
 */
void kunit_reports_case_end(struct kunit *test)
{
	WRITE_ONCE(report_case, NULL);
	for (unsigned int i = 0; i < min(test->nr_undeclared, KUNIT_REPORTS_KEPT); i++)
		printk("    # %s: undeclared report: %s\n", test->name, test->undeclared[i]);
	if (test->nr_undeclared > KUNIT_REPORTS_KEPT)
		printk("    # %s: and %u more undeclared reports\n", test->name,
		       test->nr_undeclared - KUNIT_REPORTS_KEPT);
	if (test->nr_fatal || (test->nr_undeclared && test->strict))
		test->status = KUNIT_FAILURE;
	else if (test->nr_undeclared)
		printk("    # %s: note: not failed for them, the suite is not .strict "
		       "(tests/kunit/test.h)\n", test->name);
	if (test->status == KUNIT_SKIPPED)
		return;
	for (unsigned int i = 0; i < test->nr_expected; i++) {
		if (test->expected[i].seen || test->expected[i].optional)
			continue;
		printk("    # %s: expected report \"%s\" did not appear\n", test->name,
		       test->expected[i].text);
		test->status = KUNIT_FAILURE;
	}
}

/**
 * kunit_reports_outside - print the reports made while no case ran, and forget them
 * @suite: the suite they belong to, or NULL for none (boot, after the tests)
 *
 * Return: true if they fail the suite (it is .strict, or one was a KASAN,
 * UBSAN or oops report) or the run (@suite is NULL).
 */
bool kunit_reports_outside(const struct kunit_suite *suite)
{
	unsigned int nr = READ_ONCE(outside.nr);
	bool fail = !suite || suite->strict || outside.nr_fatal;

	if (!nr)
		return false;
	if (!suite)
		printk("# kunit: report outside any case: %s", outside.first);
	else if (fail)
		printk("    # %s: report outside any case: %s", suite->name, outside.first);
	else
		printk("    # %s: note: report outside any case, not failed (the suite is not "
		       ".strict): %s", suite->name, outside.first);
	if (nr > 1)
		printk(KERN_CONT " (and %u more)", nr - 1);
	printk(KERN_CONT "\n");
	outside.nr = 0;
	outside.nr_fatal = 0;
	return fail;
}
