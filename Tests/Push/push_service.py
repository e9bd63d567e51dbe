"""A Web Push service on loopback, as a browser vendor's is to a sender: it takes
POST /push/NAME and checks what a real one checks before accepting (RFC 8030,
8291, 8292), with implementations independent of the server's: the VAPID
header (`vapid t=JWT, k=KEY`: an ES256 signature that KEY verifies, `aud` this
service's origin, `exp` in the future and at most 24 hours ahead, a `sub`),
`TTL`, `Content-Encoding: aes128gcm`; then it decrypts the body with the
subscription's private key and auth secret as the browser would (Python's
`http_ece`). Each subscription can be told to answer 410 or 429 for a while.
"""
import base64
import http.server
import json
import threading
import time

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Subscription:
    """A browser's side of one subscription: its key pair and auth secret."""

    def __init__(self, service, name):
        self.name = name
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = bytes(range(16)) if name == "fixed" else __import__("os").urandom(16)
        self.endpoint = f"{service.base}/push/{name}"
        public = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                        serialization.PublicFormat.UncompressedPoint)
        self.json = {"endpoint": self.endpoint, "keys": {"p256dh": b64encode(public), "auth": b64encode(self.auth)}}


class PushService:
    def __init__(self):
        self.lock = threading.Lock()
        self.subscriptions = {}
        self.received = []      # (name, payload dict, headers) of every accepted push
        self.attempts = []      # (name, status) of every request
        self.problems = []      # what a real service would have refused, and why
        self.answers = {}       # name -> [status, ...] to answer before accepting
        self.retry_after = {}   # name -> Retry-After value sent with a 429
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                name = self.path.rsplit("/", 1)[-1]
                status, extra = service.handle(name, self.headers, body)
                self.send_response(status)
                for key, value in extra:
                    self.send_header(key, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def subscribe(self, name):
        subscription = Subscription(self, name)
        self.subscriptions[name] = subscription
        return subscription

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def handle(self, name, headers, body):
        with self.lock:
            planned = self.answers.get(name) or []
            if planned:
                status = planned.pop(0)
                self.attempts.append((name, status))
                extra = [("Retry-After", self.retry_after[name])] if status == 429 and name in self.retry_after else []
                if 300 <= status < 400:
                    extra = [("Location", f"{self.base}/push/redirected")]
                return status, extra
        subscription = self.subscriptions.get(name)
        if subscription is None:
            self.note(name, 404)
            return 404, []
        problem = self.check_vapid(headers.get("Authorization", ""))
        if not problem and headers.get("Content-Encoding") != "aes128gcm":
            problem = f"Content-Encoding is {headers.get('Content-Encoding')!r}"
        if not problem and not (headers.get("TTL") or "").isdigit():
            problem = "no TTL"
        if problem:
            self.problems.append(problem)
            self.note(name, 403)
            return 403, []
        try:
            plaintext = http_ece.decrypt(body, private_key=subscription.private, auth_secret=subscription.auth,
                                         version="aes128gcm")
            payload = json.loads(plaintext)
        except Exception as error:  # a browser would drop it
            self.problems.append(f"the body did not decrypt: {error!r}")
            self.note(name, 400)
            return 400, []
        with self.lock:
            self.received.append((name, payload, {k: headers[k] for k in ("TTL", "Topic", "Urgency") if k in headers}))
        self.note(name, 201)
        return 201, [("Location", f"{self.base}/message/{len(self.received)}")]

    def note(self, name, status):
        with self.lock:
            self.attempts.append((name, status))

    def check_vapid(self, authorization):
        """None when the header is one a push service accepts, else why not."""
        if not authorization.startswith("vapid "):
            return f"Authorization is not vapid: {authorization[:40]!r}"
        fields = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
        token, key = fields.get("t", ""), fields.get("k", "")
        try:
            header_b64, claims_b64, signature_b64 = token.split(".")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64decode(key))
            signature = b64decode(signature_b64)
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except Exception as error:
            return f"the VAPID signature does not verify: {error!r}"
        header, claims = json.loads(b64decode(header_b64)), json.loads(b64decode(claims_b64))
        now = time.time()
        if header.get("alg") != "ES256":
            return f"alg {header.get('alg')}"
        if claims.get("aud") != self.base:
            return f"aud {claims.get('aud')!r} is not {self.base!r}"
        if not (now < claims.get("exp", 0) <= now + 24 * 3600 + 60):
            return f"exp {claims.get('exp')} is not within the next 24 hours"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return f"sub {claims.get('sub')!r}"
        return None

    def payloads(self, name):
        with self.lock:
            return [payload for who, payload, _ in self.received if who == name]
