-- One publish per request, each with a client id of its own (the
-- Idempotency-Key header; SPEC "Sending exactly once"), for wrk: what a
-- client id costs against Scripts/wrk-publish.lua.
local counter, prefix = 0, "t"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("prefix", "t" .. threads)
end
function init(args)
  prefix = wrk.thread:get("prefix") or prefix
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local body = '{"user":"bench","text":"a message of ordinary length for the benchmark"}'
function request()
  counter = counter + 1
  wrk.headers["Idempotency-Key"] = prefix .. "-" .. counter
  return wrk.format(nil, nil, nil, body)
end
