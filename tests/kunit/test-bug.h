/*
 * kunit/test-bug.h - what code outside a test case may ask KUnit, as in
 * Linux: the case running now, and failing it from where the failure is
 * noticed (a callback, a helper with no struct kunit in hand).
 */
#ifndef KUNIT_TEST_BUG_H
#define KUNIT_TEST_BUG_H

#include "kunit/test.h"

/*
 * kunit_fail_current_test - fail the running case, if any, with a message;
 * the case goes on (an EXPECT, not an ASSERT).  Context: the CPU that runs
 * the tests (elsewhere there is no current case, as Linux has none in other
 * tasks).
 */
#define kunit_fail_current_test(fmt, ...)					\
	do {									\
		struct kunit *__kunit_cur = kunit_get_current_test();		\
										\
		if (__kunit_cur)						\
			__kunit_fail(__kunit_cur, false, __FILE__, __LINE__, NULL,	\
				     fmt, ##__VA_ARGS__);				\
	} while (0)

#endif
