#!/usr/bin/env bash
# Writes a Terraform CLI configuration whose dev_overrides point
# cloudlabs/cloud at the provider binary in bin/, so no `terraform init` is
# needed. Usage: devoverride.sh DIR  (prints the path of the file written).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
mkdir -p "$dir"
cat > "$dir/terraform.rc" <<RC
provider_installation {
  dev_overrides {
    "cloudlabs/cloud"                         = "$root/bin"
    "registry.opentofu.org/cloudlabs/cloud"   = "$root/bin"
    "registry.terraform.io/cloudlabs/cloud"   = "$root/bin"
  }
  direct {}
}
RC
echo "$dir/terraform.rc"
