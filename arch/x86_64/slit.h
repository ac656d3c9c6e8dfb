/*
 * arch/x86_64/slit.h - distances between NUMA nodes from the ACPI SLIT.
 *
 * The parser checks the table and hands every distance between two nodes
 * to a callback: kmain passes numa_set_distance() (mm/mmzone.h), which
 * keeps the table node_distance() reads.
 */
#ifndef ARCH_X86_64_SLIT_H
#define ARCH_X86_64_SLIT_H

#include "arch/x86_64/acpi.h"

typedef void (*slit_distance_fn)(int from, int to, int distance);

int slit_parse(slit_distance_fn set);
int slit_parse_table(const struct acpi_table_header *slit, slit_distance_fn set);

#endif
