#!/bin/sh
# usage: expect_exit.sh <expected-exit-code> <expected-stderr-substring> -- command...
# Runs the command and fails unless it exits with the expected code and its stderr contains
# the substring (an empty substring matches anything). Exists so CTest can check exit codes
# and messages of the gnomon binary, which add_test alone cannot. With EXPECT_ONE_LINE=1 in
# the environment stderr must also be exactly one line (the error and nothing besides).
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
    echo "usage: $0 <code> <stderr-substring> -- command..." >&2
    exit 2
fi
want_code=$1
want_err=$2
shift 3
err_file=$(mktemp) || exit 1
trap 'rm -f "$err_file"' EXIT
"$@" >/dev/null 2>"$err_file"
code=$?
status=0
if [ "$code" -ne "$want_code" ]; then
    echo "expected exit code $want_code, got $code: $*" >&2
    status=1
fi
if [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$err_file"; then
    echo "expected stderr to contain: $want_err" >&2
    status=1
fi
lines=$(wc -l <"$err_file")
if [ "${EXPECT_ONE_LINE:-0}" = 1 ] && [ "$lines" -ne 1 ]; then
    echo "expected one line on stderr, got $lines" >&2
    status=1
fi
if [ "$status" -ne 0 ]; then
    echo "--- stderr was:" >&2
    cat "$err_file" >&2
fi
exit $status
