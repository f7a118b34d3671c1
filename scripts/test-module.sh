#!/usr/bin/env bash
# make test-module: runs `terraform test` of every module under
# examples/modules against cloud-emulator as a module author runs it: the
# binary built as the release builds it (scripts/build-emulator.sh), started
# on a free loopback port with the module's tests/emulator-seed.json when it
# has one (a fresh emulator per module). Points the CLI at the provider in
# bin/ through dev_overrides and the provider at the emulator through CLOUD_*
# variables, and stops the emulator at the end.
# Usage: test-module.sh [MODULE_DIR...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tf=${TF_CLI:-$("$root/scripts/terraform-cli.sh")}
case $tf in /*) ;; *) tf=$(command -v "$tf") ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/cloud-test-module.XXXXXX")
emu_pid=""
cleanup() {
  if [[ -n "$emu_pid" ]]; then kill "$emu_pid" 2>/dev/null || true; wait "$emu_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

[[ -x "$root/bin/terraform-provider-cloud" ]] || { echo "run make build first" >&2; exit 1; }
emulator="$work/cloud-emulator"
"$root/scripts/build-emulator.sh" "$emulator" "${VERSION:-dev}"

# start_emulator [SEED]: a fresh emulator, seeded when SEED is given; sets
# CLOUD_ENDPOINT_URL. It must exit 0 on SIGTERM (stop_emulator).
start_emulator() {
  rm -f "$work/url"
  local args=(-listen 127.0.0.1:0 -url-file "$work/url" -quiet)
  [[ $# -gt 0 ]] && args+=(-seed "$1")
  "$emulator" "${args[@]}" > "$work/emulator.log" 2>&1 &
  emu_pid=$!
  for _ in $(seq 1 100); do [[ -s "$work/url" ]] && break; sleep 0.1; done
  [[ -s "$work/url" ]] || { cat "$work/emulator.log"; echo "the emulator did not start" >&2; exit 1; }
  export CLOUD_ENDPOINT_URL
  CLOUD_ENDPOINT_URL=$(head -n1 "$work/url")
  echo "$(head -n1 "$work/emulator.log")${1:+ (seed ${1#"$root"/})}"
}
# check_faults_hit: every fault the seed armed hit as many requests as it
# was told to, so the module's tests really ran under each.
check_faults_hit() {
  local faults pair times hits
  faults=$(curl -fsS "$CLOUD_ENDPOINT_URL/_admin/faults")
  for pair in $(grep -o '"times":-\{0,1\}[0-9]*,"hits":[0-9]*' <<<"$faults"); do
    times=${pair#*\"times\":}; times=${times%%,*}; hits=${pair##*:}
    if (( times < 0 ? hits == 0 : hits < times )); then
      echo "a seeded fault did not hit as often as armed: $faults" >&2; return 1
    fi
  done
}
stop_emulator() {
  kill -TERM "$emu_pid"
  local rc=0
  wait "$emu_pid" || rc=$?
  emu_pid=""
  [[ $rc -eq 0 ]] || { cat "$work/emulator.log"; echo "the emulator exited with status $rc on SIGTERM" >&2; exit 1; }
}

export TF_CLI_CONFIG_FILE
TF_CLI_CONFIG_FILE=$("$root/scripts/devoverride.sh" "$work")
export CLOUD_REGION=us-east-1
export CLOUD_ACCESS_KEY_ID=EMULATORACCESSKEY01 CLOUD_SECRET_ACCESS_KEY=emulator-secret-access-key-0123456789
export TF_IN_AUTOMATION=1 TF_INPUT=0
# No plugin cache or registry: every provider the modules use is overridden.
unset TF_PLUGIN_CACHE_DIR

if [[ $# -gt 0 ]]; then mods=("$@"); else mapfile -t mods < <(find "$root/examples/modules" -mindepth 1 -maxdepth 1 -type d | sort); fi
for mod in "${mods[@]}"; do
  rel=${mod#"$root"/}
  echo "==> terraform test $rel"
  seed=()
  [[ -f "$mod/tests/emulator-seed.json" ]] && seed=("$mod/tests/emulator-seed.json")
  start_emulator "${seed[@]}"
  # Test in a copy, so no .terraform directory or lock file lands in the tree.
  copy="$work/mod"; rm -rf "$copy"; mkdir -p "$copy"; cp -R "$mod/." "$copy/"
  (
    cd "$copy"
    # `get` installs local modules (including the tests' helper modules) and
    # resolves no provider; `init` would ask the registry about
    # cloudlabs/cloud despite dev_overrides, and no registry is needed here.
    "$tf" get -no-color > "$work/get.log" 2>&1 || { cat "$work/get.log"; exit 1; }
    "$tf" test -no-color
  ) || { echo "FAIL $rel"; echo "--- emulator log"; tail -n 50 "$work/emulator.log"; exit 1; }
  if [[ ${#seed[@]} -gt 0 ]]; then check_faults_hit || { echo "FAIL $rel"; exit 1; }; fi
  stop_emulator
done
