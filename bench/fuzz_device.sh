#!/usr/bin/env bash
# Copy of what ran: build-fuzz/tests/fuzz/fuzz_{bsp,gltf,zip} and a tar of build-fuzz/corpus go to
# .devbin/fuzz/ (carry [".devbin"]); run from the repository root: bash bench/fuzz_device.sh SECONDS WORKERS
# (TARGETS="gltf" for one).
# Long fuzz runs on the device machine's CPUs: each target in fork mode with W workers for
# S seconds, all three at once; logs, crashes and the grown corpora' sizes into $OUT.
set -u
S=${1:-540}; W=${2:-5}
cd .devbin/fuzz
tar xzf corpus.tgz
export LD_LIBRARY_PATH=$PWD/..
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
nproc > "$OUT/nproc.txt"
for t in ${TARGETS:-bsp gltf zip}; do
  extra=""; [ $t = gltf ] && extra=corpus/gltf_seed
  mkdir -p "$OUT/$t"
  (cd "$OUT/$t" && "$OLDPWD/fuzz_$t" -fork=$W -ignore_crashes=1 -max_total_time=$S -timeout=10 -rss_limit_mb=4096 \
     -max_len=65536 -print_final_stats=1 "$OLDPWD/corpus/$t" ${extra:+"$OLDPWD/$extra"} > "$OUT/$t.log" 2>&1; echo "rc=$?" >> "$OUT/$t.log") &
done
wait
for t in ${TARGETS:-bsp gltf zip}; do echo "$t: $(ls corpus/$t | wc -l) corpus files"; done > "$OUT/corpus.txt"
