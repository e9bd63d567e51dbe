#!/usr/bin/env python3
"""What Web Push costs (issue 36's figures), on loopback, bounded:

1. A conversation of 1,000 members, all away, each with a subscription on a push service on
   loopback that accepts at once: one message, then the time until the last push is accepted,
   and the server's CPU per push (user + system, from /proc) — the ECDH, HKDF and AES-GCM per
   subscription are the cost to know.
2. Publishing latency in a public room (sequential publishes, p50 and p99), with no push
   pending and then while 1,000 pushes wait on a push service that holds each request 2 s.

The first five pushes are checked as a browser's push service would (VAPID, decryption).
Usage: push_bench.py PATH/TO/switchboard [MEMBERS]   (PERF_OUT=FILE: perf record -g of the burst)
"""
import concurrent.futures
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

import jwt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Push"))
from push_service import PushService  # noqa: E402

SECRET = "push-bench-secret-push-bench-secret"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None


class FastPushService(PushService):
    """Accepts at once (or after `hold` seconds), keeping each body to check a few afterwards."""

    def __init__(self):
        self.hold = 0.0
        self.times, self.bodies = [], []
        super().__init__()

    def handle(self, name, headers, body):
        if self.hold:
            time.sleep(self.hold)
        with self.lock:
            self.times.append(time.monotonic())
            if len(self.bodies) < 5:
                self.bodies.append((name, dict(headers), body))
        return 201, []


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def publish_latencies(port, count, token):
    client = Client(port)
    latencies = []
    for i in range(count):
        started = time.perf_counter()
        status, _ = client.request("POST", "/api/rooms/lobby/messages", {"text": f"latency {i}"}, token=token)
        latencies.append((time.perf_counter() - started) * 1000)
        assert status == 201, status
    return percentile(latencies, 50), percentile(latencies, 99)


def main():
    binary = sys.argv[1]
    members = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    folder = tempfile.mkdtemp(prefix="switchboard-push-bench-")
    push = FastPushService()
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", f"{folder}/db.sqlite",
                               "--log-level", "error", "--sign-up-rate", "0", "--sign-in-rate", "0", "--jwt-secret", SECRET,
                               "--max-group-members", str(members + 1),  # the members and their owner
                               "--push-allow-host", "127.0.0.1", "--vapid-subject", "mailto:bench@example.com"],
                              stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                Client(port).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        names = [f"m{i:04d}" for i in range(members)]
        token = lambda user: jwt.encode({"sub": user, "exp": int(time.time()) + 3600}, SECRET, algorithm="HS256")

        def register(user):
            return Client(port).request("POST", "/api/accounts", {"user": user, "password": "bench password 1"})[0]

        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(register, ["owner"] + names))
        assert all(s == 201 for s in statuses), set(statuses)
        owner = token("owner")
        status, created = Client(port).request("POST", "/api/conversations", {"title": "Everyone", "members": names}, token=owner)
        assert status == 201, (status, created)
        room = created["room"]

        def subscribe(user):
            return Client(port).request("POST", "/api/push/subscriptions", push.subscribe(user).json, token=token(user))[0]

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            assert all(s == 201 for s in pool.map(subscribe, names))
        print(f"set-up: {members} accounts, a conversation of them all, a subscription each ({time.monotonic() - started:.0f} s)")

        perf = subprocess.Popen(["perf", "record", "-g", "-q", "-o", os.environ["PERF_OUT"], "-p", str(server.pid)],
                                stderr=subprocess.DEVNULL) if os.environ.get("PERF_OUT") else None
        time.sleep(0.5 if perf else 0)
        before = cpu_seconds(server.pid)
        sent = time.monotonic()
        status, _ = Client(port).request("POST", f"/api/rooms/{room}/messages", {"text": "to everyone away"}, token=owner)
        publish_ms = (time.monotonic() - sent) * 1000
        deadline = time.monotonic() + 120
        while len(push.times) < members and time.monotonic() < deadline:
            time.sleep(0.01)
        after = cpu_seconds(server.pid)
        if perf:
            perf.send_signal(2)
            perf.wait()
        last = (max(push.times) - sent) if push.times else float("nan")
        print(f"one message to {members} members away: publish answered in {publish_ms:.1f} ms; "
              f"{len(push.times)} pushes accepted, the last after {last * 1000:.0f} ms "
              f"({len(push.times) / last:.0f} pushes/s)")
        print(f"server CPU per push: {(after - before) / max(1, len(push.times)) * 1e6:.0f} µs "
              f"({after - before:.2f} s for {len(push.times)})")
        problems = [push.check_vapid(headers.get("Authorization", "")) for _, headers, _ in push.bodies]
        print(f"the first {len(push.bodies)} pushes checked as a push service would: "
              f"{'all accepted' if not any(problems) else problems}")

        p50, p99 = publish_latencies(port, 300, owner)
        print(f"publish latency, nothing pending: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
        push.hold = 2.0
        Client(port).request("POST", f"/api/rooms/{room}/messages", {"text": "while the service is slow"}, token=owner)
        time.sleep(0.5)
        p50h, p99h = publish_latencies(port, 300, owner)
        print(f"publish latency, {members} pushes pending on a push service holding each 2 s: "
              f"p50 {p50h:.2f} ms ({p50h / p50:.2f}x), p99 {p99h:.2f} ms ({p99h / p99:.2f}x)")
    finally:
        push.hold = 0
        server.terminate()
        server.wait(timeout=30)
        push.stop()


if __name__ == "__main__":
    main()
