#!/usr/bin/env bash
# Usage: go-tool.sh NAME PACKAGE VERSION "DESCRIPTION"
# Ensures ./bin/NAME exists: reuses a cached copy when there is one,
# otherwise installs PACKAGE@VERSION from the Go module proxy (a few
# minutes cold) and keeps a copy in the cache for the next clone.
set -euo pipefail
name=$1 package=$2 version=$3 description=$4
root=$(cd "$(dirname "$0")/.." && pwd)
target="$root/bin/$name"
cache_dir="${VIGIL_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vigil}"
cached="$cache_dir/$name-$version"

if [ -x "$target" ]; then exit 0; fi
mkdir -p "$root/bin"
if [ -x "$cached" ]; then
  cp "$cached" "$target"
  exit 0
fi
echo "installing $description $version into ./bin (first run only; takes a few minutes)" >&2
GOTOOLCHAIN=local GOBIN="$root/bin" go install "$package@$version"
mkdir -p "$cache_dir" && cp "$target" "$cached.tmp" && mv "$cached.tmp" "$cached" || true
