#!/usr/bin/env python3
"""An application's backend on loopback, for the tests: it receives webhooks and answers the
publish hook as a real backend would, and checks every request as one must: the signature
(HMAC-SHA256 of TIMESTAMP.BODY with the shared secret, compared in constant time), the
timestamp (within five minutes of its clock), the body (JSON with id, type, ts, data).
Whatever fails a check is recorded in `problems`, and answered 401.

Behaviours the tests turn on:
- `fail_next = N`: the next N webhooks are answered 500 (a receiver failing for a while);
- `sleep = S`: each webhook is answered after S seconds (a slow receiver);
- the publish hook answers by the text: "deny ..." is denied with a reason, "modify ..." is
  stored in capitals, "sleep ..." is answered after `hook_sleep` seconds, "slow ..." after
  0.3 s (so that a later message's answer comes first), "huge ..." an allow padded to 1 MB,
  "garbage" gets a
  body that is no verdict; anything else is allowed.
"""
import hashlib
import hmac
import http.server
import json
import threading
import time


class Backend:
    def __init__(self, secret, port=0):
        self.secret = secret.encode()
        self.events = []          # every webhook accepted, in arrival order
        self.hook_requests = []   # every publish hook request
        self.problems = []
        self.attempts = 0
        self.fail_next = 0
        self.sleep = 0.0
        self.hook_sleep = 2.0
        self.lock = threading.Lock()
        backend = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle(self):
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server gave up on an answer (past its timeout, or past 16 KiB)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                problem = backend.verify(self.headers, body)
                if problem:
                    with backend.lock:
                        backend.problems.append(problem)
                    return self.answer(401, b'{"error":"bad signature"}')
                if self.path == "/hook":
                    return self.answer(200, backend.verdict(json.loads(body)))
                with backend.lock:
                    backend.attempts += 1
                    failing = backend.fail_next > 0
                    if failing:
                        backend.fail_next -= 1
                    sleep = backend.sleep
                if sleep:
                    time.sleep(sleep)
                if failing:
                    return self.answer(500, b"{}")
                event = json.loads(body)
                if set(event) != {"id", "type", "ts", "data"} or not isinstance(event["id"], str):
                    with backend.lock:
                        backend.problems.append(f"not an event: {body[:200]!r}")
                if self.headers.get("X-Switchboard-Event") != event.get("type"):
                    with backend.lock:
                        backend.problems.append(f"X-Switchboard-Event {self.headers.get('X-Switchboard-Event')} for {event.get('type')}")
                with backend.lock:
                    backend.events.append(event)
                self.answer(204, b"")

            def answer(self, status, body):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def verify(self, headers, body):
        """What a backend must check; returns what is wrong, or None."""
        timestamp = headers.get("X-Switchboard-Timestamp", "")
        signature = headers.get("X-Switchboard-Signature", "")
        if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
            return f"timestamp {timestamp!r} missing or too far from now"
        expected = "sha256=" + hmac.new(self.secret, timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, signature):
            return f"signature {signature!r} does not sign the body"
        return None

    def verdict(self, request):
        with self.lock:
            self.hook_requests.append(request)
        text = request["data"]["text"]
        if text.startswith("deny"):
            return json.dumps({"action": "deny", "reason": "no " + text[5:] + " here"}).encode()
        if text.startswith("modify"):
            return json.dumps({"action": "modify", "text": text.upper()}).encode()
        if text.startswith("sleep"):
            time.sleep(self.hook_sleep)
        if text.startswith("slow"):
            time.sleep(0.3)
        if text.startswith("huge"):
            return json.dumps({"action": "allow", "padding": "x" * 1_000_000}).encode()
        if text.startswith("garbage"):
            return b'{"verdict":"yes"}'
        return b'{"action":"allow"}'

    def of_type(self, kind):
        with self.lock:
            return [event for event in self.events if event["type"] == kind]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
