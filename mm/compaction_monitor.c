/*
 * mm/compaction_monitor.c - the balloon and compaction, from the monitor.
 *
 *   balloon                    the balloon's pages, isolated, migrated, broken
 *   balloon inflate N          take N movable pages into the balloon
 *   balloon deflate N          give N of them back (newest first)
 *   balloon frag               give back every other one: free memory scattered
 *   compaction_proactiveness [N]  proactive compaction's knob (0..100), the nodes' scores
 *   compact_memory             compact every zone whole, as Linux's
 *                              echo 1 > /proc/sys/vm/compact_memory
 *
 * Try: balloon inflate 4096, balloon frag, buddyinfo, compact_memory,
 * buddyinfo: the single pages the frag left come back as large blocks.
 */
#include "mm/balloon.h"
#include "mm/compaction.h"
#include "mm/internal.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"

#define BALLOON_MAX_STEP	(1UL << 20)	/* pages per inflate or deflate: 4 GiB */

static void balloon_show(void)
{
	struct balloon_stats st;

	balloon_get_stats(&st);
	printk("balloon: %lu pages (%lu KiB), %lu isolated; %lu migrated and %lu broken "
	       "patterns since boot\n", st.pages, st.pages * (PAGE_SIZE / 1024), st.isolated,
	       st.migrated, st.bad_pattern);
}

static int balloon_cmd_inflate(struct monitor_args *args)
{
	unsigned long n, got;

	if (monitor_arg_ulong(args, "N", 1, BALLOON_MAX_STEP, &n) || monitor_args_end(args))
		return -EINVAL;
	got = balloon_inflate(n);
	if (got < n)
		printk("balloon: inflate: memory ran out after %lu of %lu pages\n", got, n);
	balloon_show();
	return got ? 0 : -ENOMEM;
}

static int balloon_cmd_deflate(struct monitor_args *args)
{
	struct balloon_stats st;
	unsigned long n;

	if (monitor_arg_ulong(args, "N", 1, BALLOON_MAX_STEP, &n) || monitor_args_end(args))
		return -EINVAL;
	balloon_get_stats(&st);
	if (n > st.pages - st.isolated) {
		printk("balloon: deflate: N is %lu but the balloon holds %lu pages; nothing done\n",
		       n, st.pages - st.isolated);
		return -EINVAL;
	}
	balloon_deflate(n);
	drain_all_pages();	/* so that buddyinfo shows them */
	balloon_show();
	return 0;
}

static int balloon_cmd_frag(struct monitor_args *args)
{
	unsigned long n;

	if (monitor_args_end(args))
		return -EINVAL;
	n = balloon_deflate_alternate();
	drain_all_pages();
	printk("balloon: gave back %lu pages, every other one: their buddies are held\n", n);
	balloon_show();
	return 0;
}

static const char *const balloon_actions[] = { "inflate", "deflate", "frag", NULL };

static int cmd_balloon(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	int action = -1;

	if (monitor_opt_keyword(&args, "ACTION", balloon_actions, &action))
		return -EINVAL;
	switch (action) {
	case 0:
		return balloon_cmd_inflate(&args);
	case 1:
		return balloon_cmd_deflate(&args);
	case 2:
		return balloon_cmd_frag(&args);
	default:
		if (monitor_args_end(&args))
			return -EINVAL;
		balloon_show();
		return 0;
	}
}
MONITOR_COMMAND(balloon, "[inflate N | deflate N | frag]",
		"hold movable pages (N up to 1048576), give them back, or every other one",
		cmd_balloon);

/* Free blocks of order >= pageblock_order in @zone */
static unsigned long large_free_blocks(struct zone *zone)
{
	unsigned long n = 0;

	for (unsigned int o = pageblock_order; o < NR_PAGE_ORDERS; o++)
		n += READ_ONCE(zone->free_area[o].nr_free) << (o - pageblock_order);
	return n;
}

static int cmd_compact_memory(int argc, char **argv)
{
	unsigned long migrated = 0;
	struct zone *zone;

	(void)argc;
	(void)argv;
	for_each_populated_zone(zone) {
		unsigned long before, after;
		struct compact_stats st;
		enum compact_result ret;

		drain_all_pages();
		before = large_free_blocks(zone);
		ret = compact_zone_fully(zone, &st);
		drain_all_pages();
		after = large_free_blocks(zone);
		printk("compact_memory: node %d %-6s %s: scanned %lu to migrate, %lu free; "
		       "migrated %lu, failed %lu; free 2 MiB blocks %lu -> %lu\n", zone->node,
		       zone->name, compact_result_name(ret), st.migrate_scanned, st.free_scanned,
		       st.migrated, st.migrate_failed, before, after);
		migrated += st.migrated;
	}
	printk("compact_memory: %lu pages migrated; check_free_lists: %u problems\n", migrated,
	       check_free_lists());
	return 0;
}
MONITOR_COMMAND(compact_memory, "", "compact every zone whole (Linux's /proc/sys/vm/compact_memory)",
		cmd_compact_memory);

static int cmd_compaction_proactiveness(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long n = sysctl_compaction_proactiveness;
	struct zone *zone;
	int nid = -1;

	if (monitor_opt_ulong(&args, "N", 0, 100, &n) || monitor_args_end(&args))
		return -EINVAL;
	sysctl_compaction_proactiveness = (unsigned int)n;
	printk("compaction_proactiveness: %u (kcompactd compacts a node whose score is above %u, "
	       "down to %u; 0: never)\n", sysctl_compaction_proactiveness,
	       min(max(100U - sysctl_compaction_proactiveness, 5U) + 10, 100U),
	       max(100U - sysctl_compaction_proactiveness, 5U));
	for_each_populated_zone(zone) {
		if (zone->node == nid)
			continue;
		nid = zone->node;
		printk("node %d: fragmentation score %u\n", nid,
		       fragmentation_score_node(NODE_DATA(nid)));
	}
	return 0;
}
MONITOR_COMMAND(compaction_proactiveness, "[N]",
		"proactive compaction: 0 (off) to 100, Linux's default 20; and each node's score",
		cmd_compaction_proactiveness);
