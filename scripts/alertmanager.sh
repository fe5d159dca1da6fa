#!/usr/bin/env bash
# Ensures ./bin/alertmanager exists: reuses a cached copy when there is one,
# otherwise installs the pinned Prometheus Alertmanager from the Go module
# proxy (a few minutes cold) and keeps a copy in the cache for the next clone.
# The webhook intake tests run it as a real sender.
set -euo pipefail
version=v0.27.0
root=$(cd "$(dirname "$0")/.." && pwd)
target="$root/bin/alertmanager"
cache_dir="${VIGIL_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vigil}"
cached="$cache_dir/alertmanager-$version"

if [ -x "$target" ]; then exit 0; fi
mkdir -p "$root/bin"
if [ -x "$cached" ]; then
  cp "$cached" "$target"
  exit 0
fi
echo "installing Prometheus Alertmanager $version into ./bin (first run only; takes a few minutes)" >&2
GOTOOLCHAIN=local GOBIN="$root/bin" go install "github.com/prometheus/alertmanager/cmd/alertmanager@$version"
mkdir -p "$cache_dir" && cp "$target" "$cached.tmp" && mv "$cached.tmp" "$cached" || true
