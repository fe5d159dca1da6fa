#!/usr/bin/env bash
# Ensures ./bin/temporal exists: reuses a cached copy when there is one,
# otherwise installs the pinned Temporal CLI from the Go module proxy
# (a few minutes cold) and keeps a copy in the cache for the next clone.
set -euo pipefail
version=v1.5.1
root=$(cd "$(dirname "$0")/.." && pwd)
target="$root/bin/temporal"
cache_dir="${VIGIL_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vigil}"
cached="$cache_dir/temporal-$version"

if [ -x "$target" ]; then exit 0; fi
mkdir -p "$root/bin"
if [ -x "$cached" ]; then
  cp "$cached" "$target"
  exit 0
fi
echo "installing Temporal CLI $version into ./bin (first run only; takes a few minutes)" >&2
GOTOOLCHAIN=local GOBIN="$root/bin" go install "github.com/temporalio/cli/cmd/temporal@$version"
mkdir -p "$cache_dir" && cp "$target" "$cached.tmp" && mv "$cached.tmp" "$cached" || true
