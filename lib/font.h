/*
 * lib/font.h - an 8x16 bitmap font for printable ASCII.
 *
 * The glyphs are not in the tree: tools/gen-font.py reads them at build
 * time from a PC Screen Font of Debian's console-setup-linux package
 * (/usr/share/consolefonts/Lat15-VGA16.psf.gz, the VGA BIOS's own font)
 * and writes $(BUILD)/font8x16.c.  Each glyph is 16 bytes, one per line,
 * the leftmost pixel in bit 7.
 */
#ifndef LIB_FONT_H
#define LIB_FONT_H

#include "lib/compiler.h"

#define FONT_FIRST_CHAR	0x20	/* ' ' */
#define FONT_LAST_CHAR	0x7e	/* '~' */

extern const u8 font_8x16[FONT_LAST_CHAR - FONT_FIRST_CHAR + 1][16];

/* The glyph of @c; a character outside printable ASCII shows as '?'. */
static inline const u8 *font_glyph(char c)
{
	if (c < FONT_FIRST_CHAR || c > FONT_LAST_CHAR)
		c = '?';
	return font_8x16[c - FONT_FIRST_CHAR];
}

#endif
