#!/usr/bin/env python3
"""Writes malformed glTF files (and two valid ones) into OUT_DIR for test_gltf_bad.c, with a
manifest: one line per file, "NAME<TAB>EXPECT<TAB>TEXT", EXPECT being OK, BAD_DATA or IO and
TEXT what the error message must contain. Each bad file breaks one thing in a valid triangle:
the crashes and allocations assimp 5.2 ran into (sparse accessors, deep nodes, deep JSON), what
the glTF spec refuses, and a few more."""
import base64
import copy
import json
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
os.makedirs(os.path.join(out, "adir"), exist_ok=True)
manifest = []

# positions (3 x vec3), uvs (3 x vec2), indices (3 x u16 + pad): 68 bytes, as in test_gltf.c
BIN = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<6f", 0, 1, 1, 1, 0, 0) + struct.pack("<4H", 0, 1, 2, 0)
with open(os.path.join(out, "bad.bin"), "wb") as f:
    f.write(BIN)

BASE = {
    "asset": {"version": "2.0"},
    "scene": 0,
    "scenes": [{"nodes": [0]}],
    "nodes": [{"mesh": 0}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2}]}],
    "buffers": [{"uri": "bad.bin", "byteLength": 68}],
    "bufferViews": [
        {"buffer": 0, "byteOffset": 0, "byteLength": 36},
        {"buffer": 0, "byteOffset": 36, "byteLength": 24},
        {"buffer": 0, "byteOffset": 60, "byteLength": 6},
    ],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
        {"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"},
    ],
}


def emit(name, expect, text, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    manifest.append(f"{name}\t{expect}\t{text}")


def case(name, text, edit, expect="BAD_DATA"):
    g = copy.deepcopy(BASE)
    edit(g)
    emit(name, expect, text, json.dumps(g))


def glb(g, bin_bytes, chunk_type=b"BIN\0"):
    js = json.dumps(g).encode()
    js += b" " * (-len(js) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js
    if bin_bytes is not None:
        bin_bytes += b"\0" * (-len(bin_bytes) % 4)
        body += struct.pack("<I4s", len(bin_bytes), chunk_type) + bin_bytes
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def sparse(parts):
    """A fourth accessor, sparse over positions, that the mesh uses."""
    def edit(g):
        acc = {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
               "sparse": {"count": 1, **parts}}
        g["accessors"].append(acc)
        g["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 3
    return edit


IDX = {"bufferView": 2, "componentType": 5123}
VAL = {"bufferView": 0}
case("ok.gltf", "", lambda g: None, "OK")
emit("ok.glb", "OK", "", glb({**{k: v for k, v in BASE.items() if k != "buffers"},
                              "buffers": [{"byteLength": 68}]}, BIN))
# what crashed or exhausted assimp
case("sparse_no_values.gltf", 'accessors[3].sparse: no "values"', sparse({"indices": IDX}))
case("sparse_no_indices.gltf", 'accessors[3].sparse: no "indices"', sparse({"values": VAL}))
case("sparse_values_past.gltf", "accessors[3].sparse.values: reads bytes 4000..4012 of bufferViews[0]",
     sparse({"indices": IDX, "values": {"bufferView": 0, "byteOffset": 4000}}))
case("sparse_indices_past.gltf", "accessors[3].sparse.indices: reads bytes 1000..1002 of bufferViews[2]",
     sparse({"indices": {**IDX, "byteOffset": 1000}, "values": VAL}))


# Found by fuzz_gltf: an image's mimeType without a '/' crashed assimp 5.2 (strcmp on pointer 1).
def mime(m):
    def edit(g):
        g["images"] = [{"bufferView": 0, **({"mimeType": m} if m is not None else {})}]
    return edit


case("image_mime_no_slash.gltf", 'images[0]: "mimeType" "imagXXXXg" is not a media type', mime("imagXXXXg"))
case("image_mime_slash_last.gltf", 'images[0]: "mimeType" "image/" is not a media type', mime("image/"))
case("image_mime_number.gltf", 'images[0]: "mimeType" is not a string', mime(7))
case("image_view_no_mime.gltf", 'images[0]: an image in a bufferView needs a "mimeType"', mime(None))

# Found by fuzz_gltf: an index past the vertices of a LINE_LOOP crashed assimp 5.2 (it checks
# only triangles' indices). BIN's pad u16 after the 3 indices is 0; a u16 view over the uvs' first
# float 0.0 and 1.0f (0x3f80) reads index 16256 of 3.
def bad_line_index(g):
    g["bufferViews"].append({"buffer": 0, "byteOffset": 36, "byteLength": 8})
    g["accessors"].append({"bufferView": 3, "componentType": 5123, "count": 4, "type": "SCALAR"})
    g["meshes"][0]["primitives"][0]["indices"] = 3
    g["meshes"][0]["primitives"][0]["mode"] = 2


case("line_loop_index_past.gltf", "meshes[0].primitives[0]: index 16256 (element 3 of accessors[3]) is past the 3 vertices",
     bad_line_index)
emit("glb_index_past.glb", "BAD_DATA", "index 16256 (element 3 of accessors[3]) is past the 3 vertices",
     glb({**{k: v for k, v in BASE.items() if k not in ("buffers",)}, "buffers": [{"byteLength": 68}],
          "bufferViews": BASE["bufferViews"] + [{"buffer": 0, "byteOffset": 36, "byteLength": 8}],
          "accessors": BASE["accessors"] + [{"bufferView": 3, "componentType": 5123, "count": 4, "type": "SCALAR"}],
          "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 3}]}]}, BIN))

# Found by fuzz_gltf: a TRIANGLE_STRIP without POSITION made assimp 5.2 ask for 64 GB (0 - 2 faces).
def strip(attrs, count=None):
    def edit(g):
        prim = g["meshes"][0]["primitives"][0]
        prim["mode"] = 5
        del prim["indices"]
        prim["attributes"] = attrs
        if count is not None:
            g["accessors"][0]["count"] = count
    return edit


case("strip_no_position.gltf", 'meshes[0].primitives[0]: no POSITION attribute', strip({"TEXCOORD_0": 1}))
case("strip_two_vertices.gltf", "meshes[0].primitives[0]: 2 vertices for mode 5, which needs at least 3",
     strip({"POSITION": 0}, 2))


# Image bombs inside the file (data: URIs): a PNG header claiming w x h and no pixel data. Found
# by fuzz_gltf: a .glb image of 29541x11368 took 12.6 s and 1.7 GB to decode. Over 8192² pixels
# an image is skipped with a warning before decoding; 5 images of 8192² (256 MiB each) pass the
# file's 1 GiB decoded cap, and the load fails naming the image.
def png_header(w, h):
    import base64, zlib
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + chunk).decode()


def image_bombs(sizes):
    def edit(g):
        n = len(sizes)
        g["images"] = [{"uri": png_header(w, h)} for w, h in sizes]
        g["textures"] = [{"source": i} for i in range(n)]
        g["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}} for i in range(n)]
        prim = g["meshes"][0]["primitives"][0]
        g["meshes"][0]["primitives"] = [{**prim, "material": i} for i in range(n)]
    return edit


case("image_embedded_over_pixels.gltf", "", image_bombs([(8308, 11645)]), "OK")  # a warning: skipped
case("image_embedded_budget.gltf", "the images decode to over 1024 MiB (the cap): 1280 MiB with",
     image_bombs([(8192, 8192)] * 5))

case("sparse_ok.gltf", "", sparse({"indices": IDX, "values": VAL}), "OK")  # a valid sparse accessor (a fuzz seed)
# Index 1065353216 (the bits of 1.0f read as a u32) in a 3-element accessor: gnomon's check reads
# no buffer data; assimp 5.2 bounds-checks each patch before writing it, and its refusal is
# passed on naming the file.
case("sparse_index_past_count.gltf", "Invalid sparse accessor",
     sparse({"indices": {"bufferView": 0, "byteOffset": 12, "componentType": 5125}, "values": VAL}))


def huge_sparse(g):
    g["accessors"].append({"componentType": 5126, "count": 1 << 28, "type": "VEC3",
                           "sparse": {"count": 1, "indices": IDX, "values": VAL}})


case("sparse_huge_count.gltf", 'accessors[3]: "count" 268435456 is outside', huge_sparse)


def deep_nodes(g):
    n = 20000
    g["nodes"] = [{"children": [i + 1]} for i in range(n - 1)] + [{"mesh": 0}]


case("deep_nodes.gltf", "nested deeper than 256 levels", deep_nodes)
deep = 200000
emit("deep_json.gltf", "BAD_DATA", "JSON nested deeper than 64 levels",
     '{"asset":{"version":"2.0"},"extras":' + "[" * deep + "]" * deep + "}")
# what the spec refuses
case("stride_1.gltf", 'bufferViews[0]: "byteStride" 1 is outside [4, 252]',
     lambda g: g["bufferViews"][0].update(byteStride=1))
case("stride_6.gltf", 'bufferViews[0]: "byteStride" 6 is not a multiple of 4',
     lambda g: g["bufferViews"][0].update(byteStride=6))
case("negative_offset.gltf", 'bufferViews[1]: "byteOffset" -4 is outside',
     lambda g: g["bufferViews"][1].update(byteOffset=-4))


def float_indices(g):
    g["accessors"].append({"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR"})
    g["meshes"][0]["primitives"][0]["indices"] = 3


case("float_indices.gltf", "indices accessors[3] is not SCALAR UNSIGNED", float_indices)
case("unknown_extension.gltf", "requires the extension KHR_draco_mesh_compression",
     lambda g: g.update(extensionsRequired=["KHR_draco_mesh_compression"]))
# more of the same kind
emit("bad_json.gltf", "BAD_DATA", "not valid JSON", '{"asset":{"version":"2.0"},"nodes":[{"mesh":0},]}')
emit("not_glb.gltf", "BAD_DATA", "neither a .glb header nor glTF JSON", "hello, this is not glTF")
good_glb = glb({**{k: v for k, v in BASE.items() if k != "buffers"}, "buffers": [{"byteLength": 68}]}, BIN)
emit("truncated.glb", "BAD_DATA", ".glb header says", good_glb[:100])
emit("short_bin.glb", "BAD_DATA", "buffers[0]: 68 bytes, the .glb binary chunk has 32",
     glb({**{k: v for k, v in BASE.items() if k != "buffers"}, "buffers": [{"byteLength": 68}]}, BIN[:32]))
emit("not_bin.glb", "BAD_DATA", "is not BIN",
     glb({**{k: v for k, v in BASE.items() if k != "buffers"}, "buffers": [{"byteLength": 68}]}, BIN, b"XXXX"))
case("view_past_buffer.gltf", "bufferViews[2]: bytes 60..160, past the end of buffers[0] (68 bytes)",
     lambda g: g["bufferViews"][2].update(byteLength=100))
case("buffer_longer_than_file.gltf", "buffers[0]: 100 bytes", lambda g: g["buffers"][0].update(byteLength=100))
case("missing_buffer.gltf", "does not exist", lambda g: g["buffers"][0].update(uri="nothing.bin"))
case("attribute_out_of_range.gltf", '"POSITION" 9 is not one of the file\'s 3 accessors',
     lambda g: g["meshes"][0]["primitives"][0]["attributes"].update(POSITION=9))
case("bad_component_type.gltf", 'accessors[1]: "componentType" missing or not one of',
     lambda g: g["accessors"][1].update(componentType=5124))
case("bad_mode.gltf", '"mode" 9 is outside', lambda g: g["meshes"][0]["primitives"][0].update(mode=9))


def cycle(g):
    g["nodes"] = [{"children": [1]}, {"children": [2]}, {"children": [0], "mesh": 0}]


case("node_cycle.gltf", "a cycle in the node tree", cycle)


def two_parents(g):
    g["nodes"] = [{"children": [2]}, {"children": [2]}, {"mesh": 0}]
    g["scenes"][0]["nodes"] = [0, 1]


case("two_parents.gltf", "child nodes[2] already has a parent", two_parents)
case("child_out_of_range.gltf", '"children"[0] is not one of the file\'s 1 nodes',
     lambda g: g["nodes"][0].update(children=[5]))


def image(uri):
    def edit(g):
        g["images"] = [{"uri": uri}]
        g["textures"] = [{"source": 0}]
        g["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
        g["meshes"][0]["primitives"][0]["material"] = 0
    return edit


case("image_dir.gltf", "adir is not a regular file", image("adir"))
# a grey PNG header claiming 20000 x 20000 pixels (stb_image's own limit, 2^30 bytes, lets it
# through): stbi_info reads the size, nothing is decoded
with open(os.path.join(out, "huge.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sIIBBBBB", 13, b"IHDR", 20000, 20000, 8, 0, 0, 0, 0) + b"\0" * 16)
case("image_huge.gltf", "is 20000x20000, past the cap", image("huge.png"))
case("texture_out_of_range.gltf", '"index" 3 is not one of the file\'s 1 textures',
     lambda g: (image("missing.png")(g), g["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"].update(index=3)))
case("image_missing.gltf", "", image("missing.png"), "OK")  # a warning, as before


# KHR_materials_specular's textures (src/formats/gltf_ext.c): each bad reference loads with a
# warning and the factors, never a crash
def specular(info, texture=None, img=None):
    def edit(g):
        image("missing.png")(g)
        if texture is not None:
            g["textures"] = [texture]
        if img is not None:
            g["images"] = [img]
        g["materials"][0]["extensions"] = {"KHR_materials_specular": {"specularTexture": info,
                                                                      "specularColorTexture": info}}
    return edit


case("specular_index_past.gltf", "", specular({"index": 9}), "OK")
case("specular_index_negative.gltf", "", specular({"index": -1}), "OK")
case("specular_index_fraction.gltf", "", specular({"index": 0.5}), "OK")
case("specular_index_kind.gltf", "", specular({"index": "first"}), "OK")
case("specular_info_kind.gltf", "", specular(7), "OK")
# the file's own checks refuse these before the extension is read
case("specular_source_past.gltf", 'textures[0]: "source" 4 is not one of the file\'s 1 images',
     specular({"index": 0}, texture={"source": 4}))
case("specular_image_embedded.gltf", "", specular({"index": 0}, img={"uri": "data:image/png;base64,AAAA"}), "OK")
case("specular_image_no_uri.gltf", "images[0] should have either a URI",
     specular({"index": 0}, img={"mimeType": "image/png"}))


# KHR_lights_punctual (src/formats/gltf_check.c): assimp 5.2 reads an unknown "type" as a spot,
# fails on a node's light index past the lights, and puts its defaults in place of a "color" or
# "intensity" of the wrong kind; values outside the extension's ranges are refused too.
def lights(ls, light=0, used=True, required=False):
    def edit(g):
        if used:
            g["extensionsUsed"] = ["KHR_lights_punctual"]
        if required:
            g["extensionsRequired"] = ["KHR_lights_punctual"]
        g["extensions"] = {"KHR_lights_punctual": {"lights": ls} if not isinstance(ls, str) else ls}
        g["nodes"].append({"translation": [0, 2, 0], "extensions": {"KHR_lights_punctual": {"light": light}}})
        g["scenes"][0]["nodes"].append(1)
    return edit


POINT = {"type": "point", "color": [1, 0.8, 0.6], "intensity": 50, "range": 10}
SPOT = {"type": "spot", "intensity": 80, "spot": {"innerConeAngle": 0.3, "outerConeAngle": 0.6}}
case("lights_ok.gltf", "", lights([POINT, SPOT, {"type": "directional", "intensity": 2}], required=True), "OK")
# self-contained (the buffer in a data: URI): a fuzz seed that reaches the lights' conversion
g = copy.deepcopy(BASE)
lights([POINT, SPOT])(g)
g["nodes"].append({"rotation": [-0.7071068, 0, 0, 0.7071068], "extensions": {"KHR_lights_punctual": {"light": 1}}})
g["scenes"][0]["nodes"].append(2)
g["buffers"] = [{"byteLength": 68, "uri": "data:application/octet-stream;base64," + base64.b64encode(BIN).decode()}]
emit("lights_embedded.gltf", "OK", "", json.dumps(g))
case("lights_undeclared.gltf", "", lights([POINT], used=False), "OK")  # a warning: assimp skips them
case("lights_unknown_type.gltf", 'KHR_lights_punctual.lights[0]: "type" missing or not "directional", "point" or "spot"',
     lights([{"type": "area"}]))
case("lights_no_type.gltf", '"type" missing or not', lights([{"intensity": 3}]))
case("lights_spot_without_spot.gltf", 'KHR_lights_punctual.lights[0]: a spot light without a "spot" object',
     lights([{"type": "spot"}]))
case("lights_color_kind.gltf", '"color" is not an array of 3 numbers', lights([{**POINT, "color": "red"}]))
case("lights_color_short.gltf", '"color" is not an array of 3 numbers', lights([{**POINT, "color": [1, 1]}]))
case("lights_color_range.gltf", '"color"[1] is not a number in [0, 1]', lights([{**POINT, "color": [1, 2, 1]}]))
case("lights_intensity_kind.gltf", '"intensity" is not a number', lights([{**POINT, "intensity": "bright"}]))
case("lights_intensity_negative.gltf", '"intensity" -1 is outside [0, 1e+09]', lights([{**POINT, "intensity": -1}]))
emit("lights_intensity_inf.gltf", "BAD_DATA", '"intensity" inf is outside',
     json.dumps({**BASE, "extensionsUsed": ["KHR_lights_punctual"],
                 "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point", "intensity": 12345}]}}})
     .replace("12345", "1e400"))
case("lights_range_zero.gltf", '"range" 0 is not > 0', lights([{**POINT, "range": 0}]))
case("lights_cone_order.gltf", '"innerConeAngle" 0.7 is wider than "outerConeAngle" 0.5',
     lights([{**SPOT, "spot": {"innerConeAngle": 0.7, "outerConeAngle": 0.5}}]))
case("lights_cone_wide.gltf", 'KHR_lights_punctual.lights[0].spot: "outerConeAngle" 2 is outside',
     lights([{**SPOT, "spot": {"outerConeAngle": 2}}]))
case("lights_cone_zero.gltf", '"outerConeAngle" 0 is not > 0', lights([{**SPOT, "spot": {"outerConeAngle": 0}}]))
case("lights_index_past.gltf", 'nodes[1].extensions.KHR_lights_punctual: "light" 3 is not one of the file\'s 1',
     lights([POINT], light=3))
case("lights_index_kind.gltf", '"light" is not an integer', lights([POINT], light="first"))
case("lights_not_object.gltf", "KHR_lights_punctual.lights[0] is not an object", lights([5]))
case("lights_not_array.gltf", '"KHR_lights_punctual.lights" is not an array', lights({"lights": 5}))
case("lights_ext_not_object.gltf", "extensions.KHR_lights_punctual is not an object", lights("x"))
case("lights_too_many.gltf", "16385 KHR_lights_punctual lights, more than the cap of 16384",
     lights([{"type": "point"}] * 16385))

with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
print(f"{len(manifest)} glTF files in {out}")
