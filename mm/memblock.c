/*
 * mm/memblock.c - a sorted list of ranges, and a first-fit allocator on it.
 *
 * Boot needs memory (page tables, the struct page array) before the buddy
 * allocator can exist, because the buddy allocator itself lives in that
 * memory.  memblock is the simplest thing that works: the RAM ranges the
 * firmware reported, the ranges already in use, and an allocator that takes
 * the highest free gap below `limit` and marks it used.  Regions are kept
 * sorted and merged, so the lists stay short (Linux's mm/memblock.c has
 * the same two lists and the same top-down search).
 */
#include "mm/memblock.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct memblock memblock = {
	.memory.name = "memory",
	.reserved.name = "reserved",
	.limit = ~(phys_addr_t)0,
};

static phys_addr_t region_end(const struct memblock_region *r)
{
	return r->base + r->size;
}

static void delete_region(struct memblock_type *type, unsigned int i)
{
	memmove(&type->regions[i], &type->regions[i + 1],
		(type->cnt - i - 1) * sizeof(type->regions[0]));
	type->cnt--;
}

static int insert_region(struct memblock_type *type, phys_addr_t base,
			 phys_addr_t size, int nid)
{
	unsigned int i = 0;

	if (type->cnt == MEMBLOCK_MAX_REGIONS) {
		pr_err("memblock: %s: more than %d regions, dropping [%#llx-%#llx]\n",
		       type->name, MEMBLOCK_MAX_REGIONS, (unsigned long long)base,
		       (unsigned long long)(base + size - 1));
		return -1;
	}
	while (i < type->cnt && type->regions[i].base < base)
		i++;
	memmove(&type->regions[i + 1], &type->regions[i],
		(type->cnt - i) * sizeof(type->regions[0]));
	type->regions[i] = (struct memblock_region){ base, size, nid };
	type->cnt++;
	return 0;
}

/* Add [base, base+size), merging with every region it touches (same node). */
static int add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size, int nid)
{
	phys_addr_t end = base + size;
	unsigned int i = 0;

	if (!size)
		return 0;
	while (i < type->cnt) {
		struct memblock_region *r = &type->regions[i];

		if (r->base <= end && region_end(r) >= base && r->nid == nid) {
			base = min(base, r->base);
			end = max(end, region_end(r));
			delete_region(type, i);
			continue;
		}
		i++;
	}
	return insert_region(type, base, end - base, nid);
}

/* Cut [base, base+size) out of every region, splitting where needed. */
static int remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	phys_addr_t end = base + size;
	unsigned int i = 0;

	while (i < type->cnt) {
		struct memblock_region r = type->regions[i];

		if (r.base >= end || region_end(&r) <= base) {
			i++;
			continue;
		}
		delete_region(type, i);
		if (r.base < base)
			insert_region(type, r.base, base - r.base, r.nid);
		if (region_end(&r) > end)
			insert_region(type, end, region_end(&r) - end, r.nid);
		i = 0;		/* the array changed under us: rescan */
	}
	return 0;
}

/** memblock_phys_free - give back [@base, @base+@size) that memblock_alloc() reserved */
void memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	remove_range(&memblock.reserved, base, size);
}

/** memblock_add - record RAM [@base, @base+@size) on node 0 */
int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return add_range(&memblock.memory, base, size, 0);
}

/** memblock_add_node - record RAM [@base, @base+@size) on node @nid */
int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid)
{
	return add_range(&memblock.memory, base, size, nid);
}

/** memblock_reserve - mark [@base, @base+@size) as in use; it will not be allocated or freed */
int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return add_range(&memblock.reserved, base, size, 0);
}

/** memblock_remove - forget RAM [@base, @base+@size): it is not memory at all */
int memblock_remove(phys_addr_t base, phys_addr_t size)
{
	return remove_range(&memblock.memory, base, size);
}

/**
 * memblock_set_node - assign RAM [@base, @base+@size) to NUMA node @nid
 *
 * Regions are split at the range's edges so that only the range changes.
 */
void memblock_set_node(phys_addr_t base, phys_addr_t size, int nid)
{
	struct memblock_type *mem = &memblock.memory;
	phys_addr_t end = base + size;

	for (unsigned int i = 0; i < mem->cnt; i++) {
		struct memblock_region r = mem->regions[i];
		phys_addr_t lo = max(r.base, base), hi = min(region_end(&r), end);

		if (lo >= hi || r.nid == nid)
			continue;
		remove_range(mem, lo, hi - lo);
		insert_region(mem, lo, hi - lo, nid);
		i = (unsigned int)-1;	/* restart: the array changed */
	}
}

/* The reserved region overlapping [base, end), or NULL */
static const struct memblock_region *find_reserved(phys_addr_t base, phys_addr_t end)
{
	const struct memblock_region *r;

	for_each_memblock(reserved, r) {
		if (r->base < end && region_end(r) > base)
			return r;
	}
	return NULL;
}

/**
 * memblock_phys_alloc - allocate physical memory from the boot allocator
 * @size: bytes wanted
 * @align: power-of-two alignment of the start
 *
 * Searches RAM from the top down, below memblock.limit, for a range that
 * overlaps nothing reserved, then reserves it.  The memory is not zeroed.
 * Context: boot only (no locking).
 * Return: the physical address, or 0 if nothing fits.
 */
phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align)
{
	size = ALIGN(size, align);
	for (int i = (int)memblock.memory.cnt - 1; i >= 0; i--) {
		const struct memblock_region *m = &memblock.memory.regions[i];
		phys_addr_t end = min(region_end(m), memblock.limit);

		while (end >= m->base + size) {
			phys_addr_t start = ALIGN_DOWN(end - size, align);
			const struct memblock_region *busy;

			if (start < m->base || start == 0)
				break;
			busy = find_reserved(start, start + size);
			if (!busy) {
				memblock_reserve(start, size);
				return start;
			}
			end = busy->base;	/* try below what is in the way */
		}
	}
	return 0;
}

/**
 * memblock_alloc - memblock_phys_alloc(), zeroed, as a direct-map pointer
 *
 * Return: the memory, or NULL if nothing fits.
 */
void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t phys = memblock_phys_alloc(size, align);
	void *virt;

	if (!phys)
		return NULL;
	virt = __va(phys);
	memset(virt, 0, size);
	return virt;
}

static bool type_contains(const struct memblock_type *type, phys_addr_t addr)
{
	for (unsigned int i = 0; i < type->cnt; i++) {
		if (addr >= type->regions[i].base && addr < region_end(&type->regions[i]))
			return true;
	}
	return false;
}

/** memblock_is_memory - is @addr RAM? */
bool memblock_is_memory(phys_addr_t addr)
{
	return type_contains(&memblock.memory, addr);
}

/** memblock_is_reserved - is @addr in a reserved range? */
bool memblock_is_reserved(phys_addr_t addr)
{
	return type_contains(&memblock.reserved, addr);
}

static phys_addr_t total_size(const struct memblock_type *type)
{
	phys_addr_t sum = 0;

	for (unsigned int i = 0; i < type->cnt; i++)
		sum += type->regions[i].size;
	return sum;
}

/** memblock_phys_mem_size - bytes of RAM */
phys_addr_t memblock_phys_mem_size(void)
{
	return total_size(&memblock.memory);
}

/** memblock_reserved_size - bytes reserved (some may lie outside RAM) */
phys_addr_t memblock_reserved_size(void)
{
	return total_size(&memblock.reserved);
}

/** memblock_end_of_ram - one past the highest RAM address */
phys_addr_t memblock_end_of_ram(void)
{
	const struct memblock_type *mem = &memblock.memory;

	return mem->cnt ? region_end(&mem->regions[mem->cnt - 1]) : 0;
}

/** memblock_dump - print both lists */
void memblock_dump(void)
{
	const struct memblock_region *r;

	pr_info("memblock: memory %llu KiB in %u regions, reserved %llu KiB in %u regions\n",
		(unsigned long long)(memblock_phys_mem_size() >> 10), memblock.memory.cnt,
		(unsigned long long)(memblock_reserved_size() >> 10), memblock.reserved.cnt);
	for_each_memblock(memory, r)
		pr_debug("  memory   [%#018llx-%#018llx] node %d\n", (unsigned long long)r->base,
			 (unsigned long long)(region_end(r) - 1), r->nid);
	for_each_memblock(reserved, r)
		pr_debug("  reserved [%#018llx-%#018llx]\n", (unsigned long long)r->base,
			 (unsigned long long)(region_end(r) - 1));
}

/** memblock_reset - forget everything (host tests start each case afresh) */
void memblock_reset(void)
{
	memblock.memory.cnt = 0;
	memblock.reserved.cnt = 0;
	memblock.limit = ~(phys_addr_t)0;
}
