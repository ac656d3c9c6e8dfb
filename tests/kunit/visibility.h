/*
 * kunit/visibility.h - Linux's way for a test to reach a static function:
 * VISIBLE_IF_KUNIT drops `static` in a kernel built for tests, and
 * EXPORT_SYMBOL_IF_KUNIT() exports the symbol to a test module.  Here
 * tests are linked into the kernel and there are no modules, so the first
 * is empty and the second declares nothing.
 */
#ifndef KUNIT_VISIBILITY_H
#define KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)	extern int __kunit_no_modules

#endif
