#!/usr/bin/env bash
# The test command: installs what is missing, builds, smoke-tests the real
# `switchboard` binary with curl, drives the web page in headless chromium,
# then runs every Swift test (unit tests, and integration tests against real
# servers on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
Scripts/install-test-deps.sh
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

swift build --build-tests
swift build --product switchboard

echo "== smoke test of the switchboard binary"
Scripts/smoke.sh .build/debug/switchboard

echo "== the web page in a real browser"
python3 Tests/Browser/chat_page_test.py .build/debug/switchboard

echo "== swift test"
swift test --skip-build
