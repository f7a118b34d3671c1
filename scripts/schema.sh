#!/usr/bin/env bash
# Prints `terraform providers schema -json` for the provider in bin/, through
# dev_overrides (no init, no download), keyed by the provider's short name as
# tfplugindocs --providers-schema expects. Usage: schema.sh TERRAFORM_CLI
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tf=$(command -v "$1" || echo "$1")
case $tf in /*) ;; *) tf="$PWD/$tf" ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=$("$root/scripts/devoverride.sh" "$work")
cat > "$work/main.tf" <<'TF'
terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}
TF
cd "$work"
TF_CLI_CONFIG_FILE=$rc "$tf" providers schema -json |
  sed -E 's#"registry\.(terraform\.io|opentofu\.org)/cloudlabs/cloud"#"cloud"#g'
