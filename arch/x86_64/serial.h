/* arch/x86_64/serial.h - the 16550 UART on COM1: the kernel's console. */
#ifndef ARCH_X86_64_SERIAL_H
#define ARCH_X86_64_SERIAL_H

#include "lib/compiler.h"

void serial_init(void);
void serial_putc(char c);
void serial_write(const char *s, size_t len);
int serial_getc_nowait(void);
char serial_getc(void);
void serial_set_loopback(bool on);
void serial_set_mirror(void (*fn)(char c));

#endif
