/*
 * kunit/fault_inject.h - allocations that fail on purpose, for one case.
 *
 * Each call arms fault injection (mm/fault_inject.h) and registers, once
 * per case, the action that puts everything back as it was when the case
 * ends, however it ends (kunit_add_action()).  docs/testing.md ("Fault
 * injection") shows them at work.
 */
#ifndef KUNIT_FAULT_INJECT_H
#define KUNIT_FAULT_INJECT_H

#include "kunit/test.h"
#include "mm/fault_inject.h"

void kunit_fail_nth(struct kunit *test, unsigned int kinds, unsigned int nth);
int kunit_fault_attr_setup(struct kunit *test, struct fault_attr *attr, const char *str);

#endif
