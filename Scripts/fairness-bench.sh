#!/usr/bin/env bash
# One address floods the store with reads; how long does another address
# wait for its own? The store gate takes queued work caller by caller in
# turns (docs/ARCHITECTURE.md, "Callers in turns"): the other address's
# reads should wait for a turn, not for the flood.
#
# A release server (BINARY, default this tree's) on a throwaway SQLite
# file; PUBLISHES seconds of publishes fill the lobby; then `wrk` from
# 127.0.0.1 asks pages of 1,000 older messages on CONNECTIONS connections
# (default 256) while a client from 127.0.0.2 asks pages of 10, one after
# another, for 8 s. Prints the other client's page time alone and during
# the flood (p50, p99, max), and the flood's pages a second.
#
#   Scripts/fairness-bench.sh
#   BINARY=/work/before/.build/release/switchboard Scripts/fairness-bench.sh   # another build
#   CONNECTIONS=1000 Scripts/fairness-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench-lib.sh  # free_port
CONNECTIONS=${CONNECTIONS:-256} PUBLISHES=${PUBLISHES:-4}
command -v wrk >/dev/null || Scripts/apt-install.sh wrk
if [ -z "${BINARY:-}" ]; then swift build -c release --product switchboard >&2; fi
binary=${BINARY:-.build/release/switchboard}
work="$(mktemp -d -t switchboard-fairness.XXXXXX)"
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
port=$(free_port)
"$binary" serve --http "127.0.0.1:$port" --tcp off --db "$work/db.sqlite" --media-dir "$work/media" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
wrk -t2 -c64 -d"${PUBLISHES}s" -s Scripts/wrk-publish.lua "http://127.0.0.1:$port/api/rooms/lobby/messages" >/dev/null
newest=$(curl -sf "http://127.0.0.1:$port/api/rooms" | python3 -c 'import json,sys; print(next(r["last_id"] for r in json.load(sys.stdin)["rooms"] if r["name"] == "lobby"))')
flood_before=$((newest * 9 / 10)) other_before=$((newest / 10))
# other SECONDS LABEL: pages of 10 from 127.0.0.2, one after another, timed.
other() {
  python3 - "$port" "$other_before" "$1" "$2" <<'PY'
import http.client, sys, time
port, before, seconds, label = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
times, statuses = [], {}
end = time.time() + seconds
while time.time() < end:
    start = time.perf_counter()
    connection.request("GET", f"/api/rooms/lobby/messages?before={before}&limit=10")
    answer = connection.getresponse(); answer.read()
    times.append((time.perf_counter() - start) * 1000)
    statuses[answer.status] = statuses.get(answer.status, 0) + 1
times.sort()
print(f"{label:<28} pages {len(times):>6}  p50 {times[len(times)//2]:8.2f} ms  p99 {times[int(len(times)*.99)]:8.2f} ms"
      f"  max {times[-1]:8.2f} ms  statuses {statuses}")
PY
}
echo "server: $binary; $newest messages; flood: $CONNECTIONS connections from 127.0.0.1, pages of 1,000"
other 3 "another address, alone"
wrk -t2 -c"$CONNECTIONS" -d14s --timeout 20s "http://127.0.0.1:$port/api/rooms/lobby/messages?before=$flood_before&limit=1000" >"$work/wrk.txt" &
flood=$!
sleep 3
other 8 "another address, in a flood"
wait "$flood"
refused=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")
echo "the flood: $(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt") pages a second, ${refused:-0} not 200"
