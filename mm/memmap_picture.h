/*
 * mm/memmap_picture.h - `memmap picture`: the page frames drawn in a terminal.
 *
 * arch/x86_64/multiboot2.c's `memmap` hands its words after "picture" here.
 */
#ifndef MM_MEMMAP_PICTURE_H
#define MM_MEMMAP_PICTURE_H

struct monitor_args;

int memmap_picture(struct monitor_args *args);

#endif
