#!/usr/bin/env bash
# Builds gnomon (Release) here and copies the binary and the shared libraries it needs
# beyond glibc and the Vulkan loader into .devbin/, for the GPU machine (see
# bench/gpu_bench.sh and ../shared/GPU.md). Shaders are embedded: nothing else travels.
set -euo pipefail
cd "$(dirname "$0")/.."
# Without Embree (shadowref/shadowcheck): its 44 MB library would leave no room for map data
# in the device tool's 64 MiB transfer.
# Without the viewer (GLFW, X11): the GPU machine has no display.
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGN_WITH_EMBREE=OFF -DGN_WITH_VIEWER=OFF >/dev/null
cmake --build build-release --target gnomon_cli
rm -rf .devbin && mkdir -p .devbin
cp build-release/gnomon .devbin/
ldd build-release/gnomon | awk '/=> \// {print $3}' | while read -r lib; do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libvulkan.so*) ;;
    *) cp -L "$lib" .devbin/ ;;
  esac
done
ls -la .devbin
