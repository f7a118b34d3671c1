#!/usr/bin/env bash
# Runs each make target given, one make run each and in order, then prints
# the wall time and the CPU time (user + system, children included) of each
# and of all. Stops at the first target that fails. `make test-times` runs
# it on the targets of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
times=$(mktemp) one=$(mktemp)
trap 'rm -f "$times" "$one"' EXIT
TIMEFORMAT='%R %U %S'
for t in "$@"; do
  # bash's time reports on fd 2: make's own stderr goes to fd 3, the terminal.
  { time make --no-print-directory "$t" 2>&3; } 3>&2 2>"$one" || {
    echo "make $t failed" >&2
    exit 1
  }
  echo "$t $(cat "$one")" >> "$times"
done
echo
echo "make target          wall (s)   CPU (s)"
awk -v cores="$(nproc)" '
  { cpu = $3 + $4; w += $2; c += cpu; printf "%-20s %9.0f %9.0f\n", $1, $2, cpu }
  END { printf "%-20s %9.0f %9.0f   (%.1f min on %d cores)\n", "all", w, c, w / 60, cores }' "$times"
