#!/usr/bin/env python3
"""The web chat page and the admin dashboard in a real browser (Debian's chromium, headless, driven
through chromedriver by Selenium) against the real switchboard binary.

Usage: chat_page_test.py PATH/TO/switchboard [--screenshots DIR]
Prints one line per check and a closing 'browser: N passed, N failed'.
"""
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests"))
from checks import free_port, fresh_database, scratch_folder  # noqa: E402
from acts_checks import acts_checks  # noqa: E402
from outbox_checks import outbox_checks  # noqa: E402
from push_checks import push_checks  # noqa: E402
from backend_checks import backend_checks  # noqa: E402
from cross_origin_checks import cross_origin_checks  # noqa: E402

ADMIN_TOKEN = "browser-test-admin-token"

results = []  # every check's outcome, in order



def wait_for(predicate, timeout, interval=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


class Server:
    def __init__(self, binary, database=None, extra=()):
        self.http, self.tcp = free_port(), free_port()
        self.folder = scratch_folder("switchboard-browser-", lambda: not all(results))
        self.command = [binary, "serve", "--http", f"127.0.0.1:{self.http}", "--tcp", f"127.0.0.1:{self.tcp}",
                        "--db", database or os.path.join(self.folder, "db.sqlite"), "--public", os.path.join(REPOSITORY, "Public"),
                        "--admin-token", ADMIN_TOKEN, "--log-level", "warning", *extra]
        self.base = f"{'https' if '--tls-cert' in extra else 'http'}://127.0.0.1:{self.http}"
        self.start()

    def start(self):
        """Starts (again) on the same ports and database."""
        self.process = subprocess.Popen(self.command)
        if not wait_for(self.healthy, 10, 0.1):
            raise RuntimeError("server did not start")

    def healthy(self):
        try:
            unverified = ssl._create_unverified_context()  # a throwaway self-signed certificate
            return urllib.request.urlopen(self.base + "/healthz", timeout=1, context=unverified).status == 200
        except OSError:
            return False

    def publish(self, user, text, room="lobby"):
        body = urllib.parse.urlencode({"user": user, "text": text}).encode()
        request = urllib.request.Request(f"{self.base}/api/rooms/{room}/messages", data=body)
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class LineClient:
    def __init__(self, port, name):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""
        self.socket.sendall(f"iam:{name}\n".encode())

    def wait_for_line(self, wanted, timeout, prefix=False):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if line.decode() == wanted or (prefix and line.decode().startswith(wanted)):
                    return True
            self.socket.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.socket.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            self.buffer += chunk
        return False


def tcp_closed(client):
    """True once the server has closed the client's connection."""
    client.socket.settimeout(0.2)
    try:
        while True:
            chunk = client.socket.recv(65536)
            if not chunk:
                return True
    except socket.timeout:
        return False
    except OSError:
        return True


def sign_up(browser, server, name, transport, room=None):
    """Registers `name` in the page and joins (the room, if given) over `transport`: true once live."""
    browser.get(f"{server.base}/?transport={transport}" + (f"&room={room}" if room else ""))
    wait_for(lambda: browser.find_element(By.ID, "join-password").is_displayed(), 5)
    field = browser.find_element(By.ID, "join-name")
    field.clear()
    field.send_keys(name)
    browser.find_element(By.ID, "join-password").send_keys("a long enough password")
    browser.find_element(By.ID, "register").click()
    wait_for(lambda: browser.find_element(By.ID, "join-signed-in").is_displayed(), 5)
    browser.find_element(By.ID, "join-signed-in").click()
    return wait_for(lambda: browser.find_element(By.ID, "sidebar").is_displayed()
                    and browser.find_element(By.ID, "status").text.startswith("live"), 10)


def messenger_checks(server, options, check, screenshots):
    """Two people, each in a browser profile of their own: a group, a chat, a read receipt,
    typing, then one removed, whose page stops showing the group's messages."""

    def texts(browser):
        return [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#messages li:not(.outgoing)")]

    def sidebar(browser):
        return browser.find_element(By.ID, "conversations").text

    poe = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    kylo = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        check("two people sign up in two profiles and see the conversations sidebar",
              bool(sign_up(poe, server, "poe", "sse")) and bool(sign_up(kylo, server, "kylo", "websocket")))
        poe.find_element(By.ID, "new-conversation").click()
        poe.find_element(By.ID, "new-members").send_keys("kylo")
        poe.find_element(By.ID, "new-title").send_keys("Resistance")
        poe.find_element(By.CSS_SELECTOR, "#new-form button").click()
        check("a new group opens, named, with its creation shown",
              wait_for(lambda: poe.find_element(By.ID, "room-title").text == "Resistance"
                       and any("poe created" in t for t in texts(poe)), 5), poe.find_element(By.ID, "room-title").text)
        check("the other member's sidebar lists it with an unread badge once written to",
              wait_for(lambda: "Resistance" in sidebar(kylo), 5), sidebar(kylo))
        poe.find_element(By.ID, "text").send_keys("meet at the base\n")
        check("the badge counts the unread message",
              wait_for(lambda: "Resistance\n1" in sidebar(kylo), 5), sidebar(kylo).replace("\n", " | "))
        kylo.execute_script("""for (const item of document.querySelectorAll('#conversations li'))
                                 if (item.textContent.startsWith('Resistance')) item.click();""")
        check("opening it shows the message", wait_for(lambda: any("meet at the base" in t for t in texts(kylo)), 5))
        check("the sender sees 'Read by kylo' under it (a receipt over SSE)",
              wait_for(lambda: any("Read by kylo" in t for t in texts(poe)), 5), " | ".join(texts(poe)[-2:]))
        delivery = lambda: poe.execute_script(
            "return [...document.querySelectorAll('#messages li.mine')].map((li) => li.querySelector('.text').textContent"
            " + ': ' + li.querySelector('.delivery').textContent)")
        check("... and their own message marked read", wait_for(lambda: "meet at the base: read" in delivery(), 5), str(delivery()))
        kylo.find_element(By.ID, "text").send_keys("on my w")
        check("'kylo is typing…' shows on the other page",
              wait_for(lambda: poe.find_element(By.ID, "typing").text == "kylo is typing…", 5),
              poe.find_element(By.ID, "typing").text)
        kylo.find_element(By.ID, "text").send_keys("ay\n")
        check("the message replaces the typing line",
              wait_for(lambda: any("on my way" in t for t in texts(poe)) and poe.find_element(By.ID, "typing").text == "", 5))
        if screenshots:
            poe.save_screenshot(os.path.join(screenshots, "messenger-group.png"))
        poe.execute_script("document.querySelector('#conv-members button[data-remove=\"kylo\"]').click()")
        check("removing a member shows on their page, which then stops",
              wait_for(lambda: any("poe removed kylo" in t for t in texts(kylo))
                       and "no longer" in kylo.find_element(By.ID, "status").text, 5), kylo.find_element(By.ID, "status").text)
        poe.find_element(By.ID, "text").send_keys("kylo cannot read this\n")
        wait_for(lambda: any("kylo cannot read this" in t for t in texts(poe)), 5)
        time.sleep(1)
        check("the removed member's page does not show later messages",
              not any("kylo cannot read this" in t for t in texts(kylo)) and "Resistance" not in sidebar(kylo))
        if screenshots:
            kylo.save_screenshot(os.path.join(screenshots, "messenger-removed.png"))
        # A long history: the latest 100 on opening, older pages as it scrolls up.
        room = poe.execute_script("return document.querySelector('#conversations li.active').dataset.room")
        poe.execute_async_script("""const done = arguments[arguments.length - 1];
            (async () => { for (let i = 1; i <= 120; i++)
                await fetch(`/api/rooms/${arguments[0]}/messages`, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                                  body: JSON.stringify({text: `old ${i}`})}); })().then(done);""", room)
        poe.execute_script("for (const li of document.querySelectorAll('#conversations li')) if (li.textContent.startsWith('#')) li.click();")
        wait_for(lambda: poe.find_element(By.ID, "room-title").text.startswith("#"), 5)
        poe.execute_script("for (const li of document.querySelectorAll('#conversations li')) if (li.textContent.startsWith('Resistance')) li.click();")
        wait_for(lambda: len(texts(poe)) >= 100, 5)
        first_count = len(texts(poe))
        def scrolled_back():
            poe.execute_script("const list = document.getElementById('messages'); list.scrollTop = 0; list.dispatchEvent(new Event('scroll'));")
            return any("poe created" in t for t in texts(poe))
        check("scrolling up loads older pages, back to the start of the history",
              first_count >= 100 and not any("poe created" in t for t in texts(poe)) and bool(wait_for(scrolled_back, 10, 0.3)),
              f"{first_count} shown at first, {len(texts(poe))} after scrolling")
    finally:
        poe.quit()
        kylo.quit()


def media_checks(server, options, check, screenshots):
    """Photos, video and voice in the page: attached by the button, by a drop and by a paste,
    shown as a thumbnail that opens full size and as players that can be sought; a voice
    message recorded with the browser's (fake) microphone and sent; raw TCP sees the links."""
    folder = scratch_folder("switchboard-browser-media-", lambda: not all(results))
    photo, clip = os.path.join(folder, "photo.jpg"), os.path.join(folder, "clip.mp4")
    convert = shutil.which("convert-im6.q16") or "/usr/bin/convert"
    subprocess.run([convert, "-size", "900x600", "gradient:orange-purple", photo], check=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=4",
                    "-pix_fmt", "yuv420p", "-movflags", "+faststart", clip], check=True)
    media_options = webdriver.ChromeOptions()
    media_options.binary_location = options.binary_location
    for argument in options.arguments + ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                                         "--autoplay-policy=no-user-gesture-required"]:
        media_options.add_argument(argument)
    rey = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=media_options)
    tcp = LineClient(server.tcp, "finn")
    try:
        rey.get(f"{server.base}/?room=lobby&transport=websocket")
        wait_for(lambda: rey.find_element(By.ID, "join-password").is_displayed(), 5)
        rey.find_element(By.ID, "join-name").clear()
        rey.find_element(By.ID, "join-name").send_keys("jyn")
        rey.find_element(By.ID, "join-password").send_keys("a long enough password")
        rey.find_element(By.ID, "register").click()
        wait_for(lambda: rey.find_element(By.ID, "join-signed-in").is_displayed(), 5)
        rey.find_element(By.ID, "join-signed-in").click()
        wait_for(lambda: rey.find_element(By.ID, "status").text.startswith("live"), 10)

        def attach(path):
            rey.execute_script("document.getElementById('file').hidden = false")
            rey.find_element(By.ID, "file").send_keys(path)
            rey.execute_script("document.getElementById('file').hidden = true")
            return wait_for(lambda: rey.execute_script(
                "const items = document.querySelectorAll('#pending .attachment');"
                "return items.length > 0 && [...items].every((item) => item.classList.contains('ready'))"), 15)

        check("a photo attached with the button uploads, with its thumbnail shown before sending", bool(attach(photo)))
        rey.find_element(By.ID, "text").send_keys("a photo\n")
        loaded = wait_for(lambda: rey.execute_script(
            "const image = document.querySelector('#messages .media a img');"
            "return image && image.complete && image.naturalWidth > 0 ? [image.naturalWidth, image.naturalHeight, image.parentNode.href] : null"), 10)
        check("the sent photo shows as a thumbnail of at most 320 px, linking to the full size",
              bool(loaded) and max(loaded[0], loaded[1]) <= 320 and "/api/media/" in loaded[2] and "thumbnail" not in loaded[2], str(loaded))
        check("a raw TCP client sees the photo's link", tcp.wait_for_line(f"jyn:a photo [photo {server.base}/api/media/", 5, prefix=True))
        full = rey.execute_async_script("""const done = arguments[arguments.length - 1];
            fetch(document.querySelector('#messages .media a').href).then((r) => r.blob()).then((b) => done(b.size));""")
        check("the full-size photo loads", isinstance(full, int) and full > 1000, str(full))

        check("a video attached with the button uploads", bool(attach(clip)))
        rey.find_element(By.ID, "text").send_keys(Keys.ENTER)
        sought = wait_for(lambda: rey.execute_script(
            "const video = document.querySelector('#messages video');"
            "if (!video || video.readyState < 1) return null;"
            "if (video.currentTime < 2) { video.currentTime = 3; return null; }"
            "return [video.duration, video.currentTime, video.seekable.length]"), 10, 0.2)
        check("the video plays inline and can be sought (Range requests)", bool(sought) and sought[0] >= 3.5 and sought[2] >= 1, str(sought))

        # A drop and a paste of a generated picture (DataTransfer, as the browser makes for a real one).
        for how, script in (("dropped on the chat", "document.getElementById('chat').dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}))"),
                            ("pasted into the text", "document.getElementById('text').dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}))")):
            rey.execute_async_script("""const done = arguments[arguments.length - 1];
                const canvas = document.createElement('canvas'); canvas.width = 64; canvas.height = 48;
                canvas.getContext('2d').fillRect(0, 0, 30, 30);
                canvas.toBlob((blob) => { const data = new DataTransfer();
                    data.items.add(new File([blob], 'drawn.png', {type: 'image/png'})); """ + script + """; done(); }, 'image/png');""")
            ready = wait_for(lambda: rey.execute_script(
                "const items = document.querySelectorAll('#pending .attachment'); return items.length === 1 && items[0].classList.contains('ready')"), 10)
            check(f"a picture {how} is uploaded", bool(ready))
            rey.find_element(By.ID, "text").send_keys(f"{how}\n")
            check("and sent with the text", bool(wait_for(lambda: rey.execute_script(
                "return [...document.querySelectorAll('#messages .message')].some((m) => m.textContent.includes(arguments[0]) && m.querySelector('.media img'))",
                how), 10)))

        rey.find_element(By.ID, "record").click()
        time.sleep(1.5)
        rey.find_element(By.ID, "record").click()
        voice = wait_for(lambda: rey.execute_script(
            "const audio = document.querySelector('#messages audio');"
            "return audio && audio.readyState >= 1 ? audio.src : null"), 15, 0.2)
        check("a voice message recorded in the browser is sent and plays inline", bool(voice), str(voice))
        check("raw TCP sees the voice message", tcp.wait_for_line(f"jyn:[voice {server.base}/api/media/", 5, prefix=True))
        if screenshots:
            rey.save_screenshot(os.path.join(screenshots, "media.png"))
        check("nothing stays pending after sending", rey.execute_script("return document.getElementById('pending').hidden"))

        # The operator's side: storage in all and per user, the latest uploads, deleting one.
        rey.switch_to.new_window("tab")
        rey.get(f"{server.base}/admin")
        rey.find_element(By.ID, "token").send_keys(ADMIN_TOKEN + Keys.ENTER)
        users = lambda: rey.find_element(By.ID, "media-users").text
        check("the dashboard shows storage per user and in all",
              wait_for(lambda: "jyn" in users() and "upload" in rey.find_element(By.ID, "media-total").text, 10),
              users().replace("\n", " | "))
        latest = lambda: rey.find_element(By.ID, "media-recent").text
        wait_for(lambda: "clip.mp4" in latest(), 10)
        rey.execute_script("""for (const row of document.querySelectorAll('#media-recent tr'))
                                if (row.cells[0].textContent === 'clip.mp4') row.querySelector('button').click();""")
        check("deleting an upload from the dashboard", wait_for(lambda: "Deleted clip.mp4" in rey.find_element(By.ID, "media-result").text
                                                                and "clip.mp4" not in latest(), 10), latest()[:200])
        if screenshots:
            rey.save_screenshot(os.path.join(screenshots, "admin-media.png"))
    finally:
        rey.quit()
        tcp.socket.close()


def main():
    binary = sys.argv[1]
    screenshots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None

    def check(name, ok, detail=""):
        results.append(ok)
        print(f"{'ok' if ok else 'FAILED'}: {name}{f' ({detail})' if detail else ''}", flush=True)

    server = Server(binary)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860",
                     "--disable-gpu", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        server.publish("leia", "Welcome to the lobby! This history was there before you came.")
        browser.get(f"{server.base}/")
        check("before joining, only the join form shows",
              browser.find_element(By.ID, "join").is_displayed() and not browser.find_element(By.ID, "chat").is_displayed())
        tcp = LineClient(server.tcp, "han")
        browser.get(f"{server.base}/?user=luke&room=lobby&transport=sse")
        live = wait_for(lambda: browser.find_element(By.ID, "status").text == "live", 10)
        check("chat page opens and its SSE stream is live", live)
        check("after joining, the join form is gone", not browser.find_element(By.ID, "join").is_displayed())
        texts = lambda: [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#messages .message:not(.outgoing) .text")]
        check("history is shown on open", wait_for(lambda: any("history was there" in t for t in texts()), 5))

        started = time.monotonic()
        server.publish("leia", "posted with curl")
        seen = wait_for(lambda: "posted with curl" in texts(), 1.0)
        check("a message posted over HTTP shows within a second", bool(seen), f"{(time.monotonic() - started) * 1000:.0f} ms")

        box = browser.find_element(By.ID, "text")
        box.send_keys("typed in the browser")
        box.send_keys(Keys.ENTER)
        check("a message typed into the page reaches a TCP client", tcp.wait_for_line("luke:typed in the browser", 5))

        tcp.socket.sendall(b"msg:hello from nc\n")
        check("a TCP client's message shows on the page", wait_for(lambda: "hello from nc" in texts(), 5))

        people = lambda: browser.find_element(By.ID, "people").text
        check("presence lists both users with their transports",
              wait_for(lambda: "luke" in people() and "han" in people() and "tcp" in people() and "sse" in people(), 5),
              people().replace("\n", " "))

        hostile = '<img src=x onerror="document.body.dataset.pwned=1"><b>bold?</b>'
        server.publish("mallory", hostile)
        shown = wait_for(lambda: hostile in texts(), 5)
        injected = browser.execute_script(
            "return document.querySelectorAll('#messages img, #messages .text b').length + (document.body.dataset.pwned ? 1 : 0)")
        check("text is inserted as text, never as HTML", bool(shown) and injected == 0)

        for transport, label in (("long-poll", "long-poll"), ("short-poll", "short-poll")):
            browser.find_element(By.CSS_SELECTOR, f"input[name=transport][value='{transport}']").click()
            if transport == "short-poll":
                browser.find_element(By.CSS_SELECTOR, "#interval option[value='250']").click()
            text = f"through {label}"
            time.sleep(0.3)
            server.publish("leia", text)
            check(f"the same conversation through {label}", wait_for(lambda: text in texts(), 5))
            cost = browser.find_element(By.ID, "cost").text
            check(f"the cost line counts {label} requests", label in cost and " 0 requests" not in cost, cost)

        browser.find_element(By.CSS_SELECTOR, "input[name=transport][value='websocket']").click()
        time.sleep(0.5)
        server.publish("leia", "through websocket")
        check("the same conversation through WebSocket", wait_for(lambda: "through websocket" in texts(), 5))
        box = browser.find_element(By.ID, "text")
        box.send_keys("typed over the socket")
        box.send_keys(Keys.ENTER)
        check("a message typed into the page goes over the socket and is acknowledged",
              wait_for(lambda: "typed over the socket" in texts() and box.get_attribute("value") == "", 5))
        # The server drops the socket (an admin kick closes it with 1008): the
        # page reconnects with backoff and resumes after the last id it saw.
        kick = urllib.request.Request(f"{server.base}/api/admin/users/luke/kick", method="POST",
                                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        urllib.request.urlopen(kick, timeout=5).read()
        server.publish("leia", "sent while the socket was down")
        check("after a dropped socket the page reconnects and resumes, no gap and no duplicate",
              wait_for(lambda: texts().count("sent while the socket was down") == 1, 10)
              and (time.sleep(1) or texts().count("sent while the socket was down") == 1))
        check("the cost line counts WebSocket connections", "websocket" in browser.find_element(By.ID, "cost").text)

        browser.find_element(By.CSS_SELECTOR, "input[name=transport][value='sse']").click()
        server.publish("leia", "A long message wraps instead of running off the page: " + "lorem ipsum dolor sit amet " * 12)
        wait_for(lambda: any("runs off" in t or "running off" in t for t in texts()), 5)
        overflow = browser.execute_script(
            "const l = document.getElementById('messages'); return l.scrollWidth > l.clientWidth + 1")
        check("long messages wrap", not overflow)
        if screenshots:
            os.makedirs(screenshots, exist_ok=True)
            time.sleep(0.5)
            browser.save_screenshot(os.path.join(screenshots, "chat.png"))

        # --- the admin dashboard, in a second tab (the chat tab stays connected)
        browser.switch_to.new_window("tab")
        browser.get(f"{server.base}/admin")
        visible = lambda element_id: browser.find_element(By.ID, element_id).is_displayed()
        check("admin without a token shows only the sign-in", visible("login") and not visible("dashboard"))
        browser.find_element(By.ID, "token").send_keys("not-the-token" + Keys.ENTER)
        check("a wrong token is refused", wait_for(lambda: visible("login-error") and not visible("dashboard"), 5))
        token_box = browser.find_element(By.ID, "token")
        token_box.clear()
        token_box.send_keys(ADMIN_TOKEN + Keys.ENTER)
        check("with the token the dashboard opens", wait_for(lambda: visible("dashboard") and not visible("login"), 5))
        number = lambda element_id: browser.find_element(By.ID, element_id).text
        check("it shows the open connections by transport",
              wait_for(lambda: number("c-sse") == "1" and number("c-tcp") == "1", 5),
              f"sse {number('c-sse')}, tcp {number('c-tcp')}")
        for index in range(12):
            server.publish("leia", f"traffic for the chart {index}")
            time.sleep(0.25)
        store = number("store")
        check("the store tile shows its size and ids, nothing refused",
              " ids" in store and "refused" not in store and "failing" not in store
              and "alarm" not in (browser.find_element(By.ID, "store").get_attribute("class") or ""), store)
        users = browser.find_element(By.ID, "users").text
        check("it lists users online with their transports", "han" in users and "tcp" in users and "luke" in users, users.replace("\n", " | "))
        browser.find_element(By.ID, "system-text").send_keys("Maintenance at noon" + Keys.ENTER)
        check("a system message posted from the dashboard reaches a TCP client", tcp.wait_for_line("system:Maintenance at noon", 5))
        check("the chart is drawn", wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline")) >= 2, 5))
        if screenshots:
            browser.set_window_size(1280, 1180)
            browser.execute_script("window.scrollTo(0, 0); document.activeElement.blur()")
            time.sleep(1.2)
            browser.save_screenshot(os.path.join(screenshots, "admin.png"))

        doomed = server.publish("mallory", "a message to be deleted")
        chat_tab, admin_tab = browser.window_handles[0], browser.window_handles[1]
        browser.switch_to.window(chat_tab)
        check("the chat page shows it first", wait_for(lambda: "a message to be deleted" in texts(), 5))
        browser.switch_to.window(admin_tab)
        browser.find_element(By.ID, "delete-id").send_keys(str(doomed["id"]) + Keys.ENTER)
        check("the dashboard deletes a message", wait_for(lambda: "Deleted message" in browser.find_element(By.ID, "action-result").text, 5))
        browser.switch_to.window(chat_tab)
        check("the chat page removes a deleted message", wait_for(lambda: "a message to be deleted" not in texts(), 5))
        browser.switch_to.window(admin_tab)
        browser.find_element(By.ID, "kick-user").send_keys("han" + Keys.ENTER)
        check("the dashboard kicks a user off every transport",
              wait_for(lambda: "Closed 1 connection of han" in browser.find_element(By.ID, "action-result").text, 5)
              and wait_for(lambda: tcp_closed(tcp), 5))
        check("one node on SQLite: no nodes panel", not visible("nodes-panel"))

        # --- two nodes on PostgreSQL: the dashboard of one lists both
        postgres = os.environ.get("SWITCHBOARD_TEST_POSTGRES")
        if postgres:
            database = fresh_database(postgres, "sb_browser_")
            first, second = Server(binary, database), Server(binary, database)
            try:
                watcher = LineClient(second.tcp, "wedge")
                browser.get(f"{first.base}/admin")
                browser.find_element(By.ID, "token").send_keys(ADMIN_TOKEN + Keys.ENTER)
                nodes_text = lambda: browser.find_element(By.ID, "nodes").text
                check("on PostgreSQL the dashboard lists every node",
                      wait_for(lambda: visible("nodes-panel") and len(nodes_text().splitlines()) == 2, 10),
                      nodes_text().replace("\n", " | "))
                check("with the other node's connections and this one marked",
                      wait_for(lambda: "tcp 1" in nodes_text() and "(this one)" in nodes_text(), 10), nodes_text())
                check("and users online on the other node",
                      wait_for(lambda: "wedge" in browser.find_element(By.ID, "users").text, 5))
                if screenshots:
                    browser.save_screenshot(os.path.join(screenshots, "admin-nodes.png"))
            finally:
                first.stop()
                second.stop()
        else:
            print("two nodes on PostgreSQL: skipped (SWITCHBOARD_TEST_POSTGRES not set)")


        # --- the live comparison page
        browser.switch_to.window(browser.window_handles[0])
        browser.get(f"{server.base}/compare")
        def filled():
            rows = browser.find_elements(By.CSS_SELECTOR, "#arrivals tr")
            done = [r for r in rows if not r.find_elements(By.CSS_SELECTOR, "td.waiting")]
            return len(done) >= 3
        check("the compare page shows messages arriving on all four transports", wait_for(filled, 10))
        short_total = browser.find_element(By.ID, "t-short-poll").text
        sse_total = browser.find_element(By.ID, "t-sse").text
        socket_total = browser.find_element(By.ID, "t-websocket").text
        check("with running totals of requests and bytes per transport",
              short_total.split(" · ")[0] not in ("0", "1") and sse_total.startswith("1 · ") and socket_total.startswith("1 · "),
              f"short-poll {short_total}, sse {sse_total}, websocket {socket_total}")
        if screenshots:
            browser.execute_script("document.getElementById('auto').checked = false")
            time.sleep(0.5)
            browser.save_screenshot(os.path.join(screenshots, "compare-live.png"))

        # --- accounts: register, sign in, chat, reload (still signed in), sign out
        browser.switch_to.window(browser.window_handles[0])
        watcher = LineClient(server.tcp, "finn")  # han was kicked above
        browser.get(f"{server.base}/")
        wait_for(lambda: browser.find_element(By.ID, "join-password").is_displayed(), 5)
        name = browser.find_element(By.ID, "join-name")
        name.clear()
        name.send_keys("rey")
        browser.find_element(By.ID, "join-password").send_keys("a long enough password")
        browser.find_element(By.ID, "register").click()
        signed_in = lambda: browser.find_element(By.ID, "whoami").is_displayed() and browser.find_element(By.ID, "account-name").text == "rey"
        check("registering signs the page in, under that name", wait_for(signed_in, 5))
        browser.find_element(By.ID, "join-signed-in").click()
        check("a signed-in user's stream is live", wait_for(lambda: browser.find_element(By.ID, "status").text == "live", 10))
        browser.find_element(By.ID, "text").send_keys("signed in and typing\n")
        check("a signed-in user's message reaches a TCP client as theirs", watcher.wait_for_line("rey:signed in and typing", 5))
        people = lambda: browser.find_element(By.ID, "people").text
        check("presence shows the signed-in name", wait_for(lambda: "rey" in people(), 5), people())
        browser.refresh()
        check("after a reload the page is still signed in", wait_for(signed_in, 5))
        # A second browser profile (no cookie) cannot post under that name.
        other = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            other.get(f"{server.base}/?user=rey&room=lobby&transport=long-poll")
            wait_for(lambda: other.find_element(By.ID, "chat").is_displayed(), 5)
            other.find_element(By.ID, "text").send_keys("an impostor speaks\n")
            refused = wait_for(lambda: other.find_element(By.ID, "error").is_displayed()
                               and "registered" in other.find_element(By.ID, "error").text, 5)
            check("another profile cannot post as a registered name", bool(refused)
                  and not watcher.wait_for_line("rey:an impostor speaks", 1), other.find_element(By.ID, "error").text)
            if screenshots:
                other.save_screenshot(os.path.join(screenshots, "chat-name-reserved.png"))
        finally:
            other.quit()
        if screenshots:
            browser.save_screenshot(os.path.join(screenshots, "chat-signed-in.png"))
        browser.find_element(By.ID, "sign-out").click()
        def signed_out():
            try:  # the page reloads: its elements come and go
                return (browser.find_element(By.ID, "join-password").is_displayed()
                        and not browser.find_element(By.ID, "whoami").is_displayed())
            except Exception:
                return False
        check("signing out returns to the join form, as a guest", wait_for(signed_out, 5))
        check("the session is gone from the browser",
              wait_for(lambda: browser.execute_script("return fetch('/api/me').then(r => r.status)") == 401, 5))

        # --- accounts and bans on the dashboard (this server's: the admin tab may show another's by now)
        browser.get(f"{server.base}/admin")
        if wait_for(lambda: visible("login"), 2):
            browser.find_element(By.ID, "token").send_keys(ADMIN_TOKEN + Keys.ENTER)
        wait_for(lambda: visible("dashboard"), 5)
        accounts_text = lambda: browser.find_element(By.ID, "accounts").text
        check("the dashboard lists accounts", wait_for(lambda: "rey" in accounts_text(), 7), accounts_text())
        browser.find_element(By.ID, "ban-user").send_keys("finn")
        browser.find_element(By.CSS_SELECTOR, "#ban button").click()
        check("a ban from the dashboard closes that user's connections",
              watcher.wait_for_line("error:banned", 5) and wait_for(lambda: tcp_closed(watcher), 5))
        check("and lists the ban with a way to lift it", wait_for(lambda: "finn" in accounts_text() and "Lift ban" in accounts_text(), 7))
        if screenshots:
            browser.save_screenshot(os.path.join(screenshots, "admin-accounts.png"))
        # The table is redrawn every 5 s: click in one script, not through a found element.
        browser.execute_script("""for (const row of document.querySelectorAll('#accounts tr'))
                                    if (row.cells[0].textContent === 'finn') row.querySelector('button').click();""")
        check("lifting it from the dashboard", wait_for(lambda: "finn" not in accounts_text(), 7), accounts_text())

        # --- the messenger: two signed-in users in two browser profiles
        messenger_checks(server, options, check, screenshots)

        # --- photos, video and voice
        media_checks(server, options, check, screenshots)

        # --- replies, reactions, edits, unsends, locations
        acts_checks(server, options, check, screenshots, wait_for, LineClient, sign_up)
        outbox_checks(server, options, check, screenshots, wait_for, sign_up)
        push_checks(server, options, check, wait_for, sign_up)
        backend_checks(Server, binary, ADMIN_TOKEN, options, check, wait_for)
        cross_origin_checks(Server, binary, browser, check, wait_for)

        # --- under --auth required the page offers signing in, not a guest join
        required = Server(binary, extra=("--auth", "required"))
        try:
            browser.get(f"{required.base}/")
            check("under --auth required the page offers no guest join",
                  wait_for(lambda: not browser.find_element(By.ID, "join-guest").is_displayed()
                           and browser.find_element(By.ID, "sign-in").is_displayed(), 5))
        finally:
            required.stop()

        # --- the page over https (and its stream, and wss), with a throwaway certificate
        folder = scratch_folder("switchboard-browser-tls-", lambda: not all(results))
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", os.path.join(folder, "key.pem"),
                        "-out", os.path.join(folder, "cert.pem")], check=True, capture_output=True)
        secure = Server(binary, extra=("--tls-cert", os.path.join(folder, "cert.pem"), "--tls-key", os.path.join(folder, "key.pem")))
        tls_options = webdriver.ChromeOptions()
        tls_options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860",
                         "--disable-gpu", "--no-first-run", "--disable-extensions", "--ignore-certificate-errors"):
            tls_options.add_argument(argument)
        over_tls = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=tls_options)
        try:
            for transport in ("sse", "websocket"):
                over_tls.get(f"{secure.base}/?user=poe&room=lobby&transport={transport}")
                check(f"over https the page's {transport} is live",
                      wait_for(lambda: over_tls.find_element(By.ID, "status").text.startswith("live"), 10))
                over_tls.find_element(By.ID, "text").send_keys(f"typed over {transport} and TLS\n")
                check(f"a message typed over https ({transport}) is shown",
                      wait_for(lambda: any(f"typed over {transport} and TLS" in e.text for e in
                                           over_tls.find_elements(By.CSS_SELECTOR, "#messages .message:not(.outgoing) .text")), 5))
        finally:
            over_tls.quit()
            secure.stop()
    finally:
        browser.quit()
        server.stop()
    passed = sum(results)
    print(f"browser: {passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
