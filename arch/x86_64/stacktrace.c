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

/*
 * Up to @size callers from the frame at @rbp outwards, after leaving out
 * the @skip innermost, each as an address inside its call instruction (the
 * return address minus 1), so that it names the calling function even when
 * the call is its last instruction.
 */
static unsigned int walk_frames(unsigned long rbp, unsigned long *store, unsigned int size,
				unsigned int skip)
{
	unsigned int n = 0;
	struct frame f;

	while (n < size && rbp) {
		if (rbp & 7 || copy_from_kernel_nofault(&f, (void *)rbp, sizeof(f)))
			break;
		if (!f.return_address)
			break;
		if (skip)
			skip--;
		else
			store[n++] = f.return_address - 1;
		if (f.next_rbp <= rbp)
			break;	/* the stack grows down, so callers are higher */
		rbp = f.next_rbp;
	}
	return n;
}

/**
 * show_stack - print a backtrace
 * @rbp: frame pointer of the innermost frame
 * @rip: where that frame is executing, printed first
 */
void show_stack(unsigned long rbp, unsigned long rip)
{
	unsigned long trace[MAX_FRAMES];
	unsigned int n = walk_frames(rbp, trace, MAX_FRAMES, 0);

	printk(KERN_EMERG "Call Trace:\n");
	printk(KERN_EMERG " %pS\n", (void *)rip);
	for (unsigned int i = 0; i < n; i++)
		printk(KERN_EMERG " %pS\n", (void *)trace[i]);
}

/**
 * stack_trace_save - the calling functions, innermost first (Linux's name)
 * @store: where to put them: addresses inside each call instruction
 * @size: how many fit
 * @skipnr: how many of the innermost to leave out (0: start with the
 *	    function that called stack_trace_save())
 *
 * Context: any.  Return: how many were stored.
 */
unsigned int stack_trace_save(unsigned long *store, unsigned int size, unsigned int skipnr)
{
	return walk_frames((unsigned long)__builtin_frame_address(0), store, size, skipnr);
}
