#!/usr/bin/env bash
# Switchboard beside Nchan, in one run, with one load client.
#
# Installs Debian's nginx-light and libnginx-mod-nchan if missing, starts
# Nchan (nginx, 1 worker, loopback, a free port) configured with
# Switchboard's paths for SSE and publishing and its own long-poll, and a
# release Switchboard on free ports with a throwaway database on disk. Then
# runs the same workloads against both with `switchboard bench` (the
# project's SwiftNIO load client) and wrk, and prints each figure with its
# ratio (Switchboard / Nchan). Bounded in time; loopback only; every server
# is stopped by its PID at the end.
#
#   Scripts/peers.sh            # everything (5 to 12 minutes, by the host)
#   WORKLOADS="sse1000 publish" Scripts/peers.sh
#   RESULTS=/tmp/peers.jsonl Scripts/peers.sh   # and keep the raw JSON lines
#   RUNS=3 Scripts/peers.sh     # three runs, then each row's median ratio (as
#                               # docs/BENCHMARKS.md reports them); with RESULTS=/tmp/peers,
#                               # each run's lines in /tmp/peers-1.jsonl ... -3.jsonl
#   SERVER_ARGS="--threads 1" Scripts/peers.sh  # every Switchboard started with these too
#   BINARY=.build-release/release/switchboard Scripts/peers.sh   # a build made elsewhere
#
# Workloads: sse1000 sse1000mem (the same against a Switchboard with --db
# :memory:, where no commit waits for the disk) sse5000 sse5000rate ws1000 ws5000 (WebSocket, 1,000 and
# 5,000 subscribers at 50/s) longpoll1000 longpollrates (at 25,
# 100 and 200/s, and 100 polls at 25/s; not run by default) idle5000 publish
# publishmem (a Switchboard with --db :memory:) shortpoll syscalls (per publish,
# perf's system call tracepoints) instructions
# (per delivery, under callgrind: Scripts/instructions.sh),
# and over TLS (a second pair, both serving only TLS with one throwaway
# certificate): tls-sse1000 tls-idle5000.
# Nchan keeps messages in memory; Switchboard's publishes are durable (each
# 201 after its commit is on disk): the publish rows compare those.
set -euo pipefail
cd "$(dirname "$0")/.."
WORKLOADS=${WORKLOADS:-"idle5000 tls-idle5000 sse1000 sse1000mem tls-sse1000 sse5000 sse5000rate ws1000 ws5000 longpoll1000 publish publishmem shortpoll syscalls instructions"}
SECONDS_PER_WRK=${SECONDS_PER_WRK:-5}

Scripts/install-deps.sh
. Scripts/nchan-conf.sh
mapfile -t missing < <(nchan_missing)
command -v wrk >/dev/null || missing+=(wrk)
command -v perf >/dev/null || missing+=(linux-perf)
Scripts/apt-install.sh "${missing[@]+"${missing[@]}"}"
ulimit -n "$(ulimit -Hn)"
# BINARY=path: a release build made elsewhere (e.g. with --scratch-path), used as it is.
if [ -z "${BINARY:-}" ]; then swift build -c release --product switchboard >&2; fi
binary=${BINARY:-.build/release/switchboard}

# RUNS=N: the whole of this N times, each with servers started afresh, then
# every row's median ratio and each run's (Scripts/peers_table.py).
if [ "${RUNS:-1}" -gt 1 ]; then
  prefix=${RESULTS:-$(mktemp -d -t switchboard-peers-runs.XXXXXX)/run}
  files=()
  for run in $(seq "$RUNS"); do
    echo "== run $run of $RUNS"
    files+=("$prefix-$run.jsonl")
    RUNS=1 BINARY="$binary" RESULTS="${files[-1]}" Scripts/peers.sh
  done
  echo
  echo "== the median of $RUNS runs (each run's raw JSON lines: ${files[*]})"
  python3 Scripts/peers_table.py "${files[@]}"
  exit 0
fi

work="$(mktemp -d -t switchboard-peers.XXXXXX)"
chmod 755 "$work"
. Scripts/bench-lib.sh  # free_port, cpu_seconds
nchan_port=$(free_port) http_port=$(free_port) tcp_port=$(free_port)
pids=()
cleanup() {
  for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start_nchan DIR PORT [CERT KEY]: Nchan (one worker, Switchboard's paths)
# with its files in DIR; sets nchan_worker to its worker's pid.
start_nchan() {
  local dir=$1 port=$2
  mkdir -p "$dir"
  nchan_conf "$dir" "$port" on "${@:3}" >"$dir/nginx.conf"
  nginx -c "$dir/nginx.conf" -p "$dir" 2>"$dir/nginx-start.log" &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$dir/nginx.pid" ] && pgrep -P "$(cat "$dir/nginx.pid")" >/dev/null && break; sleep 0.1; done
  nchan_worker=$(pgrep -P "$(cat "$dir/nginx.pid" 2>/dev/null)" | head -1)
  [ -n "$nchan_worker" ] || { cat "$dir/nginx-start.log" "$dir/nginx-error.log" >&2; exit 1; }
}
# start_switchboard HTTP_PORT TCP_PORT DB [ARGS...]: a release Switchboard; sets switchboard_pid.
start_switchboard() {
  local http=$1 tcp=$2 db=$3
  "$binary" serve --http "127.0.0.1:$http" --tcp "127.0.0.1:$tcp" --db "$db" \
    --log-level warning --admin-token peers --max-connections 20000 ${SERVER_ARGS:-} "${@:4}" &
  switchboard_pid=$!
  pids+=($switchboard_pid)
  for _ in $(seq 100); do curl -fsk "$( [[ " $* " == *" --tls-cert "* ]] && echo https || echo http)://127.0.0.1:$http/healthz" >/dev/null 2>&1 && return; sleep 0.1; done
  echo "Switchboard did not start on :$http" >&2; exit 1
}

# --- Nchan and Switchboard (database on disk), each as deployed.
start_nchan "$work/nchan" "$nchan_port"
start_switchboard "$http_port" "$tcp_port" "$work/switchboard.sqlite"
curl -s -o /dev/null "http://127.0.0.1:$nchan_port/static"
echo "machine: $(nproc) cores, $(uname -r); nginx $(nginx -v 2>&1 | sed 's/.*\///'), Nchan $(dpkg-query -W -f='${Version}' libnginx-mod-nchan 2>/dev/null)"
echo "Switchboard pid $switchboard_pid on :$http_port; Nchan worker pid $nchan_worker on :$nchan_port"
# --- The tls-* workloads: a second pair, fresh, serving only TLS with one
# throwaway certificate (P-256): nginx `ssl`, Switchboard --tls-cert/--tls-key
# (libmicrohttpd's GnuTLS).
tls_nchan_port="" tls_http_port="" plain=("$switchboard_pid" "$nchan_worker")
if [[ " $WORKLOADS " == *" tls-"* ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  tls_nchan_port=$(free_port) tls_http_port=$(free_port)
  start_nchan "$work/nchan-tls" "$tls_nchan_port" "$work/cert.pem" "$work/key.pem"
  tls_nchan_worker=$nchan_worker
  start_switchboard "$tls_http_port" "$(free_port)" "$work/switchboard-tls.sqlite" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
  tls_switchboard_pid=$switchboard_pid
  echo "over TLS: Switchboard pid $tls_switchboard_pid on :$tls_http_port; Nchan worker pid $tls_nchan_worker on :$tls_nchan_port"
fi
# --- publishmem, sse1000mem: a third Switchboard with no database (--db :memory:),
# for publishes and deliveries compared like with like (Nchan keeps messages in memory).
memory_http_port=""
if [[ " $WORKLOADS " == *" publishmem "* || " $WORKLOADS " == *" syscalls "* || " $WORKLOADS " == *" sse1000mem "* ]]; then
  memory_http_port=$(free_port)
  start_switchboard "$memory_http_port" "$(free_port)" :memory:
  memory_switchboard_pid=$switchboard_pid
fi
switchboard_pid=${plain[0]} nchan_worker=${plain[1]}

results="$work/results"
: >"$results"
# bench NAME SERVER TRANSPORT ARGS...: one `switchboard bench` run, its JSON appended to the results.
# A tls-* workload runs against the TLS pair, its client over TLS; a *mem one against the Switchboard on :memory:.
bench() {
  local name=$1 server=$2 transport=$3; shift 3
  local target=(--url "127.0.0.1:$http_port" --tcp "127.0.0.1:$tcp_port" --server-pid "$switchboard_pid")
  [[ $name == *mem ]] && target=(--url "127.0.0.1:$memory_http_port" --server-pid "$memory_switchboard_pid")
  [ "$server" = nchan ] && target=(--url "127.0.0.1:$nchan_port" --server-pid "$nchan_worker" --peer nchan)
  if [[ $name == tls-* ]]; then
    target=(--tls --url "127.0.0.1:$tls_http_port" --server-pid "$tls_switchboard_pid")
    [ "$server" = nchan ] && target=(--tls --url "127.0.0.1:$tls_nchan_port" --server-pid "$tls_nchan_worker" --peer nchan)
  fi
  local line
  line=$("$binary" bench --json --transport "$transport" "${target[@]}" "$@") || true
  [ -n "$line" ] || line='{}'
  echo "{\"workload\":\"$name\",\"server\":\"$server\",\"result\":$line}" >>"$results"
}
# wrk_run NAME SERVER CONNECTIONS URL [lua]: requests/s and latency, appended to the results.
wrk_run() {
  local name=$1 server=$2 connections=$3 url=$4 script=${5:-}
  local threads=$(( connections < 2 ? 1 : 2 ))
  local out
  out=$(wrk -t"$threads" -c"$connections" -d"${SECONDS_PER_WRK}s" --latency ${script:+-s "$script"} "$url")
  local rps p99 non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '/ 99%/ {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "{\"workload\":\"$name\",\"server\":\"$server\",\"wrk\":{\"rps\":${rps:-0},\"p99\":\"${p99:-?}\",\"non2xx\":${non2xx:-0}}}" >>"$results"
}
# publish_run NAME SERVER PID CONNECTIONS URL: wrk publishing, and the server's CPU meanwhile (NAME-cpu).
publish_run() {
  local name=$1 server=$2 pid=$3 connections=$4 url=$5 before after
  before=$(cpu_seconds "$pid")
  wrk_run "$name" "$server" "$connections" "$url" Scripts/wrk-publish.lua
  after=$(cpu_seconds "$pid")
  echo "{\"workload\":\"$name-cpu\",\"server\":\"$server\",\"cpu_percent\":$(awk -v a="$after" -v b="$before" -v s="$SECONDS_PER_WRK" 'BEGIN {print (a - b) / s * 100}')}" >>"$results"
}

# published SERVER PORT: messages published so far, by the server's own count.
published() {
  if [ "$1" = nchan ]; then
    curl -fs "http://127.0.0.1:$2/nchan_status" | awk -F': ' '/total published messages/ {print $2}'
  else
    curl -fs "http://127.0.0.1:$2/metrics" | awk '/^switchboard_messages_published_total/ {print $2}'
  fi
}
# syscalls_run NAME SERVER PID PORT: system calls per publish, counted by
# the kernel's tracepoints on every thread (`perf stat -e syscalls:sys_enter_*`)
# for 3 s of a 64-connection wrk run, with the calls that make it up: a count
# that does not move with the machine's noise, taken with the server at its
# own speed (under `strace -c` every call stopped the server, which changed
# how its publishes batched).
syscalls_run() {
  local name=$1 server=$2 pid=$3 port=$4
  wrk -t2 -c64 -d8s -s Scripts/wrk-publish.lua "http://127.0.0.1:$port/api/rooms/wrk/messages" >/dev/null &
  local load=$! before after
  sleep 2
  # The publishes are counted inside perf's window (setting up its hundreds
  # of counters takes a moment), by the command it runs while counting.
  export -f published
  perf stat -x, -e 'syscalls:sys_enter_*' -p "$pid" -o "$work/perf-$name-$server" -- bash -c \
    'published "$1" "$2" >"$3.before"; sleep 3; published "$1" "$2" >"$3.after"' _ "$server" "$port" "$work/perf-$name-$server" \
    >/dev/null 2>&1 || true
  before=$(cat "$work/perf-$name-$server.before" 2>/dev/null || echo 0)
  after=$(cat "$work/perf-$name-$server.after" 2>/dev/null || echo 0)
  wait $load
  if ! grep -q sys_enter "$work/perf-$name-$server" 2>/dev/null; then
    echo "perf could not count $server's system calls (perf_event_paranoid?): no $name row" >&2
    return 0
  fi
  python3 - "$work/perf-$name-$server" "$before" "$after" "$name" "$server" >>"$results" <<'PY'
import json, sys
path, before, after, name, server = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
calls = {}
for line in open(path):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0].isdigit() and fields[2].startswith("syscalls:sys_enter_") and int(fields[0]) > 0:
        calls[fields[2][len("syscalls:sys_enter_"):]] = int(fields[0])
publishes = max(after - before, 1)
print(json.dumps({"workload": name, "server": server, "per_publish": sum(calls.values()) / publishes,
                  "calls": {k: round(v / publishes, 2) for k, v in sorted(calls.items(), key=lambda kv: -kv[1])}}))
PY
}

# Memory per idle connection is measured first, while both servers are fresh
# (a server that held 5,000 connections before keeps that memory for reuse).
# (An if, not `[[ ]] && echo`: a list ending in an idle workload left that
# subshell failing, and set -e ended the run before any workload.)
ordered=$(for w in $WORKLOADS; do if [[ $w == *idle5000 ]]; then echo "$w"; fi; done
          for w in $WORKLOADS; do if [[ $w != *idle5000 ]]; then echo "$w"; fi; done)
for workload in $ordered; do
  echo "== $workload" >&2
  case $workload in
  sse1000|sse1000mem|tls-sse1000)
    for server in switchboard nchan; do bench $workload $server sse --clients 1000 --messages 200 --rate 50 --idle-seconds 0; done ;;
  sse5000)
    for server in switchboard nchan; do bench sse5000 $server sse --clients 5000 --messages 200 --closed-loop --publishers 1 --idle-seconds 0; done ;;
  sse5000rate)
    # The same 5,000 subscribers at one publish rate for both (open loop):
    # latency at equal load, which the closed loop cannot show (there each
    # server sets the rate by how fast it answers its publisher).
    for server in switchboard nchan; do bench sse5000rate $server sse --clients 5000 --messages 200 --rate 15 --idle-seconds 0; done ;;
  ws1000|ws5000)
    # WebSocket subscribers: each message a text frame (Nchan's
    # nchan_subscriber websocket on the same path).
    for server in switchboard nchan; do bench $workload $server websocket --clients ${workload#ws} --messages 200 --rate 50 --idle-seconds 0; done ;;
  longpoll1000)
    for server in switchboard nchan; do bench longpoll1000 $server long-poll --clients 1000 --messages 200 --rate 50 --idle-seconds 0; done ;;
  longpollrates)
    # The same 1,000 long polls at other rates (4 s each): the faster
    # messages come, the more each answer carries, and the fewer polls wait
    # parked (suspended) for the next one. Not in the default list.
    for rate in 25 100 200; do
      for server in switchboard nchan; do bench longpoll1000-$rate $server long-poll --clients 1000 --messages $((rate * 4)) --rate $rate --idle-seconds 0; done
    done
    # A quiet room: 100 polls, every one waiting when a message comes.
    for server in switchboard nchan; do bench longpoll100-25 $server long-poll --clients 100 --messages 200 --rate 25 --idle-seconds 0; done ;;
  idle5000|tls-idle5000)
    for server in switchboard nchan; do bench $workload $server sse --clients 5000 --messages 1 --rate 1 --idle-seconds 10; done ;;
  publish)
    for connections in 1 64; do
      for server in switchboard nchan; do
        port=$http_port pid=$switchboard_pid
        [ $server = nchan ] && port=$nchan_port pid=$nchan_worker
        publish_run "publish$connections" $server "$pid" $connections "http://127.0.0.1:$port/api/rooms/wrk/messages"
      done
    done ;;
  publishmem)
    # Nchan is always in memory: its rows are run here again, in the same minute.
    for connections in 1 64; do
      publish_run publishmem$connections switchboard "$memory_switchboard_pid" $connections "http://127.0.0.1:$memory_http_port/api/rooms/wrk/messages"
      publish_run publishmem$connections nchan "$nchan_worker" $connections "http://127.0.0.1:$nchan_port/api/rooms/wrkmem/messages"
    done ;;
  syscalls)
    # Nchan once: it is always in memory, and a count does not drift with
    # the minute as a rate does (its row serves both comparisons).
    syscalls_run syscalls switchboard "$switchboard_pid" "$http_port"
    syscalls_run syscalls nchan "$nchan_worker" "$nchan_port"
    syscalls_run syscallsmem switchboard "$memory_switchboard_pid" "$memory_http_port" ;;
  instructions)
    # Instructions per delivery under callgrind (each server alone, in one
    # process), the same load client: figures that do not move with the
    # machine's noise. Its own servers; about 4 minutes.
    NCHAN=1 TRANSPORTS="sse long-poll" CLIENTS=100 FEW=5 MANY=25 CLIENT="$binary" Scripts/instructions.sh >"$work/instructions.txt"
    awk '$1 == "switchboard" || $1 == "nchan" { printf "{\"workload\":\"instructions-%s\",\"server\":\"%s\",\"per_delivery\":%s,\"per_request\":%s}\n", $2, $1, $5, ($6 == "-" ? "null" : $6) }' \
      "$work/instructions.txt" >>"$results" ;;
  shortpoll)
    # A poller that is caught up (since = the room's last id): the common
    # case of short polling, answered from memory.
    last=$(curl -fs -d user=bench -d text=hello "http://127.0.0.1:$http_port/api/rooms/poll/messages" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    wrk_run shortpoll switchboard 64 "http://127.0.0.1:$http_port/api/rooms/poll/messages?since=$last"
    wrk_run shortpoll nchan 64 "http://127.0.0.1:$nchan_port/static" ;;
  *) echo "unknown workload $workload" >&2; exit 2 ;;
  esac
done
# RESULTS=path: keep every run's raw JSON (one line per server and workload).
if [ -n "${RESULTS:-}" ]; then cp "$results" "$RESULTS"; fi

python3 Scripts/peers_table.py "$results"
