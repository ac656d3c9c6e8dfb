#!/bin/sh
# tools/gen-compile-commands.sh "CC FLAGS" FILE... - compile_commands.json
# for editors and clangd, with the flags the Makefile really uses.
flags=$1
shift
dir=$(pwd)
echo "["
sep=""
for f in "$@"; do
	printf '%s  {"directory": "%s", "file": "%s", "command": "%s -c %s"}' \
		"$sep" "$dir" "$f" "$(echo "$flags" | sed 's/"/\\"/g')" "$f"
	sep=",
"
done
echo
echo "]"
