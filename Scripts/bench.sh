#!/usr/bin/env bash
# Fan-out benchmark on loopback, bounded in count and time, for each of
# TRANSPORTS: `switchboard bench` starts a release server on free ports with
# a throwaway database, holds CLIENTS subscribers, publishes MESSAGES at RATE
# per second over HTTP, then measures the server idle with every subscriber
# connected. Prints figures; asserts nothing about speed (exit 1 only if a
# message was missing, duplicated or out of order).
#   CLIENTS=5000 MESSAGES=200 RATE=50 IDLE=10 TRANSPORTS="sse websocket tcp" Scripts/bench.sh
#
# ROOMS="public conversation" runs sse and websocket twice in one go: in a
# public room, then in a group conversation as its member (each stream's
# membership checked on every delivery), so the two rows compare directly.
#
# NODES=2 runs the same on several nodes sharing one PostgreSQL (a throwaway
# one from Scripts/postgres.sh, or DB=postgres://...): subscribers spread
# over the nodes, publishing on the first. With PUBLISH_SECONDS>0 (default
# 5, when wrk is installed) it also measures publishes acknowledged per
# second, closed loop, on 1 and on 64 connections to the first node.
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${CLIENTS:-${STREAMS:-5000}} MESSAGES=${MESSAGES:-200} RATE=${RATE:-50} IDLE=${IDLE:-10}
TRANSPORTS=${TRANSPORTS:-"sse websocket tcp"} ROOMS=${ROOMS:-public} NODES=${NODES:-1} DB=${DB:-} PUBLISH_SECONDS=${PUBLISH_SECONDS:-5}
Scripts/install-deps.sh
ulimit -n "$(ulimit -Hn)"
swift build -c release --product switchboard >&2
echo "machine: $(nproc) cores, $(uname -r)"
nodes=()
if [ "$NODES" -gt 1 ] && [ -z "$DB" ]; then
  pgdir="$(mktemp -d -t switchboard-bench-postgres.XXXXXX)"
  trap 'Scripts/postgres.sh stop "$pgdir" || true' EXIT
  DB="$(Scripts/postgres.sh start "$pgdir")"
  echo "PostgreSQL: $DB"
fi
fresh_database() {  # a new database per run on the PostgreSQL server, so runs do not share history
  local name="sb_bench_$RANDOM$RANDOM"
  psql "$DB" -qc "CREATE DATABASE $name" >/dev/null
  echo "${DB%/*}/$name"
}
status=0
for transport in $TRANSPORTS; do
  for rooms in $ROOMS; do
    kind=()
    if [ "$rooms" = conversation ]; then
      case "$transport" in sse|websocket) kind=(--conversation) ;; *) continue ;; esac
    fi
    echo
    echo "== $transport in a $rooms room: $CLIENTS subscribers over $NODES node(s), $MESSAGES messages at $RATE/s"
    where=()
    [ -n "$DB" ] && where=(--nodes "$NODES" --db "$(fresh_database)")
    .build/release/switchboard bench --transport "$transport" --clients "$CLIENTS" \
      --messages "$MESSAGES" --rate "$RATE" --idle-seconds "$IDLE" "${kind[@]}" "${where[@]}" || status=1
  done
done

if [ "$PUBLISH_SECONDS" -gt 0 ] && command -v wrk >/dev/null; then
  echo
  store="SQLite on disk"; [ -n "$DB" ] && store="PostgreSQL (fsync on)"
  echo "== publishes acknowledged per second (wrk, closed loop, ${PUBLISH_SECONDS} s), on $store"
  folder="$(mktemp -d -t switchboard-bench-publish.XXXXXX)"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  database="$folder/publish.sqlite"
  [ -n "$DB" ] && database="$(fresh_database)"
  .build/release/switchboard serve --http "127.0.0.1:$port" --tcp off --db "$database" --log-level warning --admin-token x &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  for connections in 1 64; do
    threads=$(( connections < 2 ? 1 : 2 ))
    printf "%3d connection(s): " "$connections"
    wrk -t"$threads" -c"$connections" -d"${PUBLISH_SECONDS}s" -s Scripts/wrk-publish.lua --latency \
      "http://127.0.0.1:$port/api/rooms/bench/messages" | awk '/Requests\/sec/ {rps=$2} / 50%/ {p50=$2} / 99%/ {p99=$2} /Non-2xx/ {bad=$NF} END {printf "%s acked/s, p50 %s, p99 %s%s\n", rps, p50, p99, bad ? ", non-2xx " bad : ""}'
  done
  kill "$server"; wait "$server" 2>/dev/null || true
  rm -rf "$folder"
fi
exit $status
