/*
 * mm/kasan/stack_depot.c - each distinct stack trace stored once.
 *
 * Every allocation and free records its stack, but a kernel has only a few
 * thousand different ones: so each object keeps a 32-bit handle, and the
 * stacks themselves live here, once each (Linux's lib/stackdepot.c, much
 * reduced).  A hash table of chains points into one pool, taken from
 * memblock at boot; records are only added, never removed, so a handle
 * stays valid for ever.  When the pool is full, new stacks are not saved
 * (handle 0) and a report says so.
 *
 *   buckets[hash % N] --> record --> record --> 0
 *   record: next (handle), hash, nr, entries[nr]
 */
#include "mm/kasan/kasan.h"
#include "mm/memblock.h"
#include "kernel/printk.h"

#define DEPOT_POOL_SIZE		(2UL << 20)
#define DEPOT_BUCKETS		4096

struct stack_record {
	u32 next;
	u32 hash;
	u32 nr;
	u32 unused;
	unsigned long entries[];
};

static u8 *pool;
static unsigned long pool_used;
static u32 buckets[DEPOT_BUCKETS];
static DEFINE_SPINLOCK(depot_lock);

/** stack_depot_init - the pool, from memblock; Context: boot, from kasan_init() */
void stack_depot_init(void)
{
	pool = memblock_alloc(DEPOT_POOL_SIZE, PAGE_SIZE);
	if (!pool)
		panic("kasan: no memory for the stack depot");
}

static struct stack_record *record(u32 handle)
{
	return (struct stack_record *)(pool + handle - 1);
}

static u32 hash_stack(const unsigned long *entries, unsigned int nr)
{
	u64 h = 0xcbf29ce484222325UL;	/* FNV-1a over the addresses */

	for (unsigned int i = 0; i < nr; i++)
		h = (h ^ entries[i]) * 0x100000001b3UL;
	return (u32)(h ^ (h >> 32));
}

static bool same_stack(const struct stack_record *r, u32 hash, const unsigned long *entries,
		       unsigned int nr)
{
	if (r->hash != hash || r->nr != nr)
		return false;
	for (unsigned int i = 0; i < nr; i++) {
		if (r->entries[i] != entries[i])
			return false;
	}
	return true;
}

/**
 * stack_depot_save - the handle of the stack @entries[0..@nr)
 *
 * Context: any.  Return: the handle, or 0 if the pool is full (or @nr is 0).
 */
u32 stack_depot_save(const unsigned long *entries, unsigned int nr)
{
	u32 hash = hash_stack(entries, nr), handle = 0, *bucket = &buckets[hash % DEPOT_BUCKETS];
	size_t bytes = sizeof(struct stack_record) + nr * sizeof(unsigned long);
	static bool warned;
	unsigned long flags;

	if (!nr)
		return 0;
	spin_lock_irqsave(&depot_lock, flags);
	for (u32 h = *bucket; h; h = record(h)->next) {
		if (same_stack(record(h), hash, entries, nr)) {
			handle = h;
			goto out;
		}
	}
	if (pool_used + bytes > DEPOT_POOL_SIZE) {
		if (!warned)
			pr_warn("kasan: the stack depot is full: new stacks are not saved\n");
		warned = true;
		goto out;
	}
	handle = (u32)pool_used + 1;
	pool_used += bytes;
	*record(handle) = (struct stack_record){ .next = *bucket, .hash = hash, .nr = nr };
	for (unsigned int i = 0; i < nr; i++)
		record(handle)->entries[i] = entries[i];
	*bucket = handle;
out:
	spin_unlock_irqrestore(&depot_lock, flags);
	return handle;
}

/**
 * stack_depot_fetch - the stack saved under @handle
 * @entries: set to its return addresses
 *
 * Return: how many there are (0 for handle 0).
 */
unsigned int stack_depot_fetch(u32 handle, const unsigned long **entries)
{
	if (!handle)
		return 0;
	*entries = record(handle)->entries;
	return record(handle)->nr;
}
