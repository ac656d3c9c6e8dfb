/*
 * arch/x86_64/pgtable.c - changes to the page tables boot/entry.asm built.
 *
 * The boot tables map low memory three ways (see boot/entry.asm).  Once
 * kmain runs in the high half, the identity map is only a trap: with it, a
 * NULL pointer dereference reads physical address 0 instead of faulting.
 */
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/page.h"

/**
 * zap_boot_identity_map - unmap virtual 0..512 GiB (PML4 entry 0)
 *
 * Context: early boot, one CPU, before anything runs from low addresses.
 */
void zap_boot_identity_map(void)
{
	unsigned long *pml4 = __va(read_cr3() & PAGE_MASK);

	pml4[0] = 0;
	write_cr3(read_cr3());	/* flush the TLB of the old translations */
}
