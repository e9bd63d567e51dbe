// Switchboard's service worker: shows a conversation's notification when the
// server pushes one (Web Push; the payload is {"room","id","user","text","title"},
// decrypted by the browser), and opens that conversation when it is clicked.
// Served from / so that its scope is the whole site; it caches nothing.
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = { text: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Switchboard";
  const body = data.user ? `${data.user}: ${data.text || ""}` : (data.text || "New message");
  // One notification per conversation (its tag): a newer one replaces the older, as the push's Topic does.
  event.waitUntil(self.registration.showNotification(title, {
    body, tag: data.room || "switchboard", renotify: true, data: { room: data.room || "", id: data.id || 0 },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const room = event.notification.data?.room || "";
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const page = pages.find((client) => new URL(client.url).origin === self.location.origin);
    if (page) {
      await page.focus();
      page.postMessage({ open: room });
      return;
    }
    await self.clients.openWindow(`/?room=${encodeURIComponent(room)}`);
  })());
});
