#!/usr/bin/env python3
"""Floods a Switchboard raw TCP listener the way a hostile or buggy client
would: one connection writing `msg:` lines as fast as the socket takes them,
with no wait for acknowledgements (as `nc` or the DogeChat app would if
pasted a huge text), for a bounded time, on loopback only. Starts the server
itself (the binary given) on free ports with a throwaway database on disk,
and prints: lines the socket accepted, lines stored per second, and the
server's peak resident memory.

    python3 Scripts/tcp-flood.py .build/release/switchboard [--seconds 5]
"""
import argparse, json, os, select, socket, subprocess, sys, tempfile, threading, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

def stored(http):
    with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/rooms", timeout=10) as answer:
        rooms = json.load(answer)["rooms"]
    return sum(room["message_count"] for room in rooms if room["name"] == "flood")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    http, tcp = free_port(), free_port()
    work = tempfile.mkdtemp(prefix="switchboard-flood-", dir=os.getcwd())
    server = subprocess.Popen([args.binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{tcp}",
                               "--db", f"{work}/flood.sqlite", "--log-level", "warning", "--admin-token", "flood"])
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{http}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        client = socket.create_connection(("127.0.0.1", tcp))
        client.sendall(b"join:flood\niam:flood\n")
        def drain():
            try:
                while client.recv(65536):
                    pass
            except OSError:
                pass  # closed at the end
        threading.Thread(target=drain, daemon=True).start()
        line = b"msg:" + b"f" * 90 + b"\n"
        batch = line * 100
        accepted, peak = 0, 0.0
        start = time.monotonic()
        before = stored(http)
        while time.monotonic() - start < args.seconds:
            if select.select([], [client], [], 0.05)[1]:
                accepted += client.send(batch)
            peak = max(peak, rss_mib(server.pid))
        elapsed = time.monotonic() - start
        during = stored(http) - before
        client.close()
        print(f"flood for {elapsed:.1f} s: the socket accepted {accepted // len(line):,} lines; "
              f"{during / elapsed:,.0f} lines stored per second while flooding; "
              f"server RSS peak {peak:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=30)
        subprocess.run(["rm", "-rf", work])

if __name__ == "__main__":
    main()
