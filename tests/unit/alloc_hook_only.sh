#!/usr/bin/env bash
# Every host allocation in src/ goes through src/base/alloc.h (docs/RELIABILITY.md, "Host
# allocation faults"): a plain malloc, calloc, realloc or strdup there is out of the fault
# sweep's reach, so its failure would go untested. Fails naming each one.
set -euo pipefail
cd "$(dirname "$0")/../.."
hits=$(grep -rnE '(^|[^A-Za-z0-9_])(malloc|calloc|realloc|strdup)\(' src --include='*.c' --include='*.h' |
  grep -v '^src/base/alloc\.[ch]:' || true)
if [ -n "$hits" ]; then
  echo "$hits"
  echo "alloc_hook_only: raw allocations in src/; use gn_malloc, gn_calloc, gn_realloc, gn_strdup (base/alloc.h)"
  exit 1
fi
echo "alloc_hook_only: every allocation in src/ goes through base/alloc.h"
