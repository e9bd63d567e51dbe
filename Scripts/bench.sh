#!/usr/bin/env bash
# Fan-out benchmark on loopback, bounded in count and time, for each of
# TRANSPORTS: `switchboard bench` starts a release server on free ports with
# a throwaway database, holds CLIENTS subscribers, publishes MESSAGES at RATE
# per second over HTTP, then measures the server idle with every subscriber
# connected. Prints figures; asserts nothing about speed (exit 1 only if a
# message was missing, duplicated or out of order).
#   CLIENTS=5000 MESSAGES=200 RATE=50 IDLE=10 TRANSPORTS="sse websocket tcp" Scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${CLIENTS:-${STREAMS:-5000}} MESSAGES=${MESSAGES:-200} RATE=${RATE:-50} IDLE=${IDLE:-10}
TRANSPORTS=${TRANSPORTS:-"sse websocket tcp"}
Scripts/install-deps.sh
ulimit -n "$(ulimit -Hn)"
swift build -c release --product switchboard >&2
echo "machine: $(nproc) cores, $(uname -r)"
status=0
for transport in $TRANSPORTS; do
  echo
  echo "== $transport: $CLIENTS subscribers, $MESSAGES messages at $RATE/s"
  .build/release/switchboard bench --transport "$transport" --clients "$CLIENTS" \
    --messages "$MESSAGES" --rate "$RATE" --idle-seconds "$IDLE" || status=1
done
exit $status
