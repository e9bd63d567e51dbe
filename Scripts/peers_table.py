#!/usr/bin/env python3
"""The table of Scripts/peers.sh: each figure of Switchboard beside Nchan's,
with its ratio (Switchboard / Nchan), from the raw JSON lines of one run or
of several (RESULTS=... Scripts/peers.sh keeps them; RUNS=3 runs three and
calls this on them).

    Scripts/peers_table.py run.jsonl                  # one run's table
    Scripts/peers_table.py run1.jsonl run2.jsonl ...  # each row's median

With several runs, a row shows the median of its ratios, the two figures
of the run that gave it, and every run's ratio in the order given, as
docs/BENCHMARKS.md reports them: `0.75 (0.52, 0.75, 2.20)`. With an even
number of runs the lower of the two middle ratios is taken (a figure
measured, not an average of two). A run that gave a row no ratio (a
workload not run, a failed figure, Nchan's figure 0) is left out of that
row's median and shown as `–` among its ratios; a row most runs gave no
ratio has no median (`–`).
"""
import json
import sys


def ms(text):
    """wrk's latency text (`812.00us`, `4.30ms`, `1.20s`) in milliseconds."""
    value = float(text.rstrip("usm"))
    if text.endswith("us"):
        return value / 1000
    if text.endswith("s") and not text.endswith("ms"):
        return value * 1000
    return value


def per_answer(x):
    """Messages an answered long-poll request carried (empty answers left out)."""
    return x["result"]["delivered"] / (x["result"]["requests"] - x["result"]["emptyRequests"])


def cpu_per_answer(x):
    """A long poll's server CPU per 1,000 answered requests, not deliveries."""
    return x["result"]["serverCPUMillisecondsPer1000"] * per_answer(x)


def per_connection(row):
    """An idle stream's memory: the server's RSS over its unloaded RSS, per connection."""
    x = row["result"]
    return (x["idleRSSMiB"] - x["unloadedRSSMiB"]) * 1024 / x["subscribed"]


def r(key):
    return lambda row: row["result"][key]


# (what, workload, figure, unit, which is better, Nchan's workload if another).
# A long poll's CPU per delivery depends on how many messages each answer
# carries (a client that polls again sooner gets fewer): the two rows after
# it say which part of that row is the answer's own cost.
ROWS = [
    ("SSE, 1,000 subscribers, 200 msgs @ 50/s: p99", "sse1000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("same: server CPU per 1,000 deliveries", "sse1000", r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("same: server context switches per delivery", "sse1000", r("serverContextSwitchesPerDelivery"), "", "lower"),
    ("same, both in memory (Switchboard --db :memory:): p99", "sse1000mem", r("latencyP99Milliseconds"), "ms", "lower"),
    ("SSE, 5,000 subscribers, closed-loop publisher: deliveries/s", "sse5000", r("deliveriesPerSecond"), "/s", "higher"),
    ("same: p99", "sse5000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("same: publish answered (201), p99", "sse5000", r("publishAnswerP99Milliseconds"), "ms", "lower"),
    ("same: publishes/s (set by the server's answers)", "sse5000", r("publishedPerSecond"), "/s", "higher"),
    ("SSE, 5,000 subscribers, 200 msgs @ 15/s: p99", "sse5000rate", r("latencyP99Milliseconds"), "ms", "lower"),
    ("WebSocket, 1,000 subscribers, 200 msgs @ 50/s: p99", "ws1000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("same: server CPU per 1,000 deliveries", "ws1000", r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("WebSocket, 5,000 subscribers, 200 msgs @ 50/s: p99", "ws5000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("same: server CPU per 1,000 deliveries", "ws5000", r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("long-poll, 1,000 subscribers @ 50/s: p99", "longpoll1000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("long-poll: server CPU per 1,000 deliveries", "longpoll1000", r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("long-poll: server context switches per delivery", "longpoll1000", r("serverContextSwitchesPerDelivery"), "", "lower"),
    ("long-poll: messages per answered request", "longpoll1000", per_answer, "", "higher"),
    ("long-poll: server CPU per 1,000 answered requests", "longpoll1000", cpu_per_answer, "ms", "lower"),
]
for rate in (25, 100, 200):
    ROWS += [
        (f"long-poll @ {rate}/s: server CPU per 1,000 deliveries", f"longpoll1000-{rate}",
         r("serverCPUMillisecondsPer1000"), "ms", "lower"),
        ("same: messages per answered request", f"longpoll1000-{rate}", per_answer, "", "higher"),
        ("same: server CPU per 1,000 answered requests", f"longpoll1000-{rate}", cpu_per_answer, "ms", "lower"),
    ]
ROWS += [
    ("long-poll, 100 subscribers @ 25/s (each waits): server CPU per 1,000 deliveries", "longpoll100-25",
     r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("5,000 idle SSE connections: memory per connection", "idle5000", per_connection, "KiB", "lower"),
    ("same: server CPU while idle (10 s)", "idle5000", r("idleCPUPercent"), "%", "lower"),
    ("TLS: SSE, 1,000 subscribers, 200 msgs @ 50/s: p99", "tls-sse1000", r("latencyP99Milliseconds"), "ms", "lower"),
    ("TLS: same: server CPU per 1,000 deliveries", "tls-sse1000", r("serverCPUMillisecondsPer1000"), "ms", "lower"),
    ("TLS: 5,000 idle SSE connections: memory per connection", "tls-idle5000", per_connection, "KiB", "lower"),
    ("TLS: same: server CPU while idle (10 s)", "tls-idle5000", r("idleCPUPercent"), "%", "lower"),
    ("publishes acked/s, 1 connection, closed loop", "publish1", lambda x: x["wrk"]["rps"], "/s", "higher"),
    ("publishes acked/s, 64 connections (wrk)", "publish64", lambda x: x["wrk"]["rps"], "/s", "higher"),
    ("same: p99", "publish64", lambda x: ms(x["wrk"]["p99"]), "ms", "lower"),
    ("same: server CPU", "publish64-cpu", lambda x: x["cpu_percent"], "%", "lower"),
    ("publishes acked/s, 1 connection, both in memory (Switchboard --db :memory:)", "publishmem1",
     lambda x: x["wrk"]["rps"], "/s", "higher"),
    ("publishes acked/s, 64 connections, both in memory (Switchboard --db :memory:)", "publishmem64",
     lambda x: x["wrk"]["rps"], "/s", "higher"),
    ("same: server CPU", "publishmem64-cpu", lambda x: x["cpu_percent"], "%", "lower"),
    ("instructions per delivery (callgrind), SSE, 100 subscribers", "instructions-sse",
     lambda x: x["per_delivery"], "", "lower"),
    ("instructions per delivery (callgrind), long-poll, 100 subscribers", "instructions-long-poll",
     lambda x: x["per_delivery"], "", "lower"),
    ("same: instructions per answered long-poll request", "instructions-long-poll", lambda x: x["per_request"], "", "lower"),
    ("short-poll GET, 64 connections (Nchan: nginx return 200)", "shortpoll", lambda x: x["wrk"]["rps"], "/s", "higher"),
    ("system calls per publish (perf), 64 connections (durable / memory)", "syscalls",
     lambda x: x["per_publish"], "", "lower"),
    ("same, both in memory", "syscallsmem", lambda x: x["per_publish"], "", "lower", "syscalls"),
]


def fmt(value, unit):
    text = f"{value:,.3f}" if 0 < abs(value) < 1 else f"{value:,.1f}"
    return f"{text} {unit}".strip()


def measure(rows):
    """One run's rows, by their place in ROWS: (what, Switchboard's text,
    Nchan's text, ratio or None, which is better), for every row whose
    workload both servers ran."""
    def find(workload, server):
        return next((x for x in rows if x.get("workload") == workload and x.get("server") == server), None)
    table = {}
    for place, (what, workload, pick, unit, better, *nchan_workload) in enumerate(ROWS):
        s, n = find(workload, "switchboard"), find(nchan_workload[0] if nchan_workload else workload, "nchan")
        if not s or not n:
            continue
        try:
            a, b = pick(s), pick(n)
        except (KeyError, TypeError, ZeroDivisionError):
            table[place] = (what, "failed", "failed", None, better)
            continue
        if a is None or b is None:
            table[place] = (what, str(a), str(b), None, better)
        elif b == 0:
            table[place] = (what, fmt(a, unit), fmt(b, unit), None, better)
        else:
            table[place] = (what, fmt(a, unit), fmt(b, unit), a / b, better)
    return table


def ratio_text(ratio, better):
    if ratio is None:
        return "–"
    worse = ratio > 1 if better == "lower" else ratio < 1
    return f"{ratio:.2f}" + (" (worse)" if worse else "")


def combine(tables):
    """The rows of several runs' tables (from ``measure``), each with its
    median ratio, in ROWS' order: (what, Switchboard's text, Nchan's text,
    ratio text)."""
    combined = []
    for place in sorted(set().union(*tables)):
        cells = [table.get(place) for table in tables]
        measured = [cell for cell in cells if cell and cell[3] is not None]
        ratios = ", ".join(f"{cell[3]:.2f}" if cell and cell[3] is not None else "–" for cell in cells)
        if 2 * len(measured) < len(cells):
            # Most runs gave no ratio (Nchan's figure 0, as its idle CPU): no median either.
            first = next(cell for cell in cells if cell)
            combined.append((first[0], first[1], first[2], "–" + (f" ({ratios})" if len(tables) > 1 else "")))
            continue
        ranked = sorted(measured, key=lambda cell: cell[3])
        median = ranked[(len(ranked) - 1) // 2]
        text = ratio_text(median[3], median[4])
        if len(tables) > 1:
            text += f" ({ratios})"
        combined.append((median[0], median[1], median[2], text))
    return combined


def notes(rows):
    """What one run's raw lines say beside the table: system calls by name,
    deliveries that were incomplete, answers that were not 2xx."""
    lines = []
    for row in rows:
        if "calls" in row:
            lines.append(f"{row['workload']} on {row['server']}: "
                         + ", ".join(f"{k} {v}" for k, v in row["calls"].items() if v >= 0.01))
    for row in rows:
        x = row.get("result")
        if x and "expected" in x and not (x["delivered"] == x["expected"] and x["duplicates"] == 0
                                          and x["outOfOrderClients"] == 0):
            lines.append(f"note: {row['workload']} on {row['server']}: {x['delivered']} of {x['expected']} delivered, "
                         f"{x['duplicates']} duplicates, {x['outOfOrderClients']} clients out of order, "
                         f"{x['subscribed']} of {x['clients']} subscribed")
        if "wrk" in row and row["wrk"]["non2xx"]:
            lines.append(f"note: {row['workload']} on {row['server']}: {row['wrk']['non2xx']} answers were not 2xx")
    return lines


def main(paths):
    if not paths:
        sys.exit(__doc__)
    runs = [[json.loads(line) for line in open(path) if line.strip()] for path in paths]
    table = combine([measure(rows) for rows in runs])
    width = max((len(row[0]) for row in table), default=10)
    heading = "ratio" if len(runs) == 1 else f"ratio (median of {len(runs)})"
    print()
    print(f"| {'workload':<{width}} | Switchboard | Nchan | {heading} |")
    print(f"|{'-' * (width + 2)}|---|---|---|")
    for what, a, b, ratio in table:
        print(f"| {what:<{width}} | {a} | {b} | {ratio} |")
    for index, rows in enumerate(runs):
        lines = notes(rows)
        if lines:
            print()
            if len(runs) > 1:
                print(f"run {index + 1} ({paths[index]}):")
            print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
