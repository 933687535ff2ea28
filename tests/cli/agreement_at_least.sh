#!/bin/sh
# usage: agreement_at_least.sh <reference.json> <this.json> -- <shadowcheck command ...>
# Runs the shadowcheck command (which must pass and write <this.json>), then checks that its
# mean off-edge agreement with the ray-traced truth is at least the reference's (the same
# frames under another shadow technique, written by the test CTest runs first as a fixture).
set -e
ref="$1"; mine="$2"; shift 2
[ "$1" = "--" ] && shift
"$@"
python3 - "$ref" "$mine" <<'PY'
import json, sys
ref, mine = (json.load(open(p)) for p in sys.argv[1:3])
a, b = mine["agreement_off_edge"], ref["agreement_off_edge"]
print("off-edge agreement %s %.3f%% against %s %.3f%%" % (mine["shadows"], 100 * a, ref["shadows"], 100 * b))
if a < b:
    sys.exit("%s agrees less with the truth than %s on the same frames" % (mine["shadows"], ref["shadows"]))
PY
