#!/bin/sh
# tests/host/kmem_replay_selftest.sh - the trace validator's refusals
# (tools/trace-linux/kmem_replay.py selftest), one case each, in make test-host.
exec python3 "$(dirname "$0")/../../tools/trace-linux/kmem_replay.py" selftest
