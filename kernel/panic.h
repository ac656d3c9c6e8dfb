/*
 * kernel/panic.h - when the kernel finds itself wrong: WARN, BUG, panic.
 *
 * WARN_ON(cond) reports a suspicious condition with a backtrace and carries
 * on; BUG_ON(cond) stops the current work with an oops; panic() stops the
 * machine.  As in Linux, WARN_ON() returns the condition so it can guard
 * an early return: `if (WARN_ON(!ptr)) return -EINVAL;`
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "lib/compiler.h"

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
void __warn(const char *file, int line, void *ip, const char *fmt, ...) __printf(4, 5);
void dump_stack(void);

#define __WARN_printf(fmt, ...)						\
	__warn(__FILE__, __LINE__, (void *)_THIS_IP_, fmt, ##__VA_ARGS__)

#define WARN(cond, fmt, ...) ({						\
	bool __c = !!(cond);						\
	if (unlikely(__c))						\
		__WARN_printf(fmt, ##__VA_ARGS__);			\
	unlikely(__c);							\
})

#define WARN_ON(cond)		WARN(cond, NULL)

#define WARN_ONCE(cond, fmt, ...) ({					\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (unlikely(__c) && !__warned) {				\
		__warned = true;					\
		__WARN_printf(fmt, ##__VA_ARGS__);			\
	}								\
	unlikely(__c);							\
})

#define WARN_ON_ONCE(cond)	WARN_ONCE(cond, NULL)

/*
 * report_once_per_caller - true the first time @caller reaches this report
 *
 * For reports that should name each offending caller once, not flood the
 * log: one struct report_once per report site.  Past 16 callers it stays
 * quiet.  Context: any.
 */
struct report_once {
	void *callers[16];
};

static inline bool report_once_per_caller(struct report_once *seen, void *caller)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(seen->callers); i++) {
		void *old = NULL;

		if (__atomic_load_n(&seen->callers[i], __ATOMIC_RELAXED) == caller)
			return false;
		if (__atomic_compare_exchange_n(&seen->callers[i], &old, caller, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return true;
		if (old == caller)
			return false;
	}
	return false;
}

#define BUG() do {							\
	printk(KERN_EMERG "kernel BUG at %s:%d!\n", __FILE__, __LINE__);\
	__builtin_trap();						\
} while (0)

#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)

/*
 * The oops path, used by arch/x86_64/traps.c.  oops_begin() returns the
 * oops number ([#1], [#2]...).  oops_end() gives the oops to whoever
 * registered a catcher with set_oops_catcher() - a KUnit case in progress,
 * which marks the case failed and resumes the runner - and panics if nobody
 * did.  A fault while an oops is being printed halts at once.
 */
int oops_begin(void);
__noreturn void oops_end(void);
typedef void (*oops_catcher_t)(void);
oops_catcher_t set_oops_catcher(oops_catcher_t fn);

#endif
