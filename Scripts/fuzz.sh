#!/usr/bin/env bash
# Fuzzes every parser that reads a client's bytes with libFuzzer, each for a
# bounded time, SECONDS_TO_RUN (default 60) per target:
#   line      the raw TCP line protocol (LineFramer + LineSession + formats)
#   requests  the publish body (JSON and form, replies and locations), form decoding, the account
#             endpoints' fields, the poll parameters, Last-Event-ID and a
#             WebSocket client's text frame
#   uploads   what reads an upload and a download: the type sniffed from
#             a file's first bytes, the name it is kept under, a video's
#             size from its container, the Range header, an upload id
#   token     a token as a client presents it, and a signed token's claims,
#             through JWTTokenVerifier and jwt-kit (built as a package of its
#             own in .build-fuzz-token, Fuzz/TokenFuzzPackage: about 1.5 min
#             the first time; the test command leaves it out for that)
# A crash leaves its input in Fuzz/crashes/TARGET-*; make each such input a
# regression test beside the parser's unit tests.
#   SECONDS_TO_RUN=300 Scripts/fuzz.sh
#   TARGETS=requests Scripts/fuzz.sh
#   OPTIMIZE=-Onone Scripts/fuzz.sh   (what the test command runs: the three
#             targets build in 80 s rather than 190 s, and run 2-4 times slower)
# Exit 1 when a target does not build or libFuzzer finds a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_TO_RUN:-60}
optimize=${OPTIMIZE:--O}
targets=${TARGETS:-"line requests uploads token"}
work=$(mktemp -d -t switchboard-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p Fuzz/crashes

# gather DIR MODULE FILE...: into DIR (emptied), one module's sources:
# SwitchboardCore's and NameSecurity's (without their imports of each
# other), the named files (without their import of SwitchboardCore) and
# Fuzz/MODULE.swift. ICU and glibc's malloc.h come in as their C modules
# (c_modules, libraries).
c_modules=(-I Sources/CICU/include -I Sources/CMalloc)
libraries=(-licui18n -licuuc -licudata)
gather() {
  local dir=$1 module=$2; shift 2
  rm -rf "$dir" && mkdir -p "$dir"
  cp "Fuzz/$module.swift" "$dir/"
  for file in $(find Sources/SwitchboardCore Sources/NameSecurity -name '*.swift'); do
    sed '/^import NameSecurity$/d' "$file" > "$dir/$(basename "$file")"
  done
  for file in "$@"; do sed '/^import SwitchboardCore$/d' "Sources/$file.swift" > "$dir/$(basename "$file").swift"; done
}
failed_build() { grep -E "error" -A3 "$work/build-$1.log" >&2; echo "FAILED: fuzz target $1 does not build" >&2; exit 1; }

# build NAME MODULE FILE...: the target as one swiftc module (about a
# minute of one core each: the targets are built side by side).
build() {
  local name=$1 module=$2; shift 2
  gather "$work/src-$name" "$module" "$@"
  swiftc -sanitize=fuzzer,address -parse-as-library "$optimize" -module-name "$module" "${c_modules[@]}" "$work/src-$name"/*.swift \
    "$work/cicu.o" "${libraries[@]}" -o "$work/fuzz-$name" \
    2>"$work/build-$name.log" || failed_build "$name"
}

# build_token: the token target, whose verifier needs jwt-kit: the same
# module in a package with jwt-kit (Fuzz/TokenFuzzPackage).
build_token() {
  local package=.build-fuzz-token
  gather "$package/Sources/TokenFuzz" TokenFuzz SwitchboardAuth/JWTTokenVerifier SwitchboardAuth/TokenKeys \
    SwitchboardAuth/TokenPayload SwitchboardAuth/Blocking
  rm -rf "$package/Sources/FuzzerEntry"
  cp -r Fuzz/TokenFuzzPackage/Sources/FuzzerEntry "$package/Sources/"
  cp Fuzz/TokenFuzzPackage/Package.swift "$package/"
  rm -rf "$package/Sources/CICU" "$package/Sources/CMalloc"
  cp -r Sources/CICU Sources/CMalloc "$package/Sources/"
  (cd "$package" && swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library) >"$work/build-token.log" 2>&1 \
    || failed_build token
  cp "$package/.build/debug/TokenFuzz" "$work/fuzz-token"
}

# A crash is libFuzzer's to report (the Swift backtracer's own reading of
# the stack is not instrumented, and AddressSanitizer would report it).
export SWIFT_BACKTRACE=enable=no
status=0
# ICU's shim, once for every target.
clang -c -O1 -I Sources/CICU/include Sources/CICU/shim.c -o "$work/cicu.o"
builds=()
# Every target's seeds, and its build started in the background; then each run in turn.
for target in $targets; do
  corpus=Fuzz/corpus/$target
  mkdir -p "$corpus"
  case $target in
  line)
    build line LineProtocolFuzz SwitchboardTCP/LineFramer SwitchboardTCP/LineSession SwitchboardTCP/LineFormat SwitchboardTCP/AppLineFormat
    printf 'iam:luke\nmsg:hi\n' > "$corpus/seed-lines"
    printf '\x20iam:doge\xffmsg:such wow\xffjoin:x\xffwho:\xffsince:3\xffping:1' > "$corpus/seed-app" ;;
  requests)
    build requests RequestParsersFuzz SwitchboardHTTP/Parsing/PublishRequest SwitchboardHTTP/Parsing/FormURLEncoded \
      SwitchboardHTTP/Parsing/RequestFields SwitchboardHTTP/Parsing/PollParameters SwitchboardHTTP/Parsing/SwitchboardError+HTTP \
      SwitchboardWebSocket/WebSocketClientMessage SwitchboardWebSocket/WebSocketAct
    printf '\x00{"user":"luke","text":"hi \\u00e9"}' > "$corpus/seed-json"
    printf '\x00{"text":"","reply_to":3,"location":{"lat":51.5,"lon":-0.12,"accuracy":20}}' > "$corpus/seed-reply"
    printf '\x06{"react":7,"emoji":"\xf0\x9f\x91\x8d","on":false,"ref":1}' > "$corpus/seed-react"
    printf '\x06{"edit":7,"text":"fixed","ref":2}' > "$corpus/seed-edit"
    printf '\x00{"text":"once","client_id":"a-Z_9"}' > "$corpus/seed-client-id"
    printf '\x01user=luke&text=hi+%%C3%%A9' > "$corpus/seed-form"
    printf '\x03{"user":"leia","password":"secret","members":["a"]}' > "$corpus/seed-fields"
    printf '\x0412\xff100\xff25\xff' > "$corpus/seed-poll"
    printf '\x0542' > "$corpus/seed-cursor"
    printf '\x06{"text":"hi","ref":7,"room":"lobby"}' > "$corpus/seed-ws" ;;
  uploads)
    build uploads UploadReadersFuzz SwitchboardHTTP/Media/ByteRange
    printf '\x00image/jpeg\xff\xff\xd8\xff\xe0\x00\x10JFIF' > "$corpus/seed-jpeg"
    printf '\x00audio/webm\xff\x1a\x45\xdf\xa3\x9f\x42\x82\x84webm' > "$corpus/seed-webm"
    printf '\x00\x00\x00\x00\x20ftypisom' > "$corpus/seed-mp4"
    printf '\x01../../etc/pa\x00ss\xe2\x80\xaewd.jpg' > "$corpus/seed-name"
    printf '\x02\x05bytes=10-19' > "$corpus/seed-range"
    printf '\x03\x00\x00\x00\x10ftypisom\x00\x00\x02\x00\x00\x00\x00\x08moov' > "$corpus/seed-video" ;;
  token)
    build_token
    printf '\x00eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsdWtlIiwiZXhwIjoxOTAwMDAwMDAwfQ.c2ln' > "$corpus/seed-token"
    printf '\x01{"sub":"luke","exp":1900000000,"nbf":1700000000,"iat":1700000000,"jti":"j1","rooms":["lobby","team-*"]}' > "$corpus/seed-claims" ;;
  *) echo "unknown fuzz target $target (line, requests, uploads, token)" >&2; exit 2 ;;
  esac &
  builds+=($!)
done
for build in "${builds[@]}"; do wait "$build" || exit 1; done
for target in $targets; do
  corpus=Fuzz/corpus/$target
  echo "== fuzz target $target, $seconds s"
  "$work/fuzz-$target" -max_total_time="$seconds" -artifact_prefix="Fuzz/crashes/$target-" -print_final_stats=1 "$corpus" 2>&1 \
    | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY|Done)" || true
  if ls Fuzz/crashes/"$target"-* >/dev/null 2>&1; then echo "FAILED: $target crashed; inputs in Fuzz/crashes/" >&2; status=1; fi
done
exit $status
