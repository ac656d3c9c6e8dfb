/*
 * kernel/kallsyms.h - addresses to function names, for oopses and %pS.
 *
 * The table is generated from the linked kernel by tools/gen-kallsyms.sh
 * and linked in by a second link (see the Makefile): the first link has an
 * empty table, `nm` lists its functions, and the second link adds the list.
 * The table sits at the end of .rodata, so adding it moves no function.
 */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include "lib/compiler.h"

const char *kallsyms_lookup(unsigned long addr, unsigned long *size, unsigned long *offset);
int sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset);
unsigned long kallsyms_lookup_name(const char *name);

#endif
