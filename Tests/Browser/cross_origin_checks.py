"""An application on another site (`--allowed-origin`) using the API from the browser: a page
served from a second origin signs in, reads, sends exactly once, edits, reacts, unsends, streams
and opens a WebSocket, every call through the browser's CORS checks (preflights included). A
page on a third origin, not allowed, may not read what it asks."""
import http.server
import threading
import urllib.request

from checks import free_port

# The page: every call's outcome, in order, in window.outcomes; the title says when it is done.
PAGE = """<!doctype html><title>running</title><script>
const api = new URLSearchParams(location.search).get("api");
window.outcomes = {};
async function call(name, method, path, body, headers) {
  try {
    const response = await fetch(api + path, {method, body, headers});
    const text = await response.text();
    window.outcomes[name] = response.status;
    return text ? JSON.parse(text) : null;
  } catch (error) { window.outcomes[name] = "refused: " + error; return null; }
}
async function run() {
  const json = {"Content-Type": "application/json"};
  const session = await call("sign in", "POST", "/api/sessions", JSON.stringify({user: "rey", password: "a long enough password"}), json);
  if (!session) { document.title = "done"; return; }
  const auth = {"Authorization": "Bearer " + session.token};
  await call("me", "GET", "/api/me", null, auth);
  const once = {...auth, ...json, "Idempotency-Key": "cross-origin-1"};
  const sent = await call("publish", "POST", "/api/rooms/lobby/messages", JSON.stringify({text: "from another site"}), once);
  const again = await call("publish again", "POST", "/api/rooms/lobby/messages", JSON.stringify({text: "from another site"}), once);
  window.outcomes["sent once"] = sent && again && sent.id === again.id;
  if (sent) {
    await call("edit", "PATCH", "/api/rooms/lobby/messages/" + sent.id, JSON.stringify({text: "edited from another site"}), {...auth, ...json});
    await call("react", "PUT", "/api/rooms/lobby/messages/" + sent.id + "/reactions/%F0%9F%91%8D", null, auth);
  }
  const streamed = await new Promise(resolve => {
    const source = new EventSource(api + "/api/rooms/lobby/events?since=0&access_token=" + encodeURIComponent(session.token));
    source.addEventListener("message", () => { source.close(); resolve(true); });
    source.onerror = () => { source.close(); resolve(false); };
    setTimeout(() => { source.close(); resolve(false); }, 5000);
  });
  window.outcomes["stream"] = streamed;
  const socketed = await new Promise(resolve => {
    const socket = new WebSocket(api.replace("http", "ws") + "/api/rooms/lobby/ws?access_token=" + encodeURIComponent(session.token));
    socket.onopen = () => { socket.close(); resolve(true); };
    socket.onerror = () => resolve(false);
    setTimeout(() => resolve(false), 5000);
  });
  window.outcomes["websocket"] = socketed;
  if (sent) await call("unsend", "DELETE", "/api/rooms/lobby/messages/" + sent.id, null, auth);
  document.title = "done";
}
run();
</script>"""


class _Site:
    """A page of another site, on a port of its own (an origin of its own)."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = PAGE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def cross_origin_checks(Server, binary, browser, check, wait_for):
    allowed, other = _Site(), _Site()
    server = Server(binary, extra=("--allowed-origin", allowed.origin))
    try:
        sign_up = urllib.request.Request(f"{server.base}/api/accounts", method="POST",
                                        data=b'{"user":"rey","password":"a long enough password"}',
                                        headers={"Content-Type": "application/json"})
        urllib.request.urlopen(sign_up, timeout=5).read()

        def outcomes(site):
            browser.get(f"{site.origin}/app.html?api={server.base}")
            wait_for(lambda: browser.title == "done", 20)
            return browser.execute_script("return window.outcomes")

        got = outcomes(allowed)
        for name, wanted in (("sign in", 201), ("me", 200), ("publish", 201), ("publish again", 200), ("sent once", True),
                             ("edit", 200), ("react", 200), ("stream", True), ("websocket", True), ("unsend", 204)):
            check(f"a page on an allowed origin: {name}", got.get(name) == wanted, f"{got.get(name)}")
        refused = outcomes(other)
        check("a page on an origin not allowed cannot read even its sign-in",
              str(refused.get("sign in", "")).startswith("refused"), f"{refused}")
    finally:
        server.stop()
        allowed.stop()
        other.stop()
