# shellcheck shell=sh
# Shared by the install tests (sourced): fail, the size of a PNG, and running an example.

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# png_size FILE: prints WIDTHxHEIGHT from the IHDR chunk (big-endian words at bytes 16 and 20).
png_size() {
    od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216 + $2*65536 + $3*256 + $4,
                                                       $5*16777216 + $6*65536 + $7*256 + $8 }'
}

# run_example SIZE PNG COMMAND...: runs an example with the Khronos validation layer on and
# checks that it exits 0, printed no validation message (the library counts and logs them,
# "gnomon: validation: ...", the loader's "gnomon: vulkan: ..."; an example does not fail on
# them) and wrote a PNG of SIZE.
run_example() {
    size=$1
    png=$2
    shift 2
    rm -f "$png"
    code=0
    env GNOMON_VALIDATION=1 "$@" 2>"$png.stderr" || code=$?
    cat "$png.stderr" >&2
    [ "$code" -eq 0 ] || fail "exit code $code: $*"
    if grep -qE "(validation|vulkan): " "$png.stderr"; then fail "validation messages from $*"; fi
    [ -s "$png" ] || fail "$* wrote no $png"
    got=$(png_size "$png")
    [ "$got" = "$size" ] || fail "$png is $got, expected $size"
    echo "ok: $* -> $png ($got), no validation message"
}

# expect_failure CODE MESSAGE COMMAND...: the command must exit CODE with MESSAGE on stderr.
expect_failure() {
    code=$1
    message=$2
    shift 2
    got=0
    err=$("$@" 2>&1 >/dev/null) || got=$?
    [ "$got" -eq "$code" ] || fail "expected exit code $code, got $got: $*"
    case $err in
    *"$message"*) echo "ok: $* -> exit $got, '$err'" ;;
    *) fail "expected '$message' on stderr of $*, got '$err'" ;;
    esac
}
