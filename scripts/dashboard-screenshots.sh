#!/usr/bin/env bash
# make screenshots: runs the dashboard's browser tests in Chromium with
# VIGIL_SCREENSHOT_DIR set, so they write PNGs of the main pages
# (dashboard-*.png) into docs/screenshots/ as they walk the flows.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p docs/screenshots
VIGIL_REQUIRE_BROWSER=1 VIGIL_SCREENSHOT_DIR="$root/docs/screenshots" \
  VIGIL_TEMPORAL_BIN="$root/bin/temporal" GOTOOLCHAIN=local \
  go test -count=1 -run 'TestDashboardInBrowser|TestAdminInBrowser' ./e2e/
ls -1 docs/screenshots/dashboard-*.png
