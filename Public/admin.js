// Switchboard admin dashboard: stats pushed over SSE once a second (read with
// fetch, so the Bearer token goes in a header, never in a URL), a chart drawn
// by hand in SVG, and a system-message action. Plain JS, no build.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const TRANSPORTS = ["sse", "websocket", "long-poll", "short-poll", "tcp"];
  const COLORS = { published: "#1d2330", sse: "#3558d8", websocket: "#c2185b", "long-poll": "#1f8a4c", "short-poll": "#b5561b", tcp: "#8a3ffc" };
  const HISTORY = 300;   // seconds kept for the chart
  let token = sessionStorage.getItem("switchboard.admin") || "";
  let previous = null;    // the last snapshot, for per-second rates
  const series = { published: [], sse: [], websocket: [], "long-poll": [], "short-poll": [], tcp: [] };
  let controller = null;

  $("login").addEventListener("submit", (event) => {
    event.preventDefault();
    token = $("token").value.trim();
    connect();
  });
  if (token) connect();

  async function connect() {
    if (controller) controller.abort();
    controller = new AbortController();
    let response;
    try {
      response = await fetch("/api/admin/stats/events", { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
    } catch (error) {
      return retry();
    }
    if (response.status === 401) return showLogin("That token is not the admin token.");
    if (!response.ok) return retry();
    sessionStorage.setItem("switchboard.admin", token);
    $("login").hidden = true;
    $("dashboard").hidden = false;
    $("live").hidden = false;
    loadAccounts();
    loadMedia();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let end;
        while ((end = text.indexOf("\n\n")) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (data) update(JSON.parse(data));
        }
      }
    } catch (_) { /* aborted or dropped: reconnect below */ }
    retry();
  }

  function retry() {
    $("live").hidden = true;
    setTimeout(connect, 2000);
  }

  function showLogin(message) {
    sessionStorage.removeItem("switchboard.admin");
    $("dashboard").hidden = true;
    $("live").hidden = true;
    $("login").hidden = false;
    $("login-error").hidden = !message;
    $("login-error").textContent = message || "";
  }

  function update(stats) {
    const seconds = previous ? Math.max(0.001, stats.uptime_s - previous.uptime_s) : 1;
    const rate = (now, before) => previous ? Math.max(0, (now - before) / seconds) : 0;
    const rates = {};
    rates.published = rate(stats.published, previous ? previous.published : 0);
    for (const t of TRANSPORTS) {
      rates[t] = rate(stats.transports[t].delivered, previous ? previous.transports[t].delivered : 0);
      $(`c-${t}`).textContent = stats.connections[t];
    }
    previous = stats;
    for (const key of Object.keys(series)) {
      series[key].push(rates[key]);
      if (series[key].length > HISTORY) series[key].shift();
    }
    $("rate-published").textContent = formatRate(rates.published);
    $("uptime").textContent = formatDuration(stats.uptime_s);
    $("store").textContent = `${formatBytes(stats.store_bytes)} · ${stats.last_id} ids` +
      (stats.store_stalled ? " · not answering" : stats.store_writable === false ? " · writes failing" : "") +
      (stats.uploads_writable === false ? " · uploads refused" : "");
    $("store").classList.toggle("alarm", stats.store_writable === false || stats.uploads_writable === false);
    $("push-tile").hidden = !stats.push;
    if (stats.push) {
      const p = stats.push;
      $("push").textContent = `${p.pending} waiting · ${p.sent} sent · ${p.gone} gone · ${p.failed} given up`;
      $("push").classList.toggle("alarm", p.pending > 1000);
    }
    $("backend-tile").hidden = !stats.backend;
    if (stats.backend) {
      const b = stats.backend;
      const hook = b.allowed + b.denied + b.modified + b.hook_failed > 0
        ? ` · hook: ${b.allowed} allowed, ${b.denied} denied, ${b.modified} modified, ${b.hook_failed} failed` : "";
      $("backend").textContent = `${b.pending} waiting · ${b.delivered} delivered · ${b.retried} retried · `
        + `${b.failed} given up${b.dropped ? ` · ${b.dropped} dropped` : ""}${b.delivering ? " · this node delivers" : ""}${hook}`;
      $("backend").classList.toggle("alarm", b.pending > 1000 || b.hook_failed > 0 && b.hook_failed >= b.allowed);
    }
    rows($("transports"), TRANSPORTS.map((t) => [t, stats.connections[t], formatRate(rates[t]), stats.transports[t].delivered,
      ms(stats.transports[t].latency_p50_ms), ms(stats.transports[t].latency_p99_ms)]));
    rows($("rooms"), stats.rooms.map((r) => [r.name, r.message_count, r.last_id, r.online]));
    $("rooms-shown").textContent = stats.room_count > stats.rooms.length
      ? `the ${stats.rooms.length} most recent of ${stats.room_count}` : "";
    rows($("users"), stats.users.map((u) => [u.user, u.room, u.transports.join(", ")]));
    $("users-shown").textContent = stats.user_count > stats.users.length
      ? `${stats.users.length} of ${stats.user_count}` : "";
    $("nodes-panel").hidden = !stats.nodes;
    if (stats.nodes) {
      rows($("nodes"), stats.nodes.map((n) => [n.id + (n.self ? " (this one)" : ""), n.address,
        TRANSPORTS.filter((t) => n.connections[t]).map((t) => `${t} ${n.connections[t]}`).join(", ") || "none",
        `${Math.max(0, n.lease_s).toFixed(0)} s`]));
    }
    const select = $("system-room");
    const chosen = select.value;
    const names = stats.rooms.map((r) => r.name).sort();
    if (!names.includes("lobby")) names.unshift("lobby");
    if (select.options.length !== names.length || [...select.options].some((o, i) => o.value !== names[i])) {
      select.replaceChildren(...names.map((name) => new Option(name, name)));
      if (names.includes(chosen)) select.value = chosen;
    }
    drawChart();
  }

  // Rows of text cells: every value inserted as text, never HTML.
  function rows(body, data) {
    body.replaceChildren(...data.map((cells) => {
      const row = document.createElement("tr");
      for (const cell of cells) {
        const td = document.createElement("td");
        td.textContent = String(cell);
        row.append(td);
      }
      return row;
    }));
  }

  function drawChart() {
    const svg = $("chart");
    const width = 900, height = 220, left = 40, bottom = 20, top = 10;
    const all = Object.values(series).flat();
    const max = Math.max(1, ...all);
    const scaleMax = niceCeiling(max);
    // The x axis spans what has been collected (at least a minute, at most HISTORY seconds).
    const span = Math.min(HISTORY, Math.max(60, series.published.length));
    const x = (i) => left + (i + (span - series.published.length)) * (width - left) / (span - 1);
    const y = (v) => top + (height - top - bottom) * (1 - v / scaleMax);
    const ns = "http://www.w3.org/2000/svg";
    const nodes = [];
    const steps = String(scaleMax).startsWith("2") ? 4 : 5;
    for (let step = 0; step <= steps; step++) {
      const value = scaleMax * step / steps;
      const line = document.createElementNS(ns, "line");
      line.setAttribute("class", "grid-line");
      line.setAttribute("x1", left); line.setAttribute("x2", width);
      line.setAttribute("y1", y(value)); line.setAttribute("y2", y(value));
      const label = document.createElementNS(ns, "text");
      label.setAttribute("class", "axis-label");
      label.setAttribute("x", 2); label.setAttribute("y", y(value) + 4);
      label.textContent = formatRate(value);
      nodes.push(line, label);
    }
    for (const [key, values] of Object.entries(series)) {
      if (values.length < 2) continue;
      const polyline = document.createElementNS(ns, "polyline");
      polyline.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
      polyline.setAttribute("stroke", COLORS[key]);
      nodes.push(polyline);
    }
    svg.replaceChildren(...nodes);
    $("legend").replaceChildren(...Object.keys(series).map((key) => {
      const item = document.createElement("span");
      item.style.setProperty("--swatch", COLORS[key]);
      item.textContent = key === "published" ? "published" : `delivered via ${key}`;
      return item;
    }));
  }

  $("system").addEventListener("submit", async (event) => {
    event.preventDefault();
    const room = $("system-room").value || "lobby";
    const response = await fetch(`/api/admin/rooms/${encodeURIComponent(room)}/system`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ text: $("system-text").value }),
    });
    const body = await response.json().catch(() => ({}));
    $("system-result").textContent = response.status === 201 ? `Posted to #${room} as message ${body.id}.`
      : `Refused: ${(body.error && body.error.message) || response.status}`;
    if (response.status === 201) $("system-text").value = "";
  });

  $("kick").addEventListener("submit", async (event) => {
    event.preventDefault();
    const user = $("kick-user").value.trim();
    const { response, body } = await adminRequest("POST", `/api/admin/users/${encodeURIComponent(user)}/kick`);
    $("action-result").textContent = response.ok ? `Closed ${body.closed} connection${body.closed === 1 ? "" : "s"} of ${user}` +
      (body.other_nodes ? " here, and told the other nodes." : ".")
      : `Refused: ${(body.error && body.error.message) || response.status}`;
  });

  $("delete").addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = $("delete-id").value.trim();
    const { response, body } = await adminRequest("DELETE", `/api/admin/messages/${encodeURIComponent(id)}`);
    $("action-result").textContent = response.ok ? `Deleted message ${id}.` : `Refused: ${(body.error && body.error.message) || response.status}`;
    if (response.ok) $("delete-id").value = "";
  });

  async function adminRequest(method, url, body) {
    const headers = { Authorization: `Bearer ${token}` };
    if (body) headers["Content-Type"] = "application/json";
    const response = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
    return { response, body: await response.json().catch(() => ({})) };
  }

  // ---- accounts and bans: read every 5 s while the dashboard is open, and after each action.

  async function loadAccounts() {
    if ($("dashboard").hidden) return;
    const { response, body } = await adminRequest("GET", "/api/admin/accounts").catch(() => ({ response: { ok: false } }));
    if (!response.ok) return;
    const signedIn = new Map(body.signed_in.map((entry) => [entry.user, entry.transports.join(", ")]));
    const names = new Set([...body.accounts.map((a) => a.user), ...Object.keys(body.bans), ...signedIn.keys()]);
    const registered = new Map(body.accounts.map((a) => [a.user, a]));
    const banOf = (user) => body.bans[user.toLowerCase()];
    $("accounts").replaceChildren(...[...names].sort().map((user) => {
      const account = registered.get(user);
      const until = banOf(user);
      return actionRow([user, account ? new Date(account.created).toLocaleString() : "guest",
                        signedIn.get(user) || "–", until ? new Date(until).toLocaleString() : "–"],
                       until ? "Lift ban" : "Ban 1 h", "small", () => until ? lift(user) : ban(user, 3600));
    }));
  }

  /// A table row of `cells` (text, or an element) ending in one button.
  function actionRow(cells, label, className, action) {
    const row = document.createElement("tr");
    for (const content of cells) {
      const cell = document.createElement("td");
      if (content instanceof Node) cell.append(content); else cell.textContent = content;
      row.append(cell);
    }
    const actions = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.textContent = label;
    button.addEventListener("click", action);
    actions.append(button);
    row.append(actions);
    return row;
  }

  async function ban(user, seconds) {
    const { response, body } = await adminRequest("POST", `/api/admin/users/${encodeURIComponent(user)}/ban`, { seconds });
    $("ban-result").textContent = response.ok ? `Banned ${user} until ${new Date(body.until).toLocaleString()}.`
      : `Refused: ${(body.error && body.error.message) || response.status}`;
    loadAccounts();
  }

  async function lift(user) {
    const { response, body } = await adminRequest("DELETE", `/api/admin/users/${encodeURIComponent(user)}/ban`);
    $("ban-result").textContent = response.ok ? `Lifted the ban on ${user}.` : `Refused: ${(body.error && body.error.message) || response.status}`;
    loadAccounts();
  }

  $("ban").addEventListener("submit", (event) => {
    event.preventDefault();
    ban($("ban-user").value.trim(), Number($("ban-seconds").value));
  });
  setInterval(loadAccounts, 5000);

  // ---- uploads: storage in all and per user, the latest, and deleting one.

  async function loadMedia() {
    if ($("dashboard").hidden) return;
    const { response, body } = await adminRequest("GET", "/api/admin/media").catch(() => ({ response: { ok: false } }));
    if (!response.ok) {
      $("media-total").textContent = response.status === 503 ? "This server keeps no uploads" : "–";
      return;
    }
    $("media-total").textContent = `${body.files} upload${body.files === 1 ? "" : "s"}, ${formatBytes(body.bytes)} in all`;
    rows($("media-users"), body.users.map((u) => [u.user, u.files, formatBytes(u.bytes)]));
    $("media-recent").replaceChildren(...body.recent.map((upload) => {
      const link = document.createElement("a");
      link.href = `/api/media/${upload.media}`;
      link.textContent = upload.name;
      link.target = "_blank";
      link.rel = "noopener";
      return actionRow([link, upload.user, upload.type, formatBytes(upload.size), upload.carried ? "yes" : "not yet"],
                       "Delete", "small danger", () => deleteMedia(upload.media, upload.name));
    }));
  }

  async function deleteMedia(id, name) {
    const { response, body } = await adminRequest("DELETE", `/api/admin/media/${encodeURIComponent(id)}`);
    $("media-result").textContent = response.status === 204 ? `Deleted ${name || id}.`
      : `Refused: ${(body.error && body.error.message) || response.status}`;
    loadMedia();
  }

  $("media-delete").addEventListener("submit", (event) => {
    event.preventDefault();
    deleteMedia($("media-id").value.trim());
  });
  setInterval(loadMedia, 5000);

  function niceCeiling(value) {
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    for (const m of [1, 2, 5, 10]) if (value <= m * power) return m * power;
    return 10 * power;
  }
  function formatRate(value) { return value >= 1000 ? `${(value / 1000).toFixed(1)}k` : value >= 10 ? value.toFixed(0) : value.toFixed(1); }
  function ms(value) { return value === null || value === undefined ? "–" : `${value.toFixed(0)} ms`; }
  function formatBytes(bytes) { return bytes < 1048576 ? `${(bytes / 1024).toFixed(0)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`; }
  function formatDuration(seconds) {
    const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
  }
})();
