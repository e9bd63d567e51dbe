"""Sending exactly once from the chat page (outbox.js) and falling back from one transport to the
next. The server is stopped while three messages are typed, then started again: each is stored
once, shown once, in order. An outbox in the browser's storage is sent after a reload, and sent
twice (the answer lost) is still stored once. Behind a proxy that refuses WebSocket upgrades the
page falls back to SSE; one that refuses event streams too, to long-poll; both still chat.
Called by chat_page_test.py with its server and helpers."""
import asyncio
import json
import re
import threading
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


class RefusingProxy:
    """A reverse proxy on loopback that passes requests to the server byte for byte, one request
    per connection (it asks the server to close after each, so every request is seen), and answers
    403 to what it refuses: WebSocket upgrades always, and paths matching `refuse` when given, as a
    proxy that does not pass upgrades or buffers streams does."""

    def __init__(self, upstream_port, refuse=None):
        self.upstream_port, self.refuse = upstream_port, refuse and re.compile(refuse)
        self.refused = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def serve():
            self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()

        threading.Thread(target=lambda: (self.loop.run_until_complete(serve()), self.loop.run_forever()), daemon=True).start()
        ready.wait(5)
        self.base = f"http://127.0.0.1:{self.port}"

    async def handle(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        path = request_line.split(" ")[1] if " " in request_line else ""
        upgrade = re.search(rb"(?im)^upgrade:\s*websocket", head)
        if upgrade or (self.refuse and self.refuse.search(path)):
            self.refused.append(request_line)
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await writer.drain()
            writer.close()
            return
        head = re.sub(rb"(?im)^connection:[^\r\n]*\r\n", b"", head)
        head = head[:-2] + b"Connection: close\r\n\r\n"
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            writer.close()
            return
        up_writer.write(head)

        async def pipe(source, sink):
            try:
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            except ConnectionError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def close(self):
        self.loop.call_soon_threadsafe(self.server.close)


class Through:
    """The server as seen through a proxy: what sign_up needs (its base)."""

    def __init__(self, base):
        self.base = base


def outbox_checks(server, options, check, screenshots, wait_for, sign_up):
    def shown(browser):
        """The texts of the stored messages on the page, in order (not the outbox's lines)."""
        return browser.execute_script(
            "return [...document.querySelectorAll('#messages li.message:not(.outgoing) .text')].map((e) => e.textContent)")

    def outgoing(browser):
        return browser.execute_script(
            "return [...document.querySelectorAll('#messages li.outgoing')].map((li) => "
            "li.querySelector('.text').textContent + ' ' + li.querySelector('.delivery').textContent)")

    def stored(room):
        with urllib.request.urlopen(f"{server.base}/api/rooms/{room}/messages?limit=100", timeout=5) as response:
            return [m for m in json.load(response)["messages"] if m["kind"] == "message"]

    def outbox(browser):
        return browser.execute_script("return JSON.parse(localStorage.getItem('switchboard.outbox') || '[]')")

    def status(browser):
        return browser.find_element(By.ID, "status").text

    han = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        check("outbox: signed in over WebSocket", bool(sign_up(han, server, "hansolo", "websocket", "outbox")))
        server.stop()
        wait_for(lambda: status(han).startswith("reconnecting"), 10)
        for text in ("one", "two", "three"):
            han.find_element(By.ID, "text").send_keys(text + "\n")
        check("typed while the server is down: three lines shown as sending, kept in the browser's storage",
              wait_for(lambda: outgoing(han) == ["one sending…", "two sending…", "three sending…"], 5)
              and [e["fields"]["text"] for e in outbox(han)] == ["one", "two", "three"],
              f"{outgoing(han)} / {len(outbox(han))} kept")
        server.start()
        sent = wait_for(lambda: shown(han)[-3:] == ["one", "two", "three"] and not outgoing(han) and not outbox(han), 30)
        texts = [m["text"] for m in stored("outbox")]
        check("the server back: each stored once and in order, each with its client id",
              texts == ["one", "two", "three"] and all(m.get("client_id") for m in stored("outbox")), str(texts))
        check("... and shown once, in order, as sent", bool(sent) and shown(han) == ["one", "two", "three"]
              and han.execute_script("return [...document.querySelectorAll('#messages li.mine .delivery')]"
                                     ".map((e) => e.textContent).join()") == "sent,sent,sent",
              f"{shown(han)} {outgoing(han)}")

        # What is in the outbox when the page loads is sent; sent twice (as when the answer to the first
        # never came), it is stored once and shown once.
        entry = {"client_id": "reload-check-1", "user": "hansolo", "room": "outbox",
                 "fields": {"text": "kept across a reload"}, "ts": 0}
        for attempt in (1, 2):
            han.execute_script("localStorage.setItem('switchboard.outbox', JSON.stringify([arguments[0]]))", entry)
            han.refresh()
            wait_for(lambda: status(han).startswith("live") and not outbox(han), 10)
        check("an outbox in storage is sent after a reload; sent again, still stored once and shown once",
              [m["text"] for m in stored("outbox")].count("kept across a reload") == 1
              and shown(han).count("kept across a reload") == 1 and not outbox(han), str(shown(han)))

        # Behind a proxy that refuses upgrades: WebSocket cannot connect, the server answers, so SSE.
        proxy = RefusingProxy(server.http)
        try:
            han.get(f"{proxy.base}/?transport=websocket&room=outbox")
            on_sse = wait_for(lambda: status(han).startswith("live") and "WebSocket could not connect" in status(han)
                              and han.find_element(By.CSS_SELECTOR, "input[value=sse]").is_selected(), 20)
            check("upgrades refused by a proxy: the page falls back to SSE",
                  bool(on_sse) and any("Upgrade" in line or "/ws" in line for line in proxy.refused), status(han))
            han.find_element(By.ID, "text").send_keys("over the fallback\n")
            # The reply after the typed line is stored (the order both lines are checked in).
            wait_for(lambda: "over the fallback" in [m["text"] for m in stored("outbox")], 10)
            server.publish("chewie", "heard over the fallback", room="outbox")
            check("... and still chats: typed and received, each shown once",
                  wait_for(lambda: shown(han)[-2:] == ["over the fallback", "heard over the fallback"], 10)
                  and [m["text"] for m in stored("outbox")].count("over the fallback") == 1, str(shown(han)[-3:]))
        finally:
            proxy.close()
        strict = RefusingProxy(server.http, refuse=r"/events")
        try:
            han.get(f"{strict.base}/?transport=websocket&room=outbox")
            on_long_poll = wait_for(lambda: status(han).startswith("live (long-poll)")
                                    and han.find_element(By.CSS_SELECTOR, "input[value=long-poll]").is_selected(), 10)
            # Within 10 s: live when its first request answers, not when a first 25 s wait ends.
            check("event streams refused too: WebSocket, then SSE, then long-poll, live at its first answer",
                  bool(on_long_poll), status(han))
            han.find_element(By.ID, "text").send_keys("over long-poll\n")
            wait_for(lambda: "over long-poll" in [m["text"] for m in stored("outbox")], 10)
            server.publish("chewie", "heard over long-poll", room="outbox")
            check("... and still chats", wait_for(lambda: shown(han)[-2:] == ["over long-poll", "heard over long-poll"], 10),
                  str(shown(han)[-3:]))
            if screenshots:
                han.save_screenshot(f"{screenshots}/outbox-fallback.png")
        finally:
            strict.close()
    finally:
        han.quit()
