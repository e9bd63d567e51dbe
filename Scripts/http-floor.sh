#!/usr/bin/env bash
# What a publish costs on libmicrohttpd at the least, beside what it costs
# Switchboard and Nchan: the same `wrk` publishes (Scripts/wrk-publish.lua)
# against, in turn,
#   floor      Scripts/mhd-floor.c: libmicrohttpd answering every POST 201
#              with a fixed message and Switchboard's headers, nothing else;
#   memory     Switchboard --db :memory: (no disk, like Nchan's store);
#   durable    Switchboard with its database on disk (the default);
#   nchan      Nchan, one worker, its memory store (Scripts/nchan-conf.sh);
# on 64 connections and on one, ROUNDS times (each server freshly started).
# Prints requests a second and the server's CPU a request (user + system,
# /proc/PID/stat over the run) for each, and each one's ratio to the floor
# in the same round. How far the floor is from Nchan says how much of the
# gap any Switchboard could close while it serves HTTP with libmicrohttpd.
#
#   Scripts/http-floor.sh                          # 3 rounds, about 3 minutes
#   ROUNDS=1 SECONDS_PER_WRK=5 BINARY=path/to/switchboard Scripts/http-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3} SECONDS_PER_WRK=${SECONDS_PER_WRK:-7}
Scripts/install-deps.sh  # libmicrohttpd's header, for the floor
. Scripts/nchan-conf.sh
Scripts/apt-install.sh $(nchan_missing) $(command -v wrk >/dev/null || echo wrk)
if [ -z "${BINARY:-}" ]; then swift build -c release --product switchboard >&2; fi
binary=${BINARY:-.build/release/switchboard}
work="$(mktemp -d -t switchboard-floor.XXXXXX)"
chmod 755 "$work"
server_pid=
cleanup() {
  [ -s "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
clang -O2 -Wall -o "$work/mhd-floor" Scripts/mhd-floor.c -lmicrohttpd
. Scripts/bench-lib.sh  # free_port, cpu_seconds
up() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return; sleep 0.1; done; echo "nothing on :$1" >&2; exit 1; }

# start KIND PORT: sets server_pid, the process whose CPU is counted (for Nchan, its worker)
start() {
  local kind=$1 port=$2
  rm -rf "$work/db.sqlite"* "$work/nginx"
  case $kind in
    floor) "$work/mhd-floor" "$port" & server_pid=$! ;;
    memory|durable)
      local db=:memory:; [ "$kind" = durable ] && db="$work/db.sqlite"
      "$binary" serve --http "127.0.0.1:$port" --tcp "127.0.0.1:$(free_port)" --db "$db" --log-level warning \
        --admin-token floor & server_pid=$! ;;
    nchan)
      mkdir -p "$work/nginx"
      nchan_conf "$work/nginx" "$port" on >"$work/nginx/nginx.conf"
      nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" 2>/dev/null & ;;
  esac
  up "$port"
  # Nchan's CPU is its worker's, up once it answers.
  if [ "$kind" = nchan ]; then server_pid=$(pgrep -P "$(cat "$work/nginx/nginx.pid")" | head -1); fi
}
stop() {
  if [ -s "$work/nginx/nginx.pid" ]; then kill "$(cat "$work/nginx/nginx.pid")"; else kill -INT "$server_pid"; fi
  wait 2>/dev/null || true
  server_pid=
}

printf '%-6s %-8s %6s %12s %14s %10s %12s\n' round server conns "requests/s" "CPU us/request" "rps/floor" "CPU/floor"
for round in $(seq "$ROUNDS"); do
  for conns in 64 1; do
    declare -A rps=() cpu=()
    for kind in floor memory durable nchan; do
      port=$(free_port)
      start "$kind" "$port"
      before=$(cpu_seconds "$server_pid")
      out=$(wrk -t"$(( conns < 2 ? 1 : 2 ))" -c"$conns" -d"${SECONDS_PER_WRK}s" -s Scripts/wrk-publish.lua \
        "http://127.0.0.1:$port/api/rooms/wrk/messages")
      after=$(cpu_seconds "$server_pid")
      stop
      rps[$kind]=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
      requests=$(awk '/requests in/ {print $1}' <<<"$out")
      cpu[$kind]=$(awk -v a="$after" -v b="$before" -v n="$requests" 'BEGIN {printf "%.1f", (a - b) / n * 1e6}')
      printf '%-6s %-8s %6s %12s %14s %10.2f %12.2f\n' "$round" "$kind" "$conns" "${rps[$kind]}" "${cpu[$kind]}" \
        "$(awk -v a="${rps[$kind]}" -v b="${rps[floor]}" 'BEGIN {print a / b}')" \
        "$(awk -v a="${cpu[$kind]}" -v b="${cpu[floor]}" 'BEGIN {print a / b}')"
    done
  done
done
