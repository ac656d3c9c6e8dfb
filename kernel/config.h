/*
 * kernel/config.h - fixed limits, the few Kconfig values this kernel has.
 */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#define NR_CPUS		64	/* most CPUs brought online; more in the MADT are left out */

#endif
