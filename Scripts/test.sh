#!/usr/bin/env bash
# The test command: installs what is missing, builds, smoke-tests the real
# `switchboard` binary with curl, drives the web page in headless chromium,
# checks WebSocket conformance with Autobahn|Testsuite, then runs every Swift
# test (unit tests, and integration tests against real
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

echo "== WebSocket conformance (Autobahn|Testsuite)"
Scripts/autobahn.sh .build/debug/switchboard

echo "== swift test"
# A crash prints the crashing thread only, so its cause stays in view.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none}"
log="$(mktemp -t switchboard-swift-test.XXXXXX)"
if ! swift test --skip-build 2>&1 | tee "$log"; then
    echo "== swift test FAILED; the failures and any crash, from $log:"
    grep -E -A3 "✘|Fatal error|Program crashed|crashed:$|error:" "$log" | head -80
    exit 1
fi
