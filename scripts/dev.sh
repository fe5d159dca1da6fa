#!/usr/bin/env bash
# make run: starts a Temporal dev server (SQLite under ./data) and then
# `vigil serve` on SQLite ./data/vigil.db. Ctrl-C stops both; data stays.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/temporal-cli.sh"
mkdir -p data bin

temporal_port=7233
ui_port=8233
http_addr="${VIGIL_HTTP_ADDR:-127.0.0.1:8080}"

# Vigil's search attributes, all Keyword: 7 of the 10 custom Keyword
# attributes SQL visibility allows per namespace (workflows/names.go).
sa_args=()
for sa in IncidentNumber Severity IncidentType ActionType PlaybookName ActionStatus ApprovalLevel HuntName; do
  sa_args+=(--search-attribute "$sa=Keyword")
done

# The Web UI decodes encrypted payloads through Vigil's codec routes; it
# sends the signed-in Vigil session along once "Include cross-origin
# credentials" is ticked in its Codec Server settings (see README).
codec_endpoint="http://$http_addr/codec"

temporal_pid=""
vigil_pid=""
stop() {
  trap - INT TERM EXIT
  [ -n "$vigil_pid" ] && kill -TERM "$vigil_pid" 2>/dev/null && wait "$vigil_pid" 2>/dev/null || true
  [ -n "$temporal_pid" ] && kill -TERM "$temporal_pid" 2>/dev/null && wait "$temporal_pid" 2>/dev/null || true
  echo "stopped; data kept in ./data"
}
trap stop INT TERM EXIT

./bin/temporal server start-dev \
  --ip 127.0.0.1 --port "$temporal_port" --ui-port "$ui_port" \
  --db-filename ./data/temporal.db \
  --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal \
  --dynamic-config-value history.transferProcessorMaxPollRPS=1000 \
  --dynamic-config-value matching.numTaskqueueReadPartitions=1 \
  --dynamic-config-value matching.numTaskqueueWritePartitions=1 \
  --dynamic-config-value system.enableActivityEagerExecution=true \
  --ui-codec-endpoint "$codec_endpoint" \
  --log-level warn \
  "${sa_args[@]}" > ./data/temporal.log 2>&1 &
temporal_pid=$!

echo "waiting for Temporal on 127.0.0.1:$temporal_port ..."
for _ in $(seq 1 120); do
  if ./bin/temporal operator cluster health --address "127.0.0.1:$temporal_port" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$temporal_pid" 2>/dev/null; then
    echo "Temporal dev server exited; see ./data/temporal.log" >&2
    tail -20 ./data/temporal.log >&2
    exit 1
  fi
  sleep 0.5
done

# Webhook secrets and the LLM key are stored encrypted; the embedded
# default keeps its key beside the data it protects.
if [ -z "${VIGIL_SECRET_KEY:-}" ]; then
  if [ ! -s ./data/secret.key ]; then
    (umask 077 && head -c 32 /dev/urandom | base64 > ./data/secret.key)
  fi
  VIGIL_SECRET_KEY=$(cat ./data/secret.key)
  export VIGIL_SECRET_KEY
fi

# Workflow payloads are encrypted in Temporal's history with a key kept
# beside the data, like the secret key; a VIGIL_PAYLOAD_KEYS of your own wins.
if [ -z "${VIGIL_PAYLOAD_KEYS:-}" ]; then
  if [ ! -s ./data/payload.key ]; then
    (umask 077 && echo "dev-1:$(head -c 32 /dev/urandom | base64)" > ./data/payload.key)
  fi
  VIGIL_PAYLOAD_KEYS=$(cat ./data/payload.key)
  export VIGIL_PAYLOAD_KEYS
fi

GOTOOLCHAIN=local go build -o bin/vigil ./cmd/vigil
echo
echo "  Vigil dashboard:  http://$http_addr/"
echo "  Vigil API:        http://$http_addr/api"
echo "  Temporal Web UI:  http://127.0.0.1:$ui_port"
echo "  Press Ctrl-C to stop both."
echo
DATABASE_URL="${DATABASE_URL:-./data/vigil.db}" TEMPORAL_ADDRESS="127.0.0.1:$temporal_port" \
  VIGIL_HTTP_ADDR="$http_addr" ./bin/vigil serve &
vigil_pid=$!
wait "$vigil_pid"
