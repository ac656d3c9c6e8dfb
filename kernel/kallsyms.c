/*
 * kernel/kallsyms.c - look up the function containing an address.
 *
 * The generated table is sorted by address, so the function containing
 * @addr is the last entry whose address is <= @addr: a binary search.  Its
 * size is the distance to the next entry.
 */
#include "kernel/kallsyms.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

/* Defined by the generated build/<kernel>.kallsyms.c */
extern const unsigned long kallsyms_num_syms;
extern const unsigned long kallsyms_addresses[];
extern const unsigned int kallsyms_name_offsets[];
extern const char kallsyms_names[];
extern const char _text[], _etext[];

/**
 * kallsyms_lookup - find the function that contains @addr
 * @addr: a kernel text address
 * @size: if not NULL, set to the function's size
 * @offset: if not NULL, set to @addr's offset into it
 *
 * Return: the function's name, or NULL if @addr is not in kernel text.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size, unsigned long *offset)
{
	unsigned long lo = 0, hi = kallsyms_num_syms, end;

	if (addr < (unsigned long)_text || addr >= (unsigned long)_etext || !hi)
		return NULL;
	if (addr < kallsyms_addresses[0])
		return NULL;
	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (kallsyms_addresses[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	end = lo + 1 < kallsyms_num_syms ? kallsyms_addresses[lo + 1] : (unsigned long)_etext;
	if (size)
		*size = end - kallsyms_addresses[lo];
	if (offset)
		*offset = addr - kallsyms_addresses[lo];
	return &kallsyms_names[kallsyms_name_offsets[lo]];
}

/**
 * sprint_symbol - format @addr as "name+0xoff/0xsize" (or just "name")
 *
 * Unknown addresses print as hex.  Return: the length written.
 */
int sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	unsigned long sym_size, offset;
	const char *name = kallsyms_lookup(addr, &sym_size, &offset);

	if (!name)
		return scnprintf(buf, size, "0x%lx", addr);
	if (!with_offset)
		return scnprintf(buf, size, "%s", name);
	return scnprintf(buf, size, "%s+0x%lx/0x%lx", name, offset, sym_size);
}

/** kallsyms_lookup_name - the address of function @name, or 0 */
unsigned long kallsyms_lookup_name(const char *name)
{
	for (unsigned long i = 0; i < kallsyms_num_syms; i++) {
		if (!strcmp(&kallsyms_names[kallsyms_name_offsets[i]], name))
			return kallsyms_addresses[i];
	}
	return 0;
}
