#!/usr/bin/env python3
"""The floods and TLS checks of the security issue, against the real binary
started with its default limits, as an attacker on the same machine would
send them: a non-reading WebSocket client's ping flood over ws and wss (the
server's RSS read before, during and after), 10,000 join:s from one raw
TCP guest, sign-in and sign-up floods, a forged Host, TLS suites with CBC
and client-started renegotiation, and a reader that stops reading. Usage:
    python3 Tests/Security/security_test.py .build/debug/switchboard
"""
import base64, concurrent.futures, json, os, socket, ssl, subprocess, sys, tempfile, time, urllib.error, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "TLS"))
from tls_test import free_port, make_certificates  # noqa: E402

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f' ({detail})'}")
    if not ok:
        failures.append(name)


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def start(binary, folder, *extra):
    http, tcp = free_port(), free_port()
    process = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{tcp}",
                                "--db", os.path.join(folder, f"s{http}.sqlite"), "--admin-token", "T", *extra],
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, f"s{http}.log"), "w"))
    scheme = "https" if "--tls-cert" in extra else "http"
    context = ssl._create_unverified_context()
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{scheme}://127.0.0.1:{http}/healthz", timeout=1, context=context if scheme == "https" else None)
            return process, http, tcp
        except Exception:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def request(port, method, path, body=None, headers=None, scheme="http"):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"{scheme}://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10, context=ssl._create_unverified_context() if scheme == "https" else None) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def upgrade(sock, port, path="/api/rooms/lobby/ws", host=None, origin=None):
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"Origin: {origin}\r\n" if origin else ""
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            break
        head += chunk
    return head


def ping_flood(name, pid, connect, seconds=8.0):
    """A client that sends 125-byte pings as fast as it can and never reads."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock = connect(raw)
    head = upgrade(sock, 0, host="127.0.0.1")
    if b" 101 " not in head:
        check(f"{name}: the ping flood's socket opens", False, head[:80])
        return
    mask = b"\x01\x02\x03\x04"
    frame = bytes([0x89, 0x80 | 125]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(b"x" * 125))
    batch = frame * 512
    before = rss_mb(pid)
    sock.settimeout(0.05)
    sent, peak, started, sent_by_then = 0, before, time.time(), None
    while time.time() - started < seconds:
        if sent_by_then is None and time.time() - started >= seconds - 2:
            sent_by_then = sent
        try:
            sent += sock.send(batch)
        except (socket.timeout, ssl.SSLWantWriteError, BlockingIOError):
            pass
        except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
            break
        peak = max(peak, rss_mb(pid))
    during = peak
    sock.close()
    # What the server frees is given back within moments (MemoryReturn: 2 s after a close).
    closed = time.time()
    while time.time() - closed < 4:
        time.sleep(0.25)
        peak = max(peak, rss_mb(pid))
    after = rss_mb(pid)
    print(f"     {name}: {sent / 1e6:.1f} MB of pings sent in {seconds:.0f} s; server RSS {before:.0f} MB before, "
          f"{during:.0f} MB at most during, {peak:.0f} MB at most with the close, {after:.0f} MB 4 s after it")
    late = sent - (sent_by_then or 0)
    print(f"     {name}: {late / 1e3:.0f} kB taken by the server in the flood's last 2 s")
    check(f"{name}: the server stops reading a client that does not read its pongs", late < 1_500_000, f"{late} bytes")
    check(f"{name}: the server's memory stays bounded under a ping flood", peak - before < 64, f"grew {peak - before:.0f} MB")
    check(f"{name}: and is given back after the close", after - before < 16, f"{after - before:.0f} MB more")


def password_guessing(http):
    """Guesses at one account until it is throttled; returns when the right
    password will pass again (Retry-After: about a minute, spent on the other
    checks rather than asleep)."""
    # 40 parallel wrong guesses at one account from one address.
    status, _, _ = request(http, "POST", "/api/accounts", {"user": "leia", "password": "correct horse"})
    check("leia registers", status == 201, status)
    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(lambda _: request(http, "POST", "/api/sessions", {"user": "leia", "password": "guess!!!"})[0],
                                range(160)))
    print(f"     160 wrong guesses: {answers.count(401)} checked (401), {answers.count(429)} refused (429)")
    check("password guessing is throttled (429 after 10)", answers.count(401) <= 10 and answers.count(429) >= 150,
          f"{answers.count(401)} × 401")
    status, headers, _ = request(http, "POST", "/api/sessions", {"user": "leia", "password": "correct horse"})
    wait = int(headers.get("Retry-After", "0"))
    check("the right password waits its turn too, with Retry-After", status == 429 and 1 <= wait <= 61, (status, wait))
    return time.time() + wait + 0.5


def listed_rooms(http):
    """Every room `GET /api/rooms` lists (stored ones, and those with someone online), with who is online."""
    rooms, after = {}, ""
    while True:
        _, _, body = request(http, "GET", f"/api/rooms?limit=1000&after={after}")
        page = json.loads(body)
        rooms.update({room["name"]: room.get("online", []) for room in page["rooms"]})
        after = page.get("next")
        if not after:
            return rooms


def settled_rooms(http, within=30):
    """The rooms once the server has caught up: nobody online and the last id
    unchanged over a second. The line handler answers `pong:done` once it
    has read every `join:`, while the commit thread may still be storing
    the hops (each a join and its retraction); a list read then shows the
    store's room of the moment and the presence's last room, two rooms
    that are never both kept (a CI run failed so). Returns (rooms, last id)."""
    deadline, previous, steady = time.time() + within, None, 0
    while True:
        last = json.loads(request(http, "GET", "/healthz")[2]).get("last_id")
        rooms = listed_rooms(http)
        steady = steady + 1 if last == previous and not any(rooms.values()) else 0
        if steady >= 3 or time.time() > deadline:
            return list(rooms), last
        previous = last
        time.sleep(0.5)


def plain_server(binary, folder, meanwhile):
    """The checks on a plain server; `meanwhile` runs while its sign-in throttle runs out."""
    process, http, tcp = start(binary, folder)
    try:
        passes = password_guessing(http)
        ping_flood("ws", process.pid, lambda raw: (raw.connect(("127.0.0.1", http)), raw)[1])

        # 10,000 join:s from one guest on raw TCP.
        sock = socket.create_connection(("127.0.0.1", tcp))
        sock.sendall(b"iam:flood\n" + b"".join(f"join:flood{i}\n".encode() for i in range(10_000)) + b"ping:done\n")
        received, started = b"", time.time()
        sock.settimeout(1)
        while b"pong:done" not in received and time.time() - started < 60:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                break
            received += chunk
        sock.close()
        refused = received.count(b"error:rate_limited")
        rooms, stored = settled_rooms(http)
        print(f"     10,000 join:s: {refused} refused, {len(rooms)} rooms, {stored} messages stored")
        check("10,000 join:s are refused past --room-rate (100 new rooms, then one a second)", refused >= 9_850, f"{refused} refused")
        check("and the rooms hopped through with nothing said keep nothing (the last one is where it is)",
              len(rooms) <= 1, f"{len(rooms)} rooms: {rooms[:5]}")
        check("so ids were assigned to a bounded number of joins", stored <= 160, f"last id {stored}")

        # Sign-ups from one address.
        # Each sign-up hashes a password; on a loaded machine the 40 take
        # seconds, and the bucket gains one every 10 s of them.
        began = time.time()
        statuses = [request(http, "POST", "/api/accounts", {"user": f"bot{i}", "password": "passpass1"})[0] for i in range(40)]
        refills = int((time.time() - began) / 10)
        check("sign-ups from one address are throttled (30 at once, leia's included, then one every 10 s)",
              29 <= statuses.count(201) <= 30 + refills and statuses[-5:].count(429) >= 5 - refills,
              f"{statuses}, {refills} refilled in {time.time() - began:.1f} s")

        # A DNS-rebinding page: Host and Origin on a name made to point here.
        forged = socket.create_connection(("127.0.0.1", http))
        head = upgrade(forged, http, host=f"evil.example:{http}", origin=f"http://evil.example:{http}")
        forged.close()
        check("a WebSocket upgrade with a forged Host is refused (421)", head.startswith(b"HTTP/1.1 421"), head[:40])
        status, _, _ = request(http, "POST", "/api/rooms/lobby/messages", {"user": "mallory", "text": "rebound"},
                               {"Host": f"evil.example:{http}", "Origin": f"http://evil.example:{http}"})
        check("and so is a publish", status == 421, status)

        meanwhile()
        time.sleep(max(0.0, passes - time.time()))
        status, _, _ = request(http, "POST", "/api/sessions", {"user": "leia", "password": "correct horse"})
        check("and works once it passes", status == 201, status)
    finally:
        process.terminate()
        process.wait(10)


def openssl_handshake(port, *options):
    """Whether `openssl s_client` completes a handshake with these options, and the cipher."""
    result = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", *options], input=b"",
                            capture_output=True, timeout=10)
    for line in result.stdout.decode(errors="replace").splitlines():
        if "Cipher is" in line:
            cipher = line.split("Cipher is")[-1].strip()
            return cipher != "(NONE)", cipher
    return False, None


def tls_server(binary, folder):
    _, cert, key = make_certificates(folder)
    wss = free_port()
    process, https, tcp = start(binary, folder, "--tls-cert", cert, "--tls-key", key, "--tcp-tls", "--wss", f"127.0.0.1:{wss}")
    context = ssl._create_unverified_context()
    try:
        for name, port in (("HTTPS", https), ("the line port", tcp), ("wss (--wss)", wss)):
            for suite in ("ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES256-SHA384"):
                done, _ = openssl_handshake(port, "-tls1_2", "-cipher", suite)
                check(f"{name} refuses {suite} (CBC)", not done)
            done, cipher = openssl_handshake(port, "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305")
            check(f"{name} speaks TLS 1.2 with an AEAD suite", done, cipher)
            done, _ = openssl_handshake(port, "-tls1_3")
            check(f"{name} speaks TLS 1.3", done)
        # Client-started renegotiation: s_client's "R" command, then a request.
        script = b"R\n"
        process_r = subprocess.Popen(["openssl", "s_client", "-connect", f"127.0.0.1:{https}", "-tls1_2"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        time.sleep(1)
        process_r.stdin.write(script)
        process_r.stdin.flush()
        time.sleep(1)
        try:
            process_r.stdin.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            process_r.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(1)
        process_r.kill()
        output = process_r.communicate()[0].decode(errors="replace")
        check("HTTPS does not renegotiate at a client's request (the connection ends, nothing more is served)",
              "RENEGOTIATING" in output and "HTTP/1.1 200" not in output, output[-200:])

        ping_flood("wss on --wss (TLS in SwiftNIO)", process.pid,
                   lambda raw: context.wrap_socket((raw.connect(("127.0.0.1", wss)), raw)[1], server_hostname="127.0.0.1"))
        ping_flood("wss on the HTTPS port (libmicrohttpd's TLS)", process.pid,
                   lambda raw: context.wrap_socket((raw.connect(("127.0.0.1", https)), raw)[1], server_hostname="127.0.0.1"))
        status, _, _ = request(https, "GET", "/healthz", scheme="https")
        check("the server still serves after the floods", status == 200, status)
    finally:
        process.terminate()
        process.wait(10)


def sse_streams(port):
    _, _, body = request(port, "GET", "/metrics")
    return next(float(line.split()[1]) for line in body.decode().splitlines()
                if line.startswith('switchboard_connections{transport="sse"}'))


def slow_reader(binary, folder):
    """An SSE reader that stops reading, its window full, for 25 s (25
    keepalive intervals) while it still acknowledges: never dropped for it
    (SPEC, slow readers), and it then reads every message. TCP_USER_TIMEOUT
    at two keepalives (tried in 80b3d91) reset it here."""
    process, http, _ = start(binary, folder, "--keepalive", "1")
    try:
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(("127.0.0.1", http))
        client.sendall(f"GET /api/rooms/slow/events HTTP/1.1\r\nHost: 127.0.0.1:{http}\r\n\r\n".encode())
        for index in range(200):
            request(http, "POST", "/api/rooms/slow/messages", {"user": "bench", "text": f"{index} " + "x" * 3000})
        time.sleep(25)
        check("a reader that stopped reading for 25 s (--keepalive 1) keeps its stream", sse_streams(http) == 1)
        received, started = b"", time.time()
        client.settimeout(1)
        while received.count(b"event: message") < 200 and time.time() - started < 30:
            try:
                chunk = client.recv(65536)
            except (socket.timeout, ConnectionError):
                break
            if not chunk:
                break
            received += chunk
        check("and then reads every message", received.count(b"event: message") == 200, received.count(b"event: message"))
        client.close()
    finally:
        process.terminate()
        process.wait(10)


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        plain_server(binary, folder, lambda: (tls_server(binary, folder), slow_reader(binary, folder)))
    if failures:
        print(f"security: {len(failures)} failed: {', '.join(failures)}")
        sys.exit(1)
    print("security: every check passed")


if __name__ == "__main__":
    main()
