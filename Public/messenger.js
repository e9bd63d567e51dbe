// Switchboard messenger: conversations beside the public rooms, for a signed-in user.
// A sidebar of conversations (unread badges, muted ones dimmed), new group or direct
// message, rename, add, remove, leave, mute, "Read by …" receipts, "… is typing", and
// older pages as the history scrolls up. chat.js owns the room's transport; this file
// is told of every message and notice and asks chat.js to open rooms.
"use strict";

window.Messenger = function Messenger(app) {
  const $ = (id) => document.getElementById(id);
  const isConversation = (room) => /^c\.[0-9]+$/.test(room || "");
  const m = {
    me: null,
    conversations: [],
    current: null,        // the open conversation (its detail), or null in a public room
    read: {},             // member -> last id read, in the open conversation
    typing: new Map(),    // user -> timer, in the open room
    lastTypingSent: 0,
    markTimer: null,
    listTimer: null,
    olderLoading: false,
    noOlder: false,
    inbox: null,
  };

  // ---- the sidebar ---------------------------------------------------------

  function start(me) {
    m.me = me;
    $("sidebar").hidden = false;
    refreshList();
    openInbox();
  }

  // The inbox: a WebSocket of every room the user may read (no ?rooms=), live only, to
  // keep the badges current. A WebSocket, not a second EventSource: a browser gives a
  // site six HTTP/1.1 connections in all, and two streams per tab would starve its requests.
  function openInbox() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    m.inbox = new WebSocket(`${scheme}//${location.host}/api/ws`);
    m.inbox.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.room && (data.kind === "message" || data.kind === "system")) refreshListSoon();
    };
    m.inbox.onclose = () => setTimeout(openInbox, 3000);
  }

  function refreshListSoon() {
    clearTimeout(m.listTimer);
    m.listTimer = setTimeout(refreshList, 300);
  }

  async function refreshList() {
    try {
      m.conversations = (await app.getJSON("/api/conversations?limit=500")).conversations;
    } catch (_) { return; }
    const list = $("conversations");
    const rooms = [{ room: app.state.publicRoom, title: `#${app.state.publicRoom}`, unread: 0 }, ...m.conversations];
    list.replaceChildren(...rooms.map((conversation) => {
      const item = document.createElement("li");
      item.dataset.room = conversation.room;
      item.className = [conversation.room === app.state.room ? "active" : "", conversation.muted ? "muted" : ""].join(" ").trim();
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = conversation.members ? titleOf(conversation) : conversation.title;
      item.append(name);
      const unread = conversation.room === app.state.room ? 0 : conversation.unread;
      if (unread > 0) {
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = unread;
        item.append(badge);
      }
      item.addEventListener("click", () => app.openRoom(conversation.room));
      return item;
    }));
  }

  function titleOf(conversation) {
    if (conversation.title) return conversation.title;
    return conversation.members.filter((name) => name !== m.me).join(", ") || conversation.members.join(", ");
  }

  $("new-conversation").addEventListener("click", () => {
    $("new-form").hidden = !$("new-form").hidden;
    if (!$("new-form").hidden) $("new-members").focus();
  });

  $("new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const members = $("new-members").value.split(",").map((name) => name.trim()).filter(Boolean);
    const title = $("new-title").value.trim();
    try {
      const created = await call("POST", "/api/conversations", title ? { members, title } : { members });
      $("new-form").reset();
      $("new-form").hidden = true;
      await refreshList();
      app.openRoom(created.room);
    } catch (error) {
      app.showError(error.message);
    }
  });

  // ---- the open conversation ------------------------------------------------

  /** chat.js opened `room` (its history shown). */
  async function roomOpened(room, oldest) {
    m.current = null;
    m.read = {};
    m.noOlder = oldest === null;
    m.oldest = oldest;
    clearTyping();
    $("conv-tools").hidden = true;
    refreshList();
    if (!isConversation(room)) return;
    await refreshCurrent();
    markReadSoon();
  }

  async function refreshCurrent() {
    const room = app.state.room;
    try {
      const detail = await app.getJSON(`/api/conversations/${room}`);
      if (room !== app.state.room) return;
      m.current = detail;
      m.read = detail.read || {};
    } catch (_) { return; }
    $("room-title").textContent = titleOf(m.current);
    document.title = `${titleOf(m.current)} · Switchboard`;
    renderTools();
    renderReceipts();
  }

  function renderTools() {
    const conversation = m.current;
    $("conv-tools").hidden = !conversation;
    if (!conversation) return;
    const members = $("conv-members");
    members.replaceChildren(...conversation.members.map((name) => {
      const chip = document.createElement("span");
      chip.className = "member";
      chip.textContent = name;
      if (!conversation.direct && name !== m.me) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.title = `Remove ${name}`;
        remove.dataset.remove = name;
        remove.textContent = "×";
        remove.addEventListener("click", () => act("DELETE", `/members/${encodeURIComponent(name)}`));
        chip.append(remove);
      }
      return chip;
    }));
    for (const id of ["conv-input", "conv-add", "conv-rename", "conv-leave"]) $(id).hidden = conversation.direct;
    $("conv-mute").textContent = conversation.muted ? "Unmute" : "Mute";
  }

  async function act(method, path, body) {
    try {
      await call(method, `/api/conversations/${app.state.room}${path}`, body);
      $("conv-input").value = "";
      await refreshCurrent();
      refreshList();
    } catch (error) {
      app.showError(error.message);
    }
  }

  $("conv-add").addEventListener("click", () => $("conv-input").value.trim() &&
    act("POST", "/members", { user: $("conv-input").value.trim() }));
  $("conv-rename").addEventListener("click", () => $("conv-input").value.trim() &&
    act("PATCH", "", { title: $("conv-input").value.trim() }));
  $("conv-mute").addEventListener("click", () => m.current && act("PUT", "/members/me", { muted: !m.current.muted }));
  $("conv-leave").addEventListener("click", async () => {
    await act("DELETE", "/members/me");
    app.openRoom(app.state.publicRoom);
  });

  // ---- messages, receipts, typing --------------------------------------------

  /** A message of the open room was shown (live: it just arrived). */
  function onMessage(message, live) {
    if (!isConversation(app.state.room) || message.room !== app.state.room) return;
    if (live && message.kind === "message") {
      stopTyping(message.user);
      markReadSoon();
    }
    if (message.event && live) {
      const me = (message.event.user || message.event.actor) === m.me;
      if (me && (message.event.type === "removed" || message.event.type === "left")) {
        m.current = null;
        $("conv-tools").hidden = true;
        app.setStatus("you are no longer in this conversation", "down");
        app.stopTransport();
        refreshList();
        return;
      }
      refreshCurrent();
    }
  }

  /** A notice from the room's push transport: typing, or a read receipt. */
  function onNotice(kind, notice) {
    if (notice.room !== app.state.room || notice.user === m.me) return;
    if (kind === "typing") {
      clearTimeout(m.typing.get(notice.user));
      m.typing.set(notice.user, setTimeout(() => stopTyping(notice.user), 4000));
      renderTyping();
    } else if (kind === "read") {
      m.read[notice.user] = Math.max(m.read[notice.user] || 0, notice.id);
      renderReceipts();
    }
  }

  function stopTyping(user) {
    clearTimeout(m.typing.get(user));
    if (m.typing.delete(user)) renderTyping();
  }

  function clearTyping() {
    m.typing.forEach((timer) => clearTimeout(timer));
    m.typing.clear();
    renderTyping();
  }

  function renderTyping() {
    const names = [...m.typing.keys()];
    $("typing").textContent = names.length === 0 ? "" :
      `${names.join(", ")} ${names.length === 1 ? "is" : "are"} typing…`;
  }

  /** "Read by …" under the last message each other member has read. */
  function renderReceipts() {
    document.querySelectorAll("#messages .receipt").forEach((receipt) => receipt.remove());
    if (!m.current) return;
    const shown = [...document.querySelectorAll("#messages li.message[data-id]")];
    const readers = new Map();
    for (const [user, id] of Object.entries(m.read)) {
      if (user === m.me) continue;
      const last = shown.filter((item) => Number(item.dataset.id) <= id).pop();
      if (!last) continue;
      if (!readers.has(last)) readers.set(last, []);
      readers.get(last).push(user);
    }
    // Each of ours: "read" once another member's marker has passed it, else "sent".
    const markers = Object.entries(m.read).filter(([user]) => user !== m.me).map(([, id]) => id);
    for (const item of shown) {
      const delivery = item.querySelector(".delivery.sent, .delivery.read");
      if (!delivery) continue;
      const read = markers.some((id) => id >= Number(item.dataset.id));
      delivery.textContent = read ? "read" : "sent";
      delivery.className = `delivery ${read ? "read" : "sent"}`;
    }
    readers.forEach((users, item) => {
      const receipt = document.createElement("div");
      receipt.className = "receipt";
      receipt.textContent = `Read by ${users.sort().join(", ")}`;
      item.append(receipt);
    });
  }

  function markReadSoon() {
    clearTimeout(m.markTimer);
    m.markTimer = setTimeout(async () => {
      if (!m.current || document.visibilityState !== "visible" || !app.state.since) return;
      try {
        await call("PUT", `/api/conversations/${app.state.room}/read`, { id: app.state.since });
        refreshListSoon();
      } catch (_) { /* the marker moves on the next message */ }
    }, 300);
  }

  /** The user types in the open conversation: tell the others, at most every 2 s. */
  function onTyping() {
    if (!m.current || Date.now() - m.lastTypingSent < 2000) return;
    m.lastTypingSent = Date.now();
    if (!app.sendOverSocket({ typing: true })) {
      call("POST", `/api/conversations/${app.state.room}/typing`).catch(() => {});
    }
  }

  /** The history scrolled to its top: the page before the oldest shown. */
  async function loadOlder() {
    if (m.olderLoading || m.noOlder || !m.oldest) return;
    m.olderLoading = true;
    const room = app.state.room;
    try {
      const page = await app.getJSON(`/api/rooms/${encodeURIComponent(room)}/messages?before=${m.oldest}&limit=50`);
      if (room !== app.state.room) return;
      app.prepend(page.messages);
      if (page.messages.length) m.oldest = page.messages[0].id;
      m.noOlder = page.prev === undefined;
      renderReceipts();
    } catch (_) { /* try again on the next scroll */ } finally {
      m.olderLoading = false;
    }
  }

  async function call(method, path, body) {
    const response = await fetch(path, {
      method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(app.errorText(text, response.status));
    return text ? JSON.parse(text) : null;
  }

  return { start, roomOpened, onMessage, onNotice, onTyping, loadOlder, renderReceipts, isConversation };
};
