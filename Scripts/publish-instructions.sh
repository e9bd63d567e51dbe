#!/usr/bin/env bash
# Instructions per publish, by thread, counted by valgrind's callgrind: how
# a publish's cost splits between libmicrohttpd's loop (the request, the
# route, the answer) and the commit thread (the store, the ring, the
# completions), figures that do not move with the machine's noise.
#
# A server (SERVER, default this tree's release build) runs under callgrind
# with each thread counted apart, on DB (default `:memory:`); one keep-alive
# connection sends FEW, then MANY, JSON publishes as `wrk` does
# (Scripts/wrk-publish.lua's body), each after the last was answered. The
# difference of the two runs, divided by the extra publishes, is one
# publish's cost on each thread, with start-up and shutdown cancelled out.
# With one connection every commit holds one publish (a transaction each);
# with CONNECTIONS (say 32) each connection sends FEW then MANY, and the
# commits hold groups, as on a busy server.
#
#   Scripts/publish-instructions.sh
#   SERVER=/work/before/.build/release/switchboard Scripts/publish-instructions.sh
#   DB=/tmp/publishes.sqlite Scripts/publish-instructions.sh     # durable
#   KEEP=/tmp/profiles Scripts/publish-instructions.sh           # keep the callgrind files
#   CONNECTIONS=32 Scripts/publish-instructions.sh               # publishes in groups
#   PEER=floor CONNECTIONS=32 Scripts/publish-instructions.sh    # the same publishes on Scripts/mhd-floor.c
#   PEER=nchan CONNECTIONS=32 Scripts/publish-instructions.sh    # and on Nchan (one nginx process)
#
# PEER=floor counts libmicrohttpd alone answering the same requests
# (Scripts/mhd-floor.c: no parsing, no store), PEER=nchan Nchan's publish
# (Scripts/nchan-conf.sh, its memory store): what the HTTP library costs,
# and what the peer's whole publish costs, beside Switchboard's.
set -euo pipefail
cd "$(dirname "$0")/.."
FEW=${FEW:-50} MANY=${MANY:-550} DB=${DB:-:memory:} CONNECTIONS=${CONNECTIONS:-1}
command -v valgrind >/dev/null || Scripts/apt-install.sh valgrind
if [ -z "${SERVER:-}" ] && [ -z "${PEER:-}" ]; then swift build -c release --product switchboard >&2; fi
SERVER=${SERVER:-.build/release/switchboard}
work="$(mktemp -d -t switchboard-publish-instructions.XXXXXX)"
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
PEER=${PEER:-}
case $PEER in
  # Valgrind 3.19 gives up on the toolchain's debug info: count on a copy without it.
  "") strip --strip-debug -o "$work/server" "$SERVER" ;;
  floor) Scripts/install-deps.sh  # libmicrohttpd's header
         clang -O2 -Wall -o "$work/mhd-floor" Scripts/mhd-floor.c -lmicrohttpd ;;
  nchan) . Scripts/nchan-conf.sh
         Scripts/apt-install.sh $(nchan_missing) ;;
  *) echo "PEER is floor or nchan (or unset: Switchboard)" >&2; exit 2 ;;
esac
. Scripts/bench-lib.sh  # free_port

# server_command HTTP TCP: the server counted, listening on HTTP.
server_command() {
  case $PEER in
    "") echo "$work/server serve --http 127.0.0.1:$1 --tcp 127.0.0.1:$2 --db $DB --log-level error --admin-token instructions" ;;
    floor) echo "$work/mhd-floor $1" ;;
    nchan) rm -rf "$work/nginx"; mkdir -p "$work/nginx"
           nchan_conf "$work/nginx" "$1" off >"$work/nginx/nginx.conf"
           echo "nginx -c $work/nginx/nginx.conf -p $work/nginx" ;;
  esac
}

# run COUNT: COUNT publishes under callgrind; its files are $work/cg.COUNT-NN, one a thread.
run() {
  local count=$1 http tcp up=
  http=$(free_port) tcp=$(free_port)
  [ "$DB" = ":memory:" ] || rm -f "$DB" "$DB-wal" "$DB-shm"
  # glibc's vector string loops, as Scripts/instructions.sh counts them.
  GLIBC_TUNABLES=glibc.cpu.x86_rep_stosb_threshold=1000000000:glibc.cpu.x86_rep_movsb_threshold=1000000000 \
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.$count" $(server_command "$http" "$tcp") \
    >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$http/healthz" && { up=1; break; }; sleep 0.1; done
  [ -n "$up" ] || { echo "the server did not start under valgrind:" >&2; tail -5 "$work/server.log" >&2; exit 1; }
  # Switchboard answers 201; Nchan 202 when the channel has no subscriber.
  python3 - "$http" "$count" "$CONNECTIONS" "$( [ -n "$PEER" ] && echo 201,202 || echo 201)" <<'PY'
import http.client, sys, threading
port, count, connections = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
answers = {int(status) for status in sys.argv[4].split(",")}
body = '{"id":1,"user":"bench","text":"a message of ordinary length for the benchmark"}'
failures = []
def publish():
    connection = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(count):
        connection.request("POST", "/api/rooms/bench/messages", body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        if answer.status not in answers:
            failures.append(answer.status)
            return
threads = [threading.Thread(target=publish) for _ in range(connections)]
for thread in threads: thread.start()
for thread in threads: thread.join()
if failures:
    sys.exit(f"a publish was answered {failures[0]}")
PY
  kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$work"/cg."$count"* "$KEEP/"
  return 0
}

# thread FILE: the thread a callgrind file counted, by the code it ran.
thread() {
  if grep -q 'DaemonLoopC3run' "$1"; then echo "libmicrohttpd's loop (mhd-loop)"
  elif grep -q 'GroupCommitC5drain' "$1"; then echo "the commit thread (sb-commit)"
  elif [ "$PEER" = floor ]; then echo "libmicrohttpd's thread"
  elif [ "$PEER" = nchan ]; then echo "nginx (one process)"
  else echo "thread ${1##*-}"; fi
}
total() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }

echo "server: ${PEER:-$SERVER}; database: $DB; $FEW then $MANY JSON publishes on each of $CONNECTIONS connection(s)"
run "$FEW"
run "$MANY"
printf '%-36s %14s\n' thread "Ir/publish"
for few in "$work"/cg."$FEW"-*; do
  many="$work/cg.$MANY-${few##*-}"
  [ -f "$many" ] || continue
  per=$(( ($(total "$many") - $(total "$few")) / ((MANY - FEW) * CONNECTIONS) ))
  if [ "$per" -ge 100 ]; then printf '%-36s %14s\n' "$(thread "$many")" "$per"; fi
done
