"""What people do to messages, in the chat page (acts.js): a reply with its quote and a
thread view, reactions under a message, an edit and an unsend in place, a shared location
as a geo: link, each seen on a second page and by a raw TCP client; a reload shows every
message as it stands. Called by chat_page_test.py with its server and helpers."""
import json
import os
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def acts_checks(server, options, check, screenshots, wait_for, line_client, sign_up):
    def item(browser, text):
        """The id of the message (li) whose text is `text`."""
        return browser.execute_script("""for (const li of document.querySelectorAll('#messages li.message:not(.outgoing)'))
                                           if (li.querySelector('.text')?.textContent === arguments[0]) return li.dataset.id;
                                         return null;""", text)

    def shown(browser, message_id):
        return browser.execute_script("return document.querySelector(`#messages li[data-id='${arguments[0]}']`)?.innerText || ''",
                                      message_id)

    def act(browser, message_id, name):
        browser.execute_script("document.querySelector(`#messages li[data-id='${arguments[0]}'] [data-act='${arguments[1]}']`).click()",
                               message_id, name)

    ahsoka = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    rex = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    tcp = line_client(server.tcp, "echo")
    tcp.socket.sendall(b"join:acts\n")
    try:
        check("acts: two people in a room, over SSE and WebSocket",
              bool(sign_up(ahsoka, server, "ahsoka", "sse", "acts")) and bool(sign_up(rex, server, "rex", "websocket", "acts")))
        ahsoka.find_element(By.ID, "text").send_keys("the plan is simple\n")
        plan = wait_for(lambda: item(rex, "the plan is simple"), 5)
        act(rex, plan, "reply")
        check("Reply shows what the next message answers", wait_for(lambda: rex.find_element(By.ID, "replying").is_displayed()
                                                                      and "ahsoka" in rex.find_element(By.ID, "replying").text, 5))
        rex.find_element(By.ID, "text").send_keys("count me in\n")
        check("the reply shows with a quote of what it answers, on both pages",
              wait_for(lambda: "↪ ahsoka: the plan is simple" in shown(ahsoka, item(ahsoka, "count me in") or 0)
                       and "↪ ahsoka: the plan is simple" in shown(rex, item(rex, "count me in") or 0), 5))
        check("raw TCP sees 'rex (reply to ahsoka):count me in'", tcp.wait_for_line("rex (reply to ahsoka):count me in", 5))
        check("the original counts its reply", wait_for(lambda: "1 reply" in shown(ahsoka, plan), 5), shown(ahsoka, plan))
        act(ahsoka, plan, "thread")
        check("the thread view lists every reply",
              wait_for(lambda: "rex: count me in" in ahsoka.find_element(By.ID, "thread-messages").text, 5))
        ahsoka.find_element(By.ID, "thread-text").send_keys("see you at dawn\n")
        check("a reply from the thread joins it and shows on the other page",
              wait_for(lambda: "ahsoka: see you at dawn" in ahsoka.find_element(By.ID, "thread-messages").text
                       and "2 replies" in shown(rex, plan), 5), shown(rex, plan))

        act(rex, plan, "react")
        rex.execute_script("document.querySelector('.picker button[data-emoji=\"👍\"]').click()")
        check("a reaction shows under the message on the other page", wait_for(lambda: "👍 1" in shown(ahsoka, plan), 5))
        ahsoka.execute_script("document.querySelector(`#messages li[data-id='${arguments[0]}'] .reaction`).click()", plan)
        check("clicking it adds one's own", wait_for(lambda: "👍 2" in shown(rex, plan), 5), shown(rex, plan))
        check("raw TCP sees 'rex reacted 👍'", tcp.wait_for_line("rex reacted 👍", 5))
        rex.execute_script("document.querySelector(`#messages li[data-id='${arguments[0]}'] .reaction`).click()", plan)
        check("clicking one's own takes it back", wait_for(lambda: "👍 1" in shown(ahsoka, plan) and "👍 1" in shown(rex, plan), 5))

        act(ahsoka, plan, "edit")
        box = ahsoka.find_element(By.CSS_SELECTOR, ".edit-box")
        box.clear()
        box.send_keys("the plan is simple: north gate\n")
        check("an edit shows in place, marked, on both pages",
              wait_for(lambda: "the plan is simple: north gate" in shown(rex, plan) and "(edited)" in shown(rex, plan)
                       and "(edited)" in shown(ahsoka, plan), 5), shown(rex, plan))
        check("raw TCP sees 'ahsoka edited:…'", tcp.wait_for_line("ahsoka edited:the plan is simple: north gate", 5))

        reply = item(rex, "count me in")
        rex.execute_script("window.confirm = () => true")
        act(rex, reply, "unsend")
        check("an unsend shows in place on both pages",
              wait_for(lambda: "This message was unsent." in shown(ahsoka, reply) and "count me in" not in shown(ahsoka, reply)
                       and "This message was unsent." in shown(rex, reply), 5), shown(ahsoka, reply))
        check("raw TCP sees 'rex unsent a message'", tcp.wait_for_line("rex unsent a message", 5))

        body = json.dumps({"user": "hera", "text": "", "location": {"lat": 51.5007, "lon": -0.1246, "accuracy": 12}}).encode()
        request = urllib.request.Request(f"{server.base}/api/rooms/acts/messages", data=body,
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=5).read()
        link = lambda: ahsoka.execute_script("return document.querySelector('#messages a.location')?.getAttribute('href') || ''")
        check("a shared location shows as a geo: link", wait_for(lambda: link().startswith("geo:51.5007,-0.1246"), 5), link())
        if screenshots:
            ahsoka.save_screenshot(os.path.join(screenshots, "acts.png"))

        ahsoka.get(f"{server.base}/?room=acts&transport=sse")
        wait_for(lambda: ahsoka.find_element(By.ID, "join-signed-in").is_displayed(), 5)
        ahsoka.execute_script("document.getElementById('join-signed-in').click()")
        check("after a reload every message stands as the acts left it",
              wait_for(lambda: "the plan is simple: north gate" in shown(ahsoka, plan) and "👍 1" in shown(ahsoka, plan)
                       and "2 replies" in shown(ahsoka, plan) and "This message was unsent." in shown(ahsoka, reply), 10),
              shown(ahsoka, plan))
    finally:
        ahsoka.quit()
        rex.quit()
        tcp.socket.close()
