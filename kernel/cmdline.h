/*
 * kernel/cmdline.h - options from the kernel command line.
 *
 * GRUB passes the words after the kernel's path in grub.cfg; they are
 * "key=value" or bare "flag" words separated by spaces, as in Linux.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "lib/compiler.h"

void cmdline_init(const char *cmdline);
const char *cmdline_raw(void);
bool cmdline_get(const char *key, char *value, size_t size);
bool cmdline_has(const char *flag);
unsigned long cmdline_get_ulong(const char *key, unsigned long fallback);
bool cmdline_get_bool(const char *key, bool fallback);

#endif
