#!/usr/bin/env python3
"""Web Push end to end: the real switchboard binary sends to a push service on loopback
(push_service.py), which checks every VAPID header and decrypts every payload as a browser's
push service and the browser would. A group of three: the sender, one member online (an SSE
stream), one away. The one away is notified once, with the SPEC's payload; the online member,
the sender and a member who muted the conversation are not. A push service's 410 forgets the
subscription; a 429 with Retry-After is retried; a notification still pending when the server
stops is delivered after it starts again. Bad subscriptions are refused with the field named.

Usage: push_test.py PATH/TO/switchboard
"""
import os
import signal
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from push_service import PushService  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import Stream, check, failures, free_port, fresh_database, scratch_folder, wait_for  # noqa: E402


class Server:
    def __init__(self, binary, folder, database=None):
        self.port = free_port()
        self.command = [binary, "serve", "--http", f"127.0.0.1:{self.port}", "--tcp", "off",
                        "--db", database or os.path.join(folder, "db.sqlite"), "--log-level", "warning",
                        "--push-allow-host", "127.0.0.1", "--vapid-subject", "mailto:ops@example.com",
                        "--admin-token", "push-test-admin"]
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command)
        if not wait_for(lambda: self.request("GET", "/healthz")[0] == 200, 15, 0.1):
            raise RuntimeError("the server did not start")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=15)

    def request(self, method, path, body=None, token=None):
        return checks.request(self.port, method, path, body, token)

    def sign_up(self, user):
        return checks.sign_up(self.port, user)


def two_nodes(binary, push):
    """Two nodes on one PostgreSQL: every notification sent by one of them, once; a member
    online on the other node is not notified."""
    url = os.environ["SWITCHBOARD_TEST_POSTGRES"]
    database = fresh_database(url, "sb_push_")
    folder = scratch_folder("switchboard-push-pg-")
    a = Server(binary, folder, database)
    b = Server(binary, folder, database)
    try:
        status_a, key_a = a.request("GET", "/api/push/key")
        status_b, key_b = b.request("GET", "/api/push/key")
        check("two nodes: one VAPID key, kept in the database", status_a == status_b == 200 and key_a == key_b, (key_a, key_b))
        leia, han, luke = (a.sign_up(user) for user in ("leia", "han", "luke"))
        room = a.request("POST", "/api/conversations", {"title": "Nodes", "members": ["han", "luke"]}, token=leia)[1]["room"]
        han_sub, luke_sub = push.subscribe("han-pg"), push.subscribe("luke-pg")
        b.request("POST", "/api/push/subscriptions", han_sub.json, token=han)
        a.request("POST", "/api/push/subscriptions", luke_sub.json, token=luke)
        stream = Stream(b.port, room, luke)
        time.sleep(4)  # a heartbeat: node a reads who is on node b
        ids = []
        for i in range(10):
            node = a if i % 2 == 0 else b
            status, message = node.request("POST", f"/api/rooms/{room}/messages", {"text": f"node message {i}"}, token=leia)
            ids.append(message["id"])
        wait_for(lambda: len(push.payloads("han-pg")) >= 10, 20)
        time.sleep(2)
        got = sorted(p["id"] for p in push.payloads("han-pg"))
        check("two nodes: each notification sent once, by one node, whichever took the publish",
              got == sorted(ids), f"{len(got)} of {len(ids)}")
        check("two nodes: a member online on the other node is not notified", not push.payloads("luke-pg"),
              len(push.payloads("luke-pg")))
        stream.close()
    finally:
        a.stop()
        b.stop()


def key_from_file(binary):
    """--vapid-private-key: the key browsers are given is that file's; a file that is no key stops the start."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    import base64
    folder = scratch_folder("switchboard-push-key-")
    private = ec.generate_private_key(ec.SECP256R1())
    path = os.path.join(folder, "vapid.pem")
    with open(path, "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                        serialization.NoEncryption()))
    public = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    server = Server(binary, folder)
    server.stop()
    server.command += ["--vapid-private-key", path]
    server.start()
    try:
        status, key = server.request("GET", "/api/push/key")
        check("--vapid-private-key: the key given to browsers is the file's",
              status == 200 and key["key"] == base64.urlsafe_b64encode(public).rstrip(b"=").decode(), key)
    finally:
        server.stop()
    with open(path, "w") as out:
        out.write("not a key")
    refused = subprocess.run(server.command, capture_output=True, text=True, timeout=30)
    check("--vapid-private-key with a file that is no key: the server does not start, and says why",
          refused.returncode != 0 and "vapid-private-key" in refused.stderr, refused.stderr[-200:])


def main():
    binary = sys.argv[1]
    key_from_file(binary)
    folder = scratch_folder("switchboard-push-")
    push = PushService()
    server = Server(binary, folder)
    try:
        status, key = server.request("GET", "/api/push/key")
        check("GET /api/push/key gives the VAPID public key (65 bytes, base64url)",
              status == 200 and len(key["key"]) == 87, (status, key))
        leia, luke, han, chewie = (server.sign_up(user) for user in ("leia", "luke", "han", "chewie"))
        status, created = server.request("POST", "/api/conversations", {"title": "Rebels", "members": ["luke", "han", "chewie"]},
                                          token=leia)
        room = created["room"]
        subscriptions = {user: push.subscribe(user) for user in ("leia", "luke", "han", "chewie")}
        for user, token in (("leia", leia), ("luke", luke), ("han", han), ("chewie", chewie)):
            status, _ = server.request("POST", "/api/push/subscriptions", subscriptions[user].json, token=token)
            check(f"{user} subscribes: 201", status == 201, status)

        # Refusals, each with its field named.
        bad = dict(subscriptions["han"].json, endpoint="https://10.0.0.1/push")
        status, body = server.request("POST", "/api/push/subscriptions", bad, token=han)
        check("an endpoint on a private address is refused 403 endpoint_not_allowed",
              status == 403 and body["error"]["code"] == "endpoint_not_allowed", (status, body))
        bad = dict(subscriptions["han"].json, endpoint="http://push.example.com/x")
        status, body = server.request("POST", "/api/push/subscriptions", bad, token=han)
        check("a plain http endpoint is refused", status == 403 and "https" in body["error"]["message"], (status, body))
        bad = {"endpoint": subscriptions["han"].endpoint, "keys": {"p256dh": "AAAA", "auth": subscriptions["han"].json["keys"]["auth"]}}
        status, body = server.request("POST", "/api/push/subscriptions", bad, token=han)
        check("a p256dh that is no P-256 key is refused 422, the field named",
              status == 422 and "keys.p256dh" in body["error"]["message"], (status, body))
        status, body = server.request("POST", "/api/push/subscriptions", subscriptions["han"].json)
        check("a guest cannot subscribe (401)", status == 401, (status, body))

        extra = [push.subscribe(f"leia-{i}") for i in range(10)]
        statuses = [server.request("POST", "/api/push/subscriptions", sub.json, token=leia)[0] for sub in extra]
        check("at most 10 subscriptions per user: the 11th is refused 409", statuses == [201] * 9 + [409], statuses)
        for sub in extra[:9]:
            server.request("DELETE", "/api/push/subscriptions", {"endpoint": sub.endpoint}, token=leia)

        # Luke online (a stream on the room), han and chewie away; chewie muted it.
        stream = Stream(server.port, room, luke)
        time.sleep(0.5)
        server.request("PUT", f"/api/conversations/{room}/members/me", {"muted": True}, token=chewie)
        status, message = server.request("POST", f"/api/rooms/{room}/messages", {"text": "the plans are in R2"}, token=leia)
        check("leia publishes: 201, not waiting for any push", status == 201, status)
        check("han (away) is notified once, with the SPEC's payload",
              wait_for(lambda: len(push.payloads("han")) == 1, 10)
              and push.payloads("han")[0] == {"room": room, "id": message["id"], "user": "leia",
                                               "text": "the plans are in R2", "title": "Rebels"},
              push.payloads("han"))
        time.sleep(1)
        check("luke (online), leia (the sender) and chewie (muted) are not",
              not push.payloads("luke") and not push.payloads("leia") and not push.payloads("chewie"),
              [(n, len(push.payloads(n))) for n in ("luke", "leia", "chewie")])
        headers = [h for who, _, h in push.received if who == "han"][0]
        check("TTL one day and a Topic of at most 32 URL-safe characters",
              headers.get("TTL") == "86400" and 0 < len(headers.get("Topic", "")) <= 32
              and all(c.isalnum() or c in "-_" for c in headers["Topic"]), headers)
        check("every request carried a VAPID header the service verified (aud, exp, sub, signature)",
              not push.problems, push.problems)

        # A text longer than 200 characters is cut.
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "x" * 300}, token=leia)
        check("a long text is cut to 200 characters",
              wait_for(lambda: len(push.payloads("han")) == 2, 10) and push.payloads("han")[1]["text"] == "x" * 200)

        # 429 with Retry-After: retried, then accepted.
        push.answers["han"], push.retry_after["han"] = [429], "1"
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "retry me"}, token=leia)
        check("a 429 is retried (Retry-After honoured) and then accepted",
              wait_for(lambda: any(p["text"] == "retry me" for p in push.payloads("han")), 20)
              and ("han", 429) in push.attempts, push.attempts[-4:])

        # 410: the subscription is forgotten; nothing more is sent to it.
        push.answers["han"] = [410]
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "gone?"}, token=leia)
        wait_for(lambda: ("han", 410) in push.attempts, 10)
        time.sleep(0.5)
        before = len([a for a in push.attempts if a[0] == "han"])
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "after the 410"}, token=leia)
        time.sleep(2)
        check("a 410 forgets the subscription: no request to it afterwards",
              len([a for a in push.attempts if a[0] == "han"]) == before, push.attempts[-3:])
        status, body = server.request("DELETE", "/api/push/subscriptions", {"endpoint": subscriptions["han"].endpoint}, token=han)
        check("... and deleting it then says 404 no_such_subscription", status == 404, (status, body))
        status, _ = server.request("POST", "/api/push/subscriptions", subscriptions["han"].json, token=han)

        # A redirect is not followed (it could point anywhere): the push is given up.
        push.answers["han"] = [307]
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "redirected?"}, token=leia)
        wait_for(lambda: ("han", 307) in push.attempts, 10)
        time.sleep(1)
        check("a redirect is not followed", not any(who == "redirected" for who, _ in push.attempts)
              and not any(p["text"] == "redirected?" for p in push.payloads("han")), push.attempts[-3:])

        # Unsent while its notification waits for a retry: never delivered.
        push.answers["han"] = [503]
        status, unsent = server.request("POST", f"/api/rooms/{room}/messages", {"text": "unsend me"}, token=leia)
        wait_for(lambda: push.attempts.count(("han", 503)) == 1, 10)
        status, _ = server.request("DELETE", f"/api/rooms/{room}/messages/{unsent['id']}", token=leia)
        time.sleep(8)  # past the retry (5 s ± 20 %)
        check("a message unsent while its notification waits is never notified",
              status == 204 and not any(p["text"] == "unsend me" for p in push.payloads("han")), (status, push.payloads("han")[-1:]))

        # Pending across a restart: the push service down (503), the server stopped, started again.
        push.answers["han"] = [503]
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "across a restart"}, token=leia)
        wait_for(lambda: push.attempts.count(("han", 503)) == 2, 10)
        stream.close()
        server.stop()
        server.start()
        check("a notification pending at a restart is delivered after it (once)",
              wait_for(lambda: [p["text"] for p in push.payloads("han")].count("across a restart") == 1, 30)
              and (time.sleep(1) or [p["text"] for p in push.payloads("han")].count("across a restart") == 1),
              [p["text"] for p in push.payloads("han")])

        server.request("POST", f"/api/rooms/{room}/messages", {"text": "luke has gone"}, token=leia)
        check("luke, whose stream closed, is notified now",
              wait_for(lambda: [p["text"] for p in push.payloads("luke")] == ["luke has gone"], 10), push.payloads("luke"))
        status, _ = server.request("DELETE", "/api/push/subscriptions", {"endpoint": subscriptions["luke"].endpoint}, token=luke)
        check("luke unsubscribes: 204", status == 204, status)
        server.request("POST", f"/api/rooms/{room}/messages", {"text": "luke is away now"}, token=leia)
        time.sleep(2)
        check("... and is not notified any more", len(push.payloads("luke")) == 1, push.payloads("luke"))
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=5) as response:
            metrics = response.read().decode()
        sent = [line for line in metrics.splitlines() if line.startswith('switchboard_push_total{outcome="sent"}')]
        check("/metrics counts pushes sent since start and none waiting",
              sent and int(sent[0].split()[-1]) >= 2 and "switchboard_push_pending 0" in metrics, sent)
        status, stats = server.request("GET", "/api/admin/stats", token="push-test-admin")
        check("the admin's stats show Web Push's figures", status == 200 and stats.get("push", {}).get("sent", 0) >= 2,
              (status, stats.get("push") if isinstance(stats, dict) else stats))
        check("the push service found nothing to refuse", not push.problems, push.problems)
        if os.environ.get("SWITCHBOARD_TEST_POSTGRES"):
            server.stop()
            two_nodes(binary, push)
            server.start()
            check("the push service found nothing to refuse from two nodes either", not push.problems, push.problems)
        else:
            print("two nodes on PostgreSQL: skipped (SWITCHBOARD_TEST_POSTGRES not set)")
    finally:
        server.stop()
        push.stop()
    print(f"push: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
