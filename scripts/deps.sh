#!/usr/bin/env bash
# Installs the Debian 12 packages gnomon needs, skipping those already present.
# Used by run.sh and test.sh; safe to run again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3
  libvulkan-dev glslc                 # Vulkan loader and headers; GLSL -> SPIR-V at build time
  mesa-vulkan-drivers                 # lavapipe: Vulkan on the CPU (tests, CI, machines without a GPU)
  vulkan-validationlayers             # VK_LAYER_KHRONOS_validation for the tests
  vulkan-tools                        # vulkaninfo, for diagnosing a machine
  libstb-dev                          # PNG write and image decode
  libcglm-dev                         # cglm: CPU vector math (header-only, src/base/gmath.h)
  libassimp-dev                       # glTF 2.0 scene import (gnomon render --scene x.gltf)
  libembree-dev                       # Embree 3: ray-traced shadow truth (CLI and tests only)
  libphysfs-dev                       # PhysicsFS: Quake 3 pk3 archives
  libcjson-dev                        # cJSON: glTF validated by gnomon before assimp sees it
  libmeshoptimizer-dev                # meshoptimizer: clusters (meshlets) of large meshes
  openarena-data                      # real Quake 3 (IBSP 46) maps for the world tests
  assimp-testmodels                   # glTF 2.0 samples (with and without cameras), skinned and animated IQM/MD5/FBX/COLLADA ones for the tests
  libglfw3-dev                        # GLFW: the window of gnomon view (the CLI only, never libgnomon)
  clang-format                        # clang-format 14: tests/format_check.sh holds every C file to .clang-format
  clang libclang-rt-14-dev            # clang and libFuzzer: the fuzz targets (scripts/fuzz.sh)
  xvfb xauth                          # a virtual X server (xvfb-run) for the viewer's window test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
