/*
 * arch/x86_64/slit.c - how far apart the NUMA nodes are: the ACPI SLIT.
 *
 * The System Locality Information Table (ACPI 6.5, section 5.2.17) is a
 * square matrix of bytes after the standard header and a count N of
 * "localities", which are the proximity domains the SRAT names:
 *
 *	offset 36   u64 N
 *	offset 44   u8  entry[N][N]	entry[i][j]: how far memory of locality j
 *					is from a CPU of locality i
 *
 * The figures are relative: 10 is the distance of a locality to itself, 20
 * means twice as far (QEMU: -numa dist,src=0,dst=1,val=20).  The page
 * allocator falls back to the nearest nodes first when the preferred one is
 * full (build_zonelists() in mm/mm_init.c), so a wrong table would send
 * allocations to the wrong memory.  A table is therefore used only if its
 * length fits N, no distance is below 10, the matrix is symmetric and every
 * locality is nearer to itself than to any other.  Otherwise one line says
 * what is wrong and the defaults stay, as on a machine without a SLIT: 10
 * local, 20 remote (Linux's LOCAL_DISTANCE and REMOTE_DISTANCE).
 */
#include "arch/x86_64/slit.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/srat.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SLIT_COUNT_OFFSET	36
#define SLIT_ENTRIES_OFFSET	44
#define SLIT_LOCAL_DISTANCE	10
#define SLIT_MAX_LOCALITIES	1024	/* 1 MiB of entries: acpi_map()'s limit on any table */

/* Why the N x N matrix @d cannot be used, in one line; false if it can. */
static bool slit_bad_entries(const u8 *d, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		for (unsigned long j = 0; j < n; j++) {
			u8 val = d[i * n + j], back = d[j * n + i], local = d[i * n + i];

			if (val < SLIT_LOCAL_DISTANCE) {
				pr_warn("SLIT: distance %u from locality %lu to %lu is below %d; "
					"using default distances\n", val, i, j, SLIT_LOCAL_DISTANCE);
				return true;
			}
			if (val != back) {
				pr_warn("SLIT: distance from locality %lu to %lu is %u but %u back; "
					"using default distances\n", i, j, val, back);
				return true;
			}
			if (i != j && val <= local) {
				pr_warn("SLIT: locality %lu is not nearer to itself (%u) than to "
					"locality %lu (%u); using default distances\n", i, local, j, val);
				return true;
			}
		}
	}
	return false;
}

/**
 * slit_parse_table - check a SLIT and report its distances between nodes
 * @slit: the table (the firmware's, or one a test built)
 * @set: called with (from node, to node, distance) for every pair of
 *	 localities that the SRAT made nodes, only if the whole table is sane
 *
 * Context: boot (or a test); reads only @slit.
 * Return: the number of localities, or -EINVAL if the table was rejected
 * (one line says why; @set was not called).
 */
int slit_parse_table(const struct acpi_table_header *slit, slit_distance_fn set)
{
	const u8 *entries = (const u8 *)slit + SLIT_ENTRIES_OFFSET;
	u64 n;

	if (slit->length < SLIT_ENTRIES_OFFSET) {
		pr_warn("SLIT: length %u is shorter than the table's header (%d bytes); "
			"using default distances\n", slit->length, SLIT_ENTRIES_OFFSET);
		return -EINVAL;
	}
	memcpy(&n, (const u8 *)slit + SLIT_COUNT_OFFSET, sizeof(n));
	if (!n || n > SLIT_MAX_LOCALITIES) {
		pr_warn("SLIT: %lu localities (1..%d make sense); using default distances\n", n,
			SLIT_MAX_LOCALITIES);
		return -EINVAL;
	}
	if (slit->length != SLIT_ENTRIES_OFFSET + n * n) {
		pr_warn("SLIT: length %u does not fit %lu localities (%lu bytes expected); "
			"using default distances\n", slit->length, n, SLIT_ENTRIES_OFFSET + n * n);
		return -EINVAL;
	}
	if (slit_bad_entries(entries, n))
		return -EINVAL;
	/* Localities the SRAT did not name (no memory, no CPU) are no node: skip them. */
	for (unsigned long i = 0; i < n; i++) {
		for (unsigned long j = 0; j < n; j++) {
			int from = pxm_to_node((u32)i), to = pxm_to_node((u32)j);

			if (from >= 0 && to >= 0)
				set(from, to, entries[i * n + j]);
		}
	}
	return (int)n;
}

/**
 * slit_parse - the firmware's node distances, if it has a SLIT
 * @set: as for slit_parse_table()
 *
 * Context: boot, after srat_parse() has numbered the nodes.
 * Return: the number of localities, 0 without a SLIT, -EINVAL if the table
 * was rejected.
 */
int slit_parse(slit_distance_fn set)
{
	const struct acpi_table_header *slit = acpi_find_table("SLIT");
	int n;

	if (!slit)
		return 0;
	n = slit_parse_table(slit, set);
	if (n > 0)
		pr_info("SLIT: %d localities: node distances from the firmware\n", n);
	return n;
}
