#!/usr/bin/env python3
"""Nothing waits on a stalled store (SPEC "Nothing waits on a stalled store"),
against the real binary: with SSE, WebSocket, raw TCP and a long poll open,
the store stops answering for 8 s — an SQLite file held under BEGIN
EXCLUSIVE by another process, then a PostgreSQL of the test's own frozen
with SIGSTOP — and during the stall:
  - SSE keepalives, WebSocket ping/pong, TCP ping:/pong:, who: and typing
    answer within a second; /healthz answers within a second, 503 once a
    store call has gone unanswered for --store-timeout;
  - a publish is answered (201 or 503 store_unavailable) within the timeout
    plus 2 s, over HTTP and raw TCP (error:store_unavailable), and every
    connection stays open;
and after it every acknowledged message reaches every stream once, in order,
and the log has said the stall once when it began and once when it ended.
Then a quiet one: a publish while the SQLite file is held past SQLite's
busy timeout, nothing after it, and /healthz must be 200 once the lock goes;
and a full disk, freed with nothing published since: /healthz 200 again.
Usage: python3 Tests/Stall/stall_test.py .build/debug/switchboard
"""
import base64, json, os, signal, socket, struct, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "TLS"))
from tls_test import free_port  # noqa: E402

STORE_TIMEOUT = 2.0
STALL = 8.0
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f' ({detail})'}", flush=True)
    if not ok:
        failures.append(name)


def request(port, method, path, body=None, timeout=15, token=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read(), time.monotonic() - started
    except Exception as error:  # a timeout: no answer at all
        return 0, str(error).encode(), time.monotonic() - started


class SSE(threading.Thread):
    """An SSE stream: message ids in order, and when each keepalive came."""
    def __init__(self, port):
        super().__init__(daemon=True)
        self.ids, self.keepalives, self.closed = [], [], False
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/rooms/lobby/events?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    def run(self):
        buffer = b""
        while True:
            chunk = self.sock.recv(65536)
            if not chunk:
                self.closed = True
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                line = line.strip(b"\r")
                if line.startswith(b":"):
                    self.keepalives.append(time.monotonic())
                elif line.startswith(b"id: "):
                    self.ids.append(int(line[4:]))


class WebSocket(threading.Thread):
    """A WebSocket client that answers the server's pings; records message ids and pong times."""
    def __init__(self, port):
        super().__init__(daemon=True)
        self.ids, self.pongs, self.server_pings, self.closed = [], [], [], False
        self.lock = threading.Lock()
        self.sock = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/rooms/lobby/ws?since=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head, head

    def send(self, opcode, payload):
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        header = bytes([0x80 | opcode])
        header += bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def recv_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def run(self):
        try:
            while True:
                first, second = self.recv_exact(2)
                opcode, length = first & 0x0F, second & 0x7F
                if length == 126:
                    length = struct.unpack(">H", self.recv_exact(2))[0]
                elif length == 127:
                    length = struct.unpack(">Q", self.recv_exact(8))[0]
                payload = self.recv_exact(length)
                if opcode == 0x9:
                    self.server_pings.append(time.monotonic())
                    self.send(0xA, payload)
                elif opcode == 0xA:
                    self.pongs.append((payload, time.monotonic()))
                elif opcode == 0x1:
                    message = json.loads(payload)
                    if "id" in message and message.get("room") == "lobby":
                        self.ids.append(message["id"])
                elif opcode == 0x8:
                    self.closed = True
                    return
        except (EOFError, OSError):
            self.closed = True


class LineClient(threading.Thread):
    """A raw TCP client: every line with when it came."""
    def __init__(self, port, name):
        super().__init__(daemon=True)
        self.lines, self.closed = [], False
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"iam:{name}\n".encode())

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self.lines.append((line.decode(errors="replace"), time.monotonic()))

    def ask(self, line, expect, within=1.0):
        """Sends `line`; seconds until a line starting with `expect` came after it (None: not within `within`+5 s)."""
        sent, count = time.monotonic(), len(self.lines)
        self.sock.sendall((line + "\n").encode())
        deadline = sent + within + 5
        while time.monotonic() < deadline:
            for text, at in self.lines[count:]:
                if text.startswith(expect):
                    return at - sent
            time.sleep(0.02)
        return None


class LongPoller(threading.Thread):
    """Long polls one after another from the first id, recording every id received."""
    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.ids, self.statuses, self.stop = port, [], [], False

    def run(self):
        since = 0
        while not self.stop:
            status, body, _ = request(self.port, "GET", f"/api/rooms/lobby/messages?since={since}&wait=3", timeout=30)
            self.statuses.append(status)
            if status != 200:
                time.sleep(0.2)
                continue
            page = json.loads(body)
            self.ids += [m["id"] for m in page["messages"]]
            since = page["next"]


def publish(port, text):
    status, body, elapsed = request(port, "POST", "/api/rooms/lobby/messages", {"user": "alice", "text": text})
    return status, (json.loads(body) if status == 201 else body), elapsed


def upload(port, data, token="T"):
    """POSTs `data` to /api/media as the admin; status and body."""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/media", data=data, method="POST",
                                 headers={"Content-Type": "application/octet-stream", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except Exception as error:
        return 0, str(error).encode()


def wav_of(seconds):
    """A mono 8 kHz 8-bit WAV of silence."""
    samples = b"\x80" * (8000 * seconds)
    return (b"RIFF" + (36 + len(samples)).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
            + (1).to_bytes(2, "little") + (1).to_bytes(2, "little") + (8000).to_bytes(4, "little")
            + (8000).to_bytes(4, "little") + (1).to_bytes(2, "little") + (8).to_bytes(2, "little")
            + b"data" + len(samples).to_bytes(4, "little") + samples)


def in_order_once(ids):
    return all(a < b for a, b in zip(ids, ids[1:]))


def start_server(binary, folder, name, database):
    """The server on free ports, its log in FOLDER/NAME.log; returns once /healthz says 200."""
    http, tcp = free_port(), free_port()
    log = open(os.path.join(folder, f"{name}.log"), "w")
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{tcp}", "--db", database,
                               "--admin-token", "T", "--keepalive", "1", "--store-timeout", str(STORE_TIMEOUT)],
                              stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(200):
        if request(http, "GET", "/healthz", timeout=1)[0] == 200:
            break
        time.sleep(0.1)
    return server, http, tcp, log


def healthz_until_ok(http, seconds, pause):
    """Asks /healthz every `pause` seconds until it says 200 or `seconds` have passed; every status it answered."""
    statuses = []
    for _ in range(int(seconds / pause)):
        statuses.append(request(http, "GET", "/healthz", timeout=2)[0])
        if statuses[-1] == 200:
            break
        time.sleep(pause)
    return statuses


def stop_server(server):
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


def stall_lines(log):
    """The log's lines that say a stall began and ended, and that a write was refused."""
    log.flush()
    lines = open(log.name).read().splitlines()
    return ([l for l in lines if "the store has not answered for" in l], [l for l in lines if "the store answers again after" in l],
            [l for l in lines if "writing to the store failed" in l])


def scenario(name, binary, folder, database, freeze, thaw):
    print(f"== {name}", flush=True)
    server, http, tcp, log = start_server(binary, folder, name, database)
    try:
        acknowledged = []
        for i in range(3):
            status, message, _ = publish(http, f"before {i}")
            check(f"{name}: a publish before the stall is stored", status == 201, status)
            if status == 201:
                acknowledged.append(message["id"])
        # A conversation, for a typing notice during the stall (typing is a conversation's).
        for user in ("bob", "carol"):
            request(http, "POST", "/api/accounts", {"user": user, "password": "correct horse"})
        status, body, _ = request(http, "POST", "/api/sessions", {"user": "bob", "password": "correct horse"})
        token = json.loads(body)["token"] if status == 201 else None
        status, body, _ = request(http, "POST", "/api/conversations", {"title": "t", "members": ["carol"]}, token=token)
        conversation = json.loads(body).get("room") if status in (200, 201) else None
        check(f"{name}: a conversation for the typing notice", conversation is not None, (status, body[:100]))
        sse, ws, line, poller = SSE(http), WebSocket(http), LineClient(tcp, "tom"), LongPoller(http)
        for client in (sse, ws, line, poller):
            client.start()
        time.sleep(1.5)

        freeze()
        stall_started = time.monotonic()
        results = {}

        def publish_during(key, text):
            results[key] = publish(http, text)
        publishers = [threading.Thread(target=publish_during, args=(f"p{i}", f"during {i}")) for i in range(2)]
        for thread in publishers:
            thread.start()
            time.sleep(0.2)
        # Past the timeout: the store has not answered for --store-timeout.
        time.sleep(STORE_TIMEOUT + 0.5)
        status, _, elapsed = request(http, "GET", "/healthz", timeout=10)
        check(f"{name}: /healthz answers within a second during the stall", elapsed < 1.0, f"{elapsed:.2f} s")
        check(f"{name}: /healthz is 503 store_unavailable once the store has not answered for the timeout", status == 503, status)
        admin_status, body, _ = request(http, "GET", "/api/admin/stats", timeout=10, token="T")
        stats = json.loads(body) if admin_status == 200 else {}
        check(f"{name}: the admin stats say the store is stalled", stats.get("store_stalled") is True and stats.get("store_writable") is False,
              (admin_status, stats.get("store_stalled"), stats.get("store_writable")))
        metrics = request(http, "GET", "/metrics", timeout=10)[1].decode()
        check(f"{name}: /metrics says the store is stalled and callers timed out",
              "\nswitchboard_store_stalled 1\n" in metrics and "\nswitchboard_store_timeouts_total 0\n" not in metrics,
              [l for l in metrics.splitlines() if l.startswith("switchboard_store_")])
        pong = line.ask("ping:stall", "pong:stall")
        check(f"{name}: TCP ping: answered within a second", pong is not None and pong < 1.0, pong)
        who = line.ask("who:", "who:")
        check(f"{name}: TCP who: answered within a second", who is not None and who < 1.0, who)
        status, _, elapsed = request(http, "POST", f"/api/conversations/{conversation}/typing", {}, timeout=10, token=token)
        check(f"{name}: a typing notice is answered within a second", elapsed < 1.0 and status in (200, 202, 204), (status, elapsed))
        status, _, elapsed = request(http, "GET", "/api/rooms/lobby/presence", timeout=10)
        check(f"{name}: presence answers within a second", elapsed < 1.0 and status == 200, (status, elapsed))
        ws.send(0x9, b"stall")
        sent = time.monotonic()
        while time.monotonic() - sent < 3 and not any(p == b"stall" for p, _ in ws.pongs):
            time.sleep(0.02)
        answered = [at - sent for p, at in ws.pongs if p == b"stall"]
        check(f"{name}: a WebSocket ping is answered within a second", bool(answered) and answered[0] < 1.0, answered)
        tcp_refusal = line.ask("msg:from tcp during the stall", "error:", within=STORE_TIMEOUT + 2)
        refusals = [t for t, _ in line.lines if t.startswith("error:")]
        check(f"{name}: a raw TCP publish is refused within the timeout + 2 s, as error:store_unavailable",
              tcp_refusal is not None and tcp_refusal < STORE_TIMEOUT + 2 and refusals[-1:] == ["error:store_unavailable"],
              (tcp_refusal, refusals[-1:]))
        for thread in publishers:
            thread.join(timeout=30)
        for key, (status, body, elapsed) in sorted(results.items()):
            check(f"{name}: publish {key} during the stall answered within the timeout + 2 s", elapsed < STORE_TIMEOUT + 2,
                  f"{elapsed:.2f} s")
            check(f"{name}: publish {key} during the stall is 201 or 503 store_unavailable",
                  status == 201 or (status == 503 and b"store_unavailable" in body), (status, body[:120]))
            if status == 201:
                acknowledged.append(body["id"])
        while time.monotonic() - stall_started < STALL:
            time.sleep(0.1)
        stall_ended = time.monotonic()
        gaps = [b - a for a, b in zip(sse.keepalives, sse.keepalives[1:]) if a >= stall_started - 1 and b <= stall_ended]
        check(f"{name}: SSE keepalives kept coming during the stall (every 1 s, none late by a second)",
              len(gaps) >= 5 and max(gaps) < 2.0, f"{len(gaps)} gaps, max {max(gaps) if gaps else None}")
        pings = [p for p in ws.server_pings if stall_started <= p <= stall_ended]
        check(f"{name}: the server's WebSocket pings kept coming during the stall", len(pings) >= 5, len(pings))
        thaw()

        healthy = healthz_until_ok(http, 15, 0.1)[-1:] == [200]
        check(f"{name}: /healthz is 200 again once the store answers, without a restart", healthy)
        metrics = request(http, "GET", "/metrics", timeout=10)[1].decode()
        check(f"{name}: /metrics says the stall is over", "\nswitchboard_store_stalled 0\n" in metrics,
              [l for l in metrics.splitlines() if l.startswith("switchboard_store_")])
        for i in range(3):
            status, message, _ = publish(http, f"after {i}")
            check(f"{name}: a publish after the stall is stored", status == 201, status)
            if status == 201:
                acknowledged.append(message["id"])
        time.sleep(4)
        poller.stop = True
        tcp_texts = [t for t, _ in line.lines]
        for label, ids in (("SSE", sse.ids), ("WebSocket", ws.ids), ("long poll", poller.ids)):
            check(f"{name}: {label} got every acknowledged message", set(acknowledged) <= set(ids),
                  f"missing {sorted(set(acknowledged) - set(ids))}")
            check(f"{name}: {label} got each message once, in order", in_order_once(ids), ids)
        # Raw TCP is live from its iam: (no replay asked): what came after it, once.
        for text in [f"alice:after {i}" for i in range(3)]:
            check(f"{name}: raw TCP got '{text}' once", tcp_texts.count(text) == 1, tcp_texts.count(text))
        for key, (status, _, _) in sorted(results.items()):
            text = f"alice:during {key[1:]}"
            check(f"{name}: raw TCP got '{text}' once if it was acknowledged", status != 201 or tcp_texts.count(text) == 1,
                  tcp_texts.count(text))
        check(f"{name}: every connection stayed open", not (sse.closed or ws.closed or line.closed),
              (sse.closed, ws.closed, line.closed))
        check(f"{name}: the server is still running", server.poll() is None)
        # The operator hears of the stall once when callers start being refused and once when it ends.
        began, ended, _ = stall_lines(log)
        check(f"{name}: the log says the stall once, as an error", len(began) == 1 and "error" in began[0], began)
        check(f"{name}: the log says once that the store answers again, with the callers refused",
              len(ended) == 1 and "callers were refused meanwhile" in ended[0], ended)
    finally:
        stop_server(server)


def quiet_lock(binary, folder):
    """One publish while another process holds the SQLite file longer than SQLite's busy timeout (5 s), then nothing:
    the store did not answer, it refused nothing, so /healthz is 200 again once the lock goes, with no write since.
    (Taken for a refused write, /healthz said 503 until the next publish: for good on a quiet server.)"""
    print("== sqlite, quiet", flush=True)
    path = os.path.join(folder, "quiet.sqlite")
    server, http, _, log = start_server(binary, folder, "quiet", path)
    try:
        check("quiet: a publish before the lock is stored", publish(http, "before")[0] == 201)
        holder = sqlite_lock(path)
        locked = time.monotonic()
        status, _, elapsed = publish(http, "while locked")
        check("quiet: a publish while locked is 503 within the timeout + 2 s", status == 503 and elapsed < STORE_TIMEOUT + 2,
              (status, elapsed))
        time.sleep(max(0, 7 - (time.monotonic() - locked)))
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=10)
        statuses = healthz_until_ok(http, 5, 0.1)
        check("quiet: /healthz is 200 once the lock goes, with nothing written since", statuses[-1:] == [200],
              f"{len(statuses)} answers, last {statuses[-1:]}")
        began, ended, refused = stall_lines(log)
        check("quiet: the log says the stall began and ended, once each", len(began) == 1 and len(ended) == 1, (began, ended))
        check("quiet: the log says no write was refused", refused == [], refused)
    finally:
        stop_server(server)


def quiet_full_disk(binary):
    """The database on a small tmpfs filled up: a publish is refused and /healthz says 503; the disk freed, with nothing
    published since, /healthz writes durably and says 200 (it said 503 until the next publish: for good behind a load
    balancer that took the server out for it). Skipped without the right to mount."""
    print("== sqlite, quiet full disk", flush=True)
    folder = tempfile.mkdtemp(prefix="switchboard-full.")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", folder], capture_output=True).returncode != 0:
        print("no right to mount a tmpfs: the quiet full disk is skipped")
        os.rmdir(folder)
        return
    logs = tempfile.mkdtemp(prefix="switchboard-full-logs.")
    server, http, _, log = start_server(binary, logs, "full", os.path.join(folder, "full.sqlite"))
    filler = os.path.join(folder, "filler")
    try:
        check("full disk: a publish before is stored", publish(http, "before")[0] == 201)
        with open(filler, "wb") as handle:
            try:
                while True:
                    handle.write(b"\0" * 65536)
                    handle.flush()
            except OSError:
                pass
        refused = [publish(http, "x" * 3000)[0] for _ in range(200)]
        check("full disk: publishes are refused with 503", 503 in refused, refused[-5:])
        statuses = [request(http, "GET", "/healthz", timeout=2)[0] for _ in range(3)]
        check("full disk: /healthz is 503 while the disk is full", statuses == [503] * 3, statuses)
        # Uploads' bytes go on the same disk: refused, without the media folder's path, and said once in the log.
        voice = wav_of(40)
        refused_uploads = [upload(http, voice) for _ in range(2)]
        check("full disk: uploads are refused with 503 store_unavailable, naming no path",
              all(status == 503 and b"store_unavailable" in body and folder.encode() not in body for status, body in refused_uploads),
              refused_uploads)
        log.flush()
        said = [l for l in open(log.name).read().splitlines() if "an upload could not be written" in l]
        check("full disk: the log says once that uploads cannot be written, and why",
              len(said) == 1 and "No space left on device" in said[0], said)
        metrics = request(http, "GET", "/metrics", timeout=5)[1]
        check("full disk: /metrics says uploads' writes are failing", b"\nswitchboard_media_writes_failing 1\n" in metrics,
              [l for l in metrics.split(b"\n") if b"writes_failing" in l])
        stats = json.loads(request(http, "GET", "/api/admin/stats", timeout=5, token="T")[1] or b"{}")
        check("full disk: the admin stats say uploads are refused", stats.get("uploads_writable") is False, stats.get("uploads_writable"))
        os.remove(filler)
        # A refusal is believed for --store-timeout; then /healthz's durable write ends it.
        statuses = healthz_until_ok(http, STORE_TIMEOUT + 3, 0.2)
        check("full disk: /healthz is 200 once there is room, with nothing published since", statuses[-1:] == [200],
              f"{len(statuses)} answers, last {statuses[-1:]}")
        _, _, refusals = stall_lines(log)
        lines = open(log.name).read().splitlines()
        check("full disk: the log says the refusal and its end once each",
              len(refusals) == 1 and sum("the store takes writes again" in l for l in lines) == 1, refusals)
        check("full disk: a publish after is stored", publish(http, "after")[0] == 201)
        status, body = upload(http, voice)
        check("full disk: an upload after is kept", status == 201, (status, body[:200]))
        lines = open(log.name).read().splitlines()
        check("full disk: the log says once that uploads are written again",
              sum("uploads are written again" in l for l in lines) == 1, [l for l in lines if "upload" in l])
        metrics = request(http, "GET", "/metrics", timeout=5)[1]
        check("full disk: /metrics says uploads' writes succeed again", b"\nswitchboard_media_writes_failing 0\n" in metrics,
              [l for l in metrics.split(b"\n") if b"writes_failing" in l])
        stats = json.loads(request(http, "GET", "/api/admin/stats", timeout=5, token="T")[1] or b"{}")
        check("full disk: the admin stats say uploads are written again", stats.get("uploads_writable") is True, stats.get("uploads_writable"))
    finally:
        stop_server(server)
        if os.path.exists(filler):
            os.remove(filler)
        subprocess.run(["umount", folder])
        os.rmdir(folder)


def sqlite_lock(path):
    """Another process that holds the database under BEGIN EXCLUSIVE until told to stop."""
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys\n"
        f"db = sqlite3.connect({path!r}, isolation_level=None, timeout=10)\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.readline()\n"
        "db.execute('ROLLBACK')\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def postgres_pids(directory):
    main = int(open(os.path.join(directory, "data", "postmaster.pid")).readline())
    children = subprocess.run(["pgrep", "-P", str(main)], capture_output=True, text=True).stdout.split()
    return [main] + [int(pid) for pid in children]


def main():
    binary = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    scripts = os.path.join(here, "..", "..", "Scripts")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "stall.sqlite")
        holder = {}

        def lock():
            holder["process"] = sqlite_lock(path)

        def unlock():
            holder["process"].stdin.write("\n")
            holder["process"].stdin.flush()
            holder["process"].wait(timeout=10)
        scenario("sqlite", binary, folder, path, lock, unlock)
        quiet_lock(binary, folder)
        quiet_full_disk(binary)

        pgdir = tempfile.mkdtemp(prefix="switchboard-stall-pg.")
        started = subprocess.run([os.path.join(scripts, "postgres.sh"), "start", pgdir], capture_output=True, text=True)
        if started.returncode != 0:
            print(f"PostgreSQL could not be started: the frozen-PostgreSQL case is skipped\n{started.stderr}")
        else:
            frozen = []
            try:
                def freeze():
                    frozen[:] = postgres_pids(pgdir)
                    for pid in frozen:
                        os.kill(pid, signal.SIGSTOP)

                def thaw():
                    for pid in frozen:
                        os.kill(pid, signal.SIGCONT)
                scenario("postgresql", binary, folder, started.stdout.strip(), freeze, thaw)
            finally:
                for pid in frozen:
                    try:
                        os.kill(pid, signal.SIGCONT)
                    except ProcessLookupError:
                        pass
                subprocess.run([os.path.join(scripts, "postgres.sh"), "stop", pgdir], capture_output=True)
    print(f"{len(failures)} failures" if failures else "all stalled-store checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
