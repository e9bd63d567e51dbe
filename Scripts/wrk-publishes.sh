# Sourced by Scripts/hooks-bench.sh and Scripts/wrk-client-id.sh:
# wrk_publishes PORT LUA runs `wrk -t2 -c64 -d6s --latency` with LUA against
# the server's publish endpoint on PORT and sets `rate` (publishes/s), `p99`
# (wrk's, with its unit) and `requests`. Every answer must be a stored
# message: a run with any refusal (a 404 from a wrong path) measures
# nothing, and stops the script.
wrk_publishes() {
  local out
  out="$(wrk -t2 -c64 -d6s --latency -s "$2" "http://127.0.0.1:$1/api/rooms/bench/messages")"
  if grep -q "Non-2xx" <<<"$out"; then echo "some publishes were refused:" >&2; echo "$out" >&2; exit 1; fi
  rate="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  requests="$(awk '/requests in/ {print $1}' <<<"$out")"
}
