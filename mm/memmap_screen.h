/*
 * mm/memmap_screen.h - the map of memory on the framebuffer (mm/memmap_screen.c).
 *
 * The kernel calls memmap_screen_init() once before the monitor starts; the
 * monitor runs each command through memmap_screen_run(), and the tick calls
 * memmap_screen_tick().  Without a framebuffer all of them do nothing.
 */
#ifndef MM_MEMMAP_SCREEN_H
#define MM_MEMMAP_SCREEN_H

void memmap_screen_init(void);
void memmap_screen_redraw(void);
int memmap_screen_run(int (*fn)(int argc, char **argv), int argc, char **argv);
void memmap_screen_tick(void);

#endif
