#!/usr/bin/env bash
# The test command: installs what is missing, builds, smoke-tests the real
# `switchboard` binary with curl, drives the web page in headless chromium,
# soaks it for 2 minutes under mixed load with chaos, on one node and on two
# (Scripts/soak.sh), checks WebSocket conformance with Autobahn|Testsuite, then runs every Swift
# test (unit tests, and integration tests against real
# servers on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
Scripts/install-test-deps.sh
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# Every log of the run in one folder: removed when the run passes, kept (and
# named) when it fails.
logs="$(mktemp -d -t switchboard-test.XXXXXX)"
tidy() { if [ "$1" -eq 0 ]; then rm -rf "$logs"; else echo "(the run's logs are kept in $logs)"; fi; }
trap 'tidy $?' EXIT

# stage TITLE: heads a stage, and says how long the one before it took (the
# run's time is kept under 25 minutes: this says where it goes).
stage_name="installing and building" stage_start=$SECONDS timings=()
print_timings() {
    printf '%s\n' "${timings[@]}"
    echo "$(printf '%5d s' "$SECONDS")  in all"
}
stage() {
    timings+=("$(printf '%5d s  %s' $((SECONDS - stage_start)) "$stage_name")")
    stage_name=$1 stage_start=$SECONDS
    echo "== $1"
}

swift build --build-tests
swift build --product switchboard

stage "smoke test of the switchboard binary"
Scripts/smoke.sh .build/debug/switchboard
# The benchmarks' table of medians (Scripts/peers_table.py), on runs written by the test.
python3 Tests/Scripts/peers_table_test.py

# Beside the stages that follow (a browser, floods, hooks: mostly waiting on
# sockets and timers, one core idle), at the lowest priority so they keep
# their CPU: fuzzing every parser of a client's bytes (libFuzzer, 15 s a
# target, built unoptimised: that each builds and finds nothing quickly; run
# here so a target cannot fall behind the code again, as when LineSession
# gained its AccessControl and nothing noticed; the token target, jwt-kit
# built for libFuzzer, is left to Scripts/fuzz.sh), then ThreadSanitizer on
# the bus, group commit, the pump and presence (SwitchboardCore's tests).
# Joined, with its time and verdict, before the soaks.
# (In a process group of its own, set -m, so that a stage failing stops it whole.)
background_log="$logs/background"
set -m
(
    started=$SECONDS
    status=0
    echo "== fuzzing (libFuzzer, 15 s a target)"
    SECONDS_TO_RUN=15 TARGETS="line requests uploads" OPTIMIZE=-Onone nice -n 19 Scripts/fuzz.sh || status=1
    echo "   ($((SECONDS - started)) s)"
    started=$SECONDS
    echo "== ThreadSanitizer on SwitchboardCore's tests"
    SANITIZERS=core nice -n 19 Scripts/sanitizers.sh || status=1
    echo "   ($((SECONDS - started)) s)"
    exit $status
) >"$background_log" 2>&1 &
background=$!
set +m

stage "PostgreSQL for the scale-out tests"
# A throwaway server (Debian's PostgreSQL 15, installed if missing), stopped on exit.
pgdir="$(mktemp -d -t switchboard-postgres.XXXXXX)"
trap 'status=$?; kill -- -"$background" 2>/dev/null || true; Scripts/postgres.sh stop "$pgdir" || true
      if [ "$status" -ne 0 ]; then timings+=("$(printf "%5d s  %s (failed)" $((SECONDS - stage_start)) "$stage_name")"); print_timings; fi
      tidy "$status"' EXIT
if url="$(Scripts/postgres.sh start "$pgdir")"; then
    export SWITCHBOARD_TEST_POSTGRES="$url"
    echo "started $url"
else
    echo "PostgreSQL could not be started here: the scale-out tests are skipped"
fi

stage "the web page in a real browser"
python3 Tests/Browser/chat_page_test.py .build/debug/switchboard

stage "HTTPS and wss (a throwaway CA made with openssl)"
python3 Tests/TLS/tls_test.py .build/debug/switchboard

stage "side by side, in three lanes: security (floods of pings, joins, sign-ins and sign-ups, a forged Host, TLS suites and renegotiation, a reader that stops reading; one address's connections past its limit on every TLS port) | webhooks and the publish hook to a backend on loopback that checks every signature, then attachments (photos, video, voice on every way in; refusals, ranges, access, cut-off uploads, a 100 MiB upload's memory), then a backup of a server taking publishes and a server started on it | Web Push to a push service on loopback that verifies every VAPID header and decrypts every payload, a stalled store (SQLite locked by another process, a PostgreSQL of its own frozen, 8 s each), several nodes on PostgreSQL (kill -9 of a node, the database restarted)"
# These mostly wait on timers and sockets (a sign-in throttle's minute, a
# receiver's retries, a frozen store's deadline, a node's restart), each with
# its own server, database and ports, and what they check are bounds, not
# speeds: three lanes take the time of the longest (about 110 s here rather
# than 280). Each test's output is printed whole after the lanes, with how
# long it took.
# lane TEST...: runs the tests one after another in the background, stopping
# at the first that fails, their output kept in a log of the lane's own.
lane_logs=() lane_pids=()
lane() {
    local log test started
    log="$logs/lane${#lane_logs[@]}"
    lane_logs+=("$log")
    for test in "$@"; do
        started=$SECONDS
        echo "== $test"
        python3 "$test" .build/debug/switchboard || { echo "== $test FAILED"; exit 1; }
        echo "   ($((SECONDS - started)) s)"
    done >"$log" 2>&1 &
    lane_pids+=($!)
}
several_nodes=()
if [ -n "${SWITCHBOARD_TEST_POSTGRES:-}" ]; then several_nodes=(Tests/ScaleOut/scaleout_test.py); fi
lane Tests/Security/security_test.py Tests/Security/address_limit_test.py Tests/Security/open_files_test.py Tests/Security/options_test.py
lane Tests/Hooks/hooks_test.py Tests/Media/media_test.py Tests/Backup/backup_test.py
lane Tests/Push/push_test.py Tests/Stall/stall_test.py "${several_nodes[@]}"
lanes_status=0
for pid in "${lane_pids[@]}"; do wait "$pid" || lanes_status=1; done
cat "${lane_logs[@]}"
if [ -z "${SWITCHBOARD_TEST_POSTGRES:-}" ]; then echo "PostgreSQL could not be started here: the tests on several nodes are skipped"; fi
if [ "$lanes_status" -ne 0 ]; then echo "== a test in the lanes FAILED (above)"; exit 1; fi

stage "fuzzing and ThreadSanitizer, run beside the stages above: their output"
background_status=0
wait "$background" || background_status=$?
cat "$background_log"
if [ "$background_status" -ne 0 ]; then echo "== fuzzing or ThreadSanitizer FAILED (above)"; exit 1; fi

stage "soaks side by side, 2 minutes each with chaos: one node (every way in, churn, misbehaving clients, SIGSTOP, the database locked, a full disk) and two nodes on a PostgreSQL of their own (PostgreSQL frozen, kill -9 of a node and its restart, PostgreSQL stopped); WebSocket conformance (Autobahn|Testsuite, ws, then wss on --wss: TLS in SwiftNIO) beside them"
# Each has its own server, database and ports. The soaks' chaos is mostly
# waiting (a server stopped, a database frozen) and Autobahn's cases are
# conformance, not timing: together they take the time of one soak.
soak_one_log="$logs/soak-one.log" soak_two_log="$logs/soak-two.log"
OUT="$logs/soak-one" BINARY=.build/debug/switchboard Scripts/soak.sh --minutes 2 --chaos >"$soak_one_log" 2>&1 &
soak_one=$!
if [ -n "${SWITCHBOARD_TEST_POSTGRES:-}" ]; then
    OUT="$logs/soak-two" BINARY=.build/debug/switchboard Scripts/soak.sh --minutes 2 --chaos --nodes 2 >"$soak_two_log" 2>&1 &
else
    echo "PostgreSQL could not be started here: the soak on two nodes is skipped" >"$soak_two_log" &
fi
soak_two=$!
side_status=0
Scripts/autobahn.sh .build/debug/switchboard || side_status=1
TLS=nio Scripts/autobahn.sh .build/debug/switchboard || side_status=1
wait "$soak_one" || side_status=1
wait "$soak_two" || side_status=1
echo "== the soak on one node"
cat "$soak_one_log"
echo "== the soak on two nodes"
cat "$soak_two_log"
if [ "$side_status" -ne 0 ]; then echo "== a soak or WebSocket conformance FAILED (above)"; exit 1; fi

stage "swift test"
# A crash prints the crashing thread only, so its cause stays in view.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none}"
log="$logs/swift-test"
# The scale-out suite (several nodes and PostgreSQL each) and the raw TCP
# flood (over 100,000 lines in 3 s) run after the rest, each on its own, so
# their load does not overlap the timing-sensitive tests on 2 cores.
for selection in "--skip ScaleOutTests --skip RawTCPHardeningTests" "--filter RawTCPHardeningTests" "--filter ScaleOutTests"; do
    if ! swift test --skip-build $selection 2>&1 | tee "$log"; then
        echo "== swift test FAILED; the failures and any crash, from $log:"
        grep -E -A3 "✘|Fatal error|Program crashed|crashed:$|error:" "$log" | head -80
        exit 1
    fi
done
stage "every stage passed; the time each took"
print_timings
