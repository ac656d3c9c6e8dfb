/*
 * arch/x86_64/acpi.c - walk the RSDT/XSDT, verify checksums, power off.
 *
 * Tables are read through acpi_map(), which memremap()s them: the firmware
 * puts them in memory the memory map calls "ACPI data" or "reserved", which
 * the direct map does not cover.  The list keeps physical addresses and
 * maps a table each time it is asked for (mapping is idempotent and cheap).
 *
 * Powering off is ACPI's S5 sleep state: write SLP_TYPa | SLP_EN to the
 * PM1a control port named by the FADT.  SLP_TYPa is the first number of the
 * \_S5_ package in the DSDT; we find it by scanning the DSDT's bytecode for
 * the name rather than running an AML interpreter (ACPI 6.5, 7.4.2.4 and
 * 20.2.5.4 for the encoding).
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/pgtable.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define ACPI_MAX_TABLES		64
#define SLP_EN			(1 << 13)

struct acpi_rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt_address;
	u32 length;		/* ACPI 2.0+ from here */
	u64 xsdt_address;
	u8 extended_checksum;
	u8 reserved[3];
} __packed;

/* The FADT fields we use, at their byte offsets (ACPI 6.5, table 5.9) */
#define FADT_DSDT		40
#define FADT_PM1A_CNT_BLK	64
#define FADT_PM1B_CNT_BLK	68
#define FADT_X_DSDT		140

static u64 tables[ACPI_MAX_TABLES];	/* physical addresses of checked tables */
static unsigned int nr_tables;

#define ACPI_TABLE_MAX_LEN	(1U << 20)	/* no real table is larger */

/* Map the table at @phys, header first to learn its length (which must be sane). */
static const struct acpi_table_header *acpi_map(u64 phys)
{
	const struct acpi_table_header *t = memremap(phys, sizeof(*t));

	if (!t)
		return NULL;
	if (t->length < sizeof(*t) || t->length > ACPI_TABLE_MAX_LEN) {
		pr_err("ACPI: table at %#llx claims length %u; ignored\n",
		       (unsigned long long)phys, t->length);
		return NULL;
	}
	return memremap(phys, t->length);
}

static bool checksum_ok(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

static void add_table(u64 phys)
{
	const struct acpi_table_header *t = acpi_map(phys);

	if (!t)
		return;
	if (!checksum_ok(t, t->length)) {
		pr_err("ACPI: table %.4s at %#llx has a bad checksum; ignored\n",
		       t->signature, (unsigned long long)phys);
		return;
	}
	if (nr_tables < ACPI_MAX_TABLES)
		tables[nr_tables++] = phys;
	pr_info("ACPI: %.4s %#010llx %06x (v%02u %.6s)\n", t->signature,
		(unsigned long long)phys, t->length, t->revision, t->oem_id);
}

/**
 * acpi_init - find and check the ACPI tables from GRUB's RSDP
 *
 * Context: boot, before SMP.
 * Return: 0, or -1 if there is no usable RSDP (the kernel goes on without ACPI).
 */
int acpi_init(void)
{
	const struct acpi_rsdp *rsdp = (const void *)boot_info.rsdp;
	const struct acpi_table_header *sdt;
	bool xsdt;
	u32 n;

	if (!boot_info.rsdp_len || memcmp(rsdp->signature, "RSD PTR ", 8) ||
	    !checksum_ok(rsdp, 20)) {
		pr_warn("ACPI: no valid RSDP from the boot loader; running without ACPI\n");
		return -1;
	}
	xsdt = rsdp->revision >= 2 && boot_info.rsdp_len >= sizeof(*rsdp) &&
	       checksum_ok(rsdp, sizeof(*rsdp)) && rsdp->xsdt_address;
	sdt = acpi_map(xsdt ? rsdp->xsdt_address : rsdp->rsdt_address);
	if (!sdt || !checksum_ok(sdt, sdt->length)) {
		pr_err("ACPI: %s has a bad checksum; running without ACPI\n", xsdt ? "XSDT" : "RSDT");
		return -1;
	}
	pr_info("ACPI: RSDP v%u, using the %s\n", rsdp->revision, xsdt ? "XSDT" : "RSDT");
	n = (sdt->length - sizeof(*sdt)) / (xsdt ? 8 : 4);
	for (u32 i = 0; i < n; i++) {
		const u8 *entry = (const u8 *)(sdt + 1) + i * (xsdt ? 8 : 4);
		u64 phys = 0;

		memcpy(&phys, entry, xsdt ? 8 : 4);	/* entries are unaligned */
		add_table(phys);
	}
	return 0;
}

/** acpi_find_table - a checked table by its four-letter signature, or NULL */
const struct acpi_table_header *acpi_find_table(const char *signature)
{
	for (unsigned int i = 0; i < nr_tables; i++) {
		const struct acpi_table_header *t = acpi_map(tables[i]);

		if (t && !memcmp(t->signature, signature, 4))
			return t;
	}
	return NULL;
}

static u32 fadt_u32(const struct acpi_table_header *fadt, u32 offset)
{
	u32 v = 0;

	if (offset + 4 <= fadt->length)
		memcpy(&v, (const u8 *)fadt + offset, 4);
	return v;
}

/* SLP_TYPa of \_S5_, or -1.  Encoding: NameOp "_S5_" PackageOp PkgLength NumElements value */
static int find_s5_sleep_type(const struct acpi_table_header *dsdt)
{
	const u8 *p = (const u8 *)dsdt, *end = p + dsdt->length;

	for (p += sizeof(*dsdt); p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) || p[4] != 0x12)
			continue;
		p += 5;
		p += (*p >> 6) + 1;		/* PkgLength: lead byte tells how many follow */
		p++;				/* NumElements */
		if (*p == 0x0a)			/* BytePrefix */
			return p[1];
		return *p <= 1 ? *p : -1;	/* ZeroOp, OneOp */
	}
	return -1;
}

/**
 * acpi_power_off - enter S5 (soft off) through the FADT's PM1 control ports
 *
 * Return: only if ACPI could not power off (no FADT, no \_S5_).
 */
void acpi_power_off(void)
{
	const struct acpi_table_header *fadt = acpi_find_table("FACP");
	const struct acpi_table_header *dsdt;
	u64 dsdt_phys = 0;
	u32 pm1a, pm1b;
	int slp_typ;

	if (!fadt)
		return;
	if (fadt->length >= FADT_X_DSDT + 8)
		memcpy(&dsdt_phys, (const u8 *)fadt + FADT_X_DSDT, 8);
	if (!dsdt_phys)
		dsdt_phys = fadt_u32(fadt, FADT_DSDT);
	dsdt = acpi_map(dsdt_phys);
	slp_typ = dsdt ? find_s5_sleep_type(dsdt) : -1;
	pm1a = fadt_u32(fadt, FADT_PM1A_CNT_BLK);
	pm1b = fadt_u32(fadt, FADT_PM1B_CNT_BLK);
	if (slp_typ < 0 || !pm1a) {
		pr_err("ACPI: cannot power off (no \\_S5_ or PM1a control block)\n");
		return;
	}
	outw(pm1a, (u16)((slp_typ << 10) | SLP_EN));
	if (pm1b)
		outw(pm1b, (u16)((slp_typ << 10) | SLP_EN));
}

/* MADT entry types (ACPI 6.5, table 5.21) */
#define MADT_LOCAL_APIC		0
#define MADT_IO_APIC		1
#define MADT_INT_OVERRIDE	2
#define MADT_LAPIC_NMI		4
#define MADT_LAPIC_ADDR		5
#define MADT_LOCAL_X2APIC	9

#define MADT_ENABLED		(1U << 0)
#define MADT_ONLINE_CAPABLE	(1U << 1)

static void madt_add_cpu(struct madt_info *info, u32 apic_id, u32 uid, u32 flags, bool x2)
{
	struct madt_cpu *c;

	for (unsigned int i = 0; i < info->nr_cpus; i++) {
		if (info->cpus[i].apic_id == apic_id)
			return;		/* the same CPU listed as xAPIC and x2APIC */
	}
	if (info->nr_cpus >= MADT_MAX_CPUS) {
		pr_warn("ACPI: MADT lists more than %u CPUs; APIC id %u ignored\n",
			MADT_MAX_CPUS, apic_id);
		return;
	}
	c = &info->cpus[info->nr_cpus++];
	c->apic_id = apic_id;
	c->acpi_uid = uid;
	c->enabled = flags & MADT_ENABLED;
	c->online_capable = flags & MADT_ONLINE_CAPABLE;
	c->x2apic = x2;
}

/**
 * acpi_parse_madt - read the CPUs and interrupt controllers from the MADT
 * @info: filled in (zeroed first)
 *
 * The MADT is a 44-byte head (header, local APIC address, flags) followed
 * by variable-length entries, each starting with a type and a length byte.
 * An entry whose length is too short for its type, or that runs past the
 * table, is counted in @info->nr_bad and parsing stops there (the length
 * bytes can no longer be trusted).  Unknown types are skipped.
 * Context: boot, after acpi_init().
 * Return: 0, or -1 if there is no MADT (a one-CPU machine of old).
 */
int acpi_parse_madt(struct madt_info *info)
{
	const struct acpi_table_header *madt = acpi_find_table("APIC");
	const u8 *p, *end;
	u32 lapic32 = 0;

	memset(info, 0, sizeof(*info));
	if (!madt || madt->length < sizeof(*madt) + 8)
		return -1;
	p = (const u8 *)madt;
	end = p + madt->length;
	memcpy(&lapic32, p + sizeof(*madt), 4);
	memcpy(&info->flags, p + sizeof(*madt) + 4, 4);
	info->lapic_addr = lapic32;

	for (p += sizeof(*madt) + 8; p + 2 <= end; p += p[1]) {
		u8 type = p[0], len = p[1];
		u32 id, uid, flags, addr, gsi;
		u64 addr64;

		if (len < 2 || p + len > end) {
			info->nr_bad++;
			pr_err("ACPI: MADT entry at offset %ld has a bad length %u; rest ignored\n",
			       (long)(p - (const u8 *)madt), len);
			break;
		}
		switch (type) {
		case MADT_LOCAL_APIC:
			if (len < 8)
				goto bad;
			memcpy(&flags, p + 4, 4);
			madt_add_cpu(info, p[3], p[2], flags, false);
			break;
		case MADT_LOCAL_X2APIC:
			if (len < 16)
				goto bad;
			memcpy(&id, p + 4, 4);
			memcpy(&flags, p + 8, 4);
			memcpy(&uid, p + 12, 4);
			madt_add_cpu(info, id, uid, flags, true);
			break;
		case MADT_IO_APIC:
			if (len < 12)
				goto bad;
			memcpy(&addr, p + 4, 4);
			memcpy(&gsi, p + 8, 4);
			if (info->nr_ioapics < MADT_MAX_IOAPICS)
				info->ioapics[info->nr_ioapics++] =
					(struct madt_ioapic){ p[2], addr, gsi };
			break;
		case MADT_INT_OVERRIDE:
			info->nr_overrides++;
			break;
		case MADT_LAPIC_ADDR:
			if (len < 12)
				goto bad;
			memcpy(&addr64, p + 4, 8);
			info->lapic_addr = addr64;
			break;
		default:
			break;
		}
		continue;
bad:
		info->nr_bad++;
		pr_err("ACPI: MADT entry of type %u is too short (%u bytes); skipped\n", type, len);
	}
	return 0;
}
