#!/usr/bin/env python3
"""Packs one Quake 3 map, every shader script and the images its shaders name into a small .pk3 (a zip) under
.devdata/, so a GPU-machine run can carry it (the whole openarena-data is 350 MB; the device
tool takes 64 MiB). Archives are read in name order, later ones overriding earlier ones, as
gnomon (and the game) mount them.
  bench/pack_map.py /usr/share/games/openarena/baseoa ctf_compromise"""
import os
import struct
import sys
import zipfile

paks, name = sys.argv[1], sys.argv[2]
entries = {}
for pk3 in sorted(f for f in os.listdir(paks) if f.endswith(".pk3")):
    z = zipfile.ZipFile(os.path.join(paks, pk3))
    for info in z.infolist():
        entries[info.filename.lower()] = (z, info)
bsp_name = "maps/%s.bsp" % name
z, info = entries[bsp_name]
bsp = z.read(info)
# lump 1 (textures): 72-byte records, a 64-byte name first
off, length = struct.unpack_from("<ii", bsp, 8 + 1 * 8)
names = [bsp[off + i:off + i + 64].split(b"\0")[0].decode("latin-1") for i in range(0, length, 72)]
# The shader scripts (all of them: small) and the images the map's shaders name (their stages'
# maps, animMap frames and sky boxes), found by a plain scan of each shader's block.
scripts = {k: v for k, v in entries.items() if k.startswith("scripts/") and k.endswith(".shader")}
texts = {k: z.read(i).decode("latin-1") for k, (z, i) in scripts.items()}


def block_of(shader):
    low = shader.lower()
    for text in texts.values():
        t = text.lower()
        at = 0
        while True:
            at = t.find(low, at)
            if at < 0:
                break
            end = at + len(low)
            before_ok = at == 0 or t[at - 1] in " \t\r\n}"
            rest = t[end:].lstrip()
            if before_ok and (rest.startswith("{") or rest.startswith("\n")) and t[end:end + 1] in " \t\r\n{":
                open_at = t.find("{", end)
                depth, i = 0, open_at
                while i < len(t):
                    depth += t[i] == "{"
                    depth -= t[i] == "}"
                    if depth == 0:
                        return text[open_at:i]
                    i += 1
            at = end
    return ""


def named_images(shader):
    words = block_of(shader).split()
    out = []
    for i, w in enumerate(words):
        lw = w.lower()
        if lw in ("map", "clampmap") and i + 1 < len(words) and not words[i + 1].startswith("$"):
            out.append(words[i + 1])
        elif lw == "animmap":
            j = i + 2
            while j < len(words) and "/" in words[j]:
                out.append(words[j])
                j += 1
        elif lw == "skyparms" and i + 1 < len(words) and words[i + 1] != "-":
            out += [words[i + 1] + "_" + f for f in ("rt", "lf", "up", "dn", "ft", "bk")]
    return [os.path.splitext(n)[0] if n.lower().endswith((".tga", ".jpg", ".png")) else n for n in out]


os.makedirs(".devdata", exist_ok=True)
out = zipfile.ZipFile(".devdata/zz-%s.pk3" % name, "w", zipfile.ZIP_STORED)
out.writestr(bsp_name, bsp)
for k, text in texts.items():
    out.writestr(k, text)
wanted = set(names)
for n in names:
    wanted.update(named_images(n))
found = 0
for n in sorted(wanted):
    for ext in (".tga", ".jpg", ".png"):
        key = (n + ext).lower()
        if key in entries:
            zz, ii = entries[key]
            out.writestr(n + ext, zz.read(ii))
            found += 1
            break
out.close()
print("%s: %d of %d images (the surfaces' and their shaders'), %d scripts, %d bytes" %
      (bsp_name, found, len(wanted), len(texts), os.path.getsize(out.filename)))
