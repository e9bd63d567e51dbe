#!/usr/bin/env bash
# WebSocket conformance: Autobahn|Testsuite's fuzzing client against the
# server's test-only echo endpoint (`switchboard serve --websocket-echo`,
# /api/test/ws-echo), every case group but 9 (performance) and 12, 13
# (compression, not offered). Autobahn needs Python 2.7: it is installed into
# a throwaway PYTHONUSERBASE under .build/, never over the system's packages,
# and the script skips itself (exit 0, saying so) when Python 2.7 or the
# package cannot be had. Prints the case counts; exit 1 if any case FAILED.
#   Scripts/autobahn.sh [path/to/switchboard]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/switchboard}
# A python2.7 that runs (a pyenv shim for a version not selected does not),
# else one of pyenv's installed 2.7 versions.
python2=""
if python2.7 --version >/dev/null 2>&1; then python2=python2.7; fi
[ -n "$python2" ] || python2=$(ls -d "$HOME"/.pyenv/versions/2.7*/bin/python2.7 /root/.pyenv/versions/2.7*/bin/python2.7 2>/dev/null | head -1 || true)
if [ -z "$python2" ]; then
  echo "autobahn: skipped: Python 2.7 is not installed (Autobahn|Testsuite needs it)"
  exit 0
fi
export PYTHONUSERBASE="$PWD/.build/autobahn-python2"
if [ ! -x "$PYTHONUSERBASE/bin/wstest" ]; then
  if ! "$python2" -m pip install --user -q --disable-pip-version-check --no-warn-script-location autobahntestsuite \
       >"$PWD/.build/autobahn-install.log" 2>&1; then
    echo "autobahn: skipped: could not install autobahntestsuite for Python 2.7:"
    tail -5 "$PWD/.build/autobahn-install.log"
    exit 0
  fi
fi
work=$(mktemp -d -t switchboard-autobahn.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# TLS=1: the same suite over wss, through libmicrohttpd's TLS relay (a
# throwaway self-signed certificate; the suite's client does not verify it).
# TLS=1 is not in test.sh: every case's behaviour passes over the relay, but it
# closes only after the client does, so most closing handshakes end "FAILED BY
# CLIENT" (docs/BENCHMARKS.md, "ws against wss"). TLS=nio (wss on --wss, TLS
# in SwiftNIO) is clean and runs in test.sh.
scheme=ws tls=() socket_port=$port
if [ -n "${TLS:-}" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  scheme=wss tls=(--tls-cert "$work/cert.pem" --tls-key "$work/key.pem")
  if [ "$TLS" = nio ]; then  # TLS=nio: wss on the port of its own (--wss), TLS in SwiftNIO
    socket_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    tls+=(--wss "127.0.0.1:$socket_port")
  fi
fi
"$binary" serve --http "127.0.0.1:$port" --tcp off --db :memory: --admin-token autobahn --log-level error --websocket-echo \
  "${tls[@]+"${tls[@]}"}" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; [ -n "${KEEP_REPORTS:-}" ] || rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -sfk "${scheme/ws/http}://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
cat > "$work/fuzzingclient.json" <<JSON
{"outdir": "$work/reports", "servers": [{"agent": "Switchboard", "url": "$scheme://127.0.0.1:$socket_port/api/test/ws-echo"}],
 "cases": ["*"], "exclude-cases": ["9.*", "12.*", "13.*"], "exclude-agent-cases": {}}
JSON
(cd "$work" && timeout 900 "$PYTHONUSERBASE/bin/wstest" -m fuzzingclient -s fuzzingclient.json >"$work/wstest.log" 2>&1) || {
  echo "autobahn: wstest did not finish:"; tail -20 "$work/wstest.log"; exit 1; }
label=""
[ "$scheme" = wss ] && label=" over wss"
[ "${TLS:-}" = nio ] && label=" over wss (--wss, SwiftNIO)"
python3 - "$work/reports/index.json" "$label" <<'PY'
import collections, json, sys
cases = json.load(open(sys.argv[1]))["Switchboard"]
counts = collections.Counter(result["behavior"] for result in cases.values())
close = collections.Counter(result["behaviorClose"] for result in cases.values())
print("autobahn%s: %d cases: %s" % (sys.argv[2], len(cases), ", ".join("%s %d" % item for item in sorted(counts.items()))))
print("autobahn%s: closing behaviour: %s" % (sys.argv[2], ", ".join("%s %d" % item for item in sorted(close.items()))))
failed = sorted((case for case, result in cases.items() if result["behavior"] == "FAILED" or result["behaviorClose"] == "FAILED"),
                key=lambda c: [int(p) for p in c.split(".")])
if failed:
    print("autobahn: FAILED cases: " + " ".join(failed))
    sys.exit(1)
PY
