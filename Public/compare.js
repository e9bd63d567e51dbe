// The live comparison: one room read through short-poll, long-poll, SSE and WebSocket at
// the same time; every message's arrival per transport, side by side, with
// running totals of what each transport costs. Plain JS, no build.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const encoder = new TextEncoder();
  const params = new URLSearchParams(location.search);
  const room = params.get("room") || "compare-live";
  const roomPath = `/api/rooms/${encodeURIComponent(room)}`;
  const TRANSPORTS = ["short-poll", "long-poll", "sse", "websocket"];
  const totals = Object.fromEntries(TRANSPORTS.map((t) => [t, { requests: 0, empty: 0, bytes: 0 }]));
  const rows = new Map();   // message id -> row
  let counter = 0;
  $("room-name").textContent = room;

  async function start() {
    // Everyone starts after the newest message, so all four see the same ones.
    const latest = await (await fetch(`${roomPath}/messages?limit=1`, { cache: "no-store" })).json();
    const since = latest.next;
    poll("short-poll", since, false);
    poll("long-poll", since, true);
    sse(since);
    socket(since);
    renderTotals();
    setInterval(() => { if ($("auto").checked) publish(); }, 1000);
  }

  async function poll(transport, since, long) {
    for (;;) {
      try {
        const started = performance.now();
        const response = await fetch(`${roomPath}/messages?since=${since}${long ? "&wait=25" : ""}`, { cache: "no-store" });
        const body = await response.text();
        const page = JSON.parse(body);
        totals[transport].requests += 1;
        totals[transport].bytes += encoder.encode(body).length;
        if (page.messages.length === 0) totals[transport].empty += 1;
        page.messages.forEach((message) => arrived(transport, message));
        since = Math.max(since, page.next);
        renderTotals();
        if (!long) await sleep(Math.max(0, Number($("interval").value) - (performance.now() - started)));
      } catch (_) {
        await sleep(2000);
      }
    }
  }

  function sse(since) {
    const source = new EventSource(`${roomPath}/events?since=${since}`);
    source.onopen = () => { totals.sse.requests += 1; renderTotals(); };
    source.addEventListener("message", (event) => {
      totals.sse.bytes += encoder.encode(`id: ${event.lastEventId}\nevent: message\ndata: ${event.data}\n\n`).length;
      arrived("sse", JSON.parse(event.data));
      renderTotals();
    });
  }

  function socket(since) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${roomPath}/ws?since=${since}`);
    ws.onopen = () => { totals.websocket.requests += 1; renderTotals(); };
    ws.onmessage = (event) => {
      totals.websocket.bytes += encoder.encode(event.data).length + 2;  // the frame's 2-byte header
      const message = JSON.parse(event.data);
      since = Math.max(since, message.id || 0);
      arrived("websocket", message);
      renderTotals();
    };
    ws.onclose = () => setTimeout(() => socket(since), 2000);
  }

  function arrived(transport, message) {
    if (message.kind !== "message") return;
    const latency = Math.max(0, Date.now() - message.ts);
    const row = rowFor(message);
    const cell = row.querySelector(`td[data-transport="${transport}"]`);
    if (!cell.classList.contains("waiting")) return;
    cell.classList.remove("waiting");
    cell.classList.add(latency < 100 ? "fast" : "slow");
    cell.textContent = `${latency} ms`;
  }

  function rowFor(message) {
    let row = rows.get(message.id);
    if (row) return row;
    row = document.createElement("tr");
    const label = document.createElement("td");
    label.textContent = `#${message.id} ${message.text}`;
    row.append(label);
    for (const transport of TRANSPORTS) {
      const cell = document.createElement("td");
      cell.dataset.transport = transport;
      cell.className = "waiting";
      cell.textContent = "…";
      row.append(cell);
    }
    rows.set(message.id, row);
    $("arrivals").prepend(row);
    while (rows.size > 60) {
      const oldest = Math.min(...rows.keys());
      rows.get(oldest).remove();
      rows.delete(oldest);
    }
    return row;
  }

  function renderTotals() {
    for (const transport of TRANSPORTS) {
      const t = totals[transport];
      $(`t-${transport}`).textContent = `${t.requests} · ${t.empty} · ${formatBytes(t.bytes)}`;
    }
  }

  async function publish() {
    counter += 1;
    await fetch(`${roomPath}/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: "compare", text: `ping ${counter}` }),
    }).catch(() => {});
  }

  $("publish").addEventListener("click", publish);

  function formatBytes(bytes) {
    return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
  }
  function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  start();
})();
