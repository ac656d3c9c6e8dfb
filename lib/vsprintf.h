/*
 * lib/vsprintf.h - printf-style formatting into a buffer.
 *
 * Supports what kernel messages need: %d %i %u %x %X %o %c %s %% with the
 * h, hh, l, ll, j, z and t size modifiers, the flags '-', '0', '+', ' ', '#',
 * width and precision (also as '*'), and %p: %p prints a pointer as 16 hex
 * digits (unlike Linux, never hashed: this kernel is for looking at
 * addresses), %pS as symbol+offset/size and %ps as the symbol alone.
 * Where it differs from C's printf it does as Linux's lib/vsprintf.c (6.12):
 * every number has at least one digit, %#x of 0 is "0x0", and an unknown
 * conversion ends the output.  tests/host/test_vsprintf.c checks the rest
 * against the C library.
 */
#ifndef LIB_VSPRINTF_H
#define LIB_VSPRINTF_H

#include <stdarg.h>
#include <stddef.h>
#include "lib/compiler.h"

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * How %pS and %ps turn an address into a name.  lib/ sits below the kernel
 * and cannot see its symbol table, so the kernel registers a function here
 * at boot; until then (and in host tests) %pS prints the bare address.
 * The function writes at most @size bytes and returns the length written.
 */
typedef int (*symbol_formatter_t)(char *buf, size_t size, unsigned long addr,
				  bool with_offset);
void vsprintf_set_symbol_formatter(symbol_formatter_t fn);

#endif
