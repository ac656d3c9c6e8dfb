/*
 * kernel/config.h - fixed limits, the few Kconfig values this kernel has.
 */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#define NR_CPUS		64	/* most CPUs brought online; more in the MADT are left out */

/*
 * Self-checks of the memory allocators (mm/mmdebug.h).  On by default, in
 * every kernel that runs tests; the benchmark kernel is built with
 * -DCONFIG_DEBUG_VM=0, as Linux distributions ship theirs.
 */
#ifndef CONFIG_DEBUG_VM
#define CONFIG_DEBUG_VM		1
#endif

/*
 * The slab allocator's debugging (mm/slab_debug.c): compiled in unless
 * CONFIG_SLUB_DEBUG is 0 (the benchmark kernel), and off for every cache
 * until slab_debug= on the command line turns it on (bare slab_debug: F, Z,
 * P and U on every cache), as Linux distributions ship it
 * (CONFIG_SLUB_DEBUG=y, CONFIG_SLUB_DEBUG_ON=n): the caches use the per-CPU
 * sheaves.  -DCONFIG_SLUB_DEBUG_ON=1 checks every cache from boot.
 */
#ifndef CONFIG_SLUB_DEBUG
#define CONFIG_SLUB_DEBUG	1
#endif
#ifndef CONFIG_SLUB_DEBUG_ON
#define CONFIG_SLUB_DEBUG_ON	0
#endif

/*
 * Spinlock debugging (kernel/spinlock.h: the holder recorded, recursion
 * and lockups reported) and lockdep, the lock validator (kernel/lockdep.c),
 * which follows it unless set: both are off only in the benchmark kernel,
 * built with -DCONFIG_DEBUG_SPINLOCK=0.  Lockdep compiled in is still off
 * until the command line says "lockdep".
 */
#ifndef CONFIG_DEBUG_SPINLOCK
#define CONFIG_DEBUG_SPINLOCK	1
#endif
#ifndef CONFIG_LOCKDEP
#define CONFIG_LOCKDEP		CONFIG_DEBUG_SPINLOCK
#endif

/*
 * KASAN, the kernel address sanitizer (mm/kasan/): only in the kernels
 * that `make KASAN=1` builds (in build/kasan), which pass -DCONFIG_KASAN=1.
 */
#ifndef CONFIG_KASAN
#define CONFIG_KASAN		0
#endif

/*
 * KCSAN, the data-race detector (kernel/kcsan.c): only in the kernels that
 * `make KCSAN=1` builds (in build/kcsan), which pass -DCONFIG_KCSAN=1.
 */
#ifndef CONFIG_KCSAN
#define CONFIG_KCSAN		0
#endif

#endif
