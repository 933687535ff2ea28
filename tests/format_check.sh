#!/usr/bin/env bash
# Every C and C++ file of the repository is formatted as .clang-format says (STYLE.md, habit 10),
# by the clang-format that scripts/deps.sh installs (Debian 12's clang-format package, 14.x).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format_check: clang-format is not installed (scripts/deps.sh)"; exit 1; }
mapfile -t files < <(find include src tools tests examples bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) 2>/dev/null | sort)
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "format_check: $f is not clang-format clean (clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
echo "format_check: ${#files[@]} files, $bad not clean ($(clang-format --version))"
[ "$bad" -eq 0 ]
