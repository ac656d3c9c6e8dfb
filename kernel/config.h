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
 * CONFIG_SLUB_DEBUG is 0 (the benchmark kernel); on for every cache from
 * boot unless CONFIG_SLUB_DEBUG_ON is 0 or slab_debug= says otherwise.
 */
#ifndef CONFIG_SLUB_DEBUG
#define CONFIG_SLUB_DEBUG	1
#endif
#ifndef CONFIG_SLUB_DEBUG_ON
#define CONFIG_SLUB_DEBUG_ON	CONFIG_SLUB_DEBUG
#endif

/*
 * KASAN, the kernel address sanitizer (mm/kasan/): only in the kernels
 * that `make KASAN=1` builds (in build/kasan), which pass -DCONFIG_KASAN=1.
 */
#ifndef CONFIG_KASAN
#define CONFIG_KASAN		0
#endif

#endif
