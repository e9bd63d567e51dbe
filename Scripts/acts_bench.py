#!/usr/bin/env python3
"""What acts cost (Scripts/acts-bench.sh runs this).

1. Replay: a room of 10,000 messages that carry 10,000 reactions and 1,000
   edits, against a room of the same 10,000 messages with no acts, read whole
   over SSE (`since=0`) from a server just restarted (so from the store, as a
   reader that was away reads): seconds and bytes, median of RUNS.
2. Instructions (valgrind's callgrind, figures that do not move with the
   machine's noise): a publish with `reply_to`, and one with a `client_id`
   (SPEC "Sending exactly once"), against a plain publish, each
   the difference of a run of MANY and one of FEW publishes, divided by the
   extra publishes (start-up, connection and shutdown cancel out).

Usage: acts_bench.py SWITCHBOARD [--skip-instructions]
"""
import concurrent.futures
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

MESSAGES, REACTIONS, EDITS = 10_000, 10_000, 1_000
RUNS = int(os.environ.get("RUNS", "3"))
FEW, MANY = int(os.environ.get("FEW", "50")), int(os.environ.get("MANY", "250"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(command, port):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def serve(binary, database, port, edit_window="86400"):
    return start([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", database,
                  "--admin-token", "bench", "--log-level", "error", "--edit-window", edit_window], port)


def post(connection, method, path, body=None):
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    if response.status not in (200, 201, 204):
        raise RuntimeError(f"{method} {path}: {response.status} {data[:200]}")
    return json.loads(data) if data else None


def seed(port, room, acts):
    """10,000 messages by 100 users; with `acts`, 10,000 reactions (each message one, from
    another user, six emoji) and 1,000 edits (every tenth message), 16 clients at once."""
    def work(worker):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        ids = []
        for index in range(worker, MESSAGES, 16):
            user = f"u{index % 100}"
            ids.append((index, post(connection, "POST", f"/api/rooms/{room}/messages?user={user}",
                                    {"user": user, "text": f"message {index} " + "x" * 40})["id"]))
        if acts:
            for index, message in ids:
                emoji = ["%F0%9F%91%8D", "%E2%9D%A4", "%F0%9F%98%82", "%F0%9F%8E%89", "%F0%9F%98%AE", "%F0%9F%98%A2"][index % 6]
                post(connection, "PUT", f"/api/rooms/{room}/messages/{message}/reactions/{emoji}?user=r{index % 50}")
                if index % 10 == 0:
                    post(connection, "PATCH", f"/api/rooms/{room}/messages/{message}",
                         {"user": f"u{index % 100}", "text": f"message {index} edited " + "y" * 40})
        return len(ids)
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        assert sum(pool.map(work, range(16))) == MESSAGES


def replay(port, room):
    """Reads the room over SSE from the start until its last message: (seconds, bytes, events)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    last = post(connection, "GET", f"/api/rooms/{room}/messages?limit=1")["messages"][-1]["id"]
    marker = f"id: {last}\n".encode()
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /api/rooms/{room}/events?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    received, tail, events = 0, b"", 0
    while True:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("the stream ended early")
        received += len(chunk)
        window = tail + chunk
        events += window.count(b"\nid: ") - tail.count(b"\nid: ")
        if marker in window:
            break
        tail = window[-(len(marker) + 8):]
    seconds = time.monotonic() - started
    sock.close()
    return seconds, received, events


def replay_figures(binary):
    folder = tempfile.mkdtemp(prefix="switchboard-acts-bench-")
    try:
        database, port = os.path.join(folder, "db.sqlite"), free_port()
        server = serve(binary, database, port)
        seed(port, "plain", acts=False)
        seed(port, "acts", acts=True)
        server.terminate()
        server.wait(timeout=30)
        results = {}
        for room in ("plain", "acts"):
            runs = []
            for _ in range(RUNS):
                server = serve(binary, database, port)  # restarted: the ring is empty, every read is the store's
                runs.append(replay(port, room))
                server.terminate()
                server.wait(timeout=30)
            results[room] = (statistics.median(r[0] for r in runs), runs[0][1], runs[0][2])
        plain, acts = results["plain"], results["acts"]
        print(f"replay over SSE from the store (median of {RUNS}, each after a restart):")
        # (events: "id:" lines counted in the chunked stream, so roughly: chunk framing can split one)
        print(f"  {MESSAGES:,} messages, no acts:                          {plain[0]:.3f} s, {plain[1]:,} bytes, ~{plain[2]:,} events")
        print(f"  the same with {REACTIONS:,} reactions and {EDITS:,} edits: {acts[0]:.3f} s, {acts[1]:,} bytes, ~{acts[2]:,} events")
        print(f"  ratio: time {acts[0] / plain[0]:.2f}, bytes {acts[1] / plain[1]:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def instructions(binary, kind):
    """The server's instructions for FEW and MANY publishes: plain, each replying to the first
    (`reply`), or each with a client id of its own (`client_id`)."""
    folder = tempfile.mkdtemp(prefix="switchboard-acts-callgrind-")
    try:
        stripped = os.path.join(folder, "server")
        subprocess.run(["strip", "--strip-debug", "-o", stripped, binary], check=True)
        totals = []
        for count in (FEW, MANY):
            port, out = free_port(), os.path.join(folder, f"callgrind.{count}")
            for name in os.listdir(folder):
                if name.startswith("db.sqlite"):
                    os.remove(os.path.join(folder, name))
            server = start(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", stripped, "serve",
                            "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", os.path.join(folder, "db.sqlite"),
                            "--admin-token", "bench", "--log-level", "error"], port)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            target = post(connection, "POST", "/api/rooms/lobby/messages", {"user": "leia", "text": "the first"})["id"]
            for index in range(count):
                body = {"user": "luke", "text": f"publish {index} " + "x" * 40}
                if kind == "reply":
                    body["reply_to"] = target
                elif kind == "client_id":
                    body["client_id"] = f"c-{count}-{index}"
                post(connection, "POST", "/api/rooms/lobby/messages", body)
            connection.close()
            server.terminate()
            server.wait(timeout=120)
            with open(out) as profile:
                totals.append(next(int(line.split()[1]) for line in profile if line.startswith("summary:")))
        return (totals[1] - totals[0]) / (MANY - FEW)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    binary = sys.argv[1]
    replay_figures(binary)
    if "--skip-instructions" not in sys.argv:
        plain, reply, client_id = (instructions(binary, kind) for kind in ("plain", "reply", "client_id"))
        print(f"instructions per publish (callgrind, {MANY} - {FEW} publishes):")
        print(f"  plain: {plain:,.0f}   with reply_to: {reply:,.0f}   ratio {reply / plain:.3f}")
        print(f"  plain: {plain:,.0f}   with client_id: {client_id:,.0f}   ratio {client_id / plain:.3f}")


if __name__ == "__main__":
    main()
