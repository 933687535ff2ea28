#!/bin/sh
# usage: settled_within.sh <max-frames> -- command...
# Runs a gnomon command with virtual shadow maps (render, shadowcheck), which must exit 0 and say
# "settled after N frame(s)" for every view, and fails when any N is above max-frames: a settle
# loop that waits for pages nobody asks for runs to its limit (256 frames) instead.
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
    echo "usage: $0 <max-frames> -- command..." >&2
    exit 2
fi
max=$1
shift 2
out_file=$(mktemp) || exit 1
trap 'rm -f "$out_file"' EXIT
"$@" >"$out_file" 2>&1
code=$?
frames=$(sed -n 's/.*settled after \([0-9][0-9]*\) frame.*/\1/p' "$out_file")
worst=$(printf '%s\n' $frames | sort -n | tail -n 1)
status=0
if [ "$code" -ne 0 ]; then
    echo "expected exit code 0, got $code: $*" >&2
    status=1
elif [ -z "$worst" ]; then
    echo "no 'settled after N frames' line: $*" >&2
    status=1
elif [ "$worst" -gt "$max" ]; then
    echo "the page cache settled after $worst frames, more than $max: $*" >&2
    status=1
else
    echo "settled after $(echo $frames | tr ' ' ',') frame(s), at most $max"
fi
if [ "$status" -ne 0 ]; then
    echo "--- output was:" >&2
    cat "$out_file" >&2
fi
exit $status
