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
#
# TF_CLI_PREFER=terraform@1.2.3 forces Terraform 1.2.3 exactly:
# TF_ACC_TERRAFORM_PATH or terraform on PATH when it is that version, else
# the one scripts/build-terraform.sh builds from its Go module source into
# ./bin (cached). `make test` uses it for the oldest Terraform we support
# and the current one.
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

# is_terraform PATH VERSION: PATH runs Terraform VERSION (not OpenTofu).
is_terraform() {
  [[ -n $1 && -x $1 ]] && [[ $(CHECKPOINT_DISABLE=1 "$1" version 2>/dev/null | head -n1) == "Terraform v$2" ]]
}

case $prefer in
  "") ;;
  terraform@*)
    want=${prefer#terraform@}; want=${want#v}
    for p in "${TF_ACC_TERRAFORM_PATH:-}" "$(command -v terraform 2>/dev/null || true)"; do
      if is_terraform "$p" "$want"; then echo "$p"; exit 0; fi
    done
    exec "$root/scripts/build-terraform.sh" "v$want" ;;
  tofu | terraform)
    if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && $(basename "$TF_ACC_TERRAFORM_PATH") == "$prefer" ]]; then
      echo "$TF_ACC_TERRAFORM_PATH"; exit 0
    fi
    if p=$(command -v "$prefer" 2>/dev/null); then echo "$p"; exit 0; fi
    if [[ $prefer == tofu ]]; then build_tofu; exit 0; fi
    echo "TF_CLI_PREFER=terraform, but there is no terraform on PATH." >&2; exit 1 ;;
  *) echo "TF_CLI_PREFER must be tofu, terraform or terraform@VERSION, not \"$prefer\"." >&2; exit 1 ;;
esac

if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" ]]; then
  echo "$TF_ACC_TERRAFORM_PATH"; exit 0
fi
for name in terraform tofu; do
  if p=$(command -v "$name" 2>/dev/null); then echo "$p"; exit 0; fi
done
build_tofu
