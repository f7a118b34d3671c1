#!/usr/bin/env bash
# make demo: starts the emulator on a free loopback port, plans and applies
# examples/quickstart against it through dev_overrides (no terraform init),
# prints the outputs, destroys, and stops the emulator.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tf=${TF_CLI:-$("$root/scripts/terraform-cli.sh")}
work=$(mktemp -d "${TMPDIR:-/tmp}/cloud-demo.XXXXXX")
emu_pid=""
cleanup() {
  [[ -n "$emu_pid" ]] && kill "$emu_pid" 2>/dev/null && wait "$emu_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Starting the emulator on loopback"
# The emulated clock starts at the next 02:00 UTC, inside the demo domain's
# off-peak window (00:00-10:00 UTC), so the plan shows the same dry run at
# any time of day.
"$root/bin/cloud-emulator" -listen 127.0.0.1:0 -url-file "$work/url" -time-of-day 02:00 > "$work/emulator.log" 2>&1 &
emu_pid=$!
for _ in $(seq 1 100); do [[ -s "$work/url" ]] && break; sleep 0.1; done
[[ -s "$work/url" ]] || { cat "$work/emulator.log"; echo "the emulator did not start" >&2; exit 1; }
url=$(head -n1 "$work/url")
echo "emulator at $url"

export TF_CLI_CONFIG_FILE
TF_CLI_CONFIG_FILE=$("$root/scripts/devoverride.sh" "$work")
export CLOUD_ENDPOINT_URL=$url CLOUD_REGION=us-east-1
export CLOUD_ACCESS_KEY_ID=EMULATORACCESSKEY01 CLOUD_SECRET_ACCESS_KEY=emulator-secret-access-key-0123456789
export TF_IN_AUTOMATION=1 TF_INPUT=0
cp -R "$root/examples/quickstart/." "$work/quickstart/" 2>/dev/null || { mkdir -p "$work/quickstart" && cp -R "$root/examples/quickstart/." "$work/quickstart/"; }
cd "$work/quickstart"

step "terraform plan"
"$tf" plan -out=demo.tfplan
step "terraform apply"
"$tf" apply -auto-approve demo.tfplan
step "Outputs"
"$tf" output
step "What the emulator saw"
cat "$work/emulator.log"
step "terraform destroy"
"$tf" destroy -auto-approve
step "Demo finished"
