#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test
# (unit tests and integration tests against real servers on loopback), then
# smoke-tests the real `switchboard` binary the way a user would, with curl.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

swift build --build-tests
swift build --product switchboard

echo "== smoke test of the switchboard binary"
Scripts/smoke.sh .build/debug/switchboard

echo "== swift test"
swift test --skip-build
