#!/usr/bin/env bash
# SSE fan-out benchmark on loopback, bounded in count and time.
# Starts a release server on a free port with a throwaway database, holds
# STREAMS subscribers, publishes MESSAGES at RATE per second, then measures
# the server idle with every stream open. Prints figures; asserts nothing
# about speed (exit 1 only if a message was missing or duplicated).
#   STREAMS=5000 MESSAGES=200 RATE=50 IDLE=10 Scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STREAMS=${STREAMS:-5000} MESSAGES=${MESSAGES:-200} RATE=${RATE:-50} IDLE=${IDLE:-10}
Scripts/install-deps.sh
ulimit -n "$(ulimit -Hn)"
swift build -c release --product switchboard >&2
swift build -c release --product switchboard-bench >&2
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
.build/release/switchboard serve --http "127.0.0.1:$port" --db "$work/bench.sqlite" --log-level warning &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
echo "machine: $(nproc) cores, $(uname -r); server pid $pid on port $port"
echo "workload: $STREAMS SSE streams, $MESSAGES messages at $RATE/s"
.build/release/switchboard-bench --port "$port" --server-pid "$pid" \
  --streams "$STREAMS" --messages "$MESSAGES" --rate "$RATE" --idle-seconds "$IDLE"
