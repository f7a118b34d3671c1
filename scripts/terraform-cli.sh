#!/usr/bin/env bash
# Prints the path of the Terraform CLI to use: TF_ACC_TERRAFORM_PATH, else
# terraform or tofu on PATH, else OpenTofu built from its Go module source
# into ./bin (about 3 minutes the first time, cached after). Never downloads
# a binary: the module source comes from the Go module proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tofu_version=${TOFU_VERSION:-v1.12.6}

if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" ]]; then
  echo "$TF_ACC_TERRAFORM_PATH"; exit 0
fi
for name in terraform tofu; do
  if p=$(command -v "$name" 2>/dev/null); then echo "$p"; exit 0; fi
done
bin="$root/bin/tofu"
if [[ ! -x "$bin" ]]; then
  echo "No terraform or tofu on PATH: building OpenTofu $tofu_version from source into bin/ (about 3 minutes, once)." >&2
  go mod download "github.com/opentofu/opentofu@$tofu_version" >&2
  src="$(go env GOMODCACHE)/github.com/opentofu/opentofu@$tofu_version"
  mkdir -p "$root/bin"
  # OpenTofu's go.mod has replace directives, so `go install pkg@version`
  # refuses it; building inside the module honours them.
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$bin.tmp" ./cmd/tofu) >&2
  mv "$bin.tmp" "$bin"
fi
echo "$bin"
