#!/usr/bin/env bash
# Ensures ./bin/alertmanager, the pinned Prometheus Alertmanager (see
# go-tool.sh). The webhook intake tests run it as a real sender.
exec "$(dirname "$0")/go-tool.sh" alertmanager github.com/prometheus/alertmanager/cmd/alertmanager v0.27.0 "Prometheus Alertmanager"
