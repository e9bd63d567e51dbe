#!/usr/bin/env bash
# Instructions per delivery and per publish, counted by valgrind's callgrind:
# figures that do not move with the machine's noise, for comparing two builds.
#
# For each of TRANSPORTS, a server (SERVER, default this tree's release
# build) runs under callgrind on free ports with a throwaway SQLite file;
# `switchboard bench` (this tree's release build: the same load client for
# every server measured) holds CLIENTS subscribers and publishes closed loop
# (each message after the last was delivered). The run is made twice, with
# FEW and with MANY messages, each after WARM messages of warm-up and the
# counters then zeroed; the difference of the two totals, divided by
# the extra deliveries, is the cost of one delivery with start-up,
# connection and shutdown costs cancelled out. CLIENTS=1 gives the cost of a
# publish (with its one delivery).
#
#   Scripts/instructions.sh                                   # this tree
#   SERVER=/work/before/.build/release/switchboard Scripts/instructions.sh
#   TRANSPORTS="tcp" CLIENTS=1 Scripts/instructions.sh
#   CLIENT=path/to/switchboard ...                            # a load client built elsewhere
#   KEEP=/tmp/profiles ...                                    # keep the callgrind files
#   SERVER_ARGS="--connection-memory-kib 8" ...              # Switchboard started with these too
#   BENCH_ARGS="--conversation" TRANSPORTS=long-poll ...      # signed-in members of a group (a
#                                                             # session token on every request)
#   NCHAN=1 TRANSPORTS="sse websocket" Scripts/instructions.sh # and Nchan beside it (nginx
#                                                             # in one process under callgrind)
#   REP_STRINGS=1 ...                                         # glibc's default string code
#
# Callgrind counts a `rep stosb` or `rep movsb` once per byte: glibc uses
# them for a memset or memcpy over 2 KiB, and one 12 KiB memset then counts
# 12,300 instructions where its vector loop (what the processor runs in the
# same time) counts 700. Both servers are counted with glibc's vector loops
# (GLIBC_TUNABLES below) unless REP_STRINGS is set; see docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
TRANSPORTS=${TRANSPORTS:-"sse websocket tcp long-poll"}
CLIENTS=${CLIENTS:-20} FEW=${FEW:-20} MANY=${MANY:-120} WARM=${WARM:-20}
command -v valgrind >/dev/null || Scripts/apt-install.sh valgrind
if [ -z "${CLIENT:-}" ]; then swift build -c release --product switchboard >&2; fi
client=${CLIENT:-.build/release/switchboard}
SERVER=${SERVER:-$client}
work="$(mktemp -d -t switchboard-instructions.XXXXXX)"
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# Valgrind 3.19 (Debian 12) gives up on the Swift toolchain's debug info
# ("Possibly corrupted debuginfo file"): count on a copy without it.
strip --strip-debug -o "$work/server" "$SERVER"
string_code=()
[ -n "${REP_STRINGS:-}" ] || string_code=(env GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=1000000000:glibc.cpu.x86_rep_movsb_threshold=1000000000)
. Scripts/bench-lib.sh  # free_port

# total SERVER TRANSPORT MESSAGES: the server's instruction count for one
# run; SERVER is switchboard or nchan.
total() {
  local kind=$1 transport=$2 messages=$3 http tcp out target=()
  http=$(free_port) tcp=$(free_port) out="$work/callgrind.$kind.$transport.$messages"
  rm -rf "$work/db.sqlite"* "$work/nginx"
  if [ "$kind" = nchan ]; then
    mkdir -p "$work/nginx"
    nchan_conf "$work/nginx" "$http" off >"$work/nginx/nginx.conf"
    "${string_code[@]}" valgrind --tool=callgrind --callgrind-out-file="$out" nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" \
      >"$work/server.log" 2>&1 &
    server_pid=$!
    target=(--url "127.0.0.1:$http" --peer nchan)
    for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$http/static" && break; sleep 0.1; done
  else
    "${string_code[@]}" valgrind --tool=callgrind --callgrind-out-file="$out" "$work/server" serve \
      --http "127.0.0.1:$http" --tcp "127.0.0.1:$tcp" --db "$work/db.sqlite" \
      --admin-token instructions ${SERVER_ARGS:-} >"$work/server.log" 2>&1 &
    server_pid=$!
    target=(--url "127.0.0.1:$http" --tcp "127.0.0.1:$tcp")
  fi
  local up=
  for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$http/healthz" && { up=1; break; }; sleep 0.1; done
  [ -n "$up" ] || { echo "the server did not start under valgrind:" >&2; tail -5 "$work/server.log" >&2; exit 1; }
  # A warm-up run first, then the counters zeroed: what a server does once (the Swift runtime's first
  # look-ups of a conformance: 63 M instructions in one profile) fell in whichever run first took that
  # path, and raw TCP's figure moved 5,111 -> 16,451 between runs.
  local run=(bench "${target[@]}" --transport "$transport" --json --clients "$CLIENTS" --closed-loop --publishers 1
             --idle-seconds 0 --connect-batch 10 ${BENCH_ARGS:-})
  "$client" "${run[@]}" --messages "$WARM" >"$work/bench.log" 2>&1 || { cat "$work/bench.log" >&2; exit 1; }
  callgrind_control --zero "$server_pid" >/dev/null 2>&1 || { echo "callgrind_control could not zero the counters" >&2; exit 1; }
  "$client" "${run[@]}" --messages "$messages" >"$work/bench.log" 2>&1 || { cat "$work/bench.log" >&2; exit 1; }
  kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$out" "$KEEP/"  # for callgrind_annotate
  # The server's instructions, and the requests the clients made while publishing.
  echo "$(awk '/^(summary|totals):/ { print $2; exit }' "$out") $(python3 -c 'import json,sys; print(json.loads(sys.stdin.read().splitlines()[-1])["requests"])' <"$work/bench.log")"
}

echo "server: $SERVER ($(git -C "$(dirname "$SERVER")" rev-parse --short HEAD 2>/dev/null || echo '?'))"
if [ -n "${REP_STRINGS:-}" ]; then echo "string code: glibc's default (rep stosb/movsb over 2 KiB)"
else echo "string code: glibc's vector loops (GLIBC_TUNABLES)"; fi
echo "each: $CLIENTS subscribers, $FEW then $MANY messages published closed loop"
servers=switchboard
if [ -n "${NCHAN:-}" ]; then
  . Scripts/nchan-conf.sh
  Scripts/apt-install.sh $(nchan_missing)
  servers="switchboard nchan"
fi
printf '%-12s %-10s %16s %16s %14s %12s\n' server transport "Ir ($FEW msgs)" "Ir ($MANY msgs)" "Ir/delivery" "Ir/request"
for transport in $TRANSPORTS; do
  for kind in $servers; do
    # Nchan is measured on SSE, WebSocket and long-poll (Scripts/nchan-conf.sh).
    if [ "$kind" = nchan ]; then case $transport in sse|websocket|long-poll) ;; *) continue ;; esac; fi
    read -r few few_requests <<<"$(total "$kind" "$transport" "$FEW")"
    read -r many many_requests <<<"$(total "$kind" "$transport" "$MANY")"
    per=$(( (many - few) / ((MANY - FEW) * CLIENTS) ))
    # Polling: what one answered request costs (how many messages an answer
    # carries moves with timing, even under valgrind, and the per-delivery
    # figure with it).
    per_request=-
    case $transport in long-poll|short-poll) [ "$many_requests" -gt "$few_requests" ] && per_request=$(( (many - few) / (many_requests - few_requests) )) ;; esac
    printf '%-12s %-10s %16s %16s %14s %12s\n' "$kind" "$transport" "$few" "$many" "$per" "$per_request"
  done
done
