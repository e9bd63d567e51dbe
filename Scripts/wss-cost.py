#!/usr/bin/env python3
"""ws against wss on one machine: what libmicrohttpd's TLS relay costs a WebSocket fan-out, and
what wss costs on a port of its own in SwiftNIO (--wss).

Starts the switchboard binary three times: plain, with --tls-cert (wss through the HTTP
port's TLS relay) and with --wss (a throwaway certificate in both), holds CLIENTS
WebSocket subscribers of one room (Python's
`websockets`, asyncio), publishes MESSAGES at RATE per second over one keep-alive
HTTP(S) connection, and prints for each: messages delivered, latency from the
server's commit to the client (p50, p99), the server's CPU per 1,000 deliveries
and its memory. Loopback only, bounded; asserts nothing about speed (exit 1 only
when a message is missing or doubled).

    pip install websockets          # once (PyPI)
    CLIENTS=1000 MESSAGES=100 RATE=20 python3 Scripts/wss-cost.py [.build/release/switchboard]
"""
import asyncio, http.client, json, os, socket, ssl, subprocess, sys, tempfile, threading, time, urllib.request

import websockets

CLIENTS, MESSAGES, RATE = (int(os.environ.get(k, d)) for k, d in (("CLIENTS", 1000), ("MESSAGES", 100), ("RATE", 20)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run(binary, folder, tls, nio=False):
    port, wss_port = free_port(), free_port()
    extra = ["--tls-cert", os.path.join(folder, "cert.pem"), "--tls-key", os.path.join(folder, "key.pem")] if tls else []
    if nio:
        extra += ["--wss", f"127.0.0.1:{wss_port}"]
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--admin-token", "x",
                               "--db", os.path.join(folder, f"{'tls' if tls else 'plain'}.sqlite"), "--log-level", "warning", *extra])
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    scheme = "https" if tls else "http"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}/healthz", timeout=1, context=context if tls else None)
            break
        except OSError:
            time.sleep(0.1)
    room = f"wss-cost-{int(time.time())}"
    received = [dict() for _ in range(CLIENTS)]   # client -> id -> latency ms
    try:
        result = asyncio.run(fan_out(port, wss_port if nio else port, tls, context, room, received, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=15)
    return result


async def fan_out(port, socket_port, tls, context, room, received, pid):
    url = f"{'wss' if tls else 'ws'}://127.0.0.1:{socket_port}/api/rooms/{room}/ws"
    sockets = []
    for start in range(0, CLIENTS, 100):
        sockets += await asyncio.gather(*(websockets.connect(url, ssl=context if tls else None, max_size=None,
                                                             ping_interval=None, open_timeout=30, close_timeout=2)
                                          for _ in range(start, min(CLIENTS, start + 100))))

    async def listen(index, connection):
        async for frame in connection:
            message = json.loads(frame)
            if "id" in message:
                received[index][message["id"]] = time.time() * 1000 - message["ts"]

    listeners = [asyncio.create_task(listen(i, c)) for i, c in enumerate(sockets)]
    await asyncio.sleep(0.5)
    before = cpu_seconds(pid)
    published = []
    thread = threading.Thread(target=publish, args=(port, tls, room, published))
    thread.start()
    deadline = time.time() + MESSAGES / RATE + 30
    while time.time() < deadline:
        await asyncio.sleep(0.2)
        if not thread.is_alive() and all(len(r) >= len(published) for r in received):
            break
    cpu = cpu_seconds(pid) - before
    rss = rss_mib(pid)
    for task in listeners:
        task.cancel()
    # Together: over wss the server's side of the TCP close waits for the client's (libmicrohttpd's relay).
    await asyncio.gather(*(connection.close() for connection in sockets))
    delivered = sum(len(set(r) & set(published)) for r in received)
    latencies = sorted(l for r in received for i, l in r.items() if i in set(published))
    pick = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else 0
    return {"delivered": delivered, "expected": len(published) * CLIENTS, "p50": pick(0.5), "p99": pick(0.99),
            "cpu_per_1000": cpu * 1000 / max(1, delivered) * 1000, "rss": rss}


def publish(port, tls, room, published):
    context = ssl._create_unverified_context()
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=context) if tls else http.client.HTTPConnection("127.0.0.1", port)
    start = time.time()
    for index in range(MESSAGES):
        delay = start + index / RATE - time.time()
        if delay > 0:
            time.sleep(delay)
        connection.request("POST", f"/api/rooms/{room}/messages", body=f"user=bench&text=m{index}",
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
        answer = connection.getresponse()
        body = answer.read()
        if answer.status == 201:
            published.append(json.loads(body)["id"])


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/switchboard"
    folder = tempfile.mkdtemp(prefix="switchboard-wss-cost-")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", os.path.join(folder, "key.pem"), "-out", os.path.join(folder, "cert.pem")],
                   check=True, capture_output=True)
    print(f"{CLIENTS} WebSocket subscribers, {MESSAGES} messages at {RATE}/s; {os.cpu_count()} cores")
    ok = True
    rows = {}
    for name, tls, nio in (("ws", False, False), ("wss, libmicrohttpd's relay", True, False), ("wss, SwiftNIO (--wss)", True, True)):
        rows[name] = r = run(binary, folder, tls, nio)
        print(f"{name:28} delivered {r['delivered']}/{r['expected']}  p50 {r['p50']:.1f} ms  p99 {r['p99']:.1f} ms  "
              f"server CPU {r['cpu_per_1000']:.1f} ms per 1,000 deliveries  RSS {r['rss']:.0f} MiB", flush=True)
        ok = ok and r["delivered"] == r["expected"]
    plain = rows["ws"]["cpu_per_1000"]
    if plain > 0:
        for name in list(rows)[1:]:
            print(f"{name} / ws: CPU per delivery {rows[name]['cpu_per_1000'] / plain:.2f}, p99 {rows[name]['p99'] / max(0.1, rows['ws']['p99']):.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
