#!/bin/sh
# usage: fifo_refused.sh <gnomon> <work-folder>
# A FIFO as the scene (.bsp, .gltf) or as a .pk3 in --paks, a directory as the scene and a
# --paks folder of 1025 archives: each must end in exit 3 with one line naming the path,
# within 20 s. Opening a FIFO for reading blocks until a writer comes, so without the check
# the command hangs; `timeout` turns that into a failure (exit 124) instead of a stuck test.
# Each case takes 0.3-0.4 s here; the bound is loose because the sanitizer build, under a
# loaded CI machine, took over 2 s (the first bound) for the 1025-archive listing.
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work/paks" "$work/many" "$work/dir.bsp" || exit 1
mkfifo "$work/scene.bsp" "$work/scene.gltf" "$work/paks/a.pk3" || exit 1
i=0
while [ $i -le 1024 ]; do : >"$work/many/p$i.pk3"; i=$((i + 1)); done
status=0
check() { # check <stderr substring> -- args...
    want=$1
    shift 2
    timeout 20 "$bin" render --size 64x36 --out "$work/x.png" "$@" >/dev/null 2>"$work/err"
    code=$?
    lines=$(wc -l <"$work/err")
    if [ "$code" -ne 3 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$want" "$work/err"; then
        echo "FAIL: $* gave exit $code (want 3; 124: timed out after 20 s), $lines line(s), want '$want':" >&2
        cat "$work/err" >&2
        status=1
    else
        echo "ok: $* -> $(cat "$work/err")"
    fi
}
check "$work/scene.bsp: is a FIFO" -- --scene "$work/scene.bsp"
check "$work/scene.gltf: is a FIFO" -- --scene "$work/scene.gltf"
check "$work/paks/a.pk3: is a FIFO" -- --scene oa_dm1 --paks "$work/paks"
check "$work/dir.bsp: is a directory" -- --scene "$work/dir.bsp"
check "more than 1024 .pk3 archives" -- --scene oa_dm1 --paks "$work/many"
rm -rf "$work"
exit $status
