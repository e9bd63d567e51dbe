"""What the Python end-to-end tests share: a check that records failures and prints one line,
a free loopback port, and waiting for a condition (never a timed assertion: a bound on how long
to wait for something that must happen)."""
import atexit
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

failures = []
crashed = []


def _note_crash(kind, value, traceback, previous=sys.excepthook):
    crashed.append(kind)
    previous(kind, value, traceback)


sys.excepthook = _note_crash


def scratch_folder(prefix, failed=lambda: failures):
    """A folder of the test's own (databases, media, certificates, made files), removed when the
    test ends with every check passed and kept, with its path printed, when a check failed or the
    test crashed: what the server left is there to look at. `failed` says whether a check failed
    (the test's own list of failures, by default this module's). Left behind on every run, the
    media test's alone took 200 MB a run of /tmp."""
    folder = tempfile.mkdtemp(prefix=prefix)

    def tidy():
        if failed() or crashed:
            print(f"(kept for a look: {folder})", flush=True)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    atexit.register(tidy)
    return folder


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f' ({detail})'}", flush=True)
    if not ok:
        failures.append(name)


def free_port():
    """A loopback port nothing listens on now, below the kernel's ephemeral range: a port the
    kernel hands out (bind to 0) is one it also gives outgoing connections, and the tests run
    side by side (Scripts/test.sh's lanes: a flood of connections beside a server starting) took
    one before its server bound it ("Address already in use")."""
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        ephemeral = int(f.read().split()[0])
    while True:
        port = random.randrange(10_000, ephemeral)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def fresh_database(server, prefix="sb_"):
    """A new database on the PostgreSQL at `server` (a URL, as SWITCHBOARD_TEST_POSTGRES gives it),
    for one test's nodes: its URL."""
    name = prefix + os.urandom(8).hex()
    subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True)
    return f"{server.rsplit('/', 1)[0]}/{name}"


def wait_for(predicate, timeout, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def request(port, method, path, body=None, token=None, timeout=15):
    """A JSON request to the server on loopback, as curl would make it: (status, decoded body);
    (0, why) when there was no answer."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    made = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(made, timeout=timeout) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None
    except OSError as error:
        return 0, str(error)


def sign_up(port, user):
    """Registers `user` and returns a session token."""
    request(port, "POST", "/api/accounts", {"user": user, "password": "correct horse battery"})
    return request(port, "POST", "/api/sessions", {"user": user, "password": "correct horse battery"})[1]["token"]


class Stream:
    """An open SSE stream on a room, read and thrown away: its user is online while it is open."""

    def __init__(self, port, room, token):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /api/rooms/{room}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Authorization: Bearer {token}\r\n\r\n".encode())
        threading.Thread(target=self.drain, daemon=True).start()

    def drain(self):
        try:
            while self.sock.recv(65536):
                pass
        except OSError:
            pass

    def close(self):
        self.sock.close()
