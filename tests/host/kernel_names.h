/*
 * tests/host/kernel_names.h - keep kernel functions apart from libc's.
 *
 * The kernel's lib/ defines memcpy, strlen, snprintf... with the C library's
 * names.  Built into a host program they would replace libc's (and the
 * sanitizers' own versions).  This header, forced into every host build with
 * -include, renames the kernel's copies.  A test includes it after the C
 * library's headers: from there on memcpy() means the kernel's.
 */
#ifndef TESTS_HOST_KERNEL_NAMES_H
#define TESTS_HOST_KERNEL_NAMES_H

#define memcpy		kernel_memcpy
#define memmove		kernel_memmove
#define memset		kernel_memset
#define memcmp		kernel_memcmp
#define memchr		kernel_memchr
#define strlen		kernel_strlen
#define strnlen		kernel_strnlen
#define strcmp		kernel_strcmp
#define strncmp		kernel_strncmp
#define strchr		kernel_strchr
#define strrchr		kernel_strrchr
#define strstr		kernel_strstr
#define vsnprintf	kernel_vsnprintf
#define snprintf	kernel_snprintf
#define vscnprintf	kernel_vscnprintf
#define scnprintf	kernel_scnprintf

#endif
