/*
 * kernel/labs.h - the labs whose code this tree was handed out without.
 *
 * In this, the reference tree, every lab is done: the list is empty.  `make
 * handout` (tools/handout.py) writes it anew in each handout, naming the
 * labs whose regions it replaced by stubs (docs/labs/README.md), so that a
 * command that shows what those labs build, such as kvdemo, can say that
 * its figures are the stubs' until the labs are done.
 */
#ifndef KERNEL_LABS_H
#define KERNEL_LABS_H

#define LABS_HANDED_OUT	""	/* e.g. "slab vmalloc kvmalloc" in the slab lab's handout */
#define LABS_NEEDED	""	/* then " (needs the labs done: slab vmalloc kvmalloc)" */

#endif
