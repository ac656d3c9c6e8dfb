#!/bin/sh
# tools/install-deps.sh - make sure the tools the build and QEMU runs need
# are installed.  As root on Debian it installs what is missing with
# apt-get; otherwise it prints the command to run and fails.
#
#   tools/install-deps.sh [clang]       (clang: also the clang compiler)
#   tools/install-deps.sh bench-host    (also valgrind and the allocators that make
#                                        bench-host compares the slab with)

missing=""
need() {	# need COMMAND-OR-PATH PACKAGE
	case "$1" in
	/*) [ -e "$1" ] || missing="$missing $2" ;;
	*) command -v "$1" >/dev/null 2>&1 || missing="$missing $2" ;;
	esac
}

need gcc gcc
need make make
need ld binutils
need nasm nasm
need python3 python3
need qemu-system-x86_64 qemu-system-x86
need grub-mkrescue grub-common
need /usr/lib/grub/i386-pc/multiboot2.mod grub-pc-bin
need /usr/lib/grub/x86_64-efi/multiboot2.mod grub-efi-amd64-bin
need xorriso xorriso
need mformat mtools
need /usr/share/OVMF/OVMF_CODE_4M.fd ovmf
need /usr/share/seabios/bios-microvm.bin seabios	# -machine microvm (docs/testing.md)
need /usr/share/consolefonts/Lat15-VGA16.psf.gz console-setup-linux	# the screen's font (lib/font.h)
[ "$1" = clang ] && need clang clang
if [ "$1" = bench-host ]; then
	need valgrind valgrind
	need /usr/include/jemalloc/jemalloc.h libjemalloc-dev
	need /usr/include/gperftools/tcmalloc.h libgoogle-perftools-dev
	need /usr/include/mimalloc.h libmimalloc-dev
fi

[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null &&
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "install-deps: apt-get install failed" >&2; exit 1; }
	exit 0
fi
echo "install-deps: missing packages. Run:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
