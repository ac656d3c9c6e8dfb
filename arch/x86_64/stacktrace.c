/*
 * arch/x86_64/stacktrace.c - "Call Trace:" from the saved frame pointers.
 *
 * The kernel is built with -fno-omit-frame-pointer, so every function's
 * frame starts with the caller's rbp followed by the return address: a
 * linked list through the stack.  Each link is read with
 * copy_from_kernel_nofault(), so a corrupt rbp ends the trace instead of
 * faulting inside the oops.
 */
#include "arch/x86_64/stacktrace.h"
#include "kernel/printk.h"
#include "mm/maccess.h"

#define MAX_FRAMES	24

struct frame {
	unsigned long next_rbp;
	unsigned long return_address;
};

/**
 * show_stack - print a backtrace
 * @rbp: frame pointer of the innermost frame
 * @rip: where that frame is executing, printed first
 */
void show_stack(unsigned long rbp, unsigned long rip)
{
	struct frame f;

	printk(KERN_EMERG "Call Trace:\n");
	printk(KERN_EMERG " %pS\n", (void *)rip);
	for (int i = 0; i < MAX_FRAMES && rbp; i++) {
		if (rbp & 7 || copy_from_kernel_nofault(&f, (void *)rbp, sizeof(f)))
			break;
		if (!f.return_address)
			break;
		/* The return address points after the call; step back into it. */
		printk(KERN_EMERG " %pS\n", (void *)(f.return_address - 1));
		if (f.next_rbp <= rbp)
			break;	/* the stack grows down, so callers are higher */
		rbp = f.next_rbp;
	}
}
