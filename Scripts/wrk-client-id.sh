#!/usr/bin/env bash
# Publishes per second with a client id against without (issue 35's figure):
# wrk, 64 connections, 6 s a run, the two alternated RUNS times each, a fresh
# SQLite file per run; prints each run, then the medians and their ratio.
# Loopback only.
#
#   Scripts/wrk-client-id.sh                  # this tree's release build, 12 runs each
#   BINARY=path/to/switchboard RUNS=6 Scripts/wrk-client-id.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/wrk-publishes.sh
command -v wrk >/dev/null || Scripts/apt-install.sh wrk
if [ -z "${BINARY:-}" ]; then swift build -c release --scratch-path .build-release --product switchboard >&2; fi
binary="${BINARY:-.build-release/release/switchboard}"
results="$(mktemp)"
for _ in $(seq "${RUNS:-12}"); do
    for kind in plain client-id; do
        folder="$(mktemp -d)"
        port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        "$binary" serve --http "127.0.0.1:$port" --tcp off --db "$folder/db.sqlite" --log-level error --admin-token bench >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 100); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.1; done
        script=Scripts/wrk-publish.lua
        [ "$kind" = client-id ] && script=Scripts/wrk-publish-client-id.lua
        wrk_publishes "$port" "$script"
        echo "$kind $rate" | tee -a "$results"
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        rm -rf "$folder"
    done
done
python3 - "$results" <<'PY'
import statistics, sys
runs = {"plain": [], "client-id": []}
for line in open(sys.argv[1]):
    kind, rate = line.split()
    runs[kind].append(float(rate))
plain, client_id = statistics.median(runs["plain"]), statistics.median(runs["client-id"])
paired = statistics.median(c / p for p, c in zip(runs["plain"], runs["client-id"]))
print(f"median publishes/s: plain {plain:,.0f}, with a client id {client_id:,.0f}; ratio {client_id / plain:.2f} (paired {paired:.2f})")
PY
rm -f "$results"
