/*
 * mm/memblock.h - the boot-time allocator, used before the buddy allocator.
 *
 * Two sorted lists of physical ranges: `memory` (all RAM the firmware
 * reported) and `reserved` (what is in use: the kernel, GRUB's data, page
 * tables, the struct page array...).  memblock_alloc() finds a free gap and
 * reserves it.  When the buddy allocator starts, memblock_free_all() (in
 * mm/mm_init.c) hands it every page of `memory` that is not `reserved`.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "mm/cpu.h"

#define MEMBLOCK_MAX_REGIONS	128

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	int nid;
};

struct memblock_type {
	unsigned int cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
	const char *name;
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
	phys_addr_t limit;		/* allocate below this (what is mapped) */
};

extern struct memblock memblock;

int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_remove(phys_addr_t base, phys_addr_t size);
phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align);
void *memblock_alloc(phys_addr_t size, phys_addr_t align);
void memblock_phys_free(phys_addr_t base, phys_addr_t size);
bool memblock_is_memory(phys_addr_t addr);
bool memblock_is_reserved(phys_addr_t addr);
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);
phys_addr_t memblock_end_of_ram(void);
void memblock_set_node(phys_addr_t base, phys_addr_t size, int nid);
void memblock_dump(void);
void memblock_reset(void);

#define for_each_memblock(type, r)					\
	for (r = memblock.type.regions; r < memblock.type.regions + memblock.type.cnt; r++)

#endif
