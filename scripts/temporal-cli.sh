#!/usr/bin/env bash
# Ensures ./bin/temporal, the pinned Temporal CLI (see go-tool.sh).
exec "$(dirname "$0")/go-tool.sh" temporal github.com/temporalio/cli/cmd/temporal v1.5.1 "Temporal CLI"
