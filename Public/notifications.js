// Notifications to people who are away (Web Push): a control that subscribes
// this browser with the server's VAPID key (GET /api/push/key), registers the
// service worker (/sw.js) that shows them, and tells the server where to push
// (POST /api/push/subscriptions); pressed again, it unsubscribes. Signed-in only.
"use strict";

window.Notifications = (app) => {
  // app: { button, showError(text), openRoom(room) }
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  let registration = null;

  function urlBase64ToBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function show(on, note) {
    app.button.textContent = on ? "🔔 Notifications on" : "🔕 Notifications off";
    app.button.setAttribute("aria-pressed", on ? "true" : "false");
    app.button.title = note || (on ? "You are notified of conversations while this page is closed." : "Get notified while away.");
  }

  async function start() {
    if (!supported) {
      app.button.hidden = true;
      return;
    }
    app.button.hidden = false;
    try {
      registration = await navigator.serviceWorker.register("/sw.js");
      const subscription = await registration.pushManager.getSubscription();
      show(Boolean(subscription) && Notification.permission === "granted");
    } catch (error) {
      show(false, `Notifications cannot be used here: ${error.message}`);
    }
    // A notification clicked while a page is open: that page opens its conversation.
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.open) app.openRoom(event.data.open);
    });
  }

  async function turnOn() {
    if (await Notification.requestPermission() !== "granted") throw new Error("the browser did not allow notifications");
    const key = (await (await fetch("/api/push/key", { cache: "no-store" })).json()).key;
    registration = registration || await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    let subscription;
    try {
      // The browser registers with its vendor's push service first: that may hang offline, so not for ever.
      subscription = await Promise.race([
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(key) }),
        new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 15 s")), 15000)),
      ]);
    } catch (error) {
      throw new Error(`the browser's push service could not be reached (${error.message})`);
    }
    const response = await fetch("/api/push/subscriptions", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(subscription.toJSON()),
    });
    if (!response.ok) {
      await subscription.unsubscribe();
      let message = `HTTP ${response.status}`;
      try { message = (await response.json()).error.message; } catch (_) {}
      throw new Error(message);
    }
  }

  async function turnOff() {
    if (!supported) return;
    registration = registration || await navigator.serviceWorker.getRegistration("/") || null;
    const subscription = registration && await registration.pushManager.getSubscription();
    if (!subscription) return;
    await fetch("/api/push/subscriptions", {
      method: "DELETE", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ endpoint: subscription.endpoint }),
    });
    await subscription.unsubscribe();
  }

  app.button.addEventListener("click", async () => {
    const on = app.button.getAttribute("aria-pressed") === "true";
    app.button.disabled = true;
    app.button.textContent = on ? "🔕 Turning off…" : "🔔 Turning on…";
    try {
      if (on) await turnOff(); else await turnOn();
      show(!on);
      app.showError(null);
    } catch (error) {
      show(false, error.message);
      app.showError(`Notifications: ${error.message}`);
    } finally {
      app.button.disabled = false;
    }
  });

  /** Before signing out: this browser stops being notified for the user leaving it (a shared computer). */
  async function signOut() {
    try { await turnOff(); } catch (_) { /* signed out all the same */ }
  }

  return { start, signOut };
};
