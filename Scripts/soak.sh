#!/usr/bin/env bash
# Hours under mixed load: one server, every way in, clients that come, go,
# misbehave and vanish; then nothing acknowledged lost, every subscriber's
# messages in order and once, and memory and descriptors flat.
#
#   Scripts/soak.sh                  # 60 minutes, the release build
#   Scripts/soak.sh --minutes 2      # what CI runs (BINARY=.build/debug/switchboard)
#   Scripts/soak.sh --chaos          # and, halfway: SIGSTOP for 20 s, the database
#                                    # locked by another process for 12 s, a full disk for 20 s
#   SERVER_ARGS="--threads 3" Scripts/soak.sh --minutes 3 --chaos
#                                    # the server started with these options too
#   Scripts/soak.sh --nodes 2 --chaos
#                                    # two nodes on a throwaway PostgreSQL; halfway:
#                                    # SIGSTOP of the first for 20 s, PostgreSQL frozen
#                                    # (SIGSTOP) for 12 s, kill -9 of the second and its
#                                    # restart 5 s later, PostgreSQL stopped for 15 s
#
# With two nodes, the first holds every kind of subscriber, the misbehaving
# clients and the samples (RSS and descriptors are checked on it); the
# second holds subscribers that come back with their cursor when it dies,
# and takes half the HTTP publishes.
# Writes soak.csv (a sample every 10 s: RSS, descriptors, threads, CPU,
# connections, deliveries) and soak.svg to OUT (default: a new folder under
# /tmp, printed at the end). Exit 1 when anything was lost or doubled, a
# misbehaving client was not answered as it should be, or RSS or
# descriptors at the end exceed the figure after warm-up by over 10 %.
# The load: Scripts/soak.py, soak_clients.py, soak_misbehave.py, soak_plot.py (Python 3, no packages).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=60 chaos=() nodes=1
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --chaos) chaos=(--chaos); shift ;;
    --nodes) nodes=$2; shift 2 ;;
    *) echo "usage: Scripts/soak.sh [--minutes N] [--chaos] [--nodes 1|2]" >&2; exit 2 ;;
  esac
done
case $nodes in 1|2) ;; *) echo "--nodes is 1 or 2" >&2; exit 2 ;; esac
if [ -z "${BINARY:-}" ]; then
  Scripts/install-deps.sh
  swift build -c release --product switchboard >&2
fi
binary=${BINARY:-.build/release/switchboard}
out=${OUT:-$(mktemp -d -t switchboard-soak.XXXXXX)}
mkdir -p "$out"
work=$(mktemp -d -t switchboard-soak-db.XXXXXX)
. Scripts/bench-lib.sh  # free_port
http_port=$(free_port) tcp_port=$(free_port)
server_pid="" mounted="" pgdir=""
cleanup() {
  [ -n "$server_pid" ] && kill -CONT "$server_pid" 2>/dev/null && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ -n "$mounted" ] && umount "$work" 2>/dev/null
  [ -n "$pgdir" ] && Scripts/postgres.sh stop "$pgdir" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
database=$work/soak.sqlite tmpfs=() second=()
if [ "$nodes" = 2 ]; then
  # A PostgreSQL of the soak's own, which the chaos stops and starts.
  pgdir=$(mktemp -d -t switchboard-soak-postgres.XXXXXX)
  database=$(Scripts/postgres.sh start "$pgdir")
  second_port=$(free_port) second_tcp_port=$(free_port)
  second=(--postgres-dir "$pgdir" --second-port "$second_port"
          --second-command "$binary serve --http 127.0.0.1:$second_port --tcp 127.0.0.1:$second_tcp_port --db $database
                            --admin-token soak --max-connections 20000 --log-level error")
# With --chaos the database lives on a 64 MiB tmpfs that the soak fills for
# a while (a full disk); without the right to mount, that part is skipped.
elif [ ${#chaos[@]} -gt 0 ] && mount -t tmpfs -o size=64m tmpfs "$work" 2>/dev/null; then
  mounted=1 tmpfs=(--tmpfs "$work")
fi
ulimit -n "$(ulimit -Hn)"
"$binary" serve --http "127.0.0.1:$http_port" --tcp "127.0.0.1:$tcp_port" --db "$database" \
  --admin-token soak --max-connections 20000 --log-level error ${SERVER_ARGS:-} &
server_pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$http_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "soak: $minutes min against pid $server_pid (:$http_port, TCP :$tcp_port)$([ "$nodes" = 2 ] && echo " and a second node (:$second_port) on $database"), $("$binary" --version 2>/dev/null || echo switchboard)"
status=0
python3 Scripts/soak.py --port "$http_port" --tcp-port "$tcp_port" --pid "$server_pid" --minutes "$minutes" \
  --out "$out" "${chaos[@]+"${chaos[@]}"}" "${tmpfs[@]+"${tmpfs[@]}"}" "${second[@]+"${second[@]}"}" || status=$?
kill -0 "$server_pid" 2>/dev/null || { echo "FAILED: the server is gone" >&2; status=1; }
exit $status
