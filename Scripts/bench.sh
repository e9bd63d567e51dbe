#!/usr/bin/env bash
# Fan-out benchmark on loopback, bounded in count and time, for SSE and raw TCP.
# For each transport: starts a release server on free ports with a throwaway
# database, holds STREAMS subscribers, publishes MESSAGES at RATE per second
# over HTTP, then measures the server idle with every subscriber connected.
# Prints figures; asserts nothing about speed (exit 1 only if a message was
# missing or duplicated).
#   STREAMS=5000 MESSAGES=200 RATE=50 IDLE=10 TRANSPORTS="sse tcp" Scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STREAMS=${STREAMS:-5000} MESSAGES=${MESSAGES:-200} RATE=${RATE:-50} IDLE=${IDLE:-10}
TRANSPORTS=${TRANSPORTS:-"sse tcp"}
Scripts/install-deps.sh
ulimit -n "$(ulimit -Hn)"
swift build -c release --product switchboard >&2
swift build -c release --product switchboard-bench >&2
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
echo "machine: $(nproc) cores, $(uname -r)"
status=0
for transport in $TRANSPORTS; do
  work=$(mktemp -d)
  http=$(free_port) tcp=$(free_port)
  .build/release/switchboard serve --http "127.0.0.1:$http" --tcp "127.0.0.1:$tcp" \
    --db "$work/bench.sqlite" --log-level warning --admin-token "bench-$RANDOM$RANDOM" &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$http/healthz" >/dev/null && break; sleep 0.1; done
  echo
  echo "== $transport: $STREAMS subscribers, $MESSAGES messages at $RATE/s (server pid $pid)"
  .build/release/switchboard-bench --transport "$transport" --port "$http" --tcp-port "$tcp" \
    --server-pid "$pid" --streams "$STREAMS" --messages "$MESSAGES" --rate "$RATE" \
    --idle-seconds "$IDLE" || status=1
  kill -TERM "$pid"; wait "$pid" || true
  rm -rf "$work"
done
exit $status
