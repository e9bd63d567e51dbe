// Switchboard attachments: photos, video and voice in the chat page. Files are
// attached by the button, by dropping them on the chat or by pasting them; each is
// uploaded at once (POST /api/media, the file itself as the body, with a progress
// bar) and sent with the next message. The microphone button records a voice
// message (MediaRecorder) and sends it when the recording stops. Messages that
// carry media show photos as thumbnails that open full size, and video and voice
// as players that can be sought. chat.js owns sending; it asks this file for the
// ids of what is attached and to draw a message's media. Plain JS, no build.
"use strict";

window.Attachments = function Attachments(app) {
  const $ = (id) => document.getElementById(id);
  const pending = [];   // {id?, name, type, element, xhr?}: attached, uploading or uploaded
  let recorder = null;

  // ---- attaching -----------------------------------------------------------

  $("attach").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => {
    for (const file of $("file").files) upload(file);
    $("file").value = "";
  });
  $("text").addEventListener("paste", (event) => {
    const files = [...(event.clipboardData ? event.clipboardData.files : [])];
    if (files.length === 0) return;
    event.preventDefault();
    files.forEach(upload);
  });
  const dropZone = $("chat");
  dropZone.addEventListener("dragover", (event) => {
    if (!app.canAttach()) return;
    event.preventDefault();
    dropZone.classList.add("dropping");
  });
  dropZone.addEventListener("dragleave", () => dropZone.classList.remove("dropping"));
  dropZone.addEventListener("drop", (event) => {
    dropZone.classList.remove("dropping");
    if (!app.canAttach()) return;
    event.preventDefault();
    [...event.dataTransfer.files].forEach(upload);
  });

  /// Uploads `file` (a File or Blob with a name) and shows it among the pending
  /// attachments; resolves with its id, or rejects with the server's reason.
  function upload(file, name) {
    if (!app.canAttach()) {
      app.showError("Sign in to send photos, video and voice messages.");
      return Promise.reject(new Error("not signed in"));
    }
    const entry = { name: name || file.name || "upload", type: file.type, id: null };
    entry.element = pendingElement(entry);
    pending.push(entry);
    $("pending").hidden = false;
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      entry.xhr = xhr;
      xhr.open("POST", `/api/media?name=${encodeURIComponent(entry.name)}`);
      if (file.type) xhr.setRequestHeader("Content-Type", file.type);
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) entry.element.querySelector("progress").value = event.loaded / event.total;
      });
      xhr.addEventListener("load", () => {
        entry.xhr = null;
        if (xhr.status === 201) {
          const answer = JSON.parse(xhr.responseText);
          entry.id = answer.media;
          entry.element.classList.add("ready");
          entry.element.querySelector("progress").remove();
          if (answer.thumbnail) {
            const thumbnail = document.createElement("img");
            thumbnail.src = answer.thumbnail;
            thumbnail.alt = "";
            entry.element.prepend(thumbnail);
          }
          resolve(entry.id);
        } else {
          remove(entry);
          const reason = app.errorText(xhr.responseText, xhr.status);
          app.showError(`${entry.name}: ${reason}`);
          reject(new Error(reason));
        }
      });
      xhr.addEventListener("error", () => {
        remove(entry);
        app.showError(`${entry.name}: the upload failed`);
        reject(new Error("the upload failed"));
      });
      xhr.send(file);
    });
  }

  function pendingElement(entry) {
    const item = document.createElement("li");
    item.className = "attachment";
    const label = document.createElement("span");
    label.textContent = entry.name;
    const progress = document.createElement("progress");
    progress.max = 1;
    progress.value = 0;
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "small";
    drop.textContent = "×";
    drop.title = "Remove";
    drop.addEventListener("click", () => remove(entry));
    item.append(label, progress, drop);
    $("pending").append(item);
    return item;
  }

  function remove(entry) {
    if (entry.xhr) entry.xhr.abort();
    entry.element.remove();
    const index = pending.indexOf(entry);
    if (index >= 0) pending.splice(index, 1);
    $("pending").hidden = pending.length === 0;
  }

  // ---- voice messages ------------------------------------------------------

  $("record").addEventListener("click", async () => {
    if (recorder) return recorder.stop();
    if (!app.canAttach()) return app.showError("Sign in to send voice messages.");
    if (!window.MediaRecorder || !navigator.mediaDevices) return app.showError("This browser cannot record sound.");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      return app.showError(`No microphone: ${error.message}`);
    }
    const type = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"].find((t) => MediaRecorder.isTypeSupported(t)) || "";
    const chunks = [];
    recorder = new MediaRecorder(stream, type ? { mimeType: type } : {});
    recorder.addEventListener("dataavailable", (event) => { if (event.data.size > 0) chunks.push(event.data); });
    recorder.addEventListener("stop", async () => {
      stream.getTracks().forEach((track) => track.stop());
      $("record").classList.remove("recording");
      $("record").textContent = "● Voice";
      $("record").title = "Record a voice message (click again to send)";
      const mime = (recorder.mimeType || type || "audio/webm").split(";")[0];
      recorder = null;
      const extension = mime === "audio/mp4" ? "m4a" : mime.split("/")[1];
      const blob = new Blob(chunks, { type: mime });
      try {
        await upload(blob, `voice-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.${extension}`);
        await app.send();
      } catch (_) { /* the reason is shown */ }
    });
    recorder.start();
    $("record").classList.add("recording");
    $("record").textContent = "■ Send";
    $("record").title = "Stop and send";
  });

  // ---- what chat.js asks ---------------------------------------------------

  /// The ids to send with the next message; false while one is still uploading.
  function ids() {
    if (pending.some((entry) => !entry.id)) return false;
    return pending.map((entry) => entry.id);
  }

  /// After a message is sent: nothing is pending any more.
  function clear() {
    pending.splice(0).forEach((entry) => entry.element.remove());
    $("pending").hidden = true;
  }

  /// Draws `message.media` into `container`: photos as thumbnails linking to the
  /// full size, video and sound as players. Only the server's own URLs are used.
  function render(message, container) {
    if (!Array.isArray(message.media) || message.media.length === 0) return;
    const box = document.createElement("div");
    box.className = "media";
    for (const media of message.media) {
      if (!/^[0-9a-f]{32}$/.test(media.id || "")) continue;
      const url = `/api/media/${media.id}`;
      const kind = (media.type || "").split("/")[0];
      let element;
      if (kind === "image") {
        element = document.createElement("a");
        element.href = url;
        element.target = "_blank";
        element.rel = "noopener";
        const image = document.createElement("img");
        image.src = media.thumbnail ? `${url}/thumbnail` : url;
        image.alt = media.name || "photo";
        image.loading = "lazy";
        if (media.width && media.height) {
          const scale = Math.min(1, 320 / Math.max(media.width, media.height));
          image.width = Math.round(media.width * scale);
          image.height = Math.round(media.height * scale);
        }
        element.append(image);
      } else if (kind === "video") {
        element = document.createElement("video");
        element.controls = true;
        element.preload = "metadata";
        element.src = url;
      } else {
        element = document.createElement("audio");
        element.controls = true;
        element.preload = "metadata";
        element.src = url;
      }
      element.classList.add(`media-${kind || "audio"}`);
      element.title = media.name || "";
      box.append(element);
    }
    container.append(box);
  }

  return { ids, clear, render, upload };
};
