/*
 * tests/kunit/internal.h - what the runner (kunit.c) shares with the two
 * checks it runs around every case and suite: reports (reports.c) and
 * memory accounting (accounting.c); the torture test and the trace
 * replayer count memory the same way.  Not for suites.
 */
#ifndef KUNIT_INTERNAL_H
#define KUNIT_INTERNAL_H

#include "kunit/test.h"

/* reports.c */
void kunit_reports_start(void);
void kunit_reports_stop(void);
void kunit_reports_case_begin(struct kunit *test);
void kunit_reports_case_end(struct kunit *test);
bool kunit_reports_outside(const struct kunit_suite *suite);
bool kunit_line_is_report(const char *line, size_t len, bool *oops_begun);

/* accounting.c */
void kunit_accounting_start(void);
bool kunit_accounting_check(const struct kunit_suite *suite);
unsigned long settled_free_pages(void);
void count_caches_and_areas(unsigned long *caches, unsigned long *areas);

#endif
