/*
 * arch/x86_64/framebuffer.c - fill rectangles and draw glyphs on GRUB's framebuffer.
 *
 * GRUB leaves the display in the mode the multiboot2 header asked for and
 * says where its memory is (boot/header.asm, multiboot2.c).  That memory is
 * the graphics card's, outside RAM, so the direct map does not cover it:
 * fb_init() maps it with ioremap(), uncached as device memory is (a real
 * card would draw faster write-combined; QEMU does not care).  Everything
 * else is arithmetic on (x, y): the pixel at x, y is the 2, 3 or 4 bytes
 * at screen_base + y * pitch + x * bytes_pp, little-endian.  Rectangles are clipped to the screen,
 * so a caller's off-by-one draws less, never over memory that is not the
 * screen.
 */
#include "arch/x86_64/framebuffer.h"
#include "arch/x86_64/pgtable.h"
#include "lib/errno.h"

/**
 * fb_init - map the framebuffer GRUB described
 * @info: filled in
 * @fb: boot_info.fb
 *
 * Context: after paging_init(); may allocate page-table pages.
 * Return: 0, -ENODEV if GRUB set no usable mode, -ENOMEM if mapping failed.
 */
int fb_init(struct fb_info *info, const struct boot_framebuffer *fb)
{
	if (!fb->addr)
		return -ENODEV;
	info->screen_base = ioremap(fb->addr, (size_t)fb->pitch * fb->height);
	if (!info->screen_base)
		return -ENOMEM;
	info->pitch = fb->pitch;
	info->width = fb->width;
	info->height = fb->height;
	info->bytes_pp = DIV_ROUND_UP(fb->bpp, 8);
	info->red_pos = fb->red_pos;
	info->green_pos = fb->green_pos;
	info->blue_pos = fb->blue_pos;
	info->red_size = fb->red_size;
	info->green_size = fb->green_size;
	info->blue_size = fb->blue_size;
	return 0;
}

/* One 8-bit channel of a colour, cut to the top @size bits, at bit @pos. */
static u32 channel(u32 value, u8 size, u8 pos)
{
	return (value & 0xff) >> (8 - size) << pos;
}

/** fb_pixel - the framebuffer's pixel value for the colour 0xRRGGBB */
u32 fb_pixel(const struct fb_info *info, u32 rgb)
{
	return channel(rgb >> 16, info->red_size, info->red_pos) |
	       channel(rgb >> 8, info->green_size, info->green_pos) |
	       channel(rgb, info->blue_size, info->blue_pos);
}

static u8 *pixel_at(const struct fb_info *info, u32 x, u32 y)
{
	return info->screen_base + (size_t)y * info->pitch + (size_t)x * info->bytes_pp;
}

/* Store pixel value @px at @p: 2, 3 or 4 bytes, little-endian. */
static void put_pixel(const struct fb_info *info, u8 *p, u32 px)
{
	switch (info->bytes_pp) {
	case 4:
		*(u32 *)p = px;
		break;
	case 3:
		p[0] = (u8)px;
		p[1] = (u8)(px >> 8);
		p[2] = (u8)(px >> 16);
		break;
	default:
		*(u16 *)p = (u16)px;
	}
}

/**
 * fb_fillrect - paint a rectangle one colour
 * @info: the framebuffer
 * @x: left column
 * @y: top line
 * @w: width in pixels
 * @h: height in pixels
 * @rgb: 0xRRGGBB
 *
 * Whatever falls outside the screen is not drawn.
 */
void fb_fillrect(const struct fb_info *info, u32 x, u32 y, u32 w, u32 h, u32 rgb)
{
	u32 px = fb_pixel(info, rgb);

	if (x >= info->width || y >= info->height)
		return;
	w = min(w, info->width - x);
	h = min(h, info->height - y);
	for (u32 j = 0; j < h; j++) {
		u8 *p = pixel_at(info, x, y + j);

		for (u32 i = 0; i < w; i++, p += info->bytes_pp)
			put_pixel(info, p, px);
	}
}

/**
 * fb_draw_glyph - draw an 8x16 character cell
 * @info: the framebuffer
 * @x: left column
 * @y: top line
 * @glyph: 16 bytes, one per line, the leftmost pixel in bit 7
 * @fg: the colour of set bits, 0xRRGGBB
 * @bg: the colour of clear bits
 */
void fb_draw_glyph(const struct fb_info *info, u32 x, u32 y, const u8 *glyph,
		   u32 fg, u32 bg)
{
	u32 fpx = fb_pixel(info, fg), bpx = fb_pixel(info, bg);

	if (x + FB_GLYPH_WIDTH > info->width || y + FB_GLYPH_HEIGHT > info->height)
		return;
	for (u32 j = 0; j < FB_GLYPH_HEIGHT; j++) {
		u8 *p = pixel_at(info, x, y + j);

		for (u32 i = 0; i < FB_GLYPH_WIDTH; i++, p += info->bytes_pp)
			put_pixel(info, p, glyph[j] & (0x80 >> i) ? fpx : bpx);
	}
}
