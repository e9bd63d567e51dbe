#!/usr/bin/env python3
"""Instructions a request that reads the store costs the server, counted by valgrind's callgrind
(figures that do not move with the machine's noise, for comparing two builds):

1. a signed-in user with 30 conversations (a message in each): GET /api/conversations, PUT a read
   marker and GET /api/me, one round;
2. a voice note's download (GET /api/media/ID, 9 KiB, carried by a message in the lobby);
3. a page of 20 older messages (GET /api/rooms/lobby/messages?before=ID&limit=20), read from the store.

Each is run 50 and 150 times on a fresh server under callgrind; the difference divided by 100 is
one's cost, start-up, sign-in and set-up cancelled out.
Usage: store_request_instructions.py PATH/TO/switchboard
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def instructions(binary, workload, rounds):
    """The server's instruction count for `rounds` of `workload`, under callgrind."""
    folder = tempfile.mkdtemp()
    # A fixed path: Valgrind 3.19 gives up on the toolchain's debug info, and the same name both times.
    server = "/tmp/switchboard-store-requests-server"
    subprocess.run(["strip", "--strip-debug", "-o", server, binary], check=True)
    out, port = os.path.join(folder, "callgrind.out"), free_port()
    process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", server, "serve",
                                "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", os.path.join(folder, "db.sqlite"),
                                "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def request(method, path, body=None, token=None, content_type="application/json"):
        data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else None)
        headers = {"Content-Type": content_type, **({"Authorization": "Bearer " + token} if token else {})}
        with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method=method, headers=headers), timeout=60) as answer:
            return answer.read()

    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        for user in ("luke", "leia"):
            request("POST", "/api/accounts", {"user": user, "password": "correct horse"})
        token = json.loads(request("POST", "/api/sessions", {"user": "luke", "password": "correct horse"}))["token"]
        workload(request, token, rounds)
    finally:
        process.send_signal(2)
        process.wait()
    total = sum(int(line.split()[1]) for line in open(out) if line.startswith("summary:"))
    shutil.rmtree(folder)
    return total


def conversations(request, token, rounds):
    rooms = []
    for index in range(30):
        room = json.loads(request("POST", "/api/conversations", {"title": f"t{index}", "members": ["leia"]}, token))["room"]
        request("POST", f"/api/rooms/{room}/messages", {"text": f"hello {index}"}, token)
        rooms.append(room)
    for index in range(rounds):
        request("GET", "/api/conversations", token=token)
        request("PUT", f"/api/conversations/{rooms[index % 30]}/read", {"id": 1_000_000}, token)
        request("GET", "/api/me", token=token)


def download(request, token, rounds):
    note = os.path.join(tempfile.gettempdir(), "switchboard-note.ogg")
    if not os.path.exists(note):
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                        "-c:a", "libopus", note], check=True)
    uploaded = json.loads(request("POST", "/api/media?name=note.ogg", open(note, "rb").read(), token, "audio/ogg"))
    request("POST", "/api/rooms/lobby/messages", {"text": "listen", "media": [uploaded["media"]]}, token)
    for _ in range(rounds):
        request("GET", uploaded["url"], token=token)


def older_page(request, token, rounds):
    for index in range(100):
        request("POST", "/api/rooms/lobby/messages", {"text": f"message {index}"}, token)
    last = json.loads(request("POST", "/api/rooms/lobby/messages", {"text": "the newest"}, token))["id"]
    for _ in range(rounds):
        request("GET", f"/api/rooms/lobby/messages?before={last}&limit=20")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for name, workload in (("GET conversations (30) + PUT read + GET me", conversations), ("a voice note's download", download),
                           ("a page of 20 older messages", older_page)):
        few, many = instructions(sys.argv[1], workload, 50), instructions(sys.argv[1], workload, 150)
        print(f"{name}: {(many - few) // 100:,} instructions")


if __name__ == "__main__":
    main()
