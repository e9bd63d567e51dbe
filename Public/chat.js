// Switchboard web chat: one conversation through SSE, WebSocket, long-poll or short-poll,
// with a live account of what the chosen transport costs. Plain JS, no build.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const encoder = new TextEncoder();
  const KINDS = ["message", "join", "leave", "system", "delete", "edit", "reaction"];

  const state = {
    account: null,       // the signed-in user (the session cookie), or null for a guest
    user: null,
    room: null,
    since: 0,            // the last id seen: every transport resumes after it
    seen: new Set(),     // ids already shown, so an overlap is never shown twice
    clientIDs: new Set(),// client ids of the messages shown: the outbox's line becomes the stored message
    generation: 0,       // bumped on every transport switch; old loops stop
    stop: () => {},
    stats: null,
    socket: null,        // the open WebSocket, when that is the transport
    acks: new Map(),     // ref -> {resolve, reject} of publishes sent over it
    nextRef: 1,
    publicRoom: "lobby", // the public room joined from the form; conversations open beside it
  };

  // Conversations (signed-in users): messenger.js, told of every message and notice.
  const messenger = window.Messenger({
    state, getJSON, errorText, showError, setStatus, openRoom, prepend,
    stopTransport: () => { state.generation += 1; state.stop(); state.stop = () => {}; },
    sendOverSocket: (object) => {
      if (currentTransport() !== "websocket" || !state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
      state.socket.send(JSON.stringify(object));
      return true;
    },
  });
  let messengerStarted = false;
  // Web Push (notifications.js): on and off, for a signed-in user.
  const notifications = window.Notifications({ button: $("notifications"), showError, openRoom });
  // What the user typed and the server does not have yet (outbox.js): kept across reloads, sent in order.
  const outbox = window.Outbox({
    user: () => state.user,
    send: sendEntry,
    sent: (entry) => {
      const item = outgoing(entry.client_id);
      if (item) setDelivery(item, "sent");
    },
    failed: (entry, message) => {
      const item = outgoing(entry.client_id);
      if (item) setDelivery(item, `not sent: ${message}`, "failed");
      showError(`Not sent: ${message}`);
    },
  });
  // Photos, video and voice (attachments.js): uploads, the record button, and how media are drawn.
  const attachments = window.Attachments({
    canAttach: () => Boolean(state.account), showError, errorText, send,
  });
  // Replies, edits, unsends, reactions and locations (acts.js): each act applied to the message it names.
  const acts = window.Acts({
    state, showError, errorText, getJSON, publish, redraw,
    me: () => state.user,
    overSocket: (command) => currentTransport() === "websocket" && state.socket && state.socket.readyState === WebSocket.OPEN
      ? overSocket(command) : null,
  });

  // ---- joining -------------------------------------------------------------

  const params = new URLSearchParams(location.search);
  $("join-name").value = params.get("user") || localStorage.getItem("switchboard.user") || "";
  $("join-room").value = params.get("room") || localStorage.getItem("switchboard.room") || "lobby";
  const wanted = params.get("transport");
  if (wanted) {
    const radio = document.querySelector(`input[name=transport][value="${CSS.escape(wanted)}"]`);
    if (radio) radio.checked = true;
  }

  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    state.user = state.account || $("join-name").value.trim();
    state.room = $("join-room").value.trim();
    if (!state.user || !state.room) return;
    if (!messenger.isConversation(state.room)) state.publicRoom = state.room;
    localStorage.setItem("switchboard.user", state.user);
    localStorage.setItem("switchboard.room", state.room);
    start();
  });
  // ---- accounts: the session is an HttpOnly cookie the server sets; the
  // page only asks who it is (/api/me), and every request carries it.

  async function refreshAccount() {
    try {
      const response = await fetch("/api/me");
      state.account = response.ok ? (await response.json()).user : null;
    } catch (_) {
      state.account = null;
    }
    $("whoami").hidden = !state.account;
    $("account-name").textContent = state.account || "";
    $("signed-in").hidden = !state.account;
    $("signed-out").hidden = !!state.account;
    $("join-name").readOnly = !!state.account;
    if (state.account) $("join-name").value = state.account;
  }

  async function postJSON(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (response.ok) return response;
    let message = `HTTP ${response.status}`;
    try { message = (await response.json()).error.message; } catch (_) {}
    throw new Error(message);
  }

  async function signIn(register) {
    $("join-error").hidden = true;
    const user = $("join-name").value.trim(), password = $("join-password").value;
    try {
      if (register) await postJSON("/api/accounts", { user, password });
      await postJSON("/api/sessions", { user, password });
      $("join-password").value = "";
      await refreshAccount();
    } catch (error) {
      $("join-error").textContent = error.message;
      $("join-error").hidden = false;
    }
  }

  $("sign-in").addEventListener("click", () => signIn(false));
  $("register").addEventListener("click", () => signIn(true));
  $("sign-out").addEventListener("click", async () => {
    await notifications.signOut();
    await fetch("/api/sessions/current", { method: "DELETE" }).catch(() => {});
    state.stop();
    location.reload();
  });

  refreshAccount().then(() => {
    if ((params.get("user") || state.account) && params.get("room")) $("join").requestSubmit();
  });

  // The join hint names the raw TCP port this server really listens on.
  getJSON("/healthz").then((health) => {
    // Under --auth required a guest cannot join: offer only signing in.
    if (health.auth === "required") $("join-guest").hidden = true;
    const nc = $("nc-hint");
    if (!nc) return;
    if (health.tcp_port) nc.textContent = `nc ${location.hostname} ${health.tcp_port}`;
    else nc.parentElement.hidden = true;
  }).catch(() => {});

  async function start() {
    $("join").hidden = true;
    $("chat").hidden = false;
    $("room-title").textContent = `#${state.room}`;
    document.title = `#${state.room} · Switchboard`;
    resetStats();
    if (state.account && !messengerStarted) {
      messengerStarted = true;
      messenger.start(state.account);
      notifications.start();
    }
    let oldest = null;
    try {
      const page = await getJSON(`/api/rooms/${encodeURIComponent(state.room)}/messages?limit=100`);
      page.messages.forEach((message) => deliver(message, false));
      state.since = Math.max(state.since, page.next);
      if (page.messages.length === 100) oldest = page.messages[0].id;  // fewer: the whole history is shown
    } catch (error) {
      showError(`Could not load the history: ${error.message}`);
    }
    for (const entry of outbox.waiting(state.room)) {
      if (!state.clientIDs.has(entry.client_id) && !outgoing(entry.client_id)) showOutgoing(entry);
    }
    outbox.flush();
    messenger.roomOpened(state.room, oldest);
    refreshPresence();
    useTransport(currentTransport());
    $("text").focus();
  }

  /** Opens another room (a conversation, or back to the public one) on the same transport. */
  function openRoom(room) {
    if (room === state.room) return;
    state.generation += 1;
    state.stop();
    state.stop = () => {};
    state.room = room;
    state.since = 0;
    state.seen.clear();
    state.clientIDs.clear();
    acts.reset();
    $("messages").replaceChildren();
    $("people").replaceChildren();
    showError(null);
    start();
  }

  /** Older messages, above those shown, keeping the view where it was. */
  function prepend(messages) {
    const list = $("messages");
    const fromBottom = list.scrollHeight - list.scrollTop;
    for (const message of [...messages].reverse()) {
      if (state.seen.has(message.id) || message.kind === "delete" || acts.isAct(message)) continue;
      state.seen.add(message.id);
      acts.take(message);
      render(message, true);
    }
    list.scrollTop = list.scrollHeight - fromBottom;
  }

  // ---- transports ----------------------------------------------------------

  function currentTransport() {
    return document.querySelector("input[name=transport]:checked").value;
  }

  document.querySelectorAll("input[name=transport]").forEach((radio) =>
    radio.addEventListener("change", () => {
      state.fellBack = null;  // the user's own choice: tried afresh
      if (state.room) useTransport(currentTransport());
    }));
  $("interval").addEventListener("change", () => state.room && currentTransport() === "short-poll" && useTransport("short-poll"));

  function useTransport(kind) {
    state.stop();
    // What the server knows, once the new transport has connected (a switch
    // publishes no join: the user is present already).
    setTimeout(refreshPresence, 1000);
    state.generation += 1;
    resetStats();
    state.stats.transport = kind;
    const generation = state.generation;
    if (kind === "sse") state.stop = startSSE(generation);
    else if (kind === "websocket") state.stop = startWebSocket(generation);
    else state.stop = startPolling(generation, kind === "long-poll");
    renderCost();
  }

  // A guest names itself; a signed-in user is named by its session.
  function presenceQuery() {
    return state.account ? "" : `user=${encodeURIComponent(state.user)}`;
  }

  /** "live …", and why it is not the transport chosen when the page fell back. */
  function showLive(text) {
    setStatus(state.fellBack ? `${text} · ${state.fellBack}` : text, "live");
  }

  /** A transport connected: say so, and send what the outbox holds. */
  function connected(text) {
    state.stats.requests += 1;
    showLive(text);
    renderCost();
    outbox.flush();
  }

  // Falling back, as Socket.IO and SockJS do: a transport that has never connected while the
  // server answers plain HTTP (/healthz) is refused on the way (a proxy that drops upgrades or
  // buffers streams), so the page moves to the next one. A server that does not answer at all
  // is down, not refusing: the page keeps trying the chosen transport, with backoff.
  const FALLBACK = { websocket: "sse", sse: "long-poll" };
  const NAMES = { websocket: "WebSocket", sse: "SSE", "long-poll": "long-poll" };

  /** True (and the next transport started) when `kind` cannot connect but the server is up. */
  async function fallBack(kind, generation) {
    const next = FALLBACK[kind];
    if (!next) return false;
    try {
      const response = await fetch("/healthz", { cache: "no-store" });
      if (!response.ok) return false;
    } catch (_) {
      return false;
    }
    if (generation !== state.generation) return true;
    state.fellBack = `${NAMES[kind]} could not connect`;
    document.querySelector(`input[name=transport][value="${next}"]`).checked = true;
    useTransport(next);
    return true;
  }

  // SSE, reconnected here rather than by EventSource itself, so that it backs off with jitter
  // like the others and can fall back; each new stream resumes after the last id shown.
  function startSSE(generation) {
    let source = null, attempt = 0, opened = false, timer = null;
    const connect = () => {
      if (generation !== state.generation) return;
      source = new EventSource(`/api/rooms/${encodeURIComponent(state.room)}/events?since=${state.since}&${presenceQuery()}`);
      source.onopen = () => {
        opened = true;
        attempt = 0;
        connected("live");
      };
      source.onerror = async () => {
        source.close();
        if (generation !== state.generation) return;
        setStatus("reconnecting…", "down");
        if (!opened && attempt >= 1 && await fallBack("sse", generation)) return;
        timer = setTimeout(connect, window.backoff(attempt++));
      };
      for (const kind of KINDS) {
        source.addEventListener(kind, (event) => {
          state.stats.bytes += encoder.encode(`id: ${event.lastEventId}\nevent: ${event.type}\ndata: ${event.data}\n\n`).length;
          deliver(JSON.parse(event.data), true);
        });
      }
      // Notices: never stored, no id (so no Last-Event-ID moves); what polling cannot carry.
      for (const kind of ["typing", "read"]) {
        source.addEventListener(kind, (event) => messenger.onNotice(kind, JSON.parse(event.data)));
      }
    };
    connect();
    return () => {
      clearTimeout(timer);
      if (source) source.close();
    };
  }

  // A WebSocket does not reconnect by itself: on close, try again with backoff and jitter,
  // resuming after the last id seen, as an iOS SocketRocket client does by hand. Publishes go
  // over the socket and wait for their {"ack":ref}; a {"ping":..} every 20 s shows a dead link.
  function startWebSocket(generation) {
    let attempt = 0, opened = false, socket = null, heartbeat = null, timer = null, lastPong = Date.now();
    const room = encodeURIComponent(state.room);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const failAcks = (reason) => {
      state.acks.forEach(({ reject }) => reject(new Error(reason)));
      state.acks.clear();
    };
    const connect = () => {
      if (generation !== state.generation) return;
      socket = new WebSocket(`${scheme}//${location.host}/api/rooms/${room}/ws?since=${state.since}&${presenceQuery()}`);
      socket.onopen = () => {
        opened = true;
        attempt = 0;
        lastPong = Date.now();
        state.socket = socket;
        connected("live (WebSocket)");
        heartbeat = setInterval(() => {
          if (Date.now() - lastPong > 45000) return socket.close();
          socket.send(JSON.stringify({ ping: Date.now() }));
        }, 20000);
      };
      socket.onmessage = (event) => {
        state.stats.bytes += encoder.encode(event.data).length;
        const data = JSON.parse(event.data);
        if ("pong" in data) { lastPong = Date.now(); return; }
        if ("typing" in data || "read" in data) {
          const kind = "typing" in data ? "typing" : "read";
          return messenger.onNotice(kind, data[kind]);
        }
        const waiting = state.acks.get(data.ref ?? data.ack);
        if ("ack" in data || ("error" in data && waiting)) {
          state.acks.delete(data.ref ?? data.ack);
          if (waiting) "ack" in data ? waiting.resolve(data) : waiting.reject(refusal(data.error));
          return;
        }
        if ("error" in data) return showError(data.error.message);
        deliver(data, true);
      };
      socket.onclose = async () => {
        clearInterval(heartbeat);
        if (state.socket === socket) state.socket = null;
        failAcks("the connection closed before the message was acknowledged");
        if (generation !== state.generation) return;
        setStatus("reconnecting…", "down");
        if (!opened && attempt >= 1 && await fallBack("websocket", generation)) return;
        timer = setTimeout(connect, window.backoff(attempt++));
      };
    };
    connect();
    return () => {
      clearTimeout(timer);
      clearInterval(heartbeat);
      if (socket) socket.close(1000);
      state.socket = null;
    };
  }

  /** Sends `command` over the open socket; resolves with its {"ack"}, rejects with its error. */
  function overSocket(command) {
    const ref = state.nextRef++;
    return new Promise((resolve, reject) => {
      state.acks.set(ref, { resolve, reject });
      state.socket.send(JSON.stringify({ ...command, ref }));
      setTimeout(() => state.acks.delete(ref) && reject(new Error("no acknowledgement within 10 s")), 10000);
    });
  }

  function startPolling(generation, long) {
    const controller = new AbortController();
    const room = encodeURIComponent(state.room);
    (async () => {
      // Until a request of this connection has answered (at first, and after an error), a long
      // poll does not wait: it answers at once, so the page says "live", shows what it missed and
      // sends its outbox now, not when a first 25 s wait ends.
      let attempt = 0, answered = false;
      while (generation === state.generation) {
        const wait = long && answered ? "&wait=25" : "";
        try {
          const started = performance.now();
          const response = await fetch(`/api/rooms/${room}/messages?since=${state.since}${wait}&${presenceQuery()}`,
                                       { signal: controller.signal, cache: "no-store" });
          const body = await response.text();
          if (generation !== state.generation) return;
          if (!response.ok) throw new Error(errorText(body, response.status));
          const page = JSON.parse(body);
          if (!answered) outbox.flush();
          attempt = 0;
          answered = true;
          state.stats.requests += 1;
          state.stats.bytes += encoder.encode(body).length;
          if (page.messages.length === 0) state.stats.empty += 1;
          page.messages.forEach((message) => deliver(message, true));
          state.since = Math.max(state.since, page.next);
          showLive(long ? "live (long-poll)" : `polling every ${$("interval").selectedOptions[0].text.replace("every ", "")}`);
          renderCost();
          if (!long) await sleep(Math.max(0, Number($("interval").value) - (performance.now() - started)));
        } catch (error) {
          if (controller.signal.aborted || generation !== state.generation) return;
          setStatus("reconnecting…", "down");
          answered = false;
          await sleep(window.backoff(attempt++));
        }
      }
    })();
    return () => controller.abort();
  }

  // ---- messages ------------------------------------------------------------

  function deliver(message, live) {
    if (state.seen.has(message.id)) return;
    state.seen.add(message.id);
    state.since = Math.max(state.since, message.id);
    if (message.client_id) state.clientIDs.add(message.client_id);
    if (message.kind === "delete" && !message.target) {
      // The admin's removal: its text is the id of the message removed.
      const gone = $("messages").querySelector(`li[data-id="${CSS.escape(message.text)}"]`);
      if (gone) gone.remove();
      return;
    }
    if (acts.take(message)) return;  // an edit, unsend or reaction: its message redrawn, no line of its own
    render(message);
    messenger.onMessage(message, live);
    if (live) {
      state.stats.latency = Math.max(0, Date.now() - message.ts);
      renderCost();
      messenger.renderReceipts();
    }
    if (live && (message.kind === "join" || message.kind === "leave")) refreshPresence();
  }

  /** Shows `message`: in place of its outbox line when it is one of ours, else above the lines
   *  still being sent (they are the newest), or at the top when paging back. */
  function render(message, atTop) {
    const list = $("messages");
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    const item = build(message);
    if (atTop) return list.prepend(item);
    const mine = message.client_id && outgoing(message.client_id);
    if (mine) mine.replaceWith(item);
    else list.insertBefore(item, list.querySelector("li.outgoing"));
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }

  /** The line of an outbox entry, shown until the stored message takes its place. */
  function outgoing(clientID) {
    return $("messages").querySelector(`li.outgoing[data-client-id="${CSS.escape(clientID)}"]`);
  }

  function showOutgoing(entry) {
    const list = $("messages");
    const item = build({ kind: "message", user: state.user, ts: entry.ts, pending: true, ...entry.fields });
    item.classList.add("outgoing");
    item.dataset.clientId = entry.client_id;
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  /** "sending…", "sent", "read" or why not, beside the time of one of ours. */
  function setDelivery(item, text, kind) {
    const delivery = item.querySelector(".delivery");
    if (!delivery) return;
    delivery.textContent = text;
    delivery.className = `delivery ${kind || text.replace(/\W/g, "")}`;
  }

  /** Draws `message` again in its place (an act changed it). */
  function redraw(message) {
    const old = $("messages").querySelector(`li[data-id="${message.id}"]`);
    if (!old) return;
    const receipt = old.querySelector(".receipt");
    const item = build(message);
    if (receipt) item.append(receipt);
    old.replaceWith(item);
  }

  function build(message) {
    const item = document.createElement("li");
    if (message.id !== undefined) item.dataset.id = message.id;  // an outbox line has none yet
    if (message.kind === "message") {
      item.className = message.user === state.user ? "message mine" : "message";
      const meta = document.createElement("div");
      meta.className = "meta";
      const who = document.createElement("span");
      who.className = "user";
      who.textContent = message.user;
      const when = document.createElement("time");
      when.dateTime = new Date(message.ts).toISOString();
      when.textContent = new Date(message.ts).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      meta.append(who, when);
      if (message.user === state.user && !message.deleted) {
        const delivery = document.createElement("span");
        delivery.className = message.pending ? "delivery sending" : "delivery sent";
        delivery.textContent = message.pending ? "sending…" : "sent";
        meta.append(delivery);
      }
      item.append(meta);
      if (message.pending || message.deleted || message.text || !(message.media || message.location)) {
        const text = document.createElement("div");
        text.className = "text";
        // Always text, never HTML; a line not stored yet says in words what else it carries.
        const extras = message.pending ? [message.media?.length ? `📎 ${message.media.length}` : "", message.location ? "📍" : ""] : [];
        text.textContent = [message.text || "", ...extras].filter(Boolean).join(" ");
        item.append(text);
      }
      if (message.pending) return item;  // no attachments drawn and no acts on it until it is stored
      if (!message.deleted) attachments.render(message, item);
      acts.decorate(message, item);
    } else {
      item.className = message.kind === "system" ? "notice system" : "notice";
      item.textContent = message.kind === "system" ? message.text : `${message.user} ${message.kind === "join" ? "joined" : "left"}`;
    }
    return item;
  }

  async function refreshPresence() {
    try {
      const presence = await getJSON(`/api/rooms/${encodeURIComponent(state.room)}/presence`);
      const people = $("people");
      people.replaceChildren(...presence.users.map((entry) => {
        const item = document.createElement("li");
        item.textContent = entry.user;
        const via = document.createElement("span");
        via.className = "via";
        via.textContent = entry.transports.join(", ");
        item.append(via);
        return item;
      }));
    } catch (_) { /* presence is a nicety; the chat goes on */ }
  }

  // ---- sending -------------------------------------------------------------

  $("text").addEventListener("input", () => messenger.onTyping());
  $("messages").addEventListener("scroll", () => { if ($("messages").scrollTop < 40) messenger.loadOlder(); });

  $("text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      $("compose").requestSubmit();
    }
  });

  $("compose").addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });

  /// Sends what is typed with what is attached (either may be missing, not both).
  async function send() {
    const text = $("text").value;
    const media = attachments.ids();
    if (media === false) return showError("Wait for the upload to finish.");
    if (!text.trim() && media.length === 0) return;
    const fields = { text, ...acts.replyFields() };
    if (media.length) fields.media = media;
    if (await publish(fields)) {
      $("text").value = "";
      attachments.clear();
      acts.cancelReply();
    }
  }

  /** Puts `fields` ({text, media, reply_to, location}) in the outbox for this room, shown as
   *  sending: true, since from here the outbox answers for it. */
  async function publish(fields) {
    showError(null);
    showOutgoing(outbox.add(state.room, fields));
    return true;
  }

  // Codes a later attempt can get past; any other refusal is final for that message.
  const PASSING = new Set(["store_unavailable", "rate_limited", "shutting_down", "hook_unavailable"]);

  /** An Error for a server's {"code","message"}, permanent unless waiting may mend it. */
  function refusal(error, status) {
    const failure = new Error(error?.message || `HTTP ${status}`);
    failure.permanent = status ? status < 500 && status !== 429 && status !== 408 : !PASSING.has(error?.code);
    return failure;
  }

  /** One outbox entry to the server, with its client id: over this room's socket when it is
   *  open, else over HTTP. Resolves with the stored id (a retry's answer is the first one's). */
  async function sendEntry(entry) {
    const fields = { ...entry.fields, client_id: entry.client_id };
    if (entry.room === state.room && state.socket && state.socket.readyState === WebSocket.OPEN) {
      return (await overSocket(fields)).id;
    }
    const response = await fetch(`/api/rooms/${encodeURIComponent(entry.room)}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: entry.user, ...fields }),
      signal: AbortSignal.timeout(15000),
    });
    const body = await response.text();
    if (response.status !== 201 && response.status !== 200) {
      let error = null;
      try { error = JSON.parse(body).error; } catch (_) {}
      throw refusal(error, response.status);
    }
    return JSON.parse(body).id;
  }

  // ---- the cost line -------------------------------------------------------

  function resetStats() {
    state.stats = { transport: currentTransport(), requests: 0, empty: 0, bytes: 0, latency: null };
  }

  function renderCost() {
    const s = state.stats;
    const parts = [
      `<b>${escapeHTML(s.transport)}</b>`,
      `<b>${s.requests}</b> request${s.requests === 1 ? "" : "s"}`,
      `<b>${s.empty}</b> empty answer${s.empty === 1 ? "" : "s"}`,
      `<b>${formatBytes(s.bytes)}</b> received`,
      `last delivery <b>${s.latency === null ? "–" : `${s.latency} ms`}</b>`,
    ];
    // Typing and read receipts expire in seconds: only a push transport carries them.
    if (messenger.isConversation(state.room) && s.transport.endsWith("poll")) parts.push("typing and receipts: <b>not carried</b>");
    $("cost").innerHTML = parts.join(" · ");
  }

  // ---- small helpers -------------------------------------------------------

  async function getJSON(url) {
    const response = await fetch(url, { cache: "no-store" });
    const body = await response.text();
    if (!response.ok) throw new Error(errorText(body, response.status));
    return JSON.parse(body);
  }

  function errorText(body, status) {
    try { return JSON.parse(body).error.message; } catch (_) { return `HTTP ${status}`; }
  }

  function setStatus(text, kind) {
    $("status").textContent = text;
    $("status").className = `status ${kind}`;
  }

  function showError(text) {
    $("error").hidden = !text;
    $("error").textContent = text || "";
  }

  function formatBytes(bytes) {
    return bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(2)} MiB`;
  }

  function escapeHTML(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
})();
