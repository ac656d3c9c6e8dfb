/* arch/x86_64/gdt.h - segment descriptors and the task-state segment. */
#ifndef ARCH_X86_64_GDT_H
#define ARCH_X86_64_GDT_H

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* Interrupt stack table slots (1-based, as the IDT gate encodes them). */
#define IST_DOUBLE_FAULT	1
#define IST_NMI			2
#define IST_MACHINE_CHECK	3

#define IST_STACK_SIZE		(16 * 1024)
#define IST_STACKS_SIZE		(3 * IST_STACK_SIZE)

void gdt_init_cpu(unsigned int cpu, void *ist_area);

#endif
