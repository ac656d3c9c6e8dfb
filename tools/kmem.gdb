# tools/kmem.gdb - used by `make debug`: load the kernel's symbols, attach to
# QEMU's gdb stub and stop at kmain.  A hardware breakpoint, because kmain's
# address means nothing until boot/entry.asm has turned paging on.
file build/kernel.elf
set architecture i386:x86-64
target remote localhost:1234
hbreak kmain
continue
