#!/usr/bin/env bash
# Builds Terraform $1 (default v1.16.4) from its Go module source into
# bin/terraform-<version> and prints the path; cached after the first build.
# Never downloads a binary: the source comes from the Go module proxy.
#
# Terraform's module zip leaves out the remote-state backends that its go.mod
# replaces with local directories (azure, consul, cos, gcs, kubernetes, oci,
# oss, pg, s3) and internal/legacy, so the module does not build as it is.
# This copies the source, drops those replaces and requirements, and removes
# those backends from the backend registry: the local backend, which is all
# the tests use, stays. Older releases (1.11) also name a `godebug tlskyber`
# setting that Go 1.24 and later no longer know and refuse; it is dropped too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-${TERRAFORM_VERSION:-v1.16.4}}
bin="$root/bin/terraform-${version#v}"
if [[ -x "$bin" ]]; then echo "$bin"; exit 0; fi

echo "Building Terraform $version from source into bin/ (a few minutes on 2 cores, once)." >&2
src=$(go mod download -json "github.com/hashicorp/terraform@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[[ -d "$src" ]] || { echo "could not fetch github.com/hashicorp/terraform@$version" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"

dropped='azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3'
sed -i -E \
  -e "/internal\/backend\/remote-state\/($dropped)( |$)/d" \
  -e '/internal\/legacy( |$)/d' \
  -e '/^godebug tlskyber=/d' \
  "$work/go.mod"
init="$work/internal/backend/init/init.go"
sed -i -E \
  -e "/backend[A-Za-z0-9]+ \"github.com\/hashicorp\/terraform\/internal\/backend\/remote-state\/($dropped)\"/d" \
  -e '/func\(\) backend.Backend \{ return backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)\.New\(\) \}/d' \
  "$init"
mkdir -p "$root/bin"
(cd "$work" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
  -ldflags "-X github.com/hashicorp/terraform/version.dev=no" -o "$bin.tmp" .)
mv "$bin.tmp" "$bin"
echo "$bin"
