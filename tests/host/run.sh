#!/bin/sh
# tests/host/run.sh PROGRAM... - run host test programs, sum their results.
# A program that crashes (a sanitizer report) counts as one failure more.
passed=0
failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	status=$?
	echo "$out"
	p=$(echo "$out" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' | tail -n 1)
	f=$(echo "$out" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' | tail -n 1)
	if [ -z "$p" ]; then
		echo "$t: crashed (status $status) before reporting"
		p=0
		f=1
	elif [ "$status" != 0 ] && [ "$f" = 0 ]; then
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "host: $passed passed, $failed failed"
