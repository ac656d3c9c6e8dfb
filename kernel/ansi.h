/*
 * kernel/ansi.h - 24-bit colour on the serial console, when it may be used.
 *
 * The monitor's pictures (`memmap picture`, and the colours of `buddyinfo`
 * and `vmallocmap`) colour their text with ECMA-48 "Select Graphic
 * Rendition" sequences in the 24-bit form most terminals take,
 * ESC[38;2;R;G;Bm (foreground) and ESC[48;2;R;G;Bm (background), and end
 * every coloured line with ESC[0m.  The kernel command line's "color=off"
 * (kstrtobool()'s words: 0, n, off...) turns colour off: the same commands
 * then print plain text only, for logs and terminals without colour.
 * docs/page_alloc.md, section 13.
 */
#ifndef KERNEL_ANSI_H
#define KERNEL_ANSI_H

#include "lib/compiler.h"

void ansi_color_init(bool on);
bool ansi_color_enabled(void);
void ansi_fg(u32 rgb);
void ansi_bg(u32 rgb);
void ansi_reset(void);

#endif
