#!/usr/bin/env bash
# Runs `terraform validate` on every example configuration (modules and
# their test files included), with the provider in bin/ through
# dev_overrides (no init needed for it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tf=${TF_CLI:-$("$root/scripts/terraform-cli.sh")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TF_CLI_CONFIG_FILE
TF_CLI_CONFIG_FILE=$("$root/scripts/devoverride.sh" "$work")
# Import by identity (import-by-identity.tf) needs Terraform 1.12+, and a
# directory holds at most one import block per address: it is validated in a
# copy of its own, beside the resource example, and only on such a CLI.
identity=false
if v=$("$tf" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([0-9]*\)\.\([0-9]*\).*/\1 \2/p') && [[ -n $v ]] &&
  ! "$tf" version 2>/dev/null | grep -q '^OpenTofu'; then
  read -r major minor <<<"$v"
  (( major > 1 || minor >= 12 )) && identity=true
fi
n=0
while IFS= read -r dir; do
  rel=${dir#"$root"/}
  if [[ -f $dir/import-by-identity.tf ]] && $identity; then
    copy="$work/i$n"; mkdir -p "$copy"; cp "$dir/import-by-identity.tf" "$dir/resource.tf" "$copy/"
    printf 'terraform {\n  required_providers {\n    cloud = { source = "cloudlabs/cloud" }\n  }\n}\n' > "$copy/zz_required_providers.tf"
    if ! out=$(cd "$copy" && "$tf" validate -no-color 2>&1); then
      echo "FAIL $rel/import-by-identity.tf"; echo "$out"; exit 1
    fi
    echo "ok   $rel/import-by-identity.tf"
  fi
  copy="$work/c$n"; mkdir -p "$copy"; cp -R "$dir/." "$copy/"; rm -f "$copy/import-by-identity.tf"
  # Example snippets rely on the provider's implicit source; pin it.
  if ! grep -rqs 'required_providers' "$copy"/*.tf; then
    printf 'terraform {\n  required_providers {\n    cloud = { source = "cloudlabs/cloud" }\n  }\n}\n' > "$copy/zz_required_providers.tf"
  fi
  # Modules (also test files' helper modules) are installed with `get`,
  # which resolves no provider: `init` would ask the registry about
  # cloudlabs/cloud despite dev_overrides, and nothing is downloaded here.
  if grep -rqs '^ *module ' "$copy"/*.tf "$copy"/tests/*.tftest.hcl; then
    (cd "$copy" && "$tf" get -no-color >/dev/null)
  fi
  if ! out=$(cd "$copy" && "$tf" validate -no-color 2>&1); then
    echo "FAIL $rel"; echo "$out"; exit 1
  fi
  echo "ok   $rel"
  n=$((n+1))
done < <(find "$root/examples" -name '*.tf' -not -path '*/.terraform/*' -exec dirname {} \; | sort -u)
echo "$n example configurations valid"
