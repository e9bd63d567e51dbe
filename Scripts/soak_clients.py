"""The soak's clients, one per way in, on asyncio streams over loopback.

Each subscriber records what it received (message ids, or for raw TCP the
texts of chat lines) so the soak can check at the end that it got every
message of its room after its cursor, in order, once. Publishers record
what the server acknowledged (ids, or for TCP the echoed texts): nothing
acknowledged may be missing from the store.
"""
import asyncio
import base64
import json
import os
import random
import socket
import struct


class Tally:
    """What the whole soak has seen: counts for the samples, failures for the end."""
    def __init__(self):
        self.delivered = 0
        self.connections = 0
        self.reconnects = 0
        self.acked = {}          # room -> set of acknowledged ids (HTTP, WebSocket)
        self.tcp_acked = {}      # room -> set of texts echoed back to their TCP sender
        self.misbehaviour = {}   # what -> [answered as expected, not]
        self.errors = []

    def ack(self, room, message_id):
        self.acked.setdefault(room, set()).add(message_id)

    def judged(self, what, ok, detail=""):
        counts = self.misbehaviour.setdefault(what, [0, 0])
        counts[0 if ok else 1] += 1
        if not ok and len(self.errors) < 50:
            self.errors.append(f"{what}: {detail}")


async def open_http(port, request):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request.encode() if isinstance(request, str) else request)
    await writer.drain()
    return reader, writer


async def read_head(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            line = await reader.readline()
            if not line:
                raise ConnectionError("the body was cut")
            size = int(line.strip().split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return body
            body += await reader.readexactly(size)
            await reader.readline()
    return await reader.readexactly(int(headers.get("content-length", "0")))


async def request(port, method, path, body=b"", headers=()):
    """One request on its own connection: (status, parsed JSON or None)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers)
    reader, writer = await open_http(port, head.encode() + b"\r\n" + body)
    try:
        status, response_headers = await read_head(reader)
        data = await read_body(reader, response_headers)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, None
    finally:
        writer.close()


def reset(writer):
    """Closes abruptly (RST), as a client whose process died."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


def drop(writer):
    """Closes cleanly or with a reset, at random: how clients go."""
    if random.random() < 0.5:
        reset(writer)
    else:
        writer.close()


class Subscriber:
    """A subscriber of one room from a cursor; `received` holds ids in arrival order."""
    def __init__(self, kind, port, room, since, token=None, reconnecting=False):
        self.kind, self.port, self.room, self.since = kind, port, room, since
        self.token, self.reconnecting = token, reconnecting
        self.received = []
        self.cursor = since
        self.stopped = False
        self.failed = None
        self.writer = None  # a WebSocket's, while open

    def query(self):
        who = f"&access_token={self.token}" if self.token else "&user=soaker" if self.kind == "websocket" else ""
        return f"since={self.cursor}{who}"

    def got(self, message, tally):
        self.received.append(message["id"])
        self.cursor = message["id"]
        tally.delivered += 1

    async def run(self, tally):
        """Reads until stopped; a reconnecting subscriber drops its connection
        now and then (cleanly or with a reset) and resumes from its cursor."""
        while not self.stopped:
            tally.connections += 1
            try:
                await asyncio.wait_for(self.session(tally), timeout=random.uniform(4, 12) if self.reconnecting else None)
            except asyncio.TimeoutError:
                tally.reconnects += 1
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                if not self.stopped:
                    tally.reconnects += 1
                    if not self.reconnecting:
                        self.failed = f"{self.kind} {self.room}: {error!r}"
                        return
                    await asyncio.sleep(0.2)
            except Exception as error:  # the soak's own fault: say so rather than lose the client quietly
                self.failed = f"{self.kind} {self.room}: the client failed: {error!r}"
                return
            finally:
                tally.connections -= 1
            if not self.reconnecting:
                return

    async def session(self, tally):
        if self.kind == "sse":
            await self.sse(tally)
        elif self.kind == "websocket":
            await self.websocket(tally)
        else:
            await self.poll(tally, wait=self.kind == "long-poll")

    async def sse(self, tally):
        reader, writer = await open_http(self.port, f"GET /api/rooms/{self.room}/events?{self.query()} HTTP/1.1\r\n"
                                                    "Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        try:
            status, headers = await read_head(reader)
            if status != 200:
                raise ConnectionError(f"SSE status {status}")
            pending = b""
            while not self.stopped:
                line = await reader.readline()
                if not line:  # cut without the last chunk: the server went away
                    raise ConnectionError("the stream was cut")
                size = int(line.strip().split(b";")[0], 16)
                if size == 0:
                    return
                pending += await reader.readexactly(size)
                await reader.readline()
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    lines = event.split(b"\n")
                    data = next((line[6:] for line in lines if line.startswith(b"data: {")), None)
                    if data is not None and any(line.startswith(b"id: ") for line in lines):
                        self.got(json.loads(data), tally)
        finally:
            drop(writer)

    async def websocket(self, tally):
        key = base64.b64encode(os.urandom(16)).decode()
        reader, writer = await open_http(self.port, f"GET /api/rooms/{self.room}/ws?{self.query()} HTTP/1.1\r\n"
                                                    f"Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.writer = writer
        try:
            status, _ = await read_head(reader)
            if status != 101:
                raise ConnectionError(f"WebSocket status {status}")
            while not self.stopped:
                opcode, payload = await read_frame(reader)
                if opcode == 8:
                    return
                if opcode == 9:
                    writer.write(frame(10, payload))
                    continue
                message = json.loads(payload)
                if "ack" in message:
                    tally.ack(self.room, message["id"])
                elif "id" in message:
                    self.got(message, tally)
        finally:
            self.writer = None
            drop(writer)

    def publish(self, text, ref):
        """Publishes on the WebSocket, if open; the ack is counted when it comes."""
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(frame(1, json.dumps({"text": text, "ref": ref}).encode()))

    async def poll(self, tally, wait):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            while not self.stopped:
                wait_query = "&wait=20" if wait else ""
                writer.write(f"GET /api/rooms/{self.room}/messages?{self.query()}&limit=1000{wait_query} HTTP/1.1\r\n"
                             "Host: 127.0.0.1\r\n\r\n".encode())
                status, headers = await read_head(reader)
                page = json.loads(await read_body(reader, headers))
                if status != 200:
                    raise ConnectionError(f"poll status {status}")
                for message in page["messages"]:
                    self.got(message, tally)
                self.cursor = max(self.cursor, page["next"])
                if not wait:
                    await asyncio.sleep(1)
        finally:
            writer.close()


class LineClient:
    """A raw TCP (DogeChat line protocol) client in one room: reads every
    line and publishes `msg:` lines; a text is acknowledged when it comes
    back to its sender."""
    def __init__(self, port, room, name):
        self.port, self.room, self.name = port, room, name
        self.texts = []          # chat texts of the soak's publishers, in arrival order
        self.stopped = False
        self.failed = None
        self.writer = None

    async def run(self, tally):
        tally.connections += 1
        try:
            reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.writer.write(f"join:{self.room}\niam:{self.name}\n".encode())
            while not self.stopped:
                line = await reader.readline()
                if not line:
                    if not self.stopped:
                        self.failed = f"tcp {self.room}: closed by the server"
                    return
                sender, _, text = line.decode("utf-8", "replace").rstrip("\n").partition(":")
                if text.startswith("s:"):
                    self.texts.append(text)
                    tally.delivered += 1
                    if sender == self.name:
                        tally.tcp_acked.setdefault(self.room, set()).add(text)
        except (ConnectionError, OSError) as error:
            if not self.stopped:
                self.failed = f"tcp {self.room}: {error!r}"
        finally:
            tally.connections -= 1

    def publish(self, text):
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(f"msg:{text}\n".encode())


def frame(opcode, payload):
    """One masked client frame."""
    mask = os.urandom(4)
    length = len(payload)
    head = bytes([0x80 | opcode])
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 65536:
        head += bytes([0x80 | 126]) + length.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + length.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def read_frame(reader):
    """One server frame (unmasked): (opcode, payload)."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        length = int.from_bytes(await reader.readexactly(2), "big")
    elif length == 127:
        length = int.from_bytes(await reader.readexactly(8), "big")
    return first & 0x0F, await reader.readexactly(length)
