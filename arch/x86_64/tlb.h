/* arch/x86_64/tlb.h - the TLB counters, until mm/vmstat.c counts them (see tlb.c). */
#ifndef ARCH_X86_64_TLB_H
#define ARCH_X86_64_TLB_H

#include "mm/vmstat.h"

unsigned long tlb_events(enum vm_event_item item);

#endif
