/* arch/x86_64/pgtable.h - the kernel's page tables. */
#ifndef ARCH_X86_64_PGTABLE_H
#define ARCH_X86_64_PGTABLE_H

void zap_boot_identity_map(void);

#endif
