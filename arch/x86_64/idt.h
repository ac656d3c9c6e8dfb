/* arch/x86_64/idt.h - the interrupt descriptor table and vector dispatch. */
#ifndef ARCH_X86_64_IDT_H
#define ARCH_X86_64_IDT_H

#include "arch/x86_64/ptrace.h"

#define NR_VECTORS		256
#define FIRST_EXTERNAL_VECTOR	32

typedef void (*irq_handler_t)(struct pt_regs *regs);

void idt_init(void);
void idt_load(void);
void set_interrupt_handler(unsigned int vector, irq_handler_t handler);

#endif
