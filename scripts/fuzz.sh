#!/usr/bin/env bash
# Runs every fuzz target in the module, one after another, and prints a
# summary. Driven by `make fuzz`; never part of `make test` or CI.
#
# Environment:
#   FUZZTIME        time (or Nx iterations) per target            default 1m
#   FUZZ_LONG       space-separated patterns of targets that get FUZZ_LONG_TIME
#                   instead (the parsers of unauthenticated input)
#   FUZZ_LONG_TIME  time per FUZZ_LONG target                      default 10m
#   FUZZ            space-separated patterns: run only these targets
#   FUZZ_PARALLEL   fuzzing workers per target (go test -parallel) default GOMAXPROCS
#   FUZZ_MINIMIZE   time spent minimising each new interesting input    default 5s
#                   (go's own default of 60s stalls a short run on large seeds)
#   RECORD=1        also write the summary to FUZZ_RECORD_FILE
#   FUZZ_RECORD_FILE                                               default bench/fuzz/README.md
#
# A target is named PKG.FuzzName, PKG being its directory in the module
# (intake.FuzzParse). A pattern is a shell glob matched against that name
# and against the bare FuzzName, so 'FuzzParse' matches it in every package
# and 'intake.*' every target in intake.
#
# A target that fails leaves its failing input under the package's
# testdata/fuzz/FuzzName/ as go test does; commit it with the fix so it
# stays a regression test. The script runs the remaining targets and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

if [[ -n "${CI:-}" && "${FUZZ_IN_CI:-}" != 1 ]]; then
  echo "fuzz: refusing to run in CI (CI is set); set FUZZ_IN_CI=1 to override" >&2
  exit 2
fi

GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-1m}"
FUZZ_LONG_TIME="${FUZZ_LONG_TIME:-10m}"
read -r -a long_patterns <<<"${FUZZ_LONG:-}"
read -r -a only_patterns <<<"${FUZZ:-}"
record_file="${FUZZ_RECORD_FILE:-bench/fuzz/README.md}"
# Packages whose TestMain starts a Temporal dev server find it here.
if [[ -z "${VIGIL_TEMPORAL_BIN:-}" && -x bin/temporal ]]; then
  export VIGIL_TEMPORAL_BIN="$PWD/bin/temporal"
fi

# matches NAME BARE PATTERN... reports whether any pattern matches.
matches() {
  local name=$1 bare=$2 p
  shift 2
  for p in "$@"; do
    # shellcheck disable=SC2053 # the pattern is a glob on purpose
    [[ $name == $p || $bare == $p ]] && return 0
  done
  return 1
}

# human SECONDS prints a duration such as 10m03s.
human() {
  local s=$1
  if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# Discovery: only packages whose tests declare a fuzz target are asked for
# the list, because listing runs the package's TestMain.
module=$($GO list -m)
targets=() # entries "importpath name"
while read -r ip dir; do
  grep -qsE '^func Fuzz[A-Za-z0-9_]*\(' "$dir"/*_test.go || continue
  list=$($GO test -count=1 -list '^Fuzz' "$ip")
  while read -r name; do
    [[ $name == Fuzz* ]] && targets+=("$ip $name")
  done <<<"$list"
done < <($GO list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}' ./...)

if ((${#targets[@]} == 0)); then
  echo "fuzz: no fuzz targets found" >&2
  exit 1
fi

# Every FUZZ_LONG pattern must name something, so a renamed target is not
# silently fuzzed for the short time.
for p in "${long_patterns[@]}"; do
  found=0
  for t in "${targets[@]}"; do
    ip=${t% *} bare=${t#* }
    rel=${ip#"$module"} rel=${rel#/}
    matches "${rel:-.}.$bare" "$bare" "$p" && found=1 && break
  done
  ((found)) || echo "fuzz: warning: FUZZ_LONG pattern '$p' matches no target" >&2
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
rows=()
failed=0
ran=0
for t in "${targets[@]}"; do
  ip=${t% *} bare=${t#* }
  rel=${ip#"$module"} rel=${rel#/}
  name="${rel:-.}.$bare"
  if ((${#only_patterns[@]})) && ! matches "$name" "$bare" "${only_patterns[@]}"; then
    continue
  fi
  fuzztime=$FUZZTIME
  if ((${#long_patterns[@]})) && matches "$name" "$bare" "${long_patterns[@]}"; then
    fuzztime=$FUZZ_LONG_TIME
  fi
  args=(test -run '^$' -fuzz "^${bare}\$" -fuzztime "$fuzztime" -fuzzminimizetime "${FUZZ_MINIMIZE:-5s}")
  [[ -n "${FUZZ_PARALLEL:-}" ]] && args+=(-parallel "$FUZZ_PARALLEL")
  log="$logs/$name.log"
  echo "fuzz: $name for $fuzztime" >&2
  start=$SECONDS
  status=0
  $GO "${args[@]}" "$ip" >"$log" 2>&1 || status=$?
  wall=$((SECONDS - start))
  ran=$((ran + 1))
  execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2 || true)
  if ((status == 0)); then
    result=ok
  else
    failed=$((failed + 1))
    crasher=$(sed -nE 's/.*Failing input written to ([^ ]+).*/\1/p' "$log" | tail -n 1)
    if [[ -n "$crasher" ]]; then
      result="FAIL: input kept in ${rel:-.}/$crasher"
    else
      result="FAIL: see the output above"
    fi
    echo "---- $name output (last 40 lines) ----" >&2
    tail -n 40 "$log" >&2
  fi
  rows+=("$name|$fuzztime|$(human "$wall")|${execs:-?}|$result")
done

if ((ran == 0)); then
  echo "fuzz: no target matches FUZZ='${FUZZ:-}'" >&2
  exit 1
fi

table() {
  echo "| Target | Fuzz time | Wall time | Execs | Result |"
  echo "|---|---|---|---:|---|"
  local r
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
}

echo
table
echo
echo "$ran target(s), $failed failed"

if [[ "${RECORD:-}" == 1 ]]; then
  mkdir -p "$(dirname "$record_file")"
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] && commit="$commit (with uncommitted changes)"
  {
    cat <<'EOF'
# Fuzzing

`make fuzz` runs every fuzz target in the module (each `func FuzzXxx` that
`go test -list '^Fuzz'` reports), one after another, for `FUZZTIME` each;
targets matching `FUZZ_LONG` run for `FUZZ_LONG_TIME` instead. By default
those are the parsers of unauthenticated input (webhook normalisers and
signature headers). It is never part of `make test` or CI. A failing input
is kept under the package's `testdata/fuzz/` as `go test` does. See
`scripts/fuzz.sh` for every option.

This file is written by `make fuzz RECORD=1`; the table below is the last
recorded run.

EOF
    echo "## Last recorded run"
    echo
    echo "- Date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "- Commit: $commit"
    echo "- Go: $($GO env GOVERSION) $($GO env GOOS)/$($GO env GOARCH), $(nproc 2>/dev/null || echo '?') CPUs, workers per target: ${FUZZ_PARALLEL:-GOMAXPROCS}"
    echo "- Settings: FUZZTIME=$FUZZTIME FUZZ_LONG_TIME=$FUZZ_LONG_TIME FUZZ_LONG='${FUZZ_LONG:-}'${FUZZ:+ FUZZ='$FUZZ'}"
    echo "- Result: $ran target(s), $failed failed"
    echo
    table
  } >"$record_file"
  echo "recorded in $record_file"
fi

((failed == 0))
