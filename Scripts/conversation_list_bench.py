#!/usr/bin/env python3
"""The conversation list's cost for a member of many conversations.

    python3 Scripts/conversation_list_bench.py BINARY [COUNT]

Starts BINARY (a release build) on a fresh SQLite file, signs up leia and
han, has leia make COUNT groups with han (10,000 by default; DB=postgres://… for a
PostgreSQL database instead, which must be empty), then times
(median of 20, milliseconds) the list as the page asks for it (default
page, and ?limit=500) and one conversation's GET. docs/CONVERSATIONS.md
has the figures.
"""
import json, sys, time, urllib.request, subprocess, os, tempfile, statistics, shutil
binary, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
d = tempfile.mkdtemp(); port = 28123
p = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "127.0.0.1:0", "--db", os.environ.get("DB", f"{d}/db.sqlite"),
                      "--admin-token", "x", "--room-rate", "0", "--sign-up-rate", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, token=None):
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    req.add_header("Content-Type", "application/json")
    if token: req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r: return json.loads(r.read() or b"{}")
for _ in range(50):
    try: urllib.request.urlopen(base + "/healthz"); break
    except Exception: time.sleep(0.1)
tok = {}
for name in ["leia", "han"]:
    call("POST", "/api/accounts", {"user": name, "password": "correct horse battery"})
    tok[name] = call("POST", "/api/sessions", {"user": name, "password": "correct horse battery"})["token"]
for i in range(n):
    call("POST", "/api/conversations", {"title": f"g{i}", "members": ["han"]}, tok["leia"])
def timed(path):
    xs = []
    for _ in range(20):
        t = time.perf_counter(); call("GET", path, token=tok["leia"]); xs.append((time.perf_counter() - t) * 1000)
    return statistics.median(xs)
first = call("GET", "/api/conversations?limit=1", token=tok["leia"])["conversations"][0]["room"]
print(f"{n} conversations: list (default) {timed('/api/conversations'):.1f} ms, ?limit=500 {timed('/api/conversations?limit=500'):.1f} ms, one {timed('/api/conversations/' + first):.1f} ms")
p.terminate(); p.wait()
shutil.rmtree(d, ignore_errors=True)
