#!/bin/sh
# usage: rejections.sh <gnomon> <work-folder>
# A corpus of bad scene inputs, each given to `gnomon render --size 64x64` (with validation on,
# as the tests run): missing files, folders, empty and truncated files, BSPs with bad headers
# or lumps, glTF with bad JSON or the wrong container for its extension, .glb headers that lie,
# --paks folders that are missing, empty or hold archives that are not zips, that are cut off,
# whose central directory lies, whose local header is broken, whose map fails its CRC-32 or is
# a folder, map names no archive holds. Each must end with the exit code of README's "The CLI"
# (2: a usage error, 3: a runtime error) and exactly one line on stderr that names the file
# (the path given, or the archive and the entry) and says what is wrong, without the texts that
# misled before: "(no error)", "(not found)", assimp's "No suitable reader", a size of
# 9223372036854775807 (ftell of a folder), "(null)". The case files are written by python3.
bin=$1
work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
python3 - "$work" <<'EOF' || exit 1
import os, struct, sys, zipfile, zlib
w = sys.argv[1]
def put(name, data):
    path = os.path.join(w, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
def bsp(magic=b"IBSP", version=46, lumps=None, size=144 + 17 * 8):
    # a header of 17 lumps, each empty and inside the file unless lumps says otherwise
    lumps = lumps or {}
    head = magic + struct.pack("<i", version)
    for i in range(17):
        head += struct.pack("<ii", *lumps.get(i, (144, 0)))
    return head + b"\0" * (size - len(head))
def glb(version=2, json=b'{"asset":{"version":"2.0"}}', chunk=b"JSON", total=None, extra=b""):
    json += b" " * (-len(json) % 4)
    body = struct.pack("<I", len(json)) + chunk + json + extra
    return b"glTF" + struct.pack("<II", version, total if total is not None else 12 + len(body)) + body
def stored_zip(entries):
    # a stored zip; returns its bytes and each entry's data offset
    import io
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_STORED) as z:
        for name, data in entries:
            z.writestr(name, data)
    data = bytearray(b.getvalue())
    offsets = {}
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as z:
        for info in z.infolist():
            n, x = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
            offsets[info.filename] = info.header_offset + 30 + n + x
    return data, offsets
good_map = bsp(size=4096)

put("empty.bsp", b"")
put("empty.gltf", b"")
put("empty.glb", b"")
put("short.bsp", bsp()[:100])
put("magic.bsp", bsp(magic=b"XBSP"))
put("version.bsp", bsp(version=47))
put("lump_past_end.bsp", bsp(lumps={13: (144, 1 << 20)}))
put("lump_negative.bsp", bsp(lumps={10: (144, -44)}))
put("bad_json.gltf", b'{"asset": {"version": "2.0"}, "nodes": [')
put("trailing.gltf", b'{"asset":{"version":"2.0"}} and then some text')
put("array.gltf", b"[1, 2, 3, 4, 5, 6, 7]")
put("v1.gltf", b'{"asset":{"version":"1.0"}}')
put("no_meshes.gltf", b'{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{}],"scene":0}')
put("binary.gltf", glb())
put("text.glb", b'{"asset":{"version":"2.0"}}')
put("utf16.gltf", '{"asset":{"version":"2.0"}}'.encode("utf-16"))
put("glb_truncated.glb", glb(extra=struct.pack("<I", 64) + b"BIN\0" + b"\0" * 64)[:-20])
put("glb_version.glb", glb(version=1))
put("glb_chunk.glb", glb(chunk=b"BIN\0"))
put("glb_total.glb", glb(total=1 << 30))
put("missing_buffer.gltf", b'{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"nothing.bin"}]}')
os.makedirs(os.path.join(w, "folder_buffer.bin"))
put("folder_buffer.gltf", b'{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"folder_buffer.bin"}]}')
put("unknown.obj", b"v 0 0 0\n")
for d in ("folder.bsp", "folder.gltf", "folder.glb", "paks_empty", "paks_folder/x.pk3"):
    os.makedirs(os.path.join(w, d))
put("not_a_folder", b"")
put("paks_text/x.pk3", b"this is not a zip archive, only text\n")
put("paks_zero/x.pk3", b"")
good, off = stored_zip([("maps/x.bsp", good_map), ("textures/a.tga", b"\0" * 64)])
put("paks_good/x.pk3", bytes(good))
put("paks_cut/x.pk3", bytes(good[:len(good) // 2]))
counts = bytearray(good)
struct.pack_into("<HH", counts, len(counts) - 22 + 8, 60000, 60000)
put("paks_counts/x.pk3", bytes(counts))
crc = bytearray(good)
crc[off["maps/x.bsp"] + 200] ^= 0x10
put("paks_crc/x.pk3", bytes(crc))
local = bytearray(good)
local[off["maps/x.bsp"] - 30 - len("maps/x.bsp") + 8] ^= 0x08  # the local header's method
put("paks_local/x.pk3", bytes(local))
short, _ = stored_zip([("maps/x.bsp", good_map[:100])])
put("paks_short/x.pk3", bytes(short))
folder, _ = stored_zip([("maps/x.bsp/", b""), ("maps/x.bsp/inside.txt", b"x")])
put("paks_mapfolder/x.pk3", bytes(folder))
# a deflated map whose stream is damaged in the middle
import io
b = io.BytesIO()
with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("maps/x.bsp", good_map + bytes(range(256)) * 64)
deflated = bytearray(b.getvalue())
deflated[30 + len("maps/x.bsp") + 40] ^= 0xff
put("paks_deflate/x.pk3", bytes(deflated))
# a deflated map whose headers claim 100 bytes more than its stream holds: the stream ends early
early = bytearray(b.getvalue())
cd = struct.unpack_from("<I", early, len(early) - 22 + 16)[0]
for at in (22, cd + 24):
    struct.pack_into("<I", early, at, struct.unpack_from("<I", early, at)[0] + 100)
put("paks_early/x.pk3", bytes(early))
EOF

status=0
cases=0
# case <exit code> <text the line must hold (the file)> <a fragment saying what is wrong> -- args...
case_() {
    want_code=$1 want_file=$2 want_what=$3
    shift 4
    cases=$((cases + 1))
    timeout 30 "$bin" render --size 64x64 --out "$work/out.png" "$@" >/dev/null 2>"$work/err"
    code=$?
    lines=$(wc -l <"$work/err")
    why=""
    [ "$code" -eq "$want_code" ] || why="exit $code, want $want_code (124: timed out);"
    [ "$lines" -eq 1 ] || why="$why $lines lines on stderr, want 1;"
    grep -qF -- "$want_file" "$work/err" || why="$why does not name '$want_file';"
    grep -qF -- "$want_what" "$work/err" || why="$why does not say '$want_what';"
    for banned in "(no error)" "(not found)" "No suitable reader" "9223372036854775807" "(null)"; do
        ! grep -qF -- "$banned" "$work/err" || why="$why says '$banned';"
    done
    if [ -n "$why" ]; then
        echo "FAIL: $*: $why" >&2
        sed 's/^/    /' "$work/err" >&2
        status=1
    else
        echo "ok: $(cat "$work/err")"
    fi
}
W=$work
# scene files that are not there, not files, or empty
case_ 3 "$W/missing.bsp" "No such file or directory" -- --scene "$W/missing.bsp"
case_ 3 "$W/missing.gltf" "No such file or directory" -- --scene "$W/missing.gltf"
case_ 3 "$W/missing.glb" "No such file or directory" -- --scene "$W/missing.glb"
case_ 3 "$W/folder.bsp" "is a directory" -- --scene "$W/folder.bsp"
case_ 3 "$W/folder.gltf" "is a directory" -- --scene "$W/folder.gltf"
case_ 3 "$W/folder.glb" "is a directory" -- --scene "$W/folder.glb"
case_ 3 "$W/empty.bsp" "0 bytes, shorter than the 144-byte header" -- --scene "$W/empty.bsp"
case_ 3 "$W/empty.gltf" "0 bytes is too short" -- --scene "$W/empty.gltf"
case_ 3 "$W/empty.glb" "0 bytes is too short" -- --scene "$W/empty.glb"
case_ 2 "unknown.obj" "unknown scene" -- --scene "$W/unknown.obj"
# BSP headers and lumps
case_ 3 "$W/short.bsp" "100 bytes, shorter than the 144-byte header" -- --scene "$W/short.bsp"
case_ 3 "$W/magic.bsp" "magic is not \"IBSP\"" -- --scene "$W/magic.bsp"
case_ 3 "$W/version.bsp" "version 47" -- --scene "$W/version.bsp"
case_ 3 "$W/lump_past_end.bsp" "past the end of the file" -- --scene "$W/lump_past_end.bsp"
case_ 3 "$W/lump_negative.bsp" "negative offset or length" -- --scene "$W/lump_negative.bsp"
# glTF JSON and containers
case_ 3 "$W/bad_json.gltf" "not valid JSON" -- --scene "$W/bad_json.gltf"
case_ 3 "$W/trailing.gltf" "text after the JSON value" -- --scene "$W/trailing.gltf"
case_ 3 "$W/array.gltf" "neither a .glb header nor glTF JSON" -- --scene "$W/array.gltf"
case_ 3 "$W/v1.gltf" "not glTF 2.0" -- --scene "$W/v1.gltf"
case_ 3 "$W/no_meshes.gltf" "no meshes" -- --scene "$W/no_meshes.gltf"
case_ 3 "$W/binary.gltf" "binary glTF" -- --scene "$W/binary.gltf"
case_ 3 "$W/text.glb" "JSON text in a file named .glb" -- --scene "$W/text.glb"
case_ 3 "$W/utf16.gltf" "neither a .glb header nor glTF JSON" -- --scene "$W/utf16.gltf"
case_ 3 "$W/glb_truncated.glb" "the file has" -- --scene "$W/glb_truncated.glb"
case_ 3 "$W/glb_version.glb" ".glb version 1" -- --scene "$W/glb_version.glb"
case_ 3 "$W/glb_chunk.glb" "the first .glb chunk is not JSON" -- --scene "$W/glb_chunk.glb"
case_ 3 "$W/glb_total.glb" ".glb header says 1073741824 bytes" -- --scene "$W/glb_total.glb"
case_ 3 "$W/missing_buffer.gltf" "nothing.bin does not exist" -- --scene "$W/missing_buffer.gltf"
case_ 3 "$W/folder_buffer.gltf" "folder_buffer.bin is not a regular file" -- --scene "$W/folder_buffer.gltf"
# --paks folders
case_ 3 "$W/missing_paks" "cannot open the folder: No such file or directory" -- --scene x --paks "$W/missing_paks"
case_ 3 "$W/not_a_folder" "cannot open the folder: Not a directory" -- --scene x --paks "$W/not_a_folder"
case_ 3 "$W/paks_empty" "no .pk3 archives" -- --scene x --paks "$W/paks_empty"
case_ 3 "$W/paks_folder/x.pk3" "is a directory" -- --scene x --paks "$W/paks_folder"
case_ 3 "$W/paks_text/x.pk3" "not a zip archive" -- --scene x --paks "$W/paks_text"
case_ 3 "$W/paks_zero/x.pk3" "0 bytes, too short for a zip archive" -- --scene x --paks "$W/paks_zero"
case_ 3 "$W/paks_cut/x.pk3" "not a zip archive" -- --scene x --paks "$W/paks_cut"
case_ 3 "$W/paks_counts/x.pk3" "lists 60000 entries" -- --scene x --paks "$W/paks_counts"
case_ 3 "$W/paks_text/x.pk3" "not a zip archive" -- --scene "$W/short.bsp" --paks "$W/paks_text"
# maps inside archives
case_ 3 "nomap: no map maps/nomap.bsp in the 1 archives of $W/paks_good" "no map" -- --scene nomap --paks "$W/paks_good"
case_ 3 "unknown.obj: no map maps/unknown.obj.bsp" "no map" -- --scene unknown.obj --paks "$W/paks_good"
case_ 3 "$W/paks_crc/x.pk3: maps/x.bsp" "but the archive says" -- --scene x --paks "$W/paks_crc"
case_ 3 "$W/paks_local/x.pk3: maps/x.bsp" "cannot be opened (PhysicsFS: corrupted)" -- --scene x --paks "$W/paks_local"
case_ 3 "$W/paks_short/x.pk3: maps/x.bsp" "100 bytes, shorter than the 144-byte header" -- --scene x --paks "$W/paks_short"
case_ 3 "$W/paks_mapfolder/x.pk3: maps/x.bsp" "is a folder in the archive" -- --scene x --paks "$W/paks_mapfolder"
case_ 3 "$W/paks_deflate/x.pk3: maps/x.bsp" "a corrupted archive" -- --scene x --paks "$W/paks_deflate"
case_ 3 "$W/paks_early/x.pk3: maps/x.bsp" "(the data ends early): a corrupted archive" -- --scene x --paks "$W/paks_early"
echo "rejections: $cases cases, $([ $status -eq 0 ] && echo all || echo not all) refused as expected"
[ $status -eq 0 ] && rm -rf "$work"
exit $status
