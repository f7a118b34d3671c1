#!/usr/bin/env bash
# Builds cloud-emulator as the release builds its binaries (.goreleaser.yml:
# CGO_ENABLED=0, -trimpath, -s -w, the version stamped into main.version),
# so that what the module, policy and guide tests run is what a user
# downloads. Usage: build-emulator.sh OUTPUT [VERSION]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
version=${2:-${VERSION:-dev}}
cd "$root"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$out" ./cmd/emulator
