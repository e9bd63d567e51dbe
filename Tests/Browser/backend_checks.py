"""The admin dashboard's Webhooks tile, with a server that tells a backend on loopback
(Tests/Hooks/backend.py, which checks every signature) and asks its publish hook: after a
publish and a denied one, the tile shows what was delivered and the hook's verdicts. Called by
chat_page_test.py with its Server class and helpers."""
import json
import os
import sys
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Hooks"))
from backend import Backend  # noqa: E402


def backend_checks(server_class, binary, admin_token, options, check, wait_for):
    backend = Backend("browser-secret")
    server = server_class(binary, extra=("--webhook", f"http://127.0.0.1:{backend.port}/events", "--webhook-secret", "browser-secret",
                                         "--publish-hook", f"http://127.0.0.1:{backend.port}/hook"))
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for text in ("hello backend", "deny this"):
            request = urllib.request.Request(f"{server.base}/api/rooms/lobby/messages", method="POST",
                                             data=json.dumps({"user": "wedge", "text": text}).encode(), headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request, timeout=5).read()
            except urllib.error.HTTPError:
                pass
        browser.get(f"{server.base}/admin")
        browser.find_element(By.ID, "token").send_keys(admin_token + Keys.ENTER)
        tile = lambda: browser.find_element(By.ID, "backend").text if browser.find_element(By.ID, "backend-tile").is_displayed() else ""
        check("the dashboard's Webhooks tile shows deliveries and the hook's verdicts",
              wait_for(lambda: "1 delivered" in tile() and "1 allowed" in tile() and "1 denied" in tile(), 15), tile())
        check("the backend found every request signed", not backend.problems, backend.problems)
    finally:
        browser.quit()
        server.stop()
        backend.stop()
