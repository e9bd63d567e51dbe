#!/usr/bin/env bash
# Fuzzes the raw TCP line protocol (LineFramer + LineSession + formats) with
# libFuzzer for a bounded time, SECONDS (default 60). A crash leaves its input
# in Fuzz/crashes/; make each such input a regression test in
# Tests/SwitchboardTCPTests (LineFramerTests or LineSessionTests).
#   SECONDS_TO_RUN=300 Scripts/fuzz.sh
# Exit 1 when the target does not build or libFuzzer finds a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_TO_RUN:-60}
work=$(mktemp -d -t switchboard-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
# One module: the domain's sources and the protocol's files, without the
# import between them.
mkdir -p "$work/src" Fuzz/corpus Fuzz/crashes
cp Sources/SwitchboardCore/*.swift "$work/src/"
for file in LineFramer LineSession LineFormat AppLineFormat; do
  sed '/^import SwitchboardCore$/d' "Sources/SwitchboardTCP/$file.swift" > "$work/src/$file.swift"
done
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name LineProtocolFuzz \
  "$work"/src/*.swift Fuzz/LineProtocolFuzz.swift -o "$work/fuzz"
printf 'iam:luke\nmsg:hi\n' > Fuzz/corpus/seed-lines
printf '\x20iam:doge\xffmsg:such wow\xffjoin:x\xffwho:\xffsince:3\xffping:1' > Fuzz/corpus/seed-app
"$work/fuzz" -max_total_time="$seconds" -artifact_prefix=Fuzz/crashes/ -print_final_stats=1 Fuzz/corpus 2>&1 | tail -25
