/*
 * lib/sizes.h - sizes by name, as Linux's <linux/sizes.h>: SZ_4K, SZ_2M,
 * SZ_1G.  Each is an unsigned long, so SZ_4G and shifts of them do not
 * overflow an int.
 */
#ifndef LIB_SIZES_H
#define LIB_SIZES_H

#define SZ_1K		0x00000400UL
#define SZ_2K		0x00000800UL
#define SZ_4K		0x00001000UL
#define SZ_8K		0x00002000UL
#define SZ_16K		0x00004000UL
#define SZ_32K		0x00008000UL
#define SZ_64K		0x00010000UL
#define SZ_128K		0x00020000UL
#define SZ_256K		0x00040000UL
#define SZ_512K		0x00080000UL
#define SZ_1M		0x00100000UL
#define SZ_2M		0x00200000UL
#define SZ_4M		0x00400000UL
#define SZ_8M		0x00800000UL
#define SZ_16M		0x01000000UL
#define SZ_32M		0x02000000UL
#define SZ_64M		0x04000000UL
#define SZ_128M		0x08000000UL
#define SZ_256M		0x10000000UL
#define SZ_512M		0x20000000UL
#define SZ_1G		0x40000000UL
#define SZ_2G		0x80000000UL
#define SZ_4G		0x100000000UL

#endif
