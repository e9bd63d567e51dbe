// Switchboard acts: what people do to messages in the chat page. Replies (a quote above
// the reply, a thread view with every reply), edits and unsends in place, reactions under
// a message, and a shared location as a geo: link. Every act is a message in the log
// (kind "edit", "delete" or "reaction", with a "target"); a message read back stands as
// the acts left it, and the acts that follow are applied here, each idempotent (a
// reaction says on or off, an edit its whole text), so a replay shows the same.
// chat.js draws messages and owns the transports; it hands each message here first.
// Plain JS, no build.
"use strict";

window.Acts = function Acts(app) {
  const $ = (id) => document.getElementById(id);
  const QUICK = ["👍", "❤️", "😂", "🎉", "😮", "😢"];
  const shown = new Map();     // id -> the message as it stands, for those drawn
  const replyIds = new Map();  // target id -> Set of reply ids seen (a replay counts each once)
  let replyingTo = null;       // the message the composer answers
  let threadOf = null;         // the message whose thread is open

  const isAct = (message) => ["edit", "delete", "reaction"].includes(message.kind) && message.target;

  /** A message from any read. An act: applied to its message, true (not drawn). */
  function take(message) {
    if (!isAct(message)) {
      if (message.kind === "message" && message.reply_to) noteReply(message);
      return false;
    }
    const target = shown.get(message.target);
    if (target) {
      app.redraw(apply(message, target));
      if (threadOf && threadOf.id === target.id) renderThreadHead();
    }
    if (message.kind === "delete" && replyingTo && replyingTo.id === message.target) cancelReply();
    return true;
  }

  /** What `act` makes of `target` (as the server's MessageActs does). */
  function apply(act, target) {
    const now = { ...target };
    if (act.kind === "edit") {
      now.text = act.text;
      now.edited = act.ts;
    } else if (act.kind === "delete") {
      return { id: target.id, room: target.room, user: target.user, kind: "message", ts: target.ts, deleted: true };
    } else if (act.kind === "reaction") {
      const reactions = { ...(target.reactions || {}) };
      const users = (reactions[act.emoji] || []).filter((user) => user !== act.user);
      if (act.on) users.push(act.user);
      if (users.length) reactions[act.emoji] = users; else delete reactions[act.emoji];
      now.reactions = reactions;
    }
    return now;
  }

  function noteReply(reply) {
    if (!replyIds.has(reply.reply_to)) replyIds.set(reply.reply_to, new Set());
    const seen = replyIds.get(reply.reply_to);
    if (seen.has(reply.id)) return;
    seen.add(reply.id);
    const target = shown.get(reply.reply_to);
    if (target) app.redraw(target);
    if (threadOf && threadOf.id === reply.reply_to) appendToThread(reply);
  }

  function replyCount(message) {
    return Math.max(message.replies || 0, replyIds.has(message.id) ? replyIds.get(message.id).size : 0);
  }

  // ---- drawing -------------------------------------------------------------

  /** Adds to a drawn message what acts and replies made of it, and its actions. */
  function decorate(message, item) {
    shown.set(message.id, message);
    const text = item.querySelector(".text");
    if (message.deleted) {
      item.classList.add("unsent");
      if (text) text.textContent = "This message was unsent.";
      return;
    }
    if (message.reply_to) {
      const quote = document.createElement("button");
      quote.type = "button";
      quote.className = "quote link";
      const original = shown.get(message.reply_to);
      quote.textContent = original ? `↪ ${original.user}: ${snippet(original)}` : "↪ a reply";
      quote.addEventListener("click", () => openThread(message.reply_to));
      item.querySelector(".meta").after(quote);
    }
    if (message.edited && text) {
      const mark = document.createElement("span");
      mark.className = "edited";
      mark.textContent = " (edited)";
      item.querySelector(".meta").append(mark);
    }
    if (message.location) item.append(locationLink(message.location));
    const reactions = document.createElement("div");
    reactions.className = "reactions";
    for (const [emoji, users] of Object.entries(message.reactions || {})) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = users.includes(app.me()) ? "reaction mine" : "reaction";
      chip.dataset.emoji = emoji;
      chip.title = users.join(", ");
      chip.textContent = `${emoji} ${users.length}`;
      chip.addEventListener("click", () => react(message, emoji, !users.includes(app.me())));
      reactions.append(chip);
    }
    if (reactions.childElementCount) item.append(reactions);
    item.append(actions(message));
  }

  function actions(message) {
    const bar = document.createElement("div");
    bar.className = "actions";
    const button = (label, name, handler) => {
      const element = document.createElement("button");
      element.type = "button";
      element.className = "link";
      element.dataset.act = name;
      element.textContent = label;
      element.addEventListener("click", handler);
      bar.append(element);
    };
    const replies = replyCount(message);
    button("Reply", "reply", () => startReply(message));
    button(replies ? `${replies} ${replies === 1 ? "reply" : "replies"}` : "Thread", "thread", () => openThread(message.id));
    button("React", "react", (event) => pick(message, event.target));
    if (message.user === app.me()) {
      button("Edit", "edit", () => editInPlace(message));
      button("Unsend", "unsend", () => unsend(message));
    }
    return bar;
  }

  function pick(message, anchor) {
    document.querySelectorAll(".picker").forEach((picker) => picker.remove());
    const picker = document.createElement("span");
    picker.className = "picker";
    for (const emoji of QUICK) {
      const choice = document.createElement("button");
      choice.type = "button";
      choice.textContent = emoji;
      choice.dataset.emoji = emoji;
      choice.addEventListener("click", () => {
        picker.remove();
        const mine = (message.reactions?.[emoji] || []).includes(app.me());
        react(shown.get(message.id) || message, emoji, !mine);
      });
      picker.append(choice);
    }
    anchor.after(picker);
  }

  function locationLink(location) {
    const link = document.createElement("a");
    link.className = "location";
    link.href = `geo:${location.lat},${location.lon}${location.accuracy !== undefined ? `;u=${location.accuracy}` : ""}`;
    link.textContent = `📍 ${location.lat.toFixed(5)}, ${location.lon.toFixed(5)}`;
    return link;
  }

  function snippet(message) {
    if (message.deleted) return "an unsent message";
    const text = message.text || (message.location ? "a location" : "an attachment");
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  }

  // ---- doing ---------------------------------------------------------------

  function startReply(message) {
    replyingTo = message;
    $("replying-text").textContent = `Replying to ${message.user}: ${snippet(message)}`;
    $("replying").hidden = false;
    $("text").focus();
  }

  function cancelReply() {
    replyingTo = null;
    $("replying").hidden = true;
  }
  $("replying-cancel").addEventListener("click", cancelReply);

  /** What the next message answers (and the composer forgets it once sent). */
  function replyFields() {
    return replyingTo ? { reply_to: replyingTo.id } : {};
  }

  function editInPlace(message) {
    const item = document.querySelector(`#messages li[data-id="${message.id}"]`);
    const text = item && item.querySelector(".text");
    if (!text) return;
    const box = document.createElement("textarea");
    box.className = "edit-box";
    box.value = message.text;
    box.rows = 2;
    text.replaceWith(box);
    box.focus();
    box.addEventListener("keydown", async (event) => {
      if (event.key === "Escape") return app.redraw(shown.get(message.id) || message);
      if (event.key !== "Enter" || event.shiftKey) return;
      event.preventDefault();
      if (box.value === message.text) return app.redraw(shown.get(message.id) || message);
      await perform({ edit: message.id, text: box.value }, "PATCH", path(message), { text: box.value });
    });
  }

  function unsend(message) {
    if (!confirm("Unsend this message? It is removed for everyone.")) return;
    perform({ unsend: message.id }, "DELETE", path(message));
  }

  function react(message, emoji, on) {
    perform({ react: message.id, emoji, on }, on ? "PUT" : "DELETE", `${path(message)}/reactions/${encodeURIComponent(emoji)}`);
  }

  function path(message) {
    return `/api/rooms/${encodeURIComponent(message.room)}/messages/${message.id}`;
  }

  /** An act over the open WebSocket (acknowledged), or over HTTP. */
  async function perform(command, method, url, body) {
    try {
      const overSocket = app.overSocket(command);
      if (overSocket) return await overSocket;
      const guest = app.state.account ? "" : `${url.includes("?") ? "&" : "?"}user=${encodeURIComponent(app.me())}`;
      const response = await fetch(url + guest, {
        method, headers: body ? { "Content-Type": "application/json" } : {},
        body: body ? JSON.stringify(app.state.account ? body : { ...body, user: app.me() }) : undefined,
      });
      if (!response.ok) throw new Error(app.errorText(await response.text(), response.status));
      app.showError(null);
    } catch (error) {
      app.showError(error.message);
    }
  }

  // ---- the thread view -----------------------------------------------------

  async function openThread(id) {
    const target = shown.get(id);
    if (!target) return;
    threadOf = target;
    $("thread").hidden = false;
    $("thread-messages").replaceChildren();
    renderThreadHead();
    try {
      const page = await app.getJSON(`${path(target)}/replies?limit=1000`);
      if (!threadOf || threadOf.id !== id) return;
      page.messages.forEach(appendToThread);
    } catch (error) {
      app.showError(error.message);
    }
  }

  function renderThreadHead() {
    const target = shown.get(threadOf.id) || threadOf;
    $("thread-head").textContent = `${target.user}: ${snippet(target)}`;
  }

  function appendToThread(reply) {
    const list = $("thread-messages");
    if (list.querySelector(`li[data-id="${reply.id}"]`)) return;
    const item = document.createElement("li");
    item.dataset.id = reply.id;
    const who = document.createElement("b");
    who.textContent = `${reply.user}: `;
    const text = document.createElement("span");
    text.textContent = reply.deleted ? "(unsent)" : reply.text;
    item.append(who, text);
    list.append(item);
  }

  $("thread-close").addEventListener("click", () => {
    threadOf = null;
    $("thread").hidden = true;
  });
  $("thread-compose").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("thread-text").value;
    if (!text.trim() || !threadOf) return;
    if (await app.publish({ text, reply_to: threadOf.id })) $("thread-text").value = "";
  });

  // ---- sharing where you are -----------------------------------------------

  $("share-location").addEventListener("click", () => {
    if (!navigator.geolocation) return app.showError("This browser cannot tell where you are.");
    navigator.geolocation.getCurrentPosition(
      (position) => app.publish({ text: $("text").value, location: {
        lat: position.coords.latitude, lon: position.coords.longitude, accuracy: Math.round(position.coords.accuracy) } }),
      (error) => app.showError(`No location: ${error.message}`), { timeout: 10000 });
  });

  /** A room was opened or left: nothing carries over. */
  function reset() {
    shown.clear();
    replyIds.clear();
    cancelReply();
    threadOf = null;
    $("thread").hidden = true;
  }

  return { take, decorate, replyFields, cancelReply, reset, isAct };
};
