#!/usr/bin/env python3
"""Webhooks and the publish hook end to end: the real switchboard binary talks to a backend on
loopback (backend.py) that checks every signature as a real one must.

- Every event type reaches the backend, signed, with an id, in id order per room.
- The publish hook's three answers on HTTP, WebSocket and raw TCP; an edit asks it too; the
  admin's publishes skip it; a hook that answers nonsense, is too slow or is down refuses the
  publish with 503 hook_unavailable, or lets it through with --publish-hook-failure allow.
- A receiver that fails for a while gets everything after, in order; one that sleeps 5 s per
  request does not slow publishing; one that is down across a restart of the server gets what
  happened meanwhile once it is back.
- On PostgreSQL, two nodes: each event is delivered by one node, once; when that node is
  killed, the other takes over.

Usage: hooks_test.py PATH/TO/switchboard
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend import Backend  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import Stream, check, failures, free_port, scratch_folder, wait_for  # noqa: E402

SECRET = "s3cret-for-tests"
ADMIN = "hooks-test-admin"


class Server:
    def __init__(self, binary, folder, backend, extra=(), database=None, hook=True):
        self.port, self.tcp = free_port(), free_port()
        self.command = [binary, "serve", "--http", f"127.0.0.1:{self.port}", "--tcp", f"127.0.0.1:{self.tcp}",
                        "--db", database or os.path.join(folder, "db.sqlite"), "--log-level", "error",
                        "--admin-token", ADMIN, "--webhook-secret", SECRET,
                        "--webhook", f"http://127.0.0.1:{backend.port}/events", *extra]
        if hook:
            self.command += ["--publish-hook", f"http://127.0.0.1:{backend.port}/hook"]
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command)
        if not wait_for(lambda: self.request("GET", "/healthz")[0] == 200, 20, 0.1):
            raise RuntimeError("the server did not start")

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=20)

    def request(self, method, path, body=None, token=None):
        return checks.request(self.port, method, path, body, token)

    def publish(self, room, text, token=None, user=None):
        body = {"text": text, **({"user": user} if user else {})}
        return self.request("POST", f"/api/rooms/{room}/messages", body, token=token)

    def sign_up(self, user):
        return checks.sign_up(self.port, user)


def in_order_per_room(events):
    """Whether, per room (or user), the distinct ids arrive in increasing order."""
    last, seen = {}, set()
    for event in events:
        if event["id"] in seen:
            continue  # a repeat (at least once) is allowed; the backend drops it by id
        seen.add(event["id"])
        key = event["data"].get("room") or event["data"].get("user")
        if int(event["id"]) <= last.get(key, 0):
            return False
        last[key] = int(event["id"])
    return True


def line_client(port, name):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(5)
    sock.sendall(f"iam:{name}\n".encode())
    return sock


def read_until(sock, needle, timeout=5):
    data, deadline = b"", time.monotonic() + timeout
    while needle.encode() not in data and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace")


def every_event(server, backend):
    leia, han, luke = (server.sign_up(user) for user in ("leia", "han", "luke"))
    stream = Stream(server.port, "lobby", leia)
    check("an SSE stream opened: user.online for its user",
          wait_for(lambda: any(e["data"] == {"user": "leia"} for e in backend.of_type("user.online")), 10), backend.events[-3:])
    yoda = line_client(server.tcp, "yoda")
    check("a raw TCP client's iam: user.online",
          wait_for(lambda: any(e["data"] == {"user": "yoda"} for e in backend.of_type("user.online")), 10), backend.events[-3:])
    status, created = server.request("POST", "/api/conversations", {"title": "Rebels", "members": ["han"]}, token=leia)
    room = created["room"]
    server.request("POST", f"/api/conversations/{room}/members", {"user": "luke"}, token=leia)
    server.request("DELETE", f"/api/conversations/{room}/members/luke", token=leia)
    status, message = server.publish(room, "the plans are in R2", token=leia)
    server.request("PATCH", f"/api/rooms/{room}/messages/{message['id']}", {"text": "the plans are in R2-D2"}, token=leia)
    # The edit's event delivered before the unsend: an unsend takes the text out of
    # events still waiting (checked below), which would race with the check of the text.
    wait_for(lambda: backend.of_type("message.edited"), 10)
    server.request("DELETE", f"/api/rooms/{room}/messages/{message['id']}", token=leia)
    stream.close()
    yoda.close()
    wanted = ["conversation.created", "conversation.member_added", "conversation.member_removed", "message.created",
              "message.edited", "message.deleted", "user.offline"]
    check("every event type arrives", wait_for(lambda: all(backend.of_type(t) for t in wanted), 15),
          [t for t in wanted if not backend.of_type(t)])
    made = backend.of_type("conversation.created")[0]["data"]
    check("conversation.created: room, by, title, members",
          made["room"] == room and made["by"] == "leia" and made["title"] == "Rebels" and set(made["members"]) == {"leia", "han"},
          made)
    added, removed = backend.of_type("conversation.member_added")[0]["data"], backend.of_type("conversation.member_removed")[0]["data"]
    check("member_added and member_removed name the member and who did it",
          (added["user"], added["by"], removed["user"], removed["by"]) == ("luke", "leia", "luke", "leia"), (added, removed))
    created_event = [e for e in backend.of_type("message.created") if e["data"]["id"] == message["id"]]
    check("message.created carries the message", created_event and created_event[0]["data"]["room"] == room, created_event)
    edited, deleted = backend.of_type("message.edited")[0]["data"], backend.of_type("message.deleted")[0]["data"]
    check("message.edited and message.deleted name their message (target)",
          edited["target"] == message["id"] and edited["text"] == "the plans are in R2-D2" and deleted["target"] == message["id"],
          (edited, deleted))
    # Both closed: the raw TCP client's and the SSE stream's users go offline at once (an SSE
    # stream's close is seen by the hang-up watch, not at a keepalive 15 s on).
    check("user.offline once the connection closed, SSE and raw TCP",
          wait_for(lambda: {e["data"]["user"] for e in backend.of_type("user.offline")} == {"yoda", "leia"}, 5),
          backend.of_type("user.offline"))
    ids = [e["id"] for e in backend.events]
    check("every event has its own id", len(ids) == len(set(ids)), ids)
    check("events arrive in id order per room", in_order_per_room(backend.events), [(e["id"], e["type"]) for e in backend.events])
    return leia, han, room


def publish_hook(server, backend, leia, room):
    status, body = server.publish("lobby", "deny spam", user="guest1")
    check("hook denies over HTTP: 403 denied with the backend's reason",
          status == 403 and body["error"]["code"] == "denied" and body["error"]["message"] == "no spam here", (status, body))
    status, body = server.publish("lobby", "modify me", user="guest1")
    check("hook modifies over HTTP: stored with its text", status == 201 and body["text"] == "MODIFY ME", (status, body))
    status, body = server.publish("lobby", "just hello", user="guest1")
    check("hook allows over HTTP: 201 as sent", status == 201 and body["text"] == "just hello", (status, body))
    request = [r for r in backend.hook_requests if r["data"]["text"] == "just hello"]
    check("the hook is sent type, ts and the message (room, user, text, kind)",
          request and request[0]["type"] == "publish" and request[0]["data"]["room"] == "lobby"
          and request[0]["data"]["user"] == "guest1" and request[0]["data"]["kind"] == "message", request)
    status, messages = server.request("GET", "/api/rooms/lobby/messages?since=0")
    texts = [m["text"] for m in (messages.get("messages", messages) if isinstance(messages, dict) else messages) if "text" in m]
    check("a denied message is not stored; a modified one is stored modified",
          "deny spam" not in texts and "MODIFY ME" in texts and "modify me" not in texts, texts[-5:])

    from websockets.sync.client import connect
    with connect(f"ws://127.0.0.1:{server.port}/api/rooms/lobby/ws?user=wsuser") as ws:
        ws.send(json.dumps({"text": "deny ads", "ref": 7}))
        ws.send(json.dumps({"text": "modify over ws", "ref": 8}))
        answers, deadline = {}, time.monotonic() + 10
        while len(answers) < 2 and time.monotonic() < deadline:
            frame = json.loads(ws.recv(timeout=10))
            if "ref" in frame or "ack" in frame:
                answers[frame.get("ref", frame.get("ack"))] = frame
        check("hook denies over WebSocket: the error with its ref",
              answers.get(7, {}).get("error", {}).get("code") == "denied"
              and answers[7]["error"]["message"] == "no ads here", answers.get(7))
        check("hook modifies over WebSocket: acked", "id" in answers.get(8, {}), answers.get(8))
    status, body = server.request("GET", "/api/rooms/lobby/messages?since=0")
    listed = body.get("messages", body) if isinstance(body, dict) else body
    check("... and stored with the new text", any(m.get("text") == "MODIFY OVER WS" for m in listed), listed[-3:])

    sock = line_client(server.tcp, "tcpuser")
    read_until(sock, "tcpuser has joined")
    sock.sendall(b"msg:deny noise\n")
    check("hook denies over raw TCP: error:denied", "error:denied" in read_until(sock, "error:denied"))
    sock.sendall(b"msg:modify by line\n")
    check("hook modifies over raw TCP: the room hears the new text",
          "tcpuser:MODIFY BY LINE" in read_until(sock, "tcpuser:MODIFY BY LINE"))
    sock.sendall(b"msg:slow first\nmsg:fast second\n")
    heard = read_until(sock, "tcpuser:fast second")
    check("a speaker's messages are stored in the order sent, though the hook answered the second first",
          0 <= heard.find("tcpuser:slow first") < heard.find("tcpuser:fast second"), heard)
    sock.close()

    status, message = server.publish(room, "a fine message", token=leia)
    status, body = server.request("PATCH", f"/api/rooms/{room}/messages/{message['id']}", {"text": "deny edits"}, token=leia)
    check("an edit's new text is asked too: denied 403", status == 403 and body["error"]["code"] == "denied", (status, body))
    status, body = server.request("PATCH", f"/api/rooms/{room}/messages/{message['id']}", {"text": "modify edits"}, token=leia)
    check("... and modified", status == 200 and body.get("text") == "MODIFY EDITS", (status, body))
    before = len(backend.hook_requests)
    status, body = server.publish("lobby", "deny anything", token=ADMIN, user="announcer")
    check("the admin token's publishes skip the hook", status == 201 and len(backend.hook_requests) == before, (status, body))
    status, body = server.publish("lobby", "garbage please", user="guest1")
    check("a hook answering no verdict: 503 hook_unavailable",
          status == 503 and body["error"]["code"] == "hook_unavailable", (status, body))
    status, body = server.publish("lobby", "huge answer", user="guest1")
    check("a hook answering a megabyte: 503 hook_unavailable (its answer is read up to 16 KiB)",
          status == 503 and body["error"]["code"] == "hook_unavailable", (status, body))
    check("... telling the publisher nothing of the backend (why is in the server's log)",
          "16384" not in body["error"]["message"] and "Error" not in body["error"]["message"], body)
    check("every hook request was signed and fresh", not backend.problems, backend.problems)


def hook_failures(binary, folder, backend):
    """Timeout both ways, and a hook that is down."""
    server = Server(binary, folder, backend, ["--publish-hook-timeout-ms", "300"])
    try:
        started = time.monotonic()
        status, body = server.publish("lobby", "sleep a while", user="slowpoke")
        took = time.monotonic() - started
        check("a hook slower than --publish-hook-timeout-ms: 503 hook_unavailable, not a wait for the hook",
              status == 503 and body["error"]["code"] == "hook_unavailable" and took < backend.hook_sleep, (status, body, took))
        status, body = server.request("GET", "/api/rooms/lobby/messages?since=0")
        listed = body.get("messages", body) if isinstance(body, dict) else body
        check("... and nothing was stored", not any(m.get("text") == "sleep a while" for m in listed))
    finally:
        server.stop()
    server = Server(binary, folder, backend, ["--publish-hook-timeout-ms", "300", "--publish-hook-failure", "allow"])
    try:
        status, body = server.publish("lobby", "sleep but allowed", user="slowpoke")
        check("--publish-hook-failure allow: a hook that times out lets the message through",
              status == 201 and body["text"] == "sleep but allowed", (status, body))
    finally:
        server.stop()
    closed = free_port()
    server = Server(binary, folder, backend, hook=False)
    server.stop()
    server.command += ["--publish-hook", f"http://127.0.0.1:{closed}/hook"]
    server.start()
    try:
        status, body = server.publish("lobby", "anyone there?", user="guest2")
        check("a hook that is down: 503 hook_unavailable", status == 503 and body["error"]["code"] == "hook_unavailable", (status, body))
        check("... not naming the backend's address or its error to the publisher",
              str(closed) not in body["error"]["message"] and "errno" not in body["error"]["message"], body)
        status, body = server.request("GET", "/healthz")
        check("... and the server keeps serving", status == 200, status)
    finally:
        server.stop()


def failing_and_slow(server, backend, leia, room):
    backend.fail_next = 3
    before = backend.attempts
    ids = [server.publish(room, f"through failures {i}", token=leia)[1]["id"] for i in range(5)]
    check("a receiver failing for a while gets every event after, in order",
          wait_for(lambda: [e["data"]["id"] for e in backend.of_type("message.created") if e["data"]["id"] in ids] == ids, 30),
          [e["data"]["id"] for e in backend.of_type("message.created")][-6:])
    check("... after retries (attempts counted by the receiver)", backend.attempts - before >= 8, backend.attempts - before)
    backend.sleep = 5
    server.publish(room, "wake the slow receiver", token=leia)
    time.sleep(0.5)
    started = time.monotonic()
    statuses = [server.publish(room, f"while it sleeps {i}", token=leia)[0] for i in range(20)]
    took = time.monotonic() - started
    check("a receiver that takes 5 s per request does not slow publishing (20 publishes, each 201, well under 5 s together)",
          statuses == [201] * 20 and took < 5, (statuses, took))
    backend.sleep = 0
    check("... and it gets them all in the end",
          wait_for(lambda: sum(1 for e in backend.of_type("message.created") if e["data"]["text"].startswith("while it sleeps")) == 20, 60))
    check("events still in id order per room", in_order_per_room(backend.events))


def down_across_restart(binary, folder):
    port = free_port()
    backend = Backend(SECRET, port)
    server = Server(binary, folder, backend, hook=False)
    token = server.sign_up("mon")
    backend.stop()  # the receiver goes down
    ids = [server.publish("outage", f"while down {i}", token=token)[1]["id"] for i in range(5)]
    status, secret = server.publish("unsent", "the secret plans of the Death Star", token=token)
    time.sleep(0.5)  # its message.created is queued, text and all, for a receiver that is down
    server.request("DELETE", f"/api/rooms/unsent/messages/{secret['id']}", token=token)
    time.sleep(2)
    files = [os.path.join(folder, name) for name in os.listdir(folder) if name.startswith("db.sqlite")]
    check("an unsend takes the text out of webhook events still waiting: not in the database file or its WAL",
          not any(b"secret plans of the Death Star" in open(path, "rb").read() for path in files), files)
    server.stop()
    server.start()
    backend = Backend(SECRET, port)  # back, on the same address
    got = lambda: [e["data"]["id"] for e in backend.of_type("message.created") if e["data"]["room"] == "outage"]
    check("a receiver down across a restart of the server gets what happened meanwhile, in order",
          wait_for(lambda: got() == ids, 40), (got(), ids))
    unsent = lambda: [e["data"] for e in backend.of_type("message.created") if e["data"]["room"] == "unsent"]
    check("... and the unsent message's event says deleted, without its text",
          wait_for(unsent, 10) and unsent()[0] == {"id": secret["id"], "room": "unsent", "kind": "message", "deleted": True},
          unsent())
    status, stats = server.request("GET", "/api/admin/stats", token=ADMIN)
    check("the admin's stats show the backend's figures",
          status == 200 and stats.get("backend", {}).get("delivered", 0) >= 5 and "pending" in stats["backend"], stats.get("backend"))
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=5) as response:
        metrics = response.read().decode()
    check("/metrics shows the webhook backlog and outcomes",
          "switchboard_webhook_pending" in metrics and 'switchboard_webhook_total{outcome="delivered"}' in metrics, metrics[-400:])
    check("no request failed the receiver's checks", not backend.problems, backend.problems)
    server.stop()
    backend.stop()


def two_receivers_one_down(binary, folder):
    """A receiver that is down (each request to it waits out its 10 s deadline, as connecting is
    retried) holds back neither the other receiver nor the reading of the log. The one up is
    also named twice on the command line: it is one receiver."""
    up = Backend(SECRET)
    server = Server(binary, folder, up, ["--webhook", f"http://127.0.0.1:{free_port()}/down",
                                         "--webhook", f"http://127.0.0.1:{up.port}/events"], hook=False)
    try:
        token = server.sign_up("duo")
        for round_ in range(2):
            ids = [server.publish("duo", f"round {round_} message {i}", token=token)[1]["id"] for i in range(3)]
            got = lambda: [e["data"]["id"] for e in up.of_type("message.created") if e["data"]["room"] == "duo"]
            check(f"two receivers, one down: the other gets each message at once, once (round {round_ + 1}, within 5 s)",
                  wait_for(lambda: all(i in got() for i in ids), 5) and len(got()) == len(set(got())), (got(), ids))
        status, stats = server.request("GET", "/api/admin/stats", token=ADMIN)
        check("... and the one down has them waiting", stats["backend"]["pending"] >= 1, stats["backend"])
    finally:
        server.stop()
        up.stop()


def refused_start(binary, folder):
    port = free_port()
    result = subprocess.run([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", os.path.join(folder, "x.sqlite"),
                             "--webhook", "http://127.0.0.1:9/x"], capture_output=True, text=True, timeout=30,
                            env={k: v for k, v in os.environ.items() if k != "SWITCHBOARD_WEBHOOK_SECRET"})
    check("--webhook without a secret: the server does not start, and says why",
          result.returncode != 0 and "webhook-secret" in result.stderr, result.stderr[-300:])
    result = subprocess.run([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", os.path.join(folder, "x.sqlite"),
                             "--webhook", "ftp://example.com/x", "--webhook-secret", "s"], capture_output=True, text=True, timeout=30)
    check("--webhook with a URL that is not http(s): refused", result.returncode != 0 and "http" in result.stderr, result.stderr[-300:])
    # A secret shorter than HMAC-SHA256's 32 bytes is guessable: served, with a warning at start (and none for 32).
    def healthy(port):
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).status == 200
        except OSError:
            return False

    for secret, warned in (("short", True), ("x" * 32, False)):
        process = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{port}", "--tcp", "off", "--db", ":memory:",
                                    "--webhook", "http://127.0.0.1:9/x", "--webhook-secret", secret],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        served = wait_for(lambda: healthy(port), 10)
        process.terminate()
        log = process.communicate(timeout=10)[1]
        check(f"a {len(secret)}-byte --webhook-secret is served{', with a warning' if warned else ' with no warning'}",
              served and ("--webhook-secret is 5 bytes: give 32 or more" in log) == warned, log[-300:])


def two_nodes(binary):
    url = os.environ["SWITCHBOARD_TEST_POSTGRES"]
    database = checks.fresh_database(url, "sb_hooks_")
    folder = scratch_folder("switchboard-hooks-pg-")
    backend = Backend(SECRET)
    a = Server(binary, folder, backend, database=database, hook=False)
    b = Server(binary, folder, backend, database=database, hook=False)
    try:
        token = a.sign_up("node")
        ids = [(a if i % 2 == 0 else b).publish("nodes", f"node message {i}", token=token)[1]["id"] for i in range(10)]
        got = lambda: [e["data"]["id"] for e in backend.of_type("message.created") if e["data"]["room"] == "nodes"]
        wait_for(lambda: len(got()) >= 10, 20)
        time.sleep(2)
        check("two nodes: each event delivered once, by one node, in order", got() == ids, (got(), ids))
        delivering = [s for s in (a, b) if s.request("GET", "/api/admin/stats", token=ADMIN)[1]["backend"]["delivering"]]
        check("two nodes: one of them delivers (the admin's stats say which)", len(delivering) == 1, len(delivering))
        holder = delivering[0] if delivering else a
        other = b if holder is a else a
        # Another node's message wakes the deliverer at once (the cluster's
        # notification), not at its next look: it has just delivered, so
        # without the wake-up it would sleep 5 s.
        first = holder.publish("nodes", "taken by the node that delivers", token=token)[1]["id"]
        wait_for(lambda: first in got(), 10)
        started = time.monotonic()
        second = other.publish("nodes", "taken by the other node", token=token)[1]["id"]
        woke = wait_for(lambda: second in got(), 10)
        took = time.monotonic() - started
        check("two nodes: what the other node takes goes out at once (woken by its notification, not at the next look in 5 s)",
              woke and took < 2.5, round(took, 2))
        # The holder frozen past its lease: the other takes over; thawed, the first stands down.
        holder.process.send_signal(signal.SIGSTOP)
        frozen = [other.publish("nodes", f"while a node is frozen {i}", token=token)[1]["id"] for i in range(3)]
        took_over = wait_for(lambda: all(i in got() for i in frozen), 40)
        holder.process.send_signal(signal.SIGCONT)
        check("two nodes: the holder frozen (SIGSTOP) past its lease, the other delivers", took_over, (got()[-4:], frozen))
        thawed = [other.publish("nodes", f"after the thaw {i}", token=token)[1]["id"] for i in range(3)]
        wait_for(lambda: all(i in got() for i in thawed), 20)
        time.sleep(6)  # a renewal later
        stats = [s.request("GET", "/api/admin/stats", token=ADMIN)[1]["backend"]["delivering"] for s in (holder, other)]
        check("two nodes: thawed, the first stands down: one node delivers", stats == [False, True], stats)
        check("two nodes: every event delivered, in order per room (repeats dropped by id)",
              all(i in got() for i in ids + frozen + thawed) and in_order_per_room(backend.events), got()[-8:])
        holder, other = other, holder
        holder.stop(signal.SIGKILL)  # no lease given back: the other waits for it to run out
        more = [other.publish("nodes", f"after a node died {i}", token=token)[1]["id"] for i in range(3)]
        check("two nodes: one killed, the other delivers (the lease runs out in 15 s, asked for every 5 s)",
              wait_for(lambda: all(i in got() for i in more), 40), (got()[-4:], more))
        check("two nodes: every request passed the receiver's checks", not backend.problems, backend.problems)
    finally:
        a.stop()
        b.stop()
        backend.stop()


def main():
    binary = sys.argv[1]
    folder = scratch_folder("switchboard-hooks-")
    refused_start(binary, folder)
    backend = Backend(SECRET)
    server = Server(binary, folder, backend)
    try:
        leia, han, room = every_event(server, backend)
        publish_hook(server, backend, leia, room)
        failing_and_slow(server, backend, leia, room)
        check("the receiver found nothing to refuse", not backend.problems, backend.problems)
    finally:
        server.stop()
    hook_failures(binary, scratch_folder("switchboard-hooks-"), backend)
    backend.stop()
    down_across_restart(binary, scratch_folder("switchboard-hooks-"))
    two_receivers_one_down(binary, scratch_folder("switchboard-hooks-"))
    if os.environ.get("SWITCHBOARD_TEST_POSTGRES"):
        two_nodes(binary)
    else:
        print("two nodes on PostgreSQL: skipped (SWITCHBOARD_TEST_POSTGRES not set)")
    print(f"hooks: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
