#!/usr/bin/env python3
"""HTTPS and wss through libmicrohttpd's TLS, and the line protocol behind
NIOSSL (--tcp-tls), against the real binary: a
throwaway CA and a server certificate made with openssl, then curl and
Python's ssl module as clients (both verify the chain). Usage:
    python3 Tests/TLS/tls_test.py .build/debug/switchboard
"""
import base64, json, os, signal, socket, ssl, subprocess, sys, time, warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)  # TLS 1.1, on purpose


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import free_port, scratch_folder  # noqa: E402,F401  (Security, Media and Stall take it from here)


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_certificates(folder):
    """A CA, and a certificate for 127.0.0.1 signed by it."""
    ca_key, ca, key, csr, cert = (os.path.join(folder, n) for n in ("ca.key", "ca.pem", "key.pem", "server.csr", "cert.pem"))
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", ca_key,
            "-out", ca, "-days", "2", "-subj", "/CN=Switchboard test CA")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", csr,
            "-subj", "/CN=127.0.0.1")
    extensions = os.path.join(folder, "san.ext")
    open(extensions, "w").write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "2",
            "-extfile", extensions)
    return ca, cert, key


def curl(*args):
    return subprocess.run(["curl", "-s", *args], capture_output=True, text=True, timeout=10)


def wss_open(context, port, path, version="1.1"):
    """A WebSocket handshake over TLS: the socket and the answer's head."""
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1")
    key_value = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/{version}\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key_value}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    return sock, head


class FrameReader:
    """The server's (unmasked) frames off a socket: (opcode, payload)."""
    def __init__(self, sock):
        self.sock, self.buffer = sock, b""

    def frame(self):
        while True:
            if len(self.buffer) >= 2:
                length, start = self.buffer[1] & 0x7F, 2
                if length == 126:
                    length, start = int.from_bytes(self.buffer[2:4], "big"), 4
                if len(self.buffer) >= start + length:
                    opcode, payload = self.buffer[0] & 0x0F, self.buffer[start:start + length]
                    self.buffer = self.buffer[start + length:]
                    return opcode, payload
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the wss connection")
            self.buffer += chunk


def send_frame(sock, opcode, payload):
    """One masked client frame (payloads under 126 bytes)."""
    mask = os.urandom(4)
    sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def close_handshake(sock, frames):
    """Sends a close frame, reads up to the server's, then waits (3 s at most) for
    the server to close the TCP connection: (the server's close came, it closed
    within a second, seconds waited)."""
    send_frame(sock, 8, (1000).to_bytes(2, "big"))
    answered = False
    while not answered:
        answered = frames.frame()[0] == 8
    started = time.monotonic()
    sock.settimeout(3)
    try:
        closed = sock.recv(1) == b""
    except (socket.timeout, ssl.SSLError, ConnectionError):
        closed = False
    waited = time.monotonic() - started
    return answered, closed and waited < 1, waited


def main():
    binary = sys.argv[1]
    results = []
    folder = scratch_folder("switchboard-tls-", lambda: not all(results))
    ca, cert, key = make_certificates(folder)
    port, tcp_port, wss_port = free_port(), free_port(), free_port()
    base = f"https://127.0.0.1:{port}"

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print(f"{'ok' if ok else 'FAILED'}: {name}{' (' + str(detail) + ')' if detail else ''}", flush=True)

    # A bad file stops the start with a message naming it.
    bad = subprocess.run([binary, "serve", "--http", "127.0.0.1:0", "--tcp", "off", "--db", ":memory:",
                          "--tls-cert", os.path.join(folder, "missing.pem"), "--tls-key", key],
                         capture_output=True, text=True, timeout=20)
    check("a missing certificate stops the start, naming the file",
          bad.returncode != 0 and "missing.pem" in bad.stderr, bad.stderr.strip().splitlines()[:1])
    other_key = os.path.join(folder, "other.key")
    openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", other_key)
    mismatched = subprocess.run([binary, "serve", "--http", "127.0.0.1:0", "--tcp", "off", "--db", ":memory:",
                                 "--tls-cert", cert, "--tls-key", other_key], capture_output=True, text=True, timeout=20)
    check("a key that is not the certificate's stops the start, naming both files",
          mismatched.returncode != 0 and "other.key" in mismatched.stderr and "cert.pem" in mismatched.stderr,
          mismatched.stderr.strip().splitlines()[:1])

    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", f"127.0.0.1:{tcp_port}", "--tcp-tls",
                               "--db", os.path.join(folder, "db.sqlite"), "--tls-cert", cert, "--tls-key", key,
                               "--wss", f"127.0.0.1:{wss_port}",
                               "--admin-token", "tls-admin", "--log-level", "warning"])
    try:
        for _ in range(100):
            if curl("--cacert", ca, f"{base}/healthz").returncode == 0:
                break
            time.sleep(0.1)
        published = curl("--cacert", ca, "-d", "user=luke", "-d", "text=over https", f"{base}/api/rooms/lobby/messages")
        check("publish over https, the chain verified", '"text":"over https"' in published.stdout, published.stdout)
        polled = curl("--cacert", ca, f"{base}/api/rooms/lobby/messages?since=0")
        check("short poll over https", '"next":1' in polled.stdout, polled.stdout)
        stream = curl("--cacert", ca, "-N", "--max-time", "1", f"{base}/api/rooms/lobby/events?since=0")
        check("SSE over https replays", "id: 1\nevent: message" in stream.stdout, stream.stdout[:80])
        # The client is set to speak TLS 1.1 (OpenSSL 3 needs security level 0 for it), so
        # a handshake failure (curl's 35) is the server's refusal, not the client's.
        old = curl("--cacert", ca, "--tlsv1.1", "--tls-max", "1.1", "--ciphers", "DEFAULT@SECLEVEL=0", f"{base}/healthz")
        check("TLS 1.1 is refused", old.returncode == 35, f"curl exit {old.returncode}")
        plain = curl("--max-time", "3", f"http://127.0.0.1:{port}/healthz")
        check("plain HTTP to the TLS port gets no page", plain.returncode != 0 and "ok" not in plain.stdout,
              f"curl exit {plain.returncode}")
        curl("--cacert", ca, "-d", "user=leia", "-d", "password=correct horse battery", f"{base}/api/accounts")
        session = curl("--cacert", ca, "-i", "-d", "user=leia", "-d", "password=correct horse battery", f"{base}/api/sessions")
        cookie = next((l for l in session.stdout.splitlines() if l.lower().startswith("set-cookie:")), "")
        check("the session cookie is Secure under TLS", "; Secure" in cookie, cookie.strip()[:40] + "…")

        # wss: the handshake through libmicrohttpd, then frames through its TLS relay into SwiftNIO.
        context = ssl.create_default_context(cafile=ca)
        sock, head = wss_open(context, port, "/api/rooms/lobby/ws?since=0")
        check("wss: the upgrade is answered 101", head.startswith(b"HTTP/1.1 101"), head.split(b"\r\n")[0])
        frames = FrameReader(sock)
        frame = lambda: frames.frame()[1]

        replayed = json.loads(frame())
        check("wss: replay from the cursor", replayed.get("text") == "over https", replayed)
        send_frame(sock, 1, json.dumps({"text": "over wss", "user": "han", "ref": 7}).encode())
        seen = [json.loads(frame()) for _ in range(2)]
        check("wss: a publish is delivered and acknowledged", any(m.get("text") == "over wss" for m in seen)
              and any(m.get("ack") == 7 for m in seen), seen)
        # The close handshake through the relay: the server answers and then closes the TCP connection
        # with nothing else to serve (libmicrohttpd closes it in a pass after its relay is done, which
        # nothing woke the loop for: it waited for the next request, and a stop for its grace).
        answered, closed, waited = close_handshake(sock, frames)
        check("wss: the server answers the close and closes the relayed connection, with nothing else to do",
              answered and closed, f"{waited:.3f} s")
        sock.close()

        # The line protocol over TLS, the same certificate (an iOS app asks for it with one stream property).
        line = context.wrap_socket(socket.create_connection(("127.0.0.1", tcp_port), timeout=5), server_hostname="127.0.0.1")
        line.sendall(b"iam:chewie\nmsg:over tcp tls\n")
        received = b""
        deadline = time.monotonic() + 5
        while b"chewie:over tcp tls\n" not in received and time.monotonic() < deadline:
            chunk = line.recv(65536)
            if not chunk:
                break
            received += chunk
        check("raw TCP over TLS: join and publish", b"chewie has joined\n" in received and b"chewie:over tcp tls\n" in received,
              received[-60:])
        old_line = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        old_line.load_verify_locations(ca)
        old_line.set_ciphers("DEFAULT:@SECLEVEL=0")  # a client able to speak TLS 1.1
        old_line.minimum_version = old_line.maximum_version = ssl.TLSVersion.TLSv1_1
        try:
            old_line.wrap_socket(socket.create_connection(("127.0.0.1", tcp_port), timeout=5), server_hostname="127.0.0.1")
            refused = False
        except ssl.SSLError:
            refused = True
        check("raw TCP over TLS refuses TLS 1.1", refused)
        with socket.create_connection(("127.0.0.1", tcp_port), timeout=3) as plain_line:
            plain_line.sendall(b"iam:plain\n")
            try:
                answer = plain_line.recv(4096)
            except OSError:
                answer = b""
        check("plain nc to the TLS line port gets no chat line", b"has joined" not in answer, answer[:40])
        line.close()
        time.sleep(0.3)
        # The relay was released: the server goes on serving.
        after = curl("--cacert", ca, f"{base}/api/rooms/lobby/messages?since=0")
        check("the server serves on after a wss client left", '"over wss"' in after.stdout)

        # wss on its own port (--wss): TLS, handshake and frames in SwiftNIO, no relay.
        own, head = wss_open(context, wss_port, "/api/rooms/lobby/ws?user=rey&since=0")
        own_frames = FrameReader(own)
        own_frame = own_frames.frame
        send_own = lambda opcode, payload: send_frame(own, opcode, payload)
        send_own(1, json.dumps({"text": "over nio wss", "ref": 9}).encode())
        replies = []
        while not any(r.get("ack") == 9 for r in replies):
            opcode, data = own_frame()
            replies.append(json.loads(data))
        check("--wss: the upgrade is answered, a publish delivered and acknowledged",
              head.startswith(b"HTTP/1.1 101") and any(r.get("text") == "over nio wss" for r in replies), head.split(b"\r\n")[0])
        answered, closed, waited = close_handshake(own, own_frames)
        check("--wss: the server answers the close and closes the TCP connection first", answered and closed, f"{waited:.3f} s")
        own.close()
        refused = curl("--cacert", ca, f"https://127.0.0.1:{wss_port}/api/rooms/lobby/ws")
        check("--wss: a request that is not an upgrade gets a JSON refusal", "upgrade_required" in refused.stdout, refused.stdout[:60])
        # HTTP/1.0 cannot be upgraded (RFC 6455 4.1): refused on both ports alike (SwiftNIO's upgrader took it).
        for name, at_port in (("wss", port), ("--wss", wss_port)):
            old, head = wss_open(context, at_port, "/api/rooms/lobby/ws", version="1.0")
            body = old.recv(4096)
            old.close()
            check(f"{name}: an HTTP/1.0 upgrade gets 400 http_version", head.startswith(b"HTTP/1.1 400") and b"http_version" in body,
                  head.split(b"\r\n")[0] + body[:80])

        # The load client over TLS (Scripts/peers.sh's tls-* rows): every subscriber gets every message.
        bench = subprocess.run([binary, "bench", "--tls", "--url", f"127.0.0.1:{port}", "--transport", "sse", "--clients", "20",
                                "--messages", "10", "--rate", "50", "--idle-seconds", "0", "--publishers", "2"],
                               capture_output=True, text=True, timeout=120)
        check("switchboard bench --tls: 20 SSE subscribers over https get every message",
              bench.returncode == 0 and "delivered: 200 of 200" in bench.stdout,
              (bench.stdout + bench.stderr).strip().splitlines()[-1:] if bench.returncode else "")

        # SIGHUP: a renewed certificate from the next handshake on, HTTPS and the line port alike,
        # while a stream opened before goes on; a pair that does not match keeps the current one.
        context = ssl.create_default_context(cafile=ca)
        def served_name(at_port):
            with socket.create_connection(("127.0.0.1", at_port), timeout=5) as raw:
                with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls_socket:
                    return dict(field[0] for field in tls_socket.getpeercert()["subject"]).get("commonName")
        stream = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1")
        stream.sendall(b"GET /api/rooms/renewal/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        opened = stream.recv(4096)
        renewed_key, renewed = os.path.join(folder, "renewed.key"), os.path.join(folder, "renewed.pem")
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", renewed_key,
                "-out", os.path.join(folder, "renewed.csr"), "-subj", "/CN=renewed")
        openssl("x509", "-req", "-in", os.path.join(folder, "renewed.csr"), "-CA", ca, "-CAkey", os.path.join(folder, "ca.key"),
                "-CAcreateserial", "-out", renewed, "-days", "2", "-extfile", os.path.join(folder, "san.ext"))
        before = (served_name(port), served_name(tcp_port))
        old_key = open(key).read()
        open(cert, "w").write(open(renewed).read())
        open(key, "w").write(open(renewed_key).read())
        server.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        check("SIGHUP serves the renewed certificate on HTTPS, the line port and the wss port",
              before == ("127.0.0.1", "127.0.0.1") and (served_name(port), served_name(tcp_port), served_name(wss_port))
              == ("renewed", "renewed", "renewed"),
              f"{before} -> {(served_name(port), served_name(tcp_port), served_name(wss_port))}")
        curl("--cacert", ca, "-d", "user=luke", "-d", "text=after the renewal", f"{base}/api/rooms/renewal/messages")
        stream.settimeout(5)
        carried = b""
        while b"after the renewal" not in carried:
            chunk = stream.recv(4096)
            if not chunk:
                break
            carried += chunk
        check("a stream opened before the reload stays open and carries what comes after",
              opened.startswith(b"HTTP/1.1 200") and b"after the renewal" in carried, carried[-60:])
        stream.close()
        open(key, "w").write(old_key)  # the renewed certificate with the old key: a pair that does not match
        server.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        check("a reload of a pair that does not match keeps the current certificate",
              served_name(port) == "renewed" and curl("--cacert", ca, f"{base}/healthz").returncode == 0)
    finally:
        server.terminate()
        status = server.wait(timeout=15)
    check("SIGTERM exits 0", status == 0, status)
    passed = sum(results)
    print(f"tls: {passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
