/*
 * arch/x86_64/srat.c - read the memory and CPU affinity entries of the SRAT.
 *
 * Layout from the ACPI specification (6.5, section 5.2.16): the standard
 * table header, 12 reserved bytes, then variable-length entries
 * {u8 type, u8 length, ...}.  We use type 0 (local APIC affinity), 1
 * (memory affinity) and 2 (x2APIC affinity), and skip disabled entries.
 * Without an SRAT the machine is one node, node 0.
 */
#include "arch/x86_64/srat.h"
#include "arch/x86_64/acpi.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define SRAT_ENTRIES_OFFSET	48
#define SRAT_LAPIC		0
#define SRAT_MEMORY		1
#define SRAT_X2APIC		2
#define SRAT_ENABLED		1
#define MAX_PXM			8	/* proximity domains we track: MAX_NUMNODES */
#define MAX_APIC_NODES		256

static u32 pxm_of_node[MAX_PXM];
static int nr_nodes;
static struct {
	u32 apic_id;
	int nid;
} apic_nodes[MAX_APIC_NODES];
static int nr_apic_nodes;

static u32 get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

/**
 * pxm_to_node - the node id the SRAT gave proximity domain @pxm
 *
 * Return: the node id, or NUMA_NO_NODE (-1) if the SRAT did not name @pxm.
 */
int pxm_to_node(u32 pxm)
{
	for (int i = 0; i < nr_nodes; i++) {
		if (pxm_of_node[i] == pxm)
			return i;
	}
	return -1;
}

/* The node id for proximity domain @pxm, numbering a new one if needed (Linux's name). */
static int acpi_map_pxm_to_node(u32 pxm)
{
	int nid = pxm_to_node(pxm);

	if (nid >= 0)
		return nid;
	if (nr_nodes == MAX_PXM) {
		pr_warn("SRAT: more than %d proximity domains; %u is folded into node 0\n",
			MAX_PXM, pxm);
		return 0;
	}
	pxm_of_node[nr_nodes] = pxm;
	return nr_nodes++;
}

static void add_cpu(u32 apic_id, u32 pxm)
{
	int nid = acpi_map_pxm_to_node(pxm);

	if (nr_apic_nodes < MAX_APIC_NODES)
		apic_nodes[nr_apic_nodes++] = (typeof(apic_nodes[0])){ apic_id, nid };
	pr_info("SRAT: PXM %u -> APIC %#x -> Node %d\n", pxm, apic_id, nid);
}

/**
 * srat_parse - report every enabled memory range of the SRAT with its node
 * @memory: called for each range [start, end) and its node id
 *
 * CPU entries are remembered for srat_apic_to_node().
 * Context: boot, after acpi_init().
 * Return: the number of nodes found, or 0 if there is no SRAT.
 */
int srat_parse(srat_memory_fn memory)
{
	const struct acpi_table_header *srat = acpi_find_table("SRAT");
	const u8 *p, *end;

	if (!srat)
		return 0;
	p = (const u8 *)srat + SRAT_ENTRIES_OFFSET;
	end = (const u8 *)srat + srat->length;
	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		if (p[0] == SRAT_LAPIC && p[1] >= 16 && (get_u32(p + 4) & SRAT_ENABLED)) {
			add_cpu(p[3], p[2] | ((u32)p[9] << 8) | ((u32)p[10] << 16) |
				      ((u32)p[11] << 24));
		} else if (p[0] == SRAT_X2APIC && p[1] >= 24 && (get_u32(p + 12) & SRAT_ENABLED)) {
			add_cpu(get_u32(p + 8), get_u32(p + 4));
		} else if (p[0] == SRAT_MEMORY && p[1] >= 40 && (get_u32(p + 28) & SRAT_ENABLED)) {
			u64 base = get_u32(p + 8) | ((u64)get_u32(p + 12) << 32);
			u64 len = get_u32(p + 16) | ((u64)get_u32(p + 20) << 32);
			int nid = acpi_map_pxm_to_node(get_u32(p + 2));

			pr_info("SRAT: Node %d PXM %u [mem %#018llx-%#018llx]\n", nid,
				get_u32(p + 2), (unsigned long long)base,
				(unsigned long long)(base + len - 1));
			memory(base, base + len, nid);
		}
	}
	return nr_nodes;
}

/** srat_apic_to_node - the node of the CPU with local APIC id @apic_id (0 if unknown) */
int srat_apic_to_node(u32 apic_id)
{
	for (int i = 0; i < nr_apic_nodes; i++) {
		if (apic_nodes[i].apic_id == apic_id)
			return apic_nodes[i].nid;
	}
	return 0;
}
