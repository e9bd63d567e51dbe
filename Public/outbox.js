// The outbox: what the user typed, kept in the browser's storage (localStorage) until the
// server has it, and sent in the order it was typed, each with a client id (SPEC "Sending
// exactly once"). A reload, a lost connection or a restart of the server loses nothing; a
// retry after an answer that never came stores nothing twice, since the server answers a
// client id it has seen with the message it stored then. Two tabs flushing one outbox
// send the same client ids: still stored once.
"use strict";

window.Outbox = (app) => {
  // app: { user() (who is signed in or named, null before joining),
  //        send(entry) (resolves with the stored id; rejects, error.permanent when a retry cannot help),
  //        sent(entry, id), failed(entry, message) }
  const KEY = "switchboard.outbox";
  let sending = false, attempt = 0, timer = null;

  function load() {
    try {
      const entries = JSON.parse(localStorage.getItem(KEY));
      return Array.isArray(entries) ? entries : [];
    } catch (_) {
      return [];
    }
  }

  function save(entries) {
    try {
      localStorage.setItem(KEY, JSON.stringify(entries));
    } catch (_) { /* storage full or refused: the entry still goes out from memory in this tab */ }
  }

  /** 22 characters of [A-Za-z0-9_-] from 128 random bits (crypto.randomUUID needs a secure context). */
  function newClientID() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /** Keeps `fields` ({text, media, reply_to, location}) for `room` and sends it when it can: the entry. */
  function add(room, fields) {
    const entry = { client_id: newClientID(), user: app.user(), room, fields, ts: Date.now() };
    save([...load(), entry]);
    flush();
    return entry;
  }

  /** What `user` typed for `room` that the server does not have yet, oldest first. */
  function waiting(room) {
    const user = app.user();
    return load().filter((entry) => entry.user === user && entry.room === room);
  }

  function remove(clientID) {
    save(load().filter((entry) => entry.client_id !== clientID));
  }

  /** Sends what waits, one at a time and in order; on a failure a retry can mend, tries again later. */
  async function flush() {
    clearTimeout(timer);
    if (sending || !app.user()) return;
    sending = true;
    try {
      for (;;) {
        const entry = load().find((candidate) => candidate.user === app.user());
        if (!entry) {
          attempt = 0;
          return;
        }
        try {
          const id = await app.send(entry);
          remove(entry.client_id);
          attempt = 0;
          app.sent(entry, id);
        } catch (error) {
          if (!error.permanent) return retryLater();
          remove(entry.client_id);
          app.failed(entry, error.message);
        }
      }
    } finally {
      sending = false;
    }
  }

  function retryLater() {
    clearTimeout(timer);
    timer = setTimeout(flush, backoff(attempt++));
  }

  window.addEventListener("online", flush);
  // Another tab of this page added or sent something: this one tries too (client ids keep it once).
  window.addEventListener("storage", (event) => { if (event.key === KEY) flush(); });

  return { add, waiting, flush };
};

/** Milliseconds before attempt `n` (0, 1, …): doubling from 0.5 s to 8 s, then a random half of it
 *  ("equal jitter"), so that many pages cut off at once do not come back at once. */
window.backoff = (n) => {
  const ceiling = Math.min(8000, 500 * 2 ** n);
  return ceiling / 2 + Math.random() * (ceiling / 2);
};
