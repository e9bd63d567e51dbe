#!/usr/bin/env bash
# Hours under mixed load: one server, every way in, clients that come, go,
# misbehave and vanish; then nothing acknowledged lost, every subscriber's
# messages in order and once, and memory and descriptors flat.
#
#   Scripts/soak.sh                  # 60 minutes, the release build
#   Scripts/soak.sh --minutes 3      # what CI runs (BINARY=.build/debug/switchboard)
#   Scripts/soak.sh --chaos          # and, halfway: SIGSTOP for 20 s, a full disk for 20 s
#
# Writes soak.csv (a sample every 10 s: RSS, descriptors, threads, CPU,
# connections, deliveries) and soak.svg to OUT (default: a new folder under
# /tmp, printed at the end). Exit 1 when anything was lost or doubled, a
# misbehaving client was not answered as it should be, or RSS or
# descriptors at the end exceed the figure after warm-up by over 10 %.
# The load: Scripts/soak.py, soak_clients.py, soak_misbehave.py, soak_plot.py (Python 3, no packages).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=60 chaos=()
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --chaos) chaos=(--chaos); shift ;;
    *) echo "usage: Scripts/soak.sh [--minutes N] [--chaos]" >&2; exit 2 ;;
  esac
done
if [ -z "${BINARY:-}" ]; then
  Scripts/install-deps.sh
  swift build -c release --product switchboard >&2
fi
binary=${BINARY:-.build/release/switchboard}
out=${OUT:-$(mktemp -d -t switchboard-soak.XXXXXX)}
work=$(mktemp -d -t switchboard-soak-db.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http_port=$(free_port) tcp_port=$(free_port)
server_pid="" mounted=""
cleanup() {
  [ -n "$server_pid" ] && kill -CONT "$server_pid" 2>/dev/null && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ -n "$mounted" ] && umount "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# With --chaos the database lives on a 64 MiB tmpfs that the soak fills for
# a while (a full disk); without the right to mount, that part is skipped.
tmpfs=()
if [ ${#chaos[@]} -gt 0 ] && mount -t tmpfs -o size=64m tmpfs "$work" 2>/dev/null; then
  mounted=1 tmpfs=(--tmpfs "$work")
fi
ulimit -n "$(ulimit -Hn)"
"$binary" serve --http "127.0.0.1:$http_port" --tcp "127.0.0.1:$tcp_port" --db "$work/soak.sqlite" \
  --admin-token soak --max-connections 20000 --log-level error &
server_pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$http_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "soak: $minutes min against pid $server_pid (:$http_port, TCP :$tcp_port), $("$binary" --version 2>/dev/null || echo switchboard)"
status=0
python3 Scripts/soak.py --port "$http_port" --tcp-port "$tcp_port" --pid "$server_pid" --minutes "$minutes" \
  --out "$out" "${chaos[@]+"${chaos[@]}"}" "${tmpfs[@]+"${tmpfs[@]}"}" || status=$?
kill -0 "$server_pid" 2>/dev/null || { echo "FAILED: the server is gone" >&2; status=1; }
exit $status
