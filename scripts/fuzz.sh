#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz_bsp, fuzz_gltf, fuzz_zip, fuzz_cube, fuzz_q3shader, fuzz_dds, fuzz_md3,
# fuzz_skinned, fuzz_emitter) (clang, ASan + UBSan)
# in build-fuzz/ and runs each for FUZZ_SECONDS (default 20) from a seed corpus made here; any
# crash, sanitizer report, leak, input over 10 s or over 4 GB fails it. Long runs:
# FUZZ_SECONDS=1800 FUZZ_JOBS=N scripts/fuzz.sh (docs/RELIABILITY.md records them). The corpora
# grow in build-fuzz/corpus/.
#   bsp:  the malformed-map corpus (unit_bsp_corpus: the synthetic map with patches, and 114
#         variants that each break one rule)
#   zip:  small stored, deflated and ZIP64 .pk3s written here with python3's zipfile
#   cube: small valid .cube LUTs written here (an identity, a titled grade with a domain and
#         comments, the same with CRLF line ends)
#   emitter: the four built-in particle emitters and a box emitter with every key it may take, as JSON
#         files written here (docs/EFFECTS.md)
#   dds:  small valid .dds files written here with python3 (BC1 and BC4 by FourCC, BC7 with its
#         mips, RGBA8, and BC6H unsigned and signed with every mode value by DX10 header)
#   md3:  a small valid .md3 written here with python3 (2 frames, a tag, a quad), an
#         animation.cfg and a .skin (fuzz_md3 reads the same bytes as all three)
#   gltf: gltf_bad_gen.py's files (sparse accessors valid and not, deep nodes and JSON, ...)
#         and the self-contained samples of assimp-testmodels (.glb and embedded .gltf)
#   skinned: assimp-testmodels' small skinned and animated samples (simple_skin.gltf and a STEP
#         copy, AnimatedMorphCube with its buffer embedded, SimpleCube.md5mesh,
#         box_nested_animation.dae, box.fbx), a skinned, animated triangle .iqm and a quad skinned
#         to 8 joints over JOINTS_0 and JOINTS_1 (.gltf) written here
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZ_SECONDS:-20}"
jobs="${FUZZ_JOBS:-1}"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DGN_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGN_WITH_EMBREE=OFF -DGN_WITH_VIEWER=OFF >/dev/null
ninja -C build-fuzz fuzz_bsp fuzz_gltf fuzz_zip fuzz_cube fuzz_q3shader fuzz_dds fuzz_md3 fuzz_skinned \
  fuzz_emitter unit_bsp_corpus
corpus=build-fuzz/corpus
mkdir -p "$corpus/bsp" "$corpus/gltf" "$corpus/gltf_seed" "$corpus/zip" "$corpus/cube" "$corpus/q3shader" "$corpus/dds" \
  "$corpus/md3" "$corpus/skinned" "$corpus/skinned_seed" "$corpus/emitter"
python3 - "$corpus/emitter" <<'PY'
import json, os, sys
out = sys.argv[1]
builtins = {
    "chimney_smoke": {"shape": "sphere", "radius": 0.15, "rate": 6, "lifetime": [8, 12], "speed": [0.8, 1.4],
                      "cone_deg": 10, "rotation_deg": [-180, 180], "spin_deg": [-15, 15], "size": [0.5, 4],
                      "size_jitter": 0.25, "color": [[0.35, 0.35, 0.37, 0.55], [0.45, 0.45, 0.47, 0]],
                      "fade_in": 0.1, "gravity": [0, 0.2, 0], "drag": 0.5, "wind_response": 1,
                      "curl_strength": 0.4, "curl_scale": 0.5,
                      "atlas": {"columns": 4, "rows": 4, "random_start": True}, "soft_depth": 1,
                      "max_particles": 96},
    "fountain": {"shape": "disc", "radius": 0.05, "rate": 400, "lifetime": [1.4, 1.7], "speed": [6, 6.6],
                 "cone_deg": 6, "size": [0.04, 0.06], "size_jitter": 0.3,
                 "color": [[0.6, 0.7, 0.75, 0.5], [0.6, 0.7, 0.75, 0.35]], "drag": 0.3, "wind_response": 1,
                 "render": "velocity", "stretch": 0.03, "soft_depth": 0.1, "collision": "die",
                 "collision_thickness": 0.3, "max_particles": 1024},
    "torch_flame": {"shape": "sphere", "radius": 0.05, "rate": 40, "lifetime": [0.25, 0.5], "speed": [0.3, 0.6],
                    "cone_deg": 15, "rotation_deg": [-20, 20], "spin_deg": [-90, 90], "size": [0.18, 0.05],
                    "size_jitter": 0.2, "color": [[0, 0, 0, 1], [0, 0, 0, 0]], "emission": [[10000, 5000, 1500], [1500, 300, 40]],
                    "fade_in": 0.05, "gravity": [0, 2.5, 0], "drag": 2, "wind_response": 1, "curl_strength": 2,
                    "curl_scale": 4, "atlas": {"columns": 4, "rows": 4, "over_life": True}, "blend": "additive",
                    "soft_depth": 0.2, "max_particles": 32},
    "sparks": {"shape": "sphere", "radius": 0.1, "rate": 6,
               "bursts": [{"time": 0.5, "count": 20, "interval": 2.5, "cycles": 0}], "lifetime": [0.8, 1.6],
               "speed": [2, 5], "cone_deg": 35, "size": [0.015, 0.008], "color": [[0, 0, 0, 1], [0, 0, 0, 0.6]],
               "emission": [[30000, 13500, 3000], [120, 20, 2]], "drag": 3, "wind_response": 1,
               "curl_strength": 0.5, "curl_scale": 2, "render": "velocity", "stretch": 0.04, "blend": "additive",
               "soft_depth": 0.05, "collision": "bounce", "restitution": 0.4, "friction": 0.3,
               "collision_thickness": 0.3, "max_particles": 64},
}
for name, e in builtins.items():
    json.dump({"version": 1, "emitters": [dict(name=name, **e)]}, open(os.path.join(out, name + ".json"), "w"))
every = {"name": "every_key", "shape": "box", "half_extent": [1, 0.5, 2], "rate": 100,
         "bursts": [{"time": 0, "count": 5}, {"time": 0.25, "count": 3, "interval": 0.1, "cycles": 4}],
         "max_particles": 200, "lifetime": [0.5, 2], "speed": [1, 3], "direction": [1, 1, 0], "cone_deg": 180,
         "rotation_deg": 45, "spin_deg": [-360, 360], "size": [0.1, 0.3], "size_jitter": 0.5,
         "color": [1, 0.5, 0.25, 1], "emission": [5, 6, 7], "fade_in": 0.2, "gravity": [0, -9.81, 0], "drag": 1,
         "wind_response": 0.5, "curl_strength": 3, "curl_scale": 1.5,
         "atlas": {"columns": 8, "rows": 8, "frames": 60, "fps": 24}, "render": "ribbon", "blend": "alpha",
         "soft_depth": 0.5, "collision": "bounce", "restitution": 0.6, "friction": 0.1, "collision_thickness": 1}
json.dump({"_comment": "every key", "emitters": [every, {"name": "plain"}]}, open(os.path.join(out, "every.json"), "w"),
          indent=1)
PY
python3 - "$corpus/dds" <<'PY'
import os, struct, sys
def dds(name, w, h, levels, fourcc, dxgi, block, side, modes=b""):
    size = lambda l: max(1, ((max(1, w >> l) + side - 1) // side)) * max(1, ((max(1, h >> l) + side - 1) // side)) * block
    head = b"DDS " + struct.pack("<7I", 124, 0x1 | 0x2 | 0x4 | 0x1000 | 0x20000, h, w, 0, 0, levels) + bytes(44)
    head += struct.pack("<2I4s5I", 32, 4, fourcc, 0, 0, 0, 0, 0) + struct.pack("<5I", 0x1000, 0, 0, 0, 0)
    if dxgi: head += struct.pack("<5I", dxgi, 3, 0, 1, 0)
    body = bytearray((i * 37) & 255 for i in range(sum(size(l) for l in range(levels))))
    for k in range(len(body) // block if modes else 0):  # block k's low 5 bits: its mode
        body[k * block] = (body[k * block] & 0xe0) | modes[k % len(modes)]
    open(os.path.join(sys.argv[1], name), "wb").write(head + body)
dds("bc1.dds", 8, 8, 1, b"DXT1", 0, 8, 4)
dds("bc4.dds", 16, 8, 5, b"ATI1", 0, 8, 4)
dds("bc7.dds", 8, 8, 4, b"DX10", 98, 16, 4)
dds("rgba8.dds", 4, 2, 3, b"DX10", 28, 4, 1)
bc6h_modes = bytes([0x00, 0x01, 0x02, 0x06, 0x0a, 0x0e, 0x12, 0x16, 0x1a, 0x1e, 0x03, 0x07, 0x0b, 0x0f,
                    0x13, 0x17, 0x1b, 0x1f])  # the 14 modes, then the 4 reserved values
dds("bc6h_uf16.dds", 16, 16, 5, b"DX10", 95, 16, 4, bc6h_modes)
dds("bc6h_sf16.dds", 12, 8, 2, b"DX10", 96, 16, 4, bc6h_modes)
PY
python3 - "$corpus/md3" <<'PY'
import os, struct, sys
out = sys.argv[1]
def name(s, n): return s.encode().ljust(n, b"\0")
# qfiles.h's layout: header, 2 frames, 2 x 1 tags, then one surface (a quad) with its shader,
# triangles, texcoords and 2 x 4 vertices; every offset as the game's exporters write them
frames = b"".join(struct.pack("<10f", 4 * f, -2 * f, 8 * f, 16 + 4 * f, 16 - 2 * f, 8 * f, 0, 0, 0, 12 + f)
                  + name("frame%d" % f, 16) for f in range(2))
tags = b"".join(name("tag_torso", 64) + struct.pack("<12f", *t) for t in
                ((0, 0, 10, 1, 0, 0, 0, 1, 0, 0, 0, 1), (4, 0, 14, 0, 1, 0, -1, 0, 0, 0, 0, 1)))
xyz = [[(0, 0, 0), (1024, 0, 0), (1024, 1024, 0), (0, 1024, 0)],
       [(256, -128, 512), (1280, -128, 512), (1280, 896, 512), (256, 896, 512)]]
normals = [[0, 0, 0, 0], [64 << 8 | 64, 128, 200 << 8 | 30, 32 << 8 | 96]]
body = (name("textures/test/quad.tga", 64) + struct.pack("<i", 0) + struct.pack("<6i", 0, 1, 2, 0, 2, 3)
        + struct.pack("<8f", 0, 0, 1, 0, 1, 1, 0, 1)
        + b"".join(struct.pack("<3hH", *xyz[f][v], normals[f][v]) for f in range(2) for v in range(4)))
surf = b"IDP3" + name("quad", 64) + struct.pack("<10i", 0, 2, 1, 4, 2, 176, 108, 200, 232, 108 + len(body)) + body
ofs_tags = 108 + len(frames)
ofs_surf = ofs_tags + len(tags)
head = b"IDP3" + struct.pack("<i", 15) + name("models/test/quad.md3", 64) + struct.pack(
    "<9i", 0, 2, 1, 1, 0, 108, ofs_tags, ofs_surf, ofs_surf + len(surf))
open(os.path.join(out, "quad.md3"), "wb").write(head + frames + tags + surf)
anims = ["0 30 0 25", "29 1 0 25", "30 30 0 25", "59 1 0 25", "60 30 0 25", "89 1 0 25", "90 40 0 20",
         "130 6 0 15", "136 6 0 15", "142 5 0 20", "147 4 0 20", "151 1 0 15", "152 1 0 15", "153 8 8 20",
         "161 12 12 20", "173 9 9 15", "182 10 10 18", "192 -10 10 15", "202 8 0 15", "211 8 0 20",
         "219 9 0 15", "228 6 0 20", "234 10 5 10", "244 10 10 10", "254 0 0 0"]
open(os.path.join(out, "animation.cfg"), "w").write(
    "// animation config file\nsex f\nheadoffset 1.5 -2 0.25\nfootsteps mech\nfixedlegs\n/* c */ fixedtorso\n"
    + "".join(a + "\t// x\n" for a in anims))
open(os.path.join(out, "upper_default.skin"), "w").write(
    "u_torso,models/players/x/u.tga\r\ntag_head\r\n// c\nU_Arm_1 , models/players/x/a.tga\nl_legs,\n")
PY
build-fuzz/tests/unit/unit_bsp_corpus "$corpus/bsp" >/dev/null
python3 tests/scene/gltf_bad_gen.py "$corpus/gltf_seed" >/dev/null
# a seed that names an external file is refused at once without a folder (fuzz_gltf.c): only
# self-contained samples are worth seeding
find /usr/share/assimp/models/glTF2 -type f \( -name '*.glb' -o -name '*Embedded*.gltf' \) -size -256k \
  -exec cp -n {} "$corpus/gltf_seed/" \; 2>/dev/null || true
python3 - "$corpus/zip" <<'PY'
import io, os, sys, zipfile
out = sys.argv[1]
for name, method in (("stored", zipfile.ZIP_STORED), ("deflated", zipfile.ZIP_DEFLATED)):
    with zipfile.ZipFile(os.path.join(out, name + ".pk3"), "w", method) as z:
        z.writestr("maps/x.bsp", b"IBSP" + bytes(60))
        z.writestr("textures/a/b.tga", bytes(range(256)) * 4)
        z.writestr("scripts/", b"")
with zipfile.ZipFile(os.path.join(out, "zip64.pk3"), "w", zipfile.ZIP_STORED, allowZip64=True) as z:
    with z.open("maps/x.bsp", "w", force_zip64=True) as f:
        f.write(b"IBSP" + bytes(60))
PY
python3 - "$corpus/cube" <<'PY'
import os, sys
out = sys.argv[1]
def table(n, f):
    return "".join("%.6g %.6g %.6g\n" % f(r / (n - 1), g / (n - 1), b / (n - 1))
                   for b in range(n) for g in range(n) for r in range(n))
identity = "LUT_3D_SIZE 2\n" + table(2, lambda r, g, b: (r, g, b))
warm = ('# a warm grade\nTITLE "warm #1"\nLUT_3D_SIZE 3\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 2\n\n'
        + table(3, lambda r, g, b: (min(1.0, r * 1.1), g, b * 0.9)))
for name, text in (("identity_2.cube", identity), ("warm_3.cube", warm),
                   ("warm_3_crlf.cube", warm.replace("\n", "\r\n"))):
    with open(os.path.join(out, name), "w", newline="") as f:
        f.write(text)
PY
# shader scripts: openarena's own (the small ones), when installed
python3 - "$corpus/q3shader" <<'PY'
import glob, os, sys, zipfile
out = sys.argv[1]
for pk3 in sorted(glob.glob("/usr/share/games/openarena/baseoa/*.pk3")):
    with zipfile.ZipFile(pk3) as z:
        for info in z.infolist():
            if info.filename.lower().endswith(".shader") and info.file_size <= 65536:
                with open(os.path.join(out, os.path.basename(info.filename)), "wb") as f:
                    f.write(z.read(info))
with open(os.path.join(out, "hand.shader"), "w") as f:
    f.write("textures/a/b\n{\n\tsurfaceparm trans\n\t{\n\t\tmap $lightmap\n\t\ttcMod scroll 0.1 0\n\t}\n}\n")
PY
python3 - "$corpus/skinned_seed" <<'PY'
import base64, glob, json, os, shutil, struct, sys
out, models = sys.argv[1], "/usr/share/assimp/models"
for rel in ("glTF2/simple_skin/simple_skin.gltf", "MD5/SimpleCube.md5mesh", "Collada/box_nested_animation.dae",
            "FBX/box.fbx"):
    if os.path.exists(os.path.join(models, rel)):
        shutil.copy(os.path.join(models, rel), os.path.join(out, os.path.basename(rel)))
skin = os.path.join(models, "glTF2/simple_skin/simple_skin.gltf")
if os.path.exists(skin):  # the same rotation keyed by STEP
    text = open(skin).read().replace('"LINEAR"', '"STEP"')
    open(os.path.join(out, "simple_skin_step.gltf"), "w").write(text)
cube = os.path.join(models, "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf")
if os.path.exists(cube):  # its .bin embedded: nothing outside the bytes is read from memory
    g = json.load(open(cube))
    for b in g["buffers"]:
        data = open(os.path.join(os.path.dirname(cube), b["uri"]), "rb").read()
        b["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    g.pop("images", None), g.pop("textures", None)
    for m in g.get("materials", []):
        m.get("pbrMetallicRoughness", {}).pop("baseColorTexture", None)
    json.dump(g, open(os.path.join(out, "morph_cube_embedded.gltf"), "w"))
# A quad skinned to 8 joints over JOINTS_0 and JOINTS_1 (6 to 8 influences a vertex), one joint turning
buf = b"".join(struct.pack("<3f", *p) for p in ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)))
buf += bytes([0, 1, 2, 3] * 4) + bytes([4, 5, 6, 7] * 4)
buf += b"".join(struct.pack("<4f", 0.2, 0.15, 0.1, 0.05) for i in range(4))
buf += b"".join(struct.pack("<4f", 0.2, 0.15, 0.1 if i else 0, 0.05 if i > 1 else 0) for i in range(4))
buf += b"".join(struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.1 * k, 0, 0, 1) for k in range(8))
buf += struct.pack("<6H", 0, 1, 2, 2, 1, 3) + struct.pack("<2f", 0, 1) + struct.pack("<8f", 0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068)
views = [(0, 48), (48, 16), (64, 16), (80, 64), (144, 64), (208, 512), (720, 12), (732, 8), (740, 32)]
acc = [("VEC3", 5126, 4), ("VEC4", 5121, 4), ("VEC4", 5121, 4), ("VEC4", 5126, 4), ("VEC4", 5126, 4),
       ("MAT4", 5126, 8), ("SCALAR", 5123, 6), ("SCALAR", 5126, 2), ("VEC4", 5126, 2)]
g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
     "nodes": [{"name": "body", "mesh": 0, "skin": 0}, {"name": "rig", "children": list(range(2, 10))}]
     + [{"name": "j%d" % k, "translation": [0.1 * k, 0, 0]} for k in range(8)],
     "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "JOINTS_1": 2, "WEIGHTS_0": 3,
                                                "WEIGHTS_1": 4}, "indices": 6}]}],
     "skins": [{"joints": list(range(2, 10)), "inverseBindMatrices": 5}],
     "animations": [{"samplers": [{"input": 7, "output": 8}], "channels": [{"sampler": 0, "target": {"node": 3, "path": "rotation"}}]}],
     "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
     "bufferViews": [{"buffer": 0, "byteOffset": o, "byteLength": n} for o, n in views],
     "accessors": [{"bufferView": i, "type": t, "componentType": c, "count": n} for i, (t, c, n) in enumerate(acc)]}
g["accessors"][0].update({"min": [0, 0, 0], "max": [1, 1, 0]})
g["accessors"][7].update({"min": [0], "max": [1]})
json.dump(g, open(os.path.join(out, "quad_joints_1.gltf"), "w"))
# A small IQM: a triangle skinned to two joints, one animation of two frames turning the tip
text = b"\0root\0tip\0tri\0mat\0wave\0"
def name(s): return text.index(s.encode() + b"\0")
pos = [0, 0, 0, 1, 0, 0, 0, 0, 1]; uv = [0, 0, 1, 0, 0, 1]; nrm = [0, -1, 0] * 3
arrays = [(0, 7, 3, struct.pack("<9f", *pos)), (1, 7, 2, struct.pack("<6f", *uv)),
          (2, 7, 3, struct.pack("<9f", *nrm)), (4, 1, 4, bytes([0, 1, 0, 0] * 3)),
          (5, 1, 4, bytes([128, 127, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0]))]
hdr = 124
at = hdr; blob = b""
def place(data, align=4):
    global at, blob
    pad = (-at) % align; blob += bytes(pad); at += pad
    ofs = at; blob += data; at += len(data); return ofs
ofs_text = place(text, 1)
ofs_meshes = place(struct.pack("<6I", name("tri"), name("mat"), 0, 3, 0, 1))
va_data = [place(d) for (_, _, _, d) in arrays]
ofs_va = place(b"".join(struct.pack("<5I", t, 0, f, n, o) for (t, f, n, _), o in zip(arrays, va_data)))
ofs_tri = place(struct.pack("<3I", 0, 1, 2))
joints = struct.pack("<Ii10f", name("root"), -1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
joints += struct.pack("<Ii10f", name("tip"), 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1)
ofs_joints = place(joints)
offs = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]; scales = [0] * 10
poses = struct.pack("<iI20f", -1, 0, *offs, *scales)
poses += struct.pack("<iI20f", 0, 0x38, *([0, 0, 1] + [0, 0, 0, 1] + [1, 1, 1]), *([0, 0, 0] + [1 / 65535.0] * 3 + [0] * 4))
ofs_poses = place(poses)
ofs_anims = place(struct.pack("<3IfI", name("wave"), 0, 2, 10.0, 0))
ofs_frames = place(struct.pack("<6H", 0, 0, 0, 0, 0, 46341), 2)
total = hdr + len(blob)
h = struct.pack("<16s27I", b"INTERQUAKEMODEL\0", 2, total, 0, len(text), ofs_text, 1, ofs_meshes, len(arrays), 3,
                ofs_va, 1, ofs_tri, 0, 2, ofs_joints, 2, ofs_poses, 1, ofs_anims, 2, 3, ofs_frames, 0, 0, 0, 0, 0)
open(os.path.join(out, "triangle.iqm"), "wb").write(h + blob)
PY
export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
run() { # target, corpus dirs...
  local t=$1
  shift
  echo "fuzz: $t for ${secs} s (${jobs} job(s))"
  local log="build-fuzz/$t.log"
  if ! build-fuzz/tests/fuzz/"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -print_final_stats=1 -jobs="$jobs" -workers="$jobs" "$@" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz: $t FAILED (log: $log)" >&2
    return 1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov: " "$log" | tail -n 3 || true
}
run fuzz_bsp "$corpus/bsp"
run fuzz_gltf "$corpus/gltf" "$corpus/gltf_seed"
run fuzz_zip "$corpus/zip"
run fuzz_cube "$corpus/cube"
run fuzz_q3shader "$corpus/q3shader"
run fuzz_dds "$corpus/dds"
run fuzz_md3 "$corpus/md3"
run fuzz_skinned "$corpus/skinned" "$corpus/skinned_seed"
run fuzz_emitter "$corpus/emitter"
