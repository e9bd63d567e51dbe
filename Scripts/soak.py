"""The soak: one running server, mixed load for N minutes, then the checks.

    python3 Scripts/soak.py --port HTTP --tcp-port TCP --pid PID --minutes N --out DIR [--chaos]
        [--second-command CMD --second-port HTTP --postgres-dir DIR]

Run by Scripts/soak.sh, which starts the server. Holds SSE, WebSocket, raw
TCP, long-poll and short-poll subscribers in several public rooms, a group
conversation and a direct one; publishes over HTTP, WebSocket and raw TCP at
a steady rate plus a burst every 30 s; opens and drops connections all the time
(clean closes, resets, readers that stop reading, clients that come back
with their cursor); and sends a misbehaving client now and then (slowloris,
a bad frame, an oversized line, invalid UTF-8, malformed JSON). Every 10 s
it samples the server's RSS, open descriptors, threads and CPU into
soak.csv; at the end it draws soak.svg and checks that nothing
acknowledged is missing, that every subscriber got its room's messages
after its cursor in order and once, and that RSS and descriptors at the end
are within 10 % of the figure after warm-up. --chaos adds, halfway, a
SIGSTOP of the server for 20 s (and, when the server's database is on the
small tmpfs Scripts/soak.sh made, the database locked by another process
for 12 s, then a full disk for 20 s). With a second node (on the same
PostgreSQL), the soak starts it, puts reconnecting subscribers and half the
HTTP publishes on it, and --chaos freezes PostgreSQL (SIGSTOP) for 12 s,
kills the second node with SIGKILL and starts it again, then stops
PostgreSQL for 15 s.
"""
import argparse
import asyncio
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak_clients import LineClient, Subscriber, Tally, open_http, read_head, request, reset  # noqa: E402
from soak_misbehave import Misbehaviour  # noqa: E402
from soak_node import SecondNode  # noqa: E402
from soak_plot import write_svg  # noqa: E402

ROOMS = ["soak-a", "soak-b", "soak-c"]


def sample(pid, postgres_port=0):
    """(rss MiB, fds, threads, cpu seconds) of the server, from /proc. With
    `postgres_port`, the descriptors leave out the connections to that port:
    a pool that opens up to its bound as reads ask, and again after the
    database comes back, is not a leak."""
    status = open(f"/proc/{pid}/status").read()
    field = lambda name: int(next(l for l in status.splitlines() if l.startswith(name)).split()[1])
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    fds = os.listdir(f"/proc/{pid}/fd")
    if postgres_port:
        pool = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in open(table).read().splitlines()[1:]:
                parts = line.split()
                if int(parts[2].rsplit(":", 1)[1], 16) == postgres_port:
                    pool.add(f"socket:[{parts[9]}]")
        fds = [fd for fd in fds if readlink(f"/proc/{pid}/fd/{fd}") not in pool]
    return field("VmRSS:") / 1024, len(fds), field("Threads:"), cpu


def readlink(path):
    try:
        return os.readlink(path)
    except OSError:
        return ""


async def last_id(port, room, token=None):
    headers = [("Authorization", f"Bearer {token}")] if token else []
    status, page = await request(port, "GET", f"/api/rooms/{room}/messages?limit=1", headers=headers)
    if status != 200:
        raise RuntimeError(f"the last id of {room}: {status} {page}")
    return page["next"]


async def history(port, room, token=None):
    """Every stored message of the room, in id order."""
    headers = [("Authorization", f"Bearer {token}")] if token else []
    messages, since = [], 0
    while True:
        status, page = await request(port, "GET", f"/api/rooms/{room}/messages?since={since}&limit=1000", headers=headers)
        if status != 200:
            raise RuntimeError(f"history of {room}: {status} {page}")
        messages += page["messages"]
        if not page["messages"]:
            return messages
        since = page["next"]


async def make_conversations(port):
    """Two accounts, the first signed in; a group of both and their direct
    conversation: ([group room, direct room], the first's token)."""
    password, suffix = "soak password 1234", random.randrange(1 << 30)
    tokens = []
    for name in (f"soaka{suffix}", f"soakb{suffix}"):
        body = json.dumps({"user": name, "password": password}).encode()
        await request(port, "POST", "/api/accounts", body, [("Content-Type", "application/json")])
        _, session = await request(port, "POST", "/api/sessions", body, [("Content-Type", "application/json")])
        tokens.append(session["token"])
    rooms = []
    for fields in ({"title": "soak", "members": [f"soakb{suffix}"]}, {"members": [f"soakb{suffix}"]}):
        status, made = await request(port, "POST", "/api/conversations", json.dumps(fields).encode(),
                                     [("Content-Type", "application/json"), ("Authorization", f"Bearer {tokens[0]}")])
        if status not in (200, 201):
            raise RuntimeError(f"a conversation could not be made: {status} {made}")
        rooms.append(made["room"])
    return rooms, tokens[0]


class Soak(Misbehaviour):
    def __init__(self, arguments):
        self.port, self.tcp_port, self.pid = arguments.port, arguments.tcp_port, arguments.pid
        self.seconds = arguments.minutes * 60
        self.chaos, self.out, self.tmpfs = arguments.chaos, arguments.out, arguments.tmpfs
        self.tally = Tally()
        self.subscribers, self.lines = [], []
        self.tokens = {}
        self.running = True
        self.sequence = 0
        self.rows = []
        self.chaos_log = []
        self.inflight = set()
        self.second = None
        if arguments.second_command:
            self.second = SecondNode(arguments.second_command, arguments.second_port, arguments.postgres_dir)
        self.ports = [self.port] + ([arguments.second_port] if self.second else [])

    def text(self, origin):
        self.sequence += 1
        return f"s:{origin}:{self.sequence}"

    async def subscribe(self, kind, room, reconnecting=False, port=None):
        subscriber = Subscriber(kind, port or self.port, room, await last_id(self.port, room, self.tokens.get(room)),
                                self.tokens.get(room), reconnecting)
        self.subscribers.append(subscriber)
        subscriber.task = asyncio.create_task(subscriber.run(self.tally))

    async def publish_http(self, room):
        token = self.tokens.get(room)
        headers = [("Content-Type", "application/x-www-form-urlencoded")]
        body = f"text={self.text('http')}"
        if token:
            headers.append(("Authorization", f"Bearer {token}"))
        else:
            body = "user=soaker&" + body
        try:
            status, answer = await request(random.choice(self.ports), "POST", f"/api/rooms/{room}/messages", body.encode(), headers)
            if status == 201:
                self.tally.ack(room, answer["id"])
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            pass  # not acknowledged: nothing to check

    async def publishers(self):
        """About 20 messages a second over every way in, and a burst of 100 every 30 s."""
        tick, next_burst = 0, time.monotonic() + 30
        while self.running:
            tick += 1
            room = random.choice(self.all_rooms)
            choice = tick % 4
            if choice == 0:
                sockets = [s for s in self.subscribers if s.kind == "websocket" and s.room == room and not s.stopped]
                if sockets:
                    random.choice(sockets).publish(self.text("ws"), tick)
            elif choice == 1 and room in ROOMS:
                lines = [c for c in self.lines if c.room == room]
                random.choice(lines).publish(self.text("tcp"))
            else:
                task = asyncio.create_task(self.publish_http(room))
                self.inflight.add(task)
                task.add_done_callback(self.inflight.discard)
            if time.monotonic() >= next_burst:
                next_burst += 30
                await asyncio.gather(*(self.publish_http(random.choice(self.all_rooms)) for _ in range(100)))
            await asyncio.sleep(0.05)

    async def churn(self):
        """Connections that come and go without being checked: a reader that
        vanishes (reset), one that stops reading, a TCP client that leaves."""
        while self.running:
            room = random.choice(ROOMS)
            what = random.choice(["sse-reset", "stop-reading", "tcp-leave", "ws-reset"])
            writer = None
            try:
                if what == "tcp-leave":
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.tcp_port)
                    writer.write(f"join:{room}\niam:churn{random.randrange(1000)}\n".encode())
                    await asyncio.sleep(random.uniform(0.5, 3))
                    writer.close()
                else:
                    path = f"/api/rooms/{room}/events" if what != "ws-reset" else f"/api/rooms/{room}/ws"
                    upgrade = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n") if what == "ws-reset" else ""
                    reader, writer = await open_http(random.choice(self.ports), f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{upgrade}\r\n")
                    if what == "stop-reading":
                        writer.get_extra_info("socket").setsockopt(__import__("socket").SOL_SOCKET,
                                                                   __import__("socket").SO_RCVBUF, 4096)
                        await asyncio.sleep(random.uniform(5, 20))  # reads nothing meanwhile
                    else:
                        await read_head(reader)
                        await asyncio.sleep(random.uniform(0.5, 3))
                    reset(writer)
            except (ConnectionError, OSError, asyncio.IncompleteReadError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(0.3)

    async def sampler(self, started):
        previous = None
        while True:
            rss, fds, threads, cpu = sample(self.pid, self.second.postgres_port if self.second else 0)
            at = time.monotonic() - started
            percent = 0.0 if previous is None else (cpu - previous[0]) / max(1e-9, at - previous[1]) * 100
            previous = (cpu, at)
            self.rows.append((round(at), round(rss, 1), fds, threads, round(percent, 1), self.tally.connections, self.tally.delivered))
            await asyncio.sleep(10)

    async def warm_up(self, count=9000):
        """Fills the server's in-memory ring and catch-up cache (4,096
        messages each) before anything is measured, so that their growth is
        not taken for a leak, even in a 3-minute run."""
        async def worker(share):
            for index in range(share):
                await request(self.port, "POST", "/api/rooms/soak-warmup/messages", f"user=warm&text=w{index}".encode(),
                              [("Content-Type", "application/x-www-form-urlencoded")])
        await asyncio.gather(*(worker(count // 16) for _ in range(16)))

    async def run(self):
        if self.second:
            await self.second.start()
        try:
            return await self.soak()
        finally:
            if self.second:
                self.second.stop()

    async def soak(self):
        await self.warm_up()
        conversations, token = await make_conversations(self.port)
        self.tokens.update({room: token for room in conversations})
        self.all_rooms = ROOMS + conversations
        for index, room_name in enumerate(ROOMS):
            for kind in ["sse", "websocket", "long-poll", "short-poll"]:
                for _ in range(3):
                    await self.subscribe(kind, room_name)
                await self.subscribe(kind, room_name, reconnecting=True)
            for client in range(3):
                line = LineClient(self.tcp_port, room_name, f"line{index}x{client}")
                self.lines.append(line)
                line.task = asyncio.create_task(line.run(self.tally))
        for room in conversations:
            for kind in ["sse", "websocket", "long-poll"]:
                await self.subscribe(kind, room)
                await self.subscribe(kind, room, reconnecting=True)
        if self.second:
            # Only subscribers that come back with their cursor: the node dies.
            for room_name in self.all_rooms:
                for kind in ["sse", "websocket", "long-poll", "short-poll"]:
                    for _ in range(2):
                        await self.subscribe(kind, room_name, reconnecting=True, port=self.second.port)
        await asyncio.sleep(1)
        started = time.monotonic()
        tasks = [asyncio.create_task(job) for job in (self.sampler(started), self.publishers(), self.churn(), self.misbehave())]
        if self.chaos:
            tasks.append(asyncio.create_task(self.chaos_run()))
        await asyncio.sleep(self.seconds)
        if self.chaos:
            await tasks[-1]  # never cut short: it must start what it stopped
        self.running = False
        await asyncio.sleep(5)  # the last publishes answered
        if self.inflight:
            await asyncio.wait(set(self.inflight), timeout=30)
        for task in tasks[1:]:
            task.cancel()
        return await self.check()

    async def check(self):
        """Waits for every subscriber to catch up, then compares with the store."""
        stored = {room: await history(self.port, room, self.tokens.get(room)) for room in self.all_rooms}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            behind = [s for s in self.subscribers if s.failed is None and stored[s.room] and s.cursor < stored[s.room][-1]["id"]]
            if not behind:
                break
            await asyncio.sleep(1)
        await asyncio.sleep(2)
        for subscriber in self.subscribers + self.lines:
            subscriber.stopped = True
        failures = []
        for subscriber in self.subscribers:
            expected = [m["id"] for m in stored[subscriber.room] if m["id"] > subscriber.since]
            if subscriber.failed:
                failures.append(subscriber.failed)
            elif subscriber.received != expected:
                missing = sorted(set(expected) - set(subscriber.received))
                doubled = len(subscriber.received) - len(set(subscriber.received))
                failures.append(f"{subscriber.kind} in {subscriber.room} (reconnecting: {subscriber.reconnecting}): "
                                f"{len(subscriber.received)} of {len(expected)}, missing {missing[:5]}, {doubled} doubled")
        for line in self.lines:
            texts = [m["text"] for m in stored[line.room] if m["kind"] == "message" and m["text"].startswith("s:")]
            if line.failed:
                failures.append(line.failed)
            elif not line.texts or texts[len(texts) - len(line.texts):] != line.texts:
                failures.append(f"tcp in {line.room}: its {len(line.texts)} texts are not the room's last ones in order")
        for room, ids in self.tally.acked.items():
            lost = ids - {m["id"] for m in stored[room]}
            if lost:
                failures.append(f"{len(lost)} acknowledged messages missing from {room}: {sorted(lost)[:5]}")
        for room, texts in self.tally.tcp_acked.items():
            lost = texts - {m["text"] for m in stored[room]}
            if lost:
                failures.append(f"{len(lost)} messages echoed to their TCP sender missing from {room}")
        return stored, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tcp-port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chaos", action="store_true")
    parser.add_argument("--tmpfs", default="", help="the folder of the server's database, on a small tmpfs (chaos: full disk)")
    parser.add_argument("--second-command", default="", help="starts a second node on the same PostgreSQL")
    parser.add_argument("--second-port", type=int, default=0)
    parser.add_argument("--postgres-dir", default="", help="the PostgreSQL of Scripts/postgres.sh that both nodes share")
    soak = Soak(parser.parse_args())
    stored, failures = asyncio.run(soak.run())
    os.makedirs(soak.out, exist_ok=True)
    with open(os.path.join(soak.out, "soak.csv"), "w") as csv:
        csv.write("seconds,rss_mib,fds,threads,cpu_percent,connections,delivered\n")
        csv.writelines(",".join(map(str, row)) + "\n" for row in soak.rows)
    write_svg(soak.rows, os.path.join(soak.out, "soak.svg"))
    # After warm-up: the first sample past a minute (or a sixth of the run, when longer).
    warm = next((row for row in soak.rows if row[0] >= max(60, soak.seconds / 6)), soak.rows[0])
    # The end: the lowest of the last three samples (30 s) for each figure.
    # A leak is in all three; clients caught between their old connection
    # and their new one (a dozen reconnect every 4-12 s) are in one.
    ending = soak.rows[-3:]
    last = [min(row[column] for row in ending) for column in range(len(soak.rows[-1]))]
    for what, column in (("RSS", 1), ("open descriptors", 2)):
        if last[column] > warm[column] * 1.10:
            failures.append(f"{what} grew more than 10 %: {warm[column]} at {warm[0]} s, "
                            f"{last[column]} at the end (the lowest of the last {len(ending)} samples)")
    messages = sum(len(v) for v in stored.values())
    cpu = sum(row[4] for row in soak.rows[1:]) / max(1, len(soak.rows) - 1)
    print(f"soak: {soak.seconds / 60:g} min, {len(soak.subscribers)} checked subscribers and {len(soak.lines)} TCP clients "
          f"in {len(soak.all_rooms)} rooms; {messages} messages stored, {soak.tally.delivered} deliveries, "
          f"{soak.tally.reconnects} reconnections")
    print(f"server: RSS {warm[1]} MiB at {warm[0]} s -> {last[1]} MiB at the end; descriptors {warm[2]} -> {last[2]}; "
          f"threads {warm[3]} -> {last[3]}; CPU {cpu:.1f} % of a core on average")
    print("misbehaving clients (answered as expected / not): "
          + ", ".join(f"{what} {ok}/{bad}" for what, (ok, bad) in sorted(soak.tally.misbehaviour.items())))
    failures += soak.tally.errors
    for line in soak.chaos_log:
        print(f"chaos: {line}")
    for failure in failures:
        print(f"FAILED: {failure}")
    print(f"soak: {'passed' if not failures else 'FAILED'}; {soak.out}/soak.csv and soak.svg")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
