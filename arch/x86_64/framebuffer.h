/*
 * arch/x86_64/framebuffer.h - the linear framebuffer GRUB set up.
 *
 * A framebuffer is memory whose bytes are the screen's pixels, line after
 * line, @pitch bytes apart.  This kernel draws on direct-colour modes of
 * 2, 3 or 4 bytes a pixel (multiboot2.c refuses others); where red, green
 * and blue sit in a pixel, and how many bits each has, is the firmware's
 * choice, so every colour goes through fb_pixel().  Drawing is plain stores: the caller serialises its own
 * drawing, and two callers that draw on disjoint rectangles need no lock.
 */
#ifndef ARCH_X86_64_FRAMEBUFFER_H
#define ARCH_X86_64_FRAMEBUFFER_H

#include "lib/compiler.h"
#include "arch/x86_64/multiboot2.h"

/**
 * struct fb_info - a mapped framebuffer (Linux's name, a small part of it)
 * @screen_base: the first pixel, mapped uncached into the kernel
 * @pitch: bytes per line
 * @width: pixels per line
 * @height: lines
 * @bytes_pp: bytes per pixel: 2, 3 or 4
 * @red_pos: where red's bits start in a pixel
 * @green_pos: green's
 * @blue_pos: blue's
 * @red_size: how many bits red has (its top ones are kept)
 * @green_size: green's
 * @blue_size: blue's
 */
struct fb_info {
	u8 *screen_base;
	u32 pitch, width, height, bytes_pp;
	u8 red_pos, green_pos, blue_pos;
	u8 red_size, green_size, blue_size;
};

int fb_init(struct fb_info *info, const struct boot_framebuffer *fb);
u32 fb_pixel(const struct fb_info *info, u32 rgb);
void fb_fillrect(const struct fb_info *info, u32 x, u32 y, u32 w, u32 h, u32 rgb);
void fb_draw_glyph(const struct fb_info *info, u32 x, u32 y, const u8 *glyph,
		   u32 fg, u32 bg);

#define FB_GLYPH_WIDTH	8
#define FB_GLYPH_HEIGHT	16

#endif
