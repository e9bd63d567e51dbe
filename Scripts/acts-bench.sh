#!/usr/bin/env bash
# What acts cost: a history of 10,000 messages with 10,000 reactions and
# 1,000 edits replayed over SSE from the store, against the same messages
# with no acts (seconds and bytes), and a publish with `reply_to` against a
# plain one in instructions (callgrind). Loopback only, bounded.
#
#   Scripts/acts-bench.sh                       # this tree's release build
#   BINARY=path/to/switchboard Scripts/acts-bench.sh
#   RUNS=5 FEW=50 MANY=250 Scripts/acts-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || Scripts/apt-install.sh valgrind
if [ -z "${BINARY:-}" ]; then swift build -c release --scratch-path .build-release --product switchboard >&2; fi
exec python3 Scripts/acts_bench.py "${BINARY:-.build-release/release/switchboard}" "$@"
