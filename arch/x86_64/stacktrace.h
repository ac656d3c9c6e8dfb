/* arch/x86_64/stacktrace.h - backtraces by walking frame pointers. */
#ifndef ARCH_X86_64_STACKTRACE_H
#define ARCH_X86_64_STACKTRACE_H

void show_stack(unsigned long rbp, unsigned long rip);
unsigned int stack_trace_save(unsigned long *store, unsigned int size, unsigned int skipnr);

#endif
