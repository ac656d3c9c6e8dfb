/*
 * tests/kunit/fault_inject.c - fault injection armed for one case only.
 *
 * The first call in a case saves what it changes and adds the action that
 * restores it (kunit_add_action(): after the suite's exit(), even when the
 * case failed or oopsed); later calls in the same case just re-arm, so a
 * case can arm a thousand times and allocate nothing for it after the
 * first.  Cases run one at a time on the boot CPU, so one saved state per
 * knob is enough.
 */
#include "kunit/fault_inject.h"

static struct kunit *fail_nth_case;	/* the case whose end disarms fail-nth */

static void fail_nth_release(void *unused)
{
	(void)unused;
	fail_nth_set(0, 0);
	fail_nth_case = NULL;
}

/**
 * kunit_fail_nth - fail the @nth allocation of @kinds the case makes from now on
 * @test: the case; fail-nth is disarmed when it ends
 * @kinds: FAIL_PAGE, FAIL_SLAB, FAIL_VMALLOC (or'ed), FAIL_ALL
 * @nth: 1 for the very next; 0 disarms at once
 *
 * Counts the allocations of this CPU (the one running the case) outside
 * interrupt handlers, __GFP_NOFAIL ones excepted; the other CPUs' are
 * neither counted nor failed (fail_nth_set()).  fail_nth_get() tells how
 * many are still to go: 0 once the nth has failed.
 * Context: the case's own code (interrupts on).
 */
void kunit_fail_nth(struct kunit *test, unsigned int kinds, unsigned int nth)
{
	if (fail_nth_case != test) {
		KUNIT_ASSERT_EQ_MSG(test, kunit_add_action(test, fail_nth_release, NULL), 0,
				    "no memory to disarm fail-nth at the end of the case");
		fail_nth_case = test;
	}
	fail_nth_set(kinds, nth);
}

/* An attr as it was before a case changed it, and which case that is. */
struct attr_saved {
	struct fault_attr *attr;
	struct kunit *test;
	struct fault_attr before;
};

static struct attr_saved saved[3];	/* by kind: FAIL_PAGE, FAIL_SLAB, FAIL_VMALLOC */

static void attr_restore(void *ctx)
{
	struct attr_saved *s = ctx;

	*s->attr = s->before;
	s->test = NULL;
	fault_inject_update();
}

/**
 * kunit_fault_attr_setup - setup_fault_attr() for the rest of the case
 * @test: the case; @attr is put back as it was when it ends
 * @attr: fail_page_alloc, failslab or fail_vmalloc
 * @str: as on the command line: "interval,probability,space,times[,option...]"
 *
 * Context: the case's own code (interrupts on).
 * Return: 0, or -EINVAL after the one-line refusal (then @attr is unchanged).
 */
int kunit_fault_attr_setup(struct kunit *test, struct fault_attr *attr, const char *str)
{
	struct attr_saved *s = &saved[__builtin_ctz(attr->kind)];

	if (s->test != test) {
		KUNIT_ASSERT_EQ_MSG(test, kunit_add_action(test, attr_restore, s), 0,
				    "no memory to restore %s at the end of the case", attr->name);
		*s = (struct attr_saved){ .attr = attr, .test = test, .before = *attr };
	}
	return setup_fault_attr(attr, str);
}
