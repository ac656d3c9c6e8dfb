/*
 * kernel/ansi.c - colour sequences for the monitor's pictures.
 *
 * One switch, set once at boot from "color=" (kernel/main.c), and three
 * sequences, each printed as a continuation of the caller's line: the
 * caller decides where colour starts and must end the line with
 * ansi_reset(), so that a log cut anywhere is not left coloured.  The
 * callers ask ansi_color_enabled() first and print no sequence without it.
 */
#include "kernel/ansi.h"
#include "kernel/printk.h"

static bool color_on = true;

/** ansi_color_init - colour on or off, from the command line's "color=" */
void ansi_color_init(bool on)
{
	color_on = on;
}

/** ansi_color_enabled - may the monitor print colour sequences? */
bool ansi_color_enabled(void)
{
	return color_on;
}

/** ansi_fg - the text from here on in the colour @rgb (0xRRGGBB) */
void ansi_fg(u32 rgb)
{
	pr_cont("\033[38;2;%u;%u;%um", (rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
}

/** ansi_bg - the background from here on in the colour @rgb (0xRRGGBB) */
void ansi_bg(u32 rgb)
{
	pr_cont("\033[48;2;%u;%u;%um", (rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
}

/** ansi_reset - the terminal's own colours again (SGR 0) */
void ansi_reset(void)
{
	pr_cont("\033[0m");
}
