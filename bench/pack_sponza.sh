#!/usr/bin/env bash
# Packs ../shared/data's Sponza for a GPU-machine run: the device tool carries at most 64 MiB
# and Sponza's PNGs are 78 MB, so every opaque PNG is re-encoded as a quality-92 JPEG
# (bench/reencode.c, built here with Debian's libstb) and the .gltf's URIs rewritten to match;
# images with alpha stay PNG (masks must survive). Geometry (Sponza.bin) is copied unchanged;
# gnomon decodes JPEG and PNG alike (stb_image sniffs the content, the mimeType is not read),
# so per-pass times measure the same scene with lossy texels.
#   bench/pack_sponza.sh [SRC_DIR]   -> .devdata/sponza/Sponza.gltf
set -eu
SRC=${1:-../shared/data/scenes/sponza}
DST=.devdata/sponza
mkdir -p "$DST"
cc -O2 -o .devdata/reencode bench/reencode.c -I/usr/include/stb -lstb -lm
cp "$SRC/Sponza.bin" "$SRC/Sponza.gltf" "$DST/"
chmod u+w "$DST"/*
n=0
for f in "$SRC"/*.png; do
  b=$(basename "$f" .png)
  if .devdata/reencode "$f" "$DST/$b.jpg" 92; then
    sed -i -e "s#\"$b.png\"#\"$b.jpg\"#" "$DST/Sponza.gltf"
    n=$((n + 1))
  else
    cp "$f" "$DST/"
  fi
done
echo "pack_sponza: $n images as JPEG -> $DST ($(du -sh "$DST" | cut -f1))"
