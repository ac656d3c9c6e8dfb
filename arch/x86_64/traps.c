/*
 * arch/x86_64/traps.c - what happens when the CPU raises an exception.
 *
 * Two outcomes.  If the faulting instruction is listed in the exception
 * table (__ex_table: pairs of "instruction, where to go instead" emitted by
 * get_kernel_nofault() and friends) the fault was expected: jump to the
 * fixup and carry on.  Otherwise it is a kernel bug: print an oops in
 * Linux's format (what happened, the registers, CR2 decoded for a page
 * fault, a backtrace with symbol names) and hand over to oops_end(), which
 * lets a running KUnit case catch it or panics.
 */
#include "arch/x86_64/traps.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/stacktrace.h"
#include "kernel/hardirq.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"

static const char *const exception_names[32] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug",
	[X86_TRAP_NMI] = "NMI",
	[X86_TRAP_BP] = "int3",
	[X86_TRAP_OF] = "overflow",
	[X86_TRAP_BR] = "bounds",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "device not available",
	[X86_TRAP_DF] = "double fault",
	[9] = "coprocessor segment overrun",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack segment",
	[X86_TRAP_GP] = "general protection fault",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_MF] = "coprocessor error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_MC] = "machine check",
	[X86_TRAP_XF] = "simd exception",
	[20] = "virtualization exception",
	[21] = "control protection",
};

struct exception_table_entry {
	unsigned long insn;
	unsigned long fixup;
};

extern const struct exception_table_entry __start_ex_table[], __stop_ex_table[];
static fault_describer_t fault_describer;
static bool stopping_cpus;
static unsigned int cpus_stopped;

/**
 * stop_other_cpus - halt every other CPU (for panic())
 *
 * Sends them an NMI, which reaches a CPU even with interrupts off; the NMI
 * handler sees stopping_cpus and halts for good.  Waits a moment for them
 * to have stopped, so that the caller may then take over locks they held.
 * Context: any.
 */
void stop_other_cpus(void)
{
	unsigned int online = num_online_cpus();
	unsigned int others = online - 1;

	WRITE_ONCE(stopping_cpus, true);
	/*
	 * Before smp_init() no CPU is online, not even this one, and the local
	 * APIC is not mapped yet: a panic during boot (too little memory for
	 * the slab, say) has nobody to stop, and must not touch the APIC.
	 */
	if (online <= 1)
		return;
	apic_send_nmi_allbutself();
	for (unsigned long spins = 0; spins < 10000000UL; spins++) {
		if (__atomic_load_n(&cpus_stopped, __ATOMIC_ACQUIRE) >= others)
			return;
		cpu_relax();
	}
}

/**
 * search_exception_tables - the fixup address for a faulting instruction
 * @ip: address of the instruction that faulted
 *
 * Return: where to resume, or 0 if @ip has no fixup (a real bug).
 */
unsigned long search_exception_tables(unsigned long ip)
{
	for (const struct exception_table_entry *e = __start_ex_table;
	     e < __stop_ex_table; e++) {
		if (e->insn == ip)
			return e->fixup;
	}
	return 0;
}

/** set_fault_address_describer - let mm/ explain faulting addresses in oopses */
void set_fault_address_describer(fault_describer_t fn)
{
	fault_describer = fn;
}

/** describe_fault_address - what mm/ knows of @addr (a vmalloc area...), if anything */
void describe_fault_address(unsigned long addr)
{
	if (fault_describer)
		fault_describer(addr);
}

/** show_regs - print the registers of an interrupted context, Linux's layout */
void show_regs(const struct pt_regs *regs)
{
	printk(KERN_EMERG "RIP: %04lx:%pS\n", (unsigned long)regs->cs, (void *)regs->rip);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n",
	       (unsigned long)regs->ss, (unsigned long)regs->rsp,
	       (unsigned long)regs->rflags);
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n",
	       (unsigned long)regs->rax, (unsigned long)regs->rbx, (unsigned long)regs->rcx);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n",
	       (unsigned long)regs->rdx, (unsigned long)regs->rsi, (unsigned long)regs->rdi);
	printk(KERN_EMERG "RBP: %016lx R08: %016lx R09: %016lx\n",
	       (unsigned long)regs->rbp, (unsigned long)regs->r8, (unsigned long)regs->r9);
	printk(KERN_EMERG "R10: %016lx R11: %016lx R12: %016lx\n",
	       (unsigned long)regs->r10, (unsigned long)regs->r11, (unsigned long)regs->r12);
	printk(KERN_EMERG "R13: %016lx R14: %016lx R15: %016lx\n",
	       (unsigned long)regs->r13, (unsigned long)regs->r14, (unsigned long)regs->r15);
	printk(KERN_EMERG "CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

static void report_page_fault(const struct pt_regs *regs, unsigned long addr)
{
	unsigned long err = regs->error_code;
	const char *access = err & X86_PF_INSTR ? "instruction fetch" :
			     err & X86_PF_WRITE ? "write access" : "read access";
	const char *why = err & X86_PF_RSVD ? "reserved bit violation" :
			  err & X86_PF_PROT ? "permissions violation" : "not-present page";

	if (addr < 4096)
		printk(KERN_EMERG "BUG: kernel NULL pointer dereference, address: %016lx\n", addr);
	else
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %016lx\n", addr);
	printk(KERN_EMERG "#PF: supervisor %s in kernel mode\n", access);
	printk(KERN_EMERG "#PF: error_code(0x%04lx) - %s\n", err, why);
	describe_fault_address(addr);
}

static void die(const char *what, struct pt_regs *regs)
{
	int nr = oops_begin();

	if (regs->vector == X86_TRAP_PF)
		report_page_fault(regs, read_cr2());
	printk(KERN_EMERG "%s: %04lx [#%d] SMP\n",
	       regs->vector == X86_TRAP_PF ? "Oops" : what,
	       (unsigned long)regs->error_code, nr);
	printk(KERN_EMERG "CPU: %u\n", smp_processor_id());
	show_regs(regs);
	show_stack(regs->rbp, regs->rip);
	oops_end();
}

/*
 * An NMI: panic()'s request to stop, the only one the kernel sends, or one
 * of unknown reason (a watchdog's, the hypervisor's: QEMU's monitor command
 * "nmi").  As Linux 6.x's unknown_nmi_error(), that one is reported and the
 * CPU goes on; nothing here decodes the reason byte Linux reads from port
 * 0x61 on CPU 0, so it is 00.  Its printk may have interrupted a printk of
 * this CPU: printk defers the lines then (kernel/printk.c).
 */
static void do_nmi(void)
{
	this_cpu_inc(irq_stat.__nmi_count);
	if (READ_ONCE(stopping_cpus)) {
		__atomic_fetch_add(&cpus_stopped, 1, __ATOMIC_RELEASE);
		for (;;)
			halt();		/* another CPU panicked: stop here (NMIs stay blocked) */
	}
	nmi_enter();
	pr_emerg("Uhhuh. NMI received for unknown reason %02x on CPU %u.\n", 0,
		 smp_processor_id());
	pr_emerg("Dazed and confused, but trying to continue\n");
	nmi_exit();
}

/**
 * do_exception - handle CPU exception @regs->vector
 * @regs: the interrupted context; a fixup changes @regs->rip
 *
 * Context: interrupts off, on the faulting stack (or an IST stack).
 */
void do_exception(struct pt_regs *regs)
{
	unsigned long fixup;

	if (regs->vector == X86_TRAP_NMI) {
		do_nmi();
		return;
	}
	if (regs->vector == X86_TRAP_PF || regs->vector == X86_TRAP_GP) {
		fixup = search_exception_tables(regs->rip);
		if (fixup) {
			regs->rip = fixup;
			return;
		}
	}
	die(exception_names[regs->vector] ? exception_names[regs->vector] : "exception",
	    regs);
}
