#!/usr/bin/env bash
# Prints the path of the Terraform CLI to use: TF_ACC_TERRAFORM_PATH, else
# terraform or tofu on PATH, else OpenTofu built from its Go module source
# into ./bin (about 5 minutes on 2 cores the first time, cached after). Never downloads
# a binary: the module source comes from the Go module proxy.
#
# TF_CLI_PREFER=tofu forces OpenTofu (tofu on PATH, else the one built into
# ./bin) and TF_CLI_PREFER=terraform forces Terraform (on PATH); either
# ignores TF_ACC_TERRAFORM_PATH unless it names that CLI. `make
# testacc-tofu` uses TF_CLI_PREFER=tofu.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tofu_version=${TOFU_VERSION:-v1.12.6}
prefer=${TF_CLI_PREFER:-}

build_tofu() {
  local bin="$root/bin/tofu"
  if [[ ! -x "$bin" ]]; then
    echo "Building OpenTofu $tofu_version from source into bin/ (about 5 minutes on 2 cores, once)." >&2
    go mod download "github.com/opentofu/opentofu@$tofu_version" >&2
    local src
    src="$(go env GOMODCACHE)/github.com/opentofu/opentofu@$tofu_version"
    mkdir -p "$root/bin"
    # OpenTofu's go.mod has replace directives, so `go install pkg@version`
    # refuses it; building inside the module honours them.
    (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$bin.tmp" ./cmd/tofu) >&2
    mv "$bin.tmp" "$bin"
  fi
  echo "$bin"
}

case $prefer in
  "") ;;
  tofu | terraform)
    if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && $(basename "$TF_ACC_TERRAFORM_PATH") == "$prefer" ]]; then
      echo "$TF_ACC_TERRAFORM_PATH"; exit 0
    fi
    if p=$(command -v "$prefer" 2>/dev/null); then echo "$p"; exit 0; fi
    if [[ $prefer == tofu ]]; then build_tofu; exit 0; fi
    echo "TF_CLI_PREFER=terraform, but there is no terraform on PATH." >&2; exit 1 ;;
  *) echo "TF_CLI_PREFER must be tofu or terraform, not \"$prefer\"." >&2; exit 1 ;;
esac

if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" ]]; then
  echo "$TF_ACC_TERRAFORM_PATH"; exit 0
fi
for name in terraform tofu; do
  if p=$(command -v "$name" 2>/dev/null); then echo "$p"; exit 0; fi
done
build_tofu
