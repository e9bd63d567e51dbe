#!/usr/bin/env bash
# What Web Push costs: one message to 1,000 members away (time to the last
# push accepted by a push service on loopback, server CPU per push), and
# publishing latency with and without 1,000 pushes pending. Loopback only,
# bounded (about two minutes, most of it making 1,000 accounts).
#
#   Scripts/push-bench.sh                     # this tree's release build
#   BINARY=path/to/switchboard Scripts/push-bench.sh [MEMBERS]
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-test-deps.sh >/dev/null
if [ -z "${BINARY:-}" ]; then swift build -c release --scratch-path .build-release --product switchboard >&2; fi
exec python3 Scripts/push_bench.py "${BINARY:-.build-release/release/switchboard}" "$@"
