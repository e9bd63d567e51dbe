#!/usr/bin/env python3
"""Several real `switchboard serve` processes on one PostgreSQL, checked the
way their users would see them: a node killed with SIGKILL mid-stream (its
SSE client resumes on another node by cursor with no gap, its raw TCP user
leaves within 30 s), and PostgreSQL restarted under load (publishes answer
503 store_unavailable quickly, streams stay open, and everything resumes).

    python3 Tests/ScaleOut/scaleout_test.py BINARY

Needs SWITCHBOARD_TEST_POSTGRES (a server URL), as Scripts/test.sh sets it after
`Scripts/postgres.sh start`. The restart is of a PostgreSQL of the test's own
(Scripts/postgres.sh in a folder of its own): the shared one serves the tests
beside it in their lanes, which a restart of it failed ("the database system is
shutting down"). Prints what it measured; exits 1 on a failure.
"""
import json, os, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request, urllib.error

BINARY = sys.argv[1]
SERVER = os.environ.get("SWITCHBOARD_TEST_POSTGRES")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "Scripts")
failures = []


def check(condition, what):
    print(("  ok   " if condition else "  FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


sys.path.insert(0, os.path.join(HERE, ".."))
from checks import free_port, fresh_database  # noqa: E402


class Node:
    def __init__(self, name, database):
        self.name, self.http, self.tcp = name, free_port(), free_port()
        self.log = open(f"/tmp/switchboard-scaleout-{name}.log", "w")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--db", database, "--http", f"127.0.0.1:{self.http}", "--tcp", f"127.0.0.1:{self.tcp}",
             "--admin-token", "t", "--keepalive", "1"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.http}/healthz", timeout=1).read()
                return
            except Exception:
                time.sleep(0.1)
        raise SystemExit(f"node {name} did not start; see {self.log.name}")

    def url(self, path):
        return f"http://127.0.0.1:{self.http}{path}"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def publish(node, text, user="pub", timeout=5):
    """(status, id or error code, seconds)"""
    started = time.time()
    body = json.dumps({"user": user, "text": text}).encode()
    request = urllib.request.Request(node.url("/api/rooms/lobby/messages"), data=body,
                                     headers={"Content-Type": "application/json"})
    try:
        answer = json.loads(urllib.request.urlopen(request, timeout=timeout).read())
        return 201, answer["id"], time.time() - started
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()).get("error", {}).get("code"), time.time() - started
    except Exception as error:
        return 0, str(error), time.time() - started


def get(node, path):
    return json.loads(urllib.request.urlopen(node.url(path), timeout=5).read())


class SSEReader(threading.Thread):
    """An EventSource: reads ids; when its node goes away, reconnects to the
    next node in `nodes` with Last-Event-ID, as a browser would."""

    def __init__(self, nodes):
        super().__init__(daemon=True)
        self.nodes, self.ids, self.reconnects, self.stopped = list(nodes), [], 0, False
        self.connected_to = None

    def run(self):
        last = 0
        while not self.stopped and self.nodes:
            node = self.nodes[0]
            try:
                with socket.create_connection(("127.0.0.1", node.http), timeout=30) as sock:
                    self.connected_to = node.name
                    sock.sendall(f"GET /api/rooms/lobby/events?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: {last}\r\n\r\n".encode())
                    buffer = b""
                    while not self.stopped:
                        data = sock.recv(65536)
                        if not data:
                            break
                        buffer += data
                        while b"\n" in buffer:
                            line, buffer = buffer.split(b"\n", 1)
                            if line.startswith(b"id: "):
                                last = int(line[4:])
                                self.ids.append(last)
            except OSError:
                pass
            if self.stopped:
                return
            self.nodes.pop(0)
            self.reconnects += 1
            time.sleep(0.2)


def line_client(node, name):
    sock = socket.create_connection(("127.0.0.1", node.tcp), timeout=10)
    sock.sendall(f"iam:{name}\n".encode())
    return sock


def kill_a_node_mid_stream(database):
    print("== kill -9 of a node mid-stream", flush=True)
    a, b, c = Node("a", database), Node("b", database), Node("c", database)
    try:
        reader = SSEReader([a, c])
        reader.start()
        tina = line_client(a, "tina")
        time.sleep(0.5)
        acked = []
        for n in range(300):
            status, value, _ = publish(b, f"m{n}")
            if status == 201:
                acked.append(value)
            if n == 150:
                a.process.send_signal(signal.SIGKILL)
                killed_at = time.time()
            time.sleep(0.005)
        check(len(acked) == 300, f"every publish on B acknowledged while A died ({len(acked)}/300)")
        deadline = time.time() + 10
        while time.time() < deadline and (not reader.ids or reader.ids[-1] < acked[-1]):
            time.sleep(0.1)
        reader.stopped = True
        history = [m["id"] for m in get(c, "/api/rooms/lobby/messages?since=0&limit=1000")["messages"]]
        check(reader.reconnects == 1 and reader.connected_to == "c", "the SSE client reconnected once, to C")
        check(reader.ids == sorted(set(reader.ids)), "its ids strictly increase: nothing twice")
        check(reader.ids == history[:len(reader.ids)] and reader.ids[-1] == history[-1],
              f"it has every message, in order ({len(reader.ids)} ids, last {reader.ids[-1]})")
        check(set(acked) <= set(reader.ids), "every acknowledged message reached it")
        # Tina was on A only: the others must see her leave within 30 s.
        left, leaves = None, []
        while time.time() < killed_at + 35:
            users = [u["user"] for u in get(b, "/api/rooms/lobby/presence")["users"]]
            history = get(b, "/api/rooms/lobby/messages?since=0&limit=1000")["messages"]
            leaves = [m for m in history if m["kind"] == "leave" and m["user"] == "tina"]
            if "tina" not in users and leaves:
                left = time.time() - killed_at
                break
            time.sleep(0.5)
        check(left is not None and left <= 30, f"A's user left within 30 s of the kill ({left and round(left, 1)} s)")
        time.sleep(4)  # another heartbeat and sweep: still one leave
        history = get(b, "/api/rooms/lobby/messages?since=0&limit=1000")["messages"]
        leaves = [m for m in history if m["kind"] == "leave" and m["user"] == "tina"]
        check(len(leaves) == 1, "with exactly one leave message")
        tina.close()
    finally:
        for node in (a, b, c):
            node.stop()


def restart_postgres_under_load(database, pgdir):
    print("== PostgreSQL restarted under load", flush=True)
    a, b = Node("a2", database), Node("b2", database)
    try:
        reader = SSEReader([b])
        reader.start()
        time.sleep(0.5)
        results, stop = [], threading.Event()

        def load():
            n = 0
            while not stop.is_set():
                results.append((time.time(),) + publish(a, f"load{n}", timeout=10))
                n += 1
                time.sleep(0.01)

        publisher = threading.Thread(target=load, daemon=True)
        publisher.start()
        time.sleep(1)
        down_at = time.time()
        subprocess.run([os.path.join(SCRIPTS, "postgres.sh"), "pause", pgdir], check=True, stdout=subprocess.DEVNULL)
        time.sleep(3)
        up_at = time.time()
        subprocess.run([os.path.join(SCRIPTS, "postgres.sh"), "resume", pgdir], check=True, stdout=subprocess.DEVNULL)
        # Wait until publishes succeed again, then a little more.
        deadline = time.time() + 30
        while time.time() < deadline and not any(r[1] == 201 and r[0] > up_at for r in results):
            time.sleep(0.1)
        time.sleep(1)
        stop.set()
        publisher.join()
        refused = [r for r in results if r[1] != 201]
        during = [r for r in results if down_at + 0.5 < r[0] < up_at]
        check(during and all(r[1] == 503 and r[2] == "store_unavailable" for r in during),
              f"while the database was down, publishes answered 503 store_unavailable ({len(during)} of them)")
        slowest = max((r[3] for r in during), default=0)
        check(slowest < 1.0, f"and quickly (slowest {slowest * 1000:.0f} ms)")
        recovered = [r for r in results if r[1] == 201 and r[0] > up_at]
        check(recovered, f"publishes succeed again after the restart (first {recovered and round(recovered[0][0] - up_at, 2)} s after)")
        check(reader.reconnects == 0 and reader.is_alive(), "the SSE stream on B stayed open throughout")
        acked = [r[2] for r in results if r[1] == 201]
        deadline = time.time() + 10
        while time.time() < deadline and (not reader.ids or reader.ids[-1] < acked[-1]):
            time.sleep(0.1)
        reader.stopped = True
        check(set(acked) <= set(reader.ids), f"it received every acknowledged message ({len(acked)} acked, {len(refused)} refused)")
        check(reader.ids == sorted(set(reader.ids)), "in order, once")
        stored = {m["id"] for m in get(a, f"/api/rooms/lobby/messages?since={acked[0] - 1}&limit=1000")["messages"]}
        check(set(acked) <= stored, "and every acknowledged message is stored")
    finally:
        for node in (a, b):
            node.stop()


def main():
    if not SERVER:
        print("scale-out checks skipped: SWITCHBOARD_TEST_POSTGRES not set (Scripts/test.sh starts PostgreSQL)")
        return 0
    kill_a_node_mid_stream(fresh_database(SERVER))
    pgdir = tempfile.mkdtemp(prefix="switchboard-scaleout-pg.")
    started = subprocess.run([os.path.join(SCRIPTS, "postgres.sh"), "start", pgdir], capture_output=True, text=True)
    check(started.returncode == 0, f"a PostgreSQL of the test's own started, to restart ({started.stderr.strip()[-200:]})")
    if started.returncode == 0:
        try:
            restart_postgres_under_load(fresh_database(started.stdout.strip()), pgdir)
        finally:
            subprocess.run([os.path.join(SCRIPTS, "postgres.sh"), "stop", pgdir], capture_output=True)
    print(f"{len(failures)} failure(s)" if failures else "all scale-out checks passed")
    return 1 if failures else 0


sys.exit(main())
