-- One publish per request, for wrk (Scripts/bench.sh, Scripts/peers.sh).
-- The "id" is for a peer that keeps the body as it is (Nchan); Switchboard
-- ignores members it does not know.
wrk.method = "POST"
wrk.body = '{"id":1,"user":"bench","text":"a message of ordinary length for the benchmark"}'
wrk.headers["Content-Type"] = "application/json"
