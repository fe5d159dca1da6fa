#!/usr/bin/env bash
# Takes the README's Temporal Web UI screenshots from a real run: starts a
# Temporal dev server and `vigil serve` on free ports with throwaway data,
# creates a malware incident, triages it, requests an isolate_host that
# waits for senior approval and runs the "Malware containment" playbook,
# then captures with headless Chromium:
#   docs/screenshots/ui-incident-runs.png     runs filtered by incident
#   docs/screenshots/ui-action-waiting.png    one action waiting for approval
#   docs/screenshots/ui-action-history.png    its event history, summarised
#   docs/screenshots/ui-action-attributes.png its search attributes
# Needs python3, curl and chromium (CHROMIUM=/path overrides).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
chromium=${CHROMIUM:-/usr/bin/chromium}
out="$root/docs/screenshots"
mkdir -p "$out" bin
"$root/scripts/temporal-cli.sh"
GOTOOLCHAIN=local go build -o bin/vigil ./cmd/vigil

work=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
tport=$(free_port); uport=$(free_port); hport=$(free_port)
temporal_pid=""; vigil_pid=""
cleanup() {
  [ -n "$vigil_pid" ] && kill "$vigil_pid" 2>/dev/null && wait "$vigil_pid" 2>/dev/null || true
  [ -n "$temporal_pid" ] && kill "$temporal_pid" 2>/dev/null && wait "$temporal_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

sa_args=()
for sa in IncidentNumber Severity IncidentType ActionType PlaybookName ActionStatus ApprovalLevel HuntName; do
  sa_args+=(--search-attribute "$sa=Keyword")
done
./bin/temporal server start-dev --ip 127.0.0.1 --port "$tport" --ui-port "$uport" --log-level warn \
  "${sa_args[@]}" >"$work/temporal.log" 2>&1 &
temporal_pid=$!
for _ in $(seq 1 120); do
  ./bin/temporal operator cluster health --address "127.0.0.1:$tport" >/dev/null 2>&1 && break
  sleep 0.5
done

export DATABASE_URL="$work/vigil.db" TEMPORAL_ADDRESS="127.0.0.1:$tport" VIGIL_HTTP_ADDR="127.0.0.1:$hport"
export VIGIL_BOOTSTRAP_ADMIN_KEY="screenshot-admin-key-0123456789" VIGIL_PUBLIC_URL="http://127.0.0.1:$hport"
./bin/vigil migrate >/dev/null
key_for() { # user role -> API key
  ./bin/vigil users create --username "$1" --email "$1@example.com" --role "$2" >/dev/null
  ./bin/vigil keys create --user "$1" | grep -Eo '[A-Za-z0-9_-]{24,}' | tail -1
}
analyst=$(key_for j.doe analyst)
senior=$(key_for a.lee senior)
./bin/vigil serve >"$work/vigil.log" 2>&1 &
vigil_pid=$!
api="http://127.0.0.1:$hport"
for _ in $(seq 1 120); do curl -fs "$api/live" >/dev/null && break; sleep 0.5; done

post() { curl -fsS -X POST -H "Authorization: Bearer $1" -H 'Content-Type: application/json' "$api$2" -d "$3"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['data']$1)"; }

inc=$(post "$analyst" /api/incidents '{"incident_type":"malware","source":"edr","severity":"critical",
  "raw_data":{"HostnameField":"fin-ws-042","DetectName":"Ransomware.Conti"}}')
inc_id=$(echo "$inc" | field "['id']"); number=$(echo "$inc" | field "['incident_number']")
post "$analyst" "/api/incidents/$inc_id/triage" '{}' >/dev/null
action=$(post "$analyst" "/api/incidents/$inc_id/actions" \
  '{"action":"isolate_host","parameters":{"host_id":"fin-ws-042","reason":"ransomware detected"}}' | field "['action_id']")
playbook=$(curl -fsS -H "Authorization: Bearer $analyst" "$api/api/playbooks" |
  python3 -c 'import json,sys; print([p["id"] for p in json.load(sys.stdin)["data"] if p["name"]=="Malware containment"][0])')
post "$senior" "/api/playbooks/$playbook/run" "{\"incident_id\":\"$inc_id\"}" >/dev/null

# Wait until the playbook's own isolate_host waits for approval too.
for _ in $(seq 1 120); do
  n=$(./bin/temporal workflow count --address "127.0.0.1:$tport" \
    --query "IncidentNumber = \"$number\" AND ActionStatus = \"pending_approval\"" | grep -Eo '[0-9]+' | head -1)
  [ "${n:-0}" -ge 2 ] && break
  sleep 0.5
done

shot() { # file url
  local profile; profile=$(mktemp -d)
  timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
    --virtual-time-budget=15000 --window-size=1400,900 --screenshot="$1" "$2" >/dev/null 2>&1 || true
  rm -rf "$profile"
}
urlencode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
ui="http://127.0.0.1:$uport/namespaces/default/workflows"
shot "$out/ui-incident-runs.png" "$ui?query=$(urlencode "IncidentNumber = \"$number\"")"
wf="action/$action"
run_id=$(./bin/temporal workflow describe --address "127.0.0.1:$tport" -w "$wf" -o json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["workflowExecutionInfo"]["execution"]["runId"])')
# A running workflow's page polls for new events and never goes idle, so
# it is captured over the DevTools protocol after a real-time wait.
python3 "$root/scripts/ui-shot.py" "$chromium" "$ui/$(urlencode "$wf")/$run_id/user-metadata" "$out/ui-action-waiting.png" 12
python3 "$root/scripts/ui-shot.py" "$chromium" "$ui/$(urlencode "$wf")/$run_id/metadata" "$out/ui-action-attributes.png" 12
python3 "$root/scripts/ui-shot.py" "$chromium" "$ui/$(urlencode "$wf")/$run_id/history" "$out/ui-action-history.png" 12
echo "incident $number; screenshots in $out"
