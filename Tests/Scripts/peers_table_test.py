#!/usr/bin/env python3
"""Scripts/peers_table.py on runs written here: one run's table is each
figure beside Nchan's with its ratio; several runs give each row the
median ratio, the figures of the run that gave it and every run's ratio in
order, as docs/BENCHMARKS.md reports them. No server: the script reads the
raw JSON lines peers.sh keeps (RESULTS=...)."""
import json
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts", "peers_table.py")


def sse(server, p99, cpu):
    return {"workload": "sse1000", "server": server,
            "result": {"latencyP99Milliseconds": p99, "serverCPUMillisecondsPer1000": cpu,
                       "serverContextSwitchesPerDelivery": 0.01, "delivered": 200000, "expected": 200000,
                       "duplicates": 0, "outOfOrderClients": 0}}


def publish(server, rps):
    return {"workload": "publish64", "server": server, "wrk": {"rps": rps, "p99": "2.00ms", "non2xx": 0}}


def idle(server, cpu):
    return {"workload": "idle5000", "server": server,
            "result": {"idleRSSMiB": 80.0, "unloadedRSSMiB": 20.0, "subscribed": 5000, "idleCPUPercent": cpu}}


def table(*runs):
    """The script's rows for these runs: {what: (Switchboard, Nchan, ratio)}, and its heading."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, rows in enumerate(runs):
            path = os.path.join(folder, f"run{index}.jsonl")
            with open(path, "w") as out:
                out.writelines(json.dumps(row) + "\n" for row in rows)
            paths.append(path)
        text = subprocess.run([sys.executable, SCRIPT, *paths], check=True, capture_output=True, text=True).stdout
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    heading, body = lines[0], lines[1:]
    cells = {}
    for line in body:
        what, a, b, ratio = [cell.strip() for cell in line.strip().strip("|").split("|")]
        cells.setdefault(what, []).append((a, b, ratio))
    return heading, cells, text


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def one_run():
    heading, cells, _ = table([sse("switchboard", 18.0, 6.0), sse("nchan", 24.0, 5.0),
                               publish("switchboard", 50000.0), publish("nchan", 100000.0),
                               idle("switchboard", 0.0), idle("nchan", 0.0)])
    check(heading.split("|")[4].strip() == "ratio", heading)
    check(cells["SSE, 1,000 subscribers, 200 msgs @ 50/s: p99"] == [("18.0 ms", "24.0 ms", "0.75")], cells)
    check(cells["same: server CPU per 1,000 deliveries"] == [("6.0 ms", "5.0 ms", "1.20 (worse)")], cells)
    check(cells["publishes acked/s, 64 connections (wrk)"] == [("50,000.0 /s", "100,000.0 /s", "0.50 (worse)")], cells)
    check(cells["5,000 idle SSE connections: memory per connection"] == [("12.3 KiB", "12.3 KiB", "1.00")], cells)
    check(cells["same: server CPU while idle (10 s)"] == [("0.0 %", "0.0 %", "–")], cells)  # 0 against 0: no ratio
    check("long-poll, 1,000 subscribers @ 50/s: p99" not in cells, "a workload not run has no row")


def three_runs():
    runs = [[sse("switchboard", p99, 6.0), sse("nchan", 20.0, 6.0)] for p99 in (10.0, 44.0, 30.0)]
    runs[0] += [publish("switchboard", 40000.0), publish("nchan", 100000.0)]
    runs[2] += [publish("switchboard", 60000.0), publish("nchan", 100000.0)]  # run 2 did not publish
    heading, cells, _ = table(*runs)
    check(heading.split("|")[4].strip() == "ratio (median of 3)", heading)
    # The middle ratio, with the figures of the run that gave it, and each run's in order.
    check(cells["SSE, 1,000 subscribers, 200 msgs @ 50/s: p99"] == [("30.0 ms", "20.0 ms", "1.50 (worse) (0.50, 2.20, 1.50)")],
          cells)
    # Two runs of three: the lower of the two, the missing run shown as such.
    check(cells["publishes acked/s, 64 connections (wrk)"] == [("40,000.0 /s", "100,000.0 /s", "0.40 (worse) (0.40, –, 0.60)")],
          cells)


def rows_named_alike_keep_their_workloads():
    # `same: p99` is a row of the SSE closed loop and of the publishes: each stays in its place.
    runs = []
    for _ in range(3):
        closed = {"workload": "sse5000", "server": "switchboard",
                  "result": {"deliveriesPerSecond": 4.0, "latencyP99Milliseconds": 100.0,
                             "publishAnswerP99Milliseconds": 1.0, "publishedPerSecond": 4.0}}
        nchan = json.loads(json.dumps(closed))
        nchan["server"] = "nchan"
        nchan["result"]["latencyP99Milliseconds"] = 50.0
        runs.append([closed, nchan, publish("switchboard", 1.0), publish("nchan", 1.0)])
    _, cells, text = table(*runs)
    check(cells["same: p99"] == [("100.0 ms", "50.0 ms", "2.00 (worse) (2.00, 2.00, 2.00)"),
                                 ("2.0 ms", "2.0 ms", "1.00 (1.00, 1.00, 1.00)")], cells)
    order = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")][1:]
    check(order.index("SSE, 5,000 subscribers, closed-loop publisher: deliveries/s") < order.index("same: p99")
          < order.index("publishes acked/s, 64 connections (wrk)"), order)


for test in (one_run, three_runs, rows_named_alike_keep_their_workloads):
    test()
    print(f"ok   {test.__name__}")
