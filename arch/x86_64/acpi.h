/*
 * arch/x86_64/acpi.h - finding the firmware's ACPI tables.
 *
 * The RSDP (from GRUB) points at the RSDT (32-bit pointers) or, from ACPI
 * 2.0 on, the XSDT (64-bit pointers), a list of every other table: the
 * FADT ("FACP": power management), the MADT ("APIC": the CPUs), ...
 * Every table starts with the same header and carries a checksum; a table
 * whose bytes do not sum to zero is reported and ignored.
 */
#ifndef ARCH_X86_64_ACPI_H
#define ARCH_X86_64_ACPI_H

#include "lib/compiler.h"

struct acpi_table_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

int acpi_init(void);
const struct acpi_table_header *acpi_find_table(const char *signature);
void acpi_power_off(void);

#endif
