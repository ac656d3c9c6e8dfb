/*
 * arch/x86_64/srat.h - NUMA topology from the ACPI SRAT.
 *
 * The System Resource Affinity Table says which memory ranges and which
 * CPUs (by APIC id) belong to which "proximity domain".  We number the
 * domains 0, 1, 2... in the order they first appear and call those numbers
 * node ids, as Linux does.
 */
#ifndef ARCH_X86_64_SRAT_H
#define ARCH_X86_64_SRAT_H

#include "lib/compiler.h"

typedef void (*srat_memory_fn)(u64 start, u64 end, int nid);

int srat_parse(srat_memory_fn memory);
int srat_apic_to_node(u32 apic_id);
int pxm_to_node(u32 pxm);

#endif
