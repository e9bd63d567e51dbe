#!/usr/bin/env bash
# The tests under ThreadSanitizer and AddressSanitizer, each in a build
# folder of its own. Run it on every change that touches concurrency.
#
#   Scripts/sanitizers.sh            # core, thread, then address
#   SANITIZERS=core Scripts/sanitizers.sh      # what the test command runs
#   FILTER="PumpTests|GroupCommit" SANITIZERS=thread Scripts/sanitizers.sh
#
# core     SwitchboardCore's tests (the bus, group commit, the pump, parked
#          subscribers, presence, the directories) under ThreadSanitizer, in
#          a package of their own in .build-tsan-core: no dependencies, so it
#          builds in about 20 s. There each module's `Mutex` is a pthread
#          mutex that the sanitizer sees (sanitizers/VisibleMutex.swift), so
#          every report counts: the run fails on any, and on a deliberate
#          race (sanitizers/RaceProbe.swift) that is not reported.
# thread   the concurrency tests of every module, in .build-tsan (6.5 min
#          from nothing: BoringSSL is rebuilt). The standard library's Mutex
#          locks where the sanitizer does not see it, so it reports the data
#          every Mutex.withLock guards: a report on a source line inside a
#          withLock closure is counted and set aside; the others are listed
#          by place, to review. The run fails when a test fails.
# address  every test but scale-out, in .build-asan; fails on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=${SANITIZERS:-"core thread address"}
concurrency="ParkedSubscribers|PumpTests|MessageBus|GroupCommit|Presence|ResumeTurns|ConnectionDirectory|NoticeBoard|ConversationDirectory|DeadlineScheduler|DeadlineHeap|LoopWakeups|HangupWatch|DaemonLifecycle|SeveralWorkers"
logs=$(mktemp -d -t switchboard-sanitizers.XXXXXX)
trap 'rm -rf "$logs"' EXIT
status=0
for sanitizer in $sanitizers; do
  scratch=.build-${sanitizer:0:1}san
  if [ "$sanitizer" != core ]; then
    echo "== $sanitizer sanitizer: building in $scratch"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | grep -E "error:|Compiling|Build complete" | tail -2
  fi
  case $sanitizer in
  core)
    package=.build-tsan-core
    echo "== thread sanitizer on SwitchboardCore's tests, a package of their own in $package"
    rm -rf "$package/Sources" "$package/Tests"
    # Copied afresh (new times), so nothing stale from an earlier run is linked.
    mkdir -p "$package/Sources/SwitchboardCore" "$package/Sources/SwitchboardTesting" "$package/Tests/SwitchboardCoreTests"
    cp Scripts/sanitizers/Package.swift.template "$package/Package.swift"
    cp -r Sources/CICU Sources/CMalloc Sources/NameSecurity "$package/Sources/"
    find Sources/SwitchboardCore -name '*.swift' -exec cp {} "$package/Sources/SwitchboardCore/" \;
    cp Tests/SwitchboardCoreTests/*.swift Scripts/sanitizers/RaceProbe.swift "$package/Tests/SwitchboardCoreTests/"
    # The test helpers that need nothing but SwitchboardCore (the in-memory,
    # failing and gated stores, the blocking bus calls).
    # (Read into a variable first: in a pipe under pipefail, `grep -q` quitting
    # at its first match made the first grep die of SIGPIPE on a long file,
    # the pipe "fail", and TestServer.swift be copied, now and then.)
    for file in Sources/SwitchboardTesting/*.swift; do
      imports=$(grep -v "^import SwitchboardCore$" "$file")
      grep -qE "^(@_exported )?import (Foundation|Glibc|Logging|Switchboard[A-Za-z]*)$" <<<"$imports" \
        || cp "$file" "$package/Sources/SwitchboardTesting/"
    done
    for module in Sources/SwitchboardCore Sources/SwitchboardTesting Tests/SwitchboardCoreTests; do
      cp Scripts/sanitizers/VisibleMutex.swift "$package/$module/"
    done
    (cd "$package" && swift build --build-tests --sanitize=thread 2>&1 | grep -E "error:|Build complete" | sort -u | tail -8)
    # A report in the probe proves the sanitizer is on; none anywhere else is allowed.
    mkdir -p "$logs/probe" "$logs/core"
    (cd "$package" && TSAN_OPTIONS="exitcode=0 log_path=$logs/probe/tsan" swift test --skip-build --sanitize=thread \
      --filter aDeliberateRaceIsReported >"$logs/probe.log" 2>&1) || status=1
    probe=$(cat "$logs"/probe/tsan* 2>/dev/null | grep -c "SUMMARY: ThreadSanitizer: data race .*RaceProbe.swift" || true)
    (cd "$package" && TSAN_OPTIONS="exitcode=0 log_path=$logs/core/tsan" swift test --skip-build --sanitize=thread \
      --skip aDeliberateRaceIsReported >"$logs/core.log" 2>&1) || status=1
    grep -E "✘|Test run with|error:" "$logs/core.log" | head -20
    reports=$(cat "$logs"/core/tsan* 2>/dev/null | grep -c "WARNING: ThreadSanitizer" || true)
    echo "thread sanitizer on SwitchboardCore: $reports reports (the deliberate race: $probe)"
    if [ "$probe" -eq 0 ]; then echo "FAILED: the deliberate race was not reported: is the sanitizer on?" >&2; status=1; fi
    if [ "$reports" -gt 0 ]; then
      cat "$logs"/core/tsan* | grep -E -A12 "WARNING: ThreadSanitizer" | grep -E "WARNING|#[0-3] " | head -60
      status=1
    fi ;;
  thread)
    filter=${FILTER:-$concurrency}
    TSAN_OPTIONS="exitcode=0 log_path=$logs/tsan" swift test --skip-build --sanitize=thread --scratch-path "$scratch" \
      --filter "$filter" >"$logs/thread.log" 2>&1 || status=1
    grep -E "✘|Test run with|error:" "$logs/thread.log" | head -20
    python3 - "$logs" <<'PY'
import glob, os, re, sys
reports = []
for path in glob.glob(sys.argv[1] + "/tsan*"):
    text = open(path, errors="replace").read()
    reports += ["WARNING: ThreadSanitizer" + part for part in text.split("WARNING: ThreadSanitizer")[1:]]
def guarded(report):
    """An access on a source line inside a withLock closure (the frame's line or the six above)."""
    for file, line in re.findall(r"(/[^ ]+\.swift):(\d+):\d+", report):
        if os.path.exists(file):
            lines = open(file, errors="replace").read().splitlines()
            if any("withLock" in text for text in lines[max(0, int(line) - 7):int(line)]):
                return True
    return False
others = [r for r in reports if not guarded(r)]
print(f"thread sanitizer: {len(reports)} reports, {len(reports) - len(others)} on lines inside a Mutex.withLock "
      f"(whose lock TSan does not see), {len(others)} to review")
seen = set()
for report in others:
    where = tuple(re.findall(r"(Sources/[^ ]+\.swift:\d+)", report)[:2])
    if where not in seen:
        seen.add(where)
        print("  review:", " / ".join(where) or report.splitlines()[0])
PY
    ;;
  address)
    filter=${FILTER:-}
    # Suppressed: swift-corelibs-foundation's Process.run, which reads past a
    # buffer (Scripts/sanitizers/asan.supp); leaks are not checked (the test
    # runner's own 144 bytes at start).
    ASAN_OPTIONS="suppressions=$PWD/Scripts/sanitizers/asan.supp:detect_leaks=0" \
    swift test --skip-build --sanitize=address --scratch-path "$scratch" ${filter:+--filter "$filter"} \
      --skip ScaleOutTests >"$logs/address.log" 2>&1 || status=1
    grep -E "✘|Test run with|ERROR: AddressSanitizer|SUMMARY" -A5 "$logs/address.log" | head -40 ;;
  *) echo "unknown sanitizer $sanitizer (core, thread, address)" >&2; exit 2 ;;
  esac
done
exit $status
