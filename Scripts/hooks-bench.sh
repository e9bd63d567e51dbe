#!/usr/bin/env bash
# Publishing with an application's backend (issue 37's figures): wrk, 64
# connections, 6 s a run, against three servers alternated RUNS times each,
# a fresh SQLite file per run:
#   plain     no backend;
#   hook      --publish-hook to a backend that allows at once (nginx on
#             loopback answering {"action":"allow"}: the hook's cost is ours, not a slow backend's);
#   webhooks  --webhook to a receiver that answers 204 at once (every publish also becomes an event).
# Prints each run (publishes/s, wrk's p99, the server's CPU per publish in
# µs from /proc), then the medians and their ratios against plain.
#
#   Scripts/hooks-bench.sh                   # this tree's release build, 6 runs each
#   BINARY=path/to/switchboard RUNS=3 Scripts/hooks-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/wrk-publishes.sh
command -v wrk >/dev/null || Scripts/apt-install.sh wrk
command -v nginx >/dev/null || Scripts/apt-install.sh nginx
if [ -z "${BINARY:-}" ]; then swift build -c release --scratch-path .build-release --product switchboard >&2; fi
binary="${BINARY:-.build-release/release/switchboard}"
. Scripts/bench-lib.sh  # free_port, cpu_seconds
work="$(mktemp -d)"
backend="$(free_port)"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/body;
  keepalive_requests 100000000;
  server {
    listen 127.0.0.1:$backend;
    location = /hook { default_type application/json; return 200 '{"action":"allow"}'; }
    location = /events { return 204; }
  }
}
CONF
nginx -c "$work/nginx.conf" &
nginx_pid=$!
trap 'kill $nginx_pid 2>/dev/null; rm -rf "$work"' EXIT
sleep 0.5
results="$work/results"
for _ in $(seq "${RUNS:-6}"); do
    for kind in plain hook webhooks; do
        folder="$(mktemp -d)"
        port="$(free_port)"
        extra=()
        [ "$kind" = hook ] && extra=(--publish-hook "http://127.0.0.1:$backend/hook" --webhook-secret bench)
        [ "$kind" = webhooks ] && extra=(--webhook "http://127.0.0.1:$backend/events" --webhook-secret bench)
        "$binary" serve --http "127.0.0.1:$port" --tcp off --db "$folder/db.sqlite" --log-level error "${extra[@]}" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 100); do curl -sf "localhost:$port/healthz" >/dev/null && break; sleep 0.1; done
        cpu_before="$(cpu_seconds "$pid")"
        wrk_publishes "$port" Scripts/wrk-publish.lua
        cpu_after="$(cpu_seconds "$pid")"
        # The server's own CPU (user + system) per publish, in microseconds.
        cpu="$(awk -v a="$cpu_after" -v b="$cpu_before" -v n="$requests" 'BEGIN {printf "%d", (a - b) * 1e6 / n}')"
        echo "$kind $rate $p99 $cpu" | tee -a "$results"
        kill "$pid"
        wait "$pid" 2>/dev/null || true
        rm -rf "$folder"
    done
done
python3 - "$results" <<'PY'
import statistics, sys
def ms(text):
    for unit, factor in (("us", 0.001), ("ms", 1), ("s", 1000)):
        if text.endswith(unit):
            return float(text[:-len(unit)]) * factor
runs = {}
for line in open(sys.argv[1]):
    kind, rate, p99, cpu = line.split()
    runs.setdefault(kind, []).append((float(rate), ms(p99), int(cpu)))
plain = statistics.median(r for r, _, _ in runs["plain"])
for kind in ("plain", "hook", "webhooks"):
    rate = statistics.median(r for r, _, _ in runs[kind])
    p99 = statistics.median(p for _, p, _ in runs[kind])
    cpu = statistics.median(c for _, _, c in runs[kind])
    print(f"{kind:9} median {rate:8,.0f} publishes/s  ratio {rate / plain:.2f}  p99 {p99:.1f} ms  server CPU {cpu} µs a publish")
PY
