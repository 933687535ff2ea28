#!/usr/bin/env python3
"""Packs one Quake 3 map and the images its shaders name into a small .pk3 (a zip) under
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
os.makedirs(".devdata", exist_ok=True)
out = zipfile.ZipFile(".devdata/zz-%s.pk3" % name, "w", zipfile.ZIP_STORED)
out.writestr(bsp_name, bsp)
found = 0
for n in sorted(set(names)):
    for ext in (".tga", ".jpg", ".png"):
        key = (n + ext).lower()
        if key in entries:
            zz, ii = entries[key]
            out.writestr(n + ext, zz.read(ii))
            found += 1
            break
out.close()
print("%s: %d of %d shader images, %d bytes" % (bsp_name, found, len(names), os.path.getsize(out.filename)))
