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

/* What the MADT ("APIC" table) says about interrupt controllers and CPUs */
#define MADT_MAX_CPUS		256
#define MADT_MAX_IOAPICS	8

struct madt_cpu {
	u32 apic_id;
	u32 acpi_uid;		/* ACPI processor UID */
	bool enabled;		/* usable now (flags bit 0) */
	bool online_capable;	/* could be enabled later (hotplug, flags bit 1) */
	bool x2apic;		/* from an x2APIC entry (type 9) */
};

struct madt_ioapic {
	u32 id;
	u32 address;
	u32 gsi_base;
};

struct madt_info {
	u64 lapic_addr;		/* after any address-override entry */
	u32 flags;		/* bit 0: the machine also has 8259 PICs */
	unsigned int nr_cpus;	/* entries in cpus[], enabled or not */
	struct madt_cpu cpus[MADT_MAX_CPUS];
	unsigned int nr_ioapics;
	struct madt_ioapic ioapics[MADT_MAX_IOAPICS];
	unsigned int nr_overrides;	/* ISA IRQ source overrides (type 2) */
	unsigned int nr_bad;		/* malformed entries skipped */
};

int acpi_init(void);
int acpi_parse_madt(struct madt_info *info);
const struct acpi_table_header *acpi_find_table(const char *signature);
void acpi_power_off(void);

#endif
