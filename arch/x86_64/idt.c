/*
 * arch/x86_64/idt.c - the IDT, and the C function every interrupt reaches.
 *
 * All 256 gates point at the stubs of isr.asm, which call do_interrupt().
 * Vectors 0..31 are CPU exceptions and go to the trap code; the others are
 * device or inter-processor interrupts whose handlers are registered with
 * set_interrupt_handler().  One table serves every CPU.  Before an
 * interrupt's handler runs, an interrupted restartable sequence is moved
 * back to its start (arch/x86_64/restart.h).
 */
#include "arch/x86_64/idt.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/restart.h"
#include "mm/vm_event_item.h"
#include "kernel/hardirq.h"
#include "kernel/printk.h"

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 reserved;
} __packed;

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

#define GATE_INTERRUPT	0x8e	/* present, ring 0, interrupt gate (IF cleared) */

extern const u64 isr_stub_table[NR_VECTORS];
static struct idt_gate idt[NR_VECTORS] __aligned(16);
static irq_handler_t handlers[NR_VECTORS];
DEFINE_PER_CPU(unsigned int, hardirq_count);
DEFINE_PER_CPU(unsigned int, nmi_nesting);

extern const struct restart_sequence __start_restart_table[], __stop_restart_table[];
/* From the lowest start to the highest end of all sequences: most interrupts look no further. */
static unsigned long restart_lowest, restart_span;

static void set_gate(unsigned int vector, u64 addr, u8 ist)
{
	idt[vector] = (struct idt_gate) {
		.offset_low = addr & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = GATE_INTERRUPT,
		.offset_mid = (addr >> 16) & 0xffff,
		.offset_high = addr >> 32,
	};
}

/**
 * idt_init - fill the IDT; exceptions that may hit a bad stack get IST
 * stacks.  Also finds the range the restartable sequences lie in, which
 * most interrupts then need look no further than.
 */
void idt_init(void)
{
	unsigned long highest = 0;

	for (unsigned int v = 0; v < NR_VECTORS; v++)
		set_gate(v, isr_stub_table[v], 0);
	idt[X86_TRAP_DF].ist = IST_DOUBLE_FAULT;
	idt[X86_TRAP_NMI].ist = IST_NMI;
	idt[X86_TRAP_MC].ist = IST_MACHINE_CHECK;
	restart_lowest = ~0UL;
	for (const struct restart_sequence *r = __start_restart_table; r < __stop_restart_table; r++) {
		restart_lowest = min(restart_lowest, r->start);
		highest = max(highest, r->end);
	}
	restart_span = highest - restart_lowest;
}

/** idt_load - make the calling CPU use the IDT */
void idt_load(void)
{
	struct idt_ptr ptr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" : : "m"(ptr));
}

/**
 * set_interrupt_handler - route vector @vector to @handler
 * @vector: FIRST_EXTERNAL_VECTOR..255
 * @handler: called with interrupts off and the interrupted registers
 */
void set_interrupt_handler(unsigned int vector, irq_handler_t handler)
{
	if (vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS) {
		pr_err("idt: vector %u cannot take a handler\n", vector);
		return;
	}
	handlers[vector] = handler;
}

/**
 * restart_interrupted_sequence - start again a restartable sequence that an
 * interrupt came into (arch/x86_64/restart.h)
 * @regs: the interrupted registers; @regs->rip moves back to the start of
 *	  the sequence it is inside of, if any
 *
 * Inside means after the first instruction (an interrupt there has undone
 * nothing) and up to and including the commit.  The sequence then reads
 * afresh, when the interrupt returns, what the handler may have changed.
 * Context: do_interrupt(), for every interrupt but NMIs and exceptions.
 * Return: true if @regs->rip was moved.
 */
bool restart_interrupted_sequence(struct pt_regs *regs)
{
	unsigned long ip = regs->rip;

	for (const struct restart_sequence *r = __start_restart_table; r < __stop_restart_table; r++) {
		if (ip - r->start - 1 < r->end - r->start - 1) {
			regs->rip = r->start;
			/* generic here, but the sheaves' are the only sequences */
			count_vm_event(SLAB_SHEAF_RESTART);
			return true;
		}
	}
	return false;
}

/* Called from isr_common for every interrupt and exception. */
void do_interrupt(struct pt_regs *regs);
void do_interrupt(struct pt_regs *regs)
{
	unsigned int v = regs->vector;

	if (v < FIRST_EXTERNAL_VECTOR) {
		do_exception(regs);
		return;
	}
	/* most interrupts come nowhere near a sequence: one range test, inline */
	if (unlikely(regs->rip - restart_lowest < restart_span))
		restart_interrupted_sequence(regs);
	irq_enter();
	if (handlers[v])
		handlers[v](regs);
	else if (v >= PIC_VECTOR_BASE && v < PIC_VECTOR_BASE + PIC_NR_VECTORS)
		;	/* a spurious interrupt from a masked 8259: harmless */
	else
		pr_warn("idt: unexpected interrupt on vector %u\n", v);
	irq_exit();
}
