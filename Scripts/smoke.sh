#!/usr/bin/env bash
# Starts the real binary on a free port, talks to it with curl as the README
# does, stops it with SIGTERM and checks it exits 0 with nothing lost.
# Usage: Scripts/smoke.sh PATH/TO/switchboard
set -euo pipefail
bin=${1:?path to the switchboard binary}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
passed=0 failed=0
check() { # check NAME COMMAND...
  if "${@:2}"; then passed=$((passed+1)); else echo "FAILED: $1" >&2; failed=$((failed+1)); fi
}

start() { # start [EXTRA FLAGS...]
  "$bin" serve --http "127.0.0.1:$port" --db "$work/db.sqlite" "$@" >>"$work/log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "$base/healthz" >/dev/null 2>&1 && return 0; sleep 0.1; done
  cat "$work/log" >&2; return 1
}

start
check "publish with curl -d" bash -c "curl -sf -d user=luke -d text=hi $base/api/rooms/lobby/messages | grep -q '\"id\":1,'"
check "short poll" bash -c "curl -sf '$base/api/rooms/lobby/messages?since=0' | grep -q '\"next\":1}'"
curl -sN "$base/api/rooms/lobby/events?since=0" >"$work/sse" &
sse=$!
curl -s "$base/api/rooms/lobby/messages?since=1&wait=30" >"$work/longpoll" &
poll=$!
sleep 0.5
curl -sf -d user=leia -d text=there "$base/api/rooms/lobby/messages" >/dev/null
wait "$poll"
check "long poll woken by publish" grep -q '"text":"there"' "$work/longpoll"
sleep 0.3
check "SSE replay then live" bash -c "grep -c '^id: ' '$work/sse' | grep -qx 2"
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
check "SIGTERM exits 0" test "$status" -eq 0
wait "$sse" || true
check "SSE stream ended on shutdown" bash -c "! kill -0 $sse 2>/dev/null"

start
check "messages survive a restart" bash -c "curl -sf '$base/api/rooms/lobby/messages?since=0' | grep -q '\"next\":2}'"
check "Last-Event-ID resume across restart" bash -c "curl -sN --max-time 1 -H 'Last-Event-ID: 1' '$base/api/rooms/lobby/events' | grep -c '^id: ' | grep -qx 1"
kill -TERM "$pid"; wait "$pid" || true

# No secret in a log line, even at trace level: a password (right and
# wrong), a session token in the header and in the query, a forged one.
start --log-level trace
password='correct horse battery staple'
curl -sf -d user=obiwan --data-urlencode "password=$password" "$base/api/accounts" >/dev/null
token=$(curl -sf -d user=obiwan --data-urlencode "password=$password" "$base/api/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
curl -s -H "Authorization: Bearer $token" -d text=hi "$base/api/rooms/lobby/messages" >/dev/null
curl -s "$base/api/rooms/lobby/messages?access_token=$token" >/dev/null
curl -s "$base/api/rooms/lobby/messages?access_token=x$token" >/dev/null
curl -s -d user=obiwan --data-urlencode "password=wrong $password" "$base/api/sessions" >/dev/null
kill -TERM "$pid"; wait "$pid" || true
check "no password or token in any log line at trace level" \
  bash -c "[ -n '$token' ] && [ -s '$work/log' ] && ! grep -qF -e '$password' -e '${token:-none}' '$work/log'"

# Durability under kill -9: 8 publishers keep posting (group commit batches
# them) while the server is killed; every id acknowledged with a 201 before
# the kill must be there after a restart, in a gap-free run of ids.
start
for worker in $(seq 1 8); do
  ( for n in $(seq 1 400); do
      curl -s --max-time 5 -d user=w$worker -d text=m$n "$base/api/rooms/durable/messages" | grep -o '"id":[0-9]*' | cut -d: -f2 || true
    done >"$work/acked.$worker" ) &
done
sleep 1.5
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
wait
start
curl -sf "$base/api/rooms/durable/messages?since=0&limit=1000" | grep -o '"id":[0-9]*' | cut -d: -f2 | sort -n >"$work/stored"
sort -n "$work"/acked.* >"$work/acked"
echo "kill -9 mid-stream: $(wc -l <"$work/acked") publishes acknowledged, $(wc -l <"$work/stored") stored"
check "kill -9: every acknowledged publish is stored ($(wc -l <"$work/acked") acknowledged)" \
  bash -c "[ -s '$work/acked' ] && [ -z \"\$(comm -23 '$work/acked' '$work/stored')\" ]"
kill -TERM "$pid"; wait "$pid" || true

# Exactly once under kill -9 (SPEC "Sending exactly once"): 8 publishers
# send with client ids while the server is killed; after a restart each
# sends every id it tried again. An id answered before the kill is answered
# 200 with the same message; one the kill cut off is stored now (201) or,
# if it was stored but never answered, answered 200; either way the room
# holds exactly one message per id tried.
start
for worker in $(seq 1 8); do
  ( for n in $(seq 1 300); do
      echo "w$worker-$n" >>"$work/tried.$worker"
      rc=0
      answer=$(curl -s --max-time 5 -H "Idempotency-Key: w$worker-$n" -d user=w$worker -d text=m$n \
                 "$base/api/rooms/once/messages") || rc=$?
      [ "$rc" -eq 7 ] && break  # refused: the server is gone; this one never reached it
      id=$(grep -o '"id":[0-9]*' <<<"$answer" | cut -d: -f2 || true)
      [ -n "$id" ] && echo "w$worker-$n $id" >>"$work/answered.$worker"
    done ) &
done
sleep 1.5
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
wait
start
once=$(python3 - "$base" "$work" <<'PY'
import glob, json, sys, urllib.request
base, work = sys.argv[1], sys.argv[2]
answered = dict(line.split() for path in glob.glob(f"{work}/answered.*") for line in open(path))
tried = [(path.rsplit(".", 1)[1], line.strip()) for path in glob.glob(f"{work}/tried.*") for line in open(path)]
same = late = fresh = wrong = 0
for worker, client_id in tried:
    text = "m" + client_id.split("-")[1]
    request = urllib.request.Request(f"{base}/api/rooms/once/messages", data=f"user=w{worker}&text={text}".encode(),
                                     headers={"Idempotency-Key": client_id})
    with urllib.request.urlopen(request, timeout=5) as response:
        status, message = response.status, json.load(response)
    if client_id in answered:
        same += status == 200 and str(message["id"]) == answered[client_id]
        wrong += not (status == 200 and str(message["id"]) == answered[client_id])
    elif status == 200:
        late += 1   # stored before the kill, never answered: the retry gets it
    else:
        fresh += 1
stored, after = [], 0
while True:
    with urllib.request.urlopen(f"{base}/api/rooms/once/messages?since={after}&limit=1000", timeout=5) as response:
        page = json.load(response)
    stored += [m.get("client_id") for m in page["messages"]]
    if not page["messages"]:
        break
    after = page["next"]
print(f"{len(tried)} {len(answered)} {same} {late} {fresh} {wrong} {len(stored)} {len(set(stored))}")
PY
)
read -r tried answered same late fresh wrong stored distinct <<<"$once"
echo "exactly once under kill -9: $tried tried, $answered answered before the kill ($same answered the same after), $late stored but unanswered, $fresh stored by the retry"
check "kill -9: every retry of an answered client id gets the same message" test "$wrong" -eq 0 -a "$same" -eq "$answered"
check "kill -9: one message per client id tried ($stored stored for $tried)" test "$stored" -eq "$tried" -a "$distinct" -eq "$tried"
kill -TERM "$pid"; wait "$pid" || true

echo "smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
