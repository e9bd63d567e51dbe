#!/usr/bin/env python3
"""Attachments end to end, against the real binary, as curl, a browser's
form, a WebSocket client and nc would use them: photos (metadata removed,
orientation applied, thumbnail), video and voice; every refusal of the SPEC
with its status and code; who may read what (public room, conversation,
uploader, guest); Range, ETag, the download headers; raw TCP's
`[photo URL]`; the admin's usage and deletion; bodies that lie about their
length or stop halfway, and multipart bodies that are not what they say:
the server keeps serving and nothing half-written is left in --media-dir.
Test media are made with ImageMagick, exiftool and ffmpeg. Usage:
    python3 Tests/Media/media_test.py .build/debug/switchboard
"""
import json, os, shutil, socket, struct, subprocess, sys, threading, time, urllib.error, urllib.request, zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "TLS"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Security"))
from tls_test import free_port  # noqa: E402
from security_test import check, failures, rss_mb  # noqa: E402  (one list of failures, one way to read RSS)
from checks import fresh_database, scratch_folder  # noqa: E402


class Server:
    def __init__(self, binary, folder, *extra, database=None, media_dir=None):
        self.http, self.tcp = free_port(), free_port()
        self.media_dir = media_dir or os.path.join(folder, f"media{self.http}")
        self.process = subprocess.Popen(
            [binary, "serve", "--http", f"127.0.0.1:{self.http}", "--tcp", f"127.0.0.1:{self.tcp}",
             "--db", database or os.path.join(folder, f"s{self.http}.sqlite"), "--media-dir", self.media_dir, "--admin-token", "T", *extra],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, f"s{self.http}.log"), "w"))
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.http}/healthz", timeout=1)
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)

    def request(self, method, path, body=None, headers=None, token=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        all_headers = {"Content-Type": "application/json"} if raw is None else {}
        all_headers.update(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(f"http://127.0.0.1:{self.http}{path}", data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    def account(self, user):
        self.request("POST", "/api/accounts", {"user": user, "password": "correct horse battery"})
        status, _, body = self.request("POST", "/api/sessions", {"user": user, "password": "correct horse battery"})
        assert status in (200, 201), body
        return json.loads(body)["token"]

    def upload(self, path, token, content_type=None, name=None):
        """The raw body, as `curl --data-binary @FILE -H Content-Type:...`."""
        query = f"?name={urllib.request.quote(name)}" if name else ""
        headers = {"Content-Type": content_type} if content_type else {}
        return self.request("POST", f"/api/media{query}", raw=open(path, "rb").read(), headers=headers, token=token)

    def form_upload(self, path, token, *extra):
        """A browser form, as `curl -F file=@FILE`."""
        out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {token}", "-F", f"file=@{path}", *extra,
                              f"http://127.0.0.1:{self.http}/api/media"], capture_output=True, text=True, timeout=60)
        body, _, status = out.stdout.rpartition("\n")
        return int(status), body

    def leftovers(self):
        return sorted(name for name in os.listdir(self.media_dir) if name.startswith("tmp-"))


def code(body):
    try:
        return json.loads(body)["error"]["code"]
    except Exception:
        return body[:80]


def raw_exchange(port, head, body=b"", close_after=True, read=True):
    """Sends bytes on a socket of its own; returns what came back (or b'' when the server hung up)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(head + body)
    if close_after and not read:
        sock.close()
        return b""
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and b"Content-Length" in data.split(b"\r\n\r\n")[0]:
                header, _, rest = data.partition(b"\r\n\r\n")
                length = int([l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
                if len(rest) >= length:
                    break
    except (socket.timeout, ConnectionResetError):
        pass
    sock.close()
    return data


def make_media(folder):
    convert = shutil.which("convert-im6.q16") or "/usr/bin/convert"
    files = {}
    files["photo"] = os.path.join(folder, "photo.jpg")
    subprocess.run([convert, "-size", "1200x800", "gradient:blue-red", files["photo"]], check=True)
    # A phone's photo: GPS position, a comment, and "rotate 90° clockwise to show".
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=51.5", "-GPSLatitudeRef=N", "-GPSLongitude=0.12",
                    "-GPSLongitudeRef=W", "-Orientation#=6", "-Comment=secret-comment", "-XMP:Creator=secret-creator",
                    files["photo"]], check=True)
    files["png"] = os.path.join(folder, "alpha.png")
    subprocess.run([convert, "-size", "64x48", "xc:transparent", "-fill", "red", "-draw", "circle 20,20 30,30", files["png"]], check=True)
    files["gif"] = os.path.join(folder, "anim.gif")
    subprocess.run([convert, "-delay", "10", "-size", "40x30", "xc:red", "xc:blue", "xc:green", "-loop", "0", files["gif"]], check=True)
    files["webp"] = os.path.join(folder, "photo.webp")
    subprocess.run([convert, "-size", "500x300", "gradient:green-yellow", files["webp"]], check=True)
    ffmpeg = ["ffmpeg", "-loglevel", "error", "-y"]
    files["mp4"] = os.path.join(folder, "clip.mp4")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=2", "-pix_fmt", "yuv420p", files["mp4"]], check=True)
    files["webm"] = os.path.join(folder, "clip.webm")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-c:v", "libvpx", files["webm"]], check=True)
    files["ogg"] = os.path.join(folder, "voice.ogg")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libopus", files["ogg"]], check=True)
    files["voice.webm"] = os.path.join(folder, "voice.webm")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libopus", files["voice.webm"]], check=True)
    files["m4a"] = os.path.join(folder, "voice.m4a")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", files["m4a"]], check=True)
    files["wav"] = os.path.join(folder, "voice.wav")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", files["wav"]], check=True)
    files["mp3"] = os.path.join(folder, "voice.mp3")
    subprocess.run(ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "libmp3lame", files["mp3"]], check=True)
    files["html"] = os.path.join(folder, "page.html")
    open(files["html"], "w").write("<html><script>alert(1)</script></html>")
    files["svg"] = os.path.join(folder, "image.svg")
    open(files["svg"], "w").write('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    # Small files, large pictures: a PNG of 10,001 x 10,000 one-bit pixels (13 KB), and a 1 KB GIF of
    # 30 frames of 2000 x 2000 (each frame one pixel on the canvas; libvips decodes every frame whole).
    files["huge.png"] = os.path.join(folder, "huge.png")
    with open(files["huge.png"], "wb") as f:
        f.write(png_of(10001, 10000))
    files["bomb.gif"] = os.path.join(folder, "bomb.gif")
    with open(files["bomb.gif"], "wb") as f:
        f.write(gif_of(2000, 2000, 30))
    files["slow.gif"] = os.path.join(folder, "slow.gif")   # 16 megapixels in 4 frames: about a second in libvips
    with open(files["slow.gif"], "wb") as f:
        f.write(gif_of(2000, 2000, 4))
    files["big"] = os.path.join(folder, "big.jpg")
    with open(files["big"], "wb") as f:
        f.write(open(files["photo"], "rb").read())
        f.write(os.urandom(3 * 1024 * 1024))
    return files


def png_of(width, height):
    """A one-bit greyscale PNG, all black: a few KB for any size."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = (b"\0" + bytes((width + 7) // 8)) * height
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def gif_of(width, height, frames):
    """An animated GIF on a canvas of width x height whose every frame is one pixel (about 20 bytes a frame)."""
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + bytes([0, 0, 0, 255, 255, 255]))
    out += bytes([0x21, 0xFF, 11]) + b"NETSCAPE2.0" + bytes([3, 1, 0, 0, 0])
    for frame in range(frames):
        out += bytes([0x21, 0xF9, 4, 0, 2, 0, 0, 0]) + b"\x2c" + struct.pack("<HHHHB", frame, 0, 1, 1, 0)
        out += bytes([2, 2, 0x44, 0x01, 0])   # LZW, 2-bit codes: clear, pixel 0, end
    return bytes(out + b";")


def tcp_line_client(port, name):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"iam:{name}\n".encode())
    return sock


def read_lines_until(sock, needle, seconds=5):
    data, deadline = b"", time.time() + seconds
    sock.settimeout(0.5)
    while time.time() < deadline and needle.encode() not in data:
        try:
            data += sock.recv(65536)
        except socket.timeout:
            pass
    return data.decode(errors="replace")


def main(binary):
    folder = scratch_folder("switchboard-media-test-", lambda: failures)
    files = make_media(folder)
    server = Server(binary, folder, "--max-upload-mib", "2", "--upload-quota-mib", "3")
    try:
        run(server, files, folder)
    finally:
        server.stop()
    big = Server(binary, folder, "--max-upload-mib", "200")
    try:
        memory(big, folder)
    finally:
        big.stop()
    postgres = os.environ.get("SWITCHBOARD_TEST_POSTGRES")
    if postgres:
        two_nodes(binary, folder, files, postgres)
    else:
        print("(two nodes on PostgreSQL skipped: SWITCHBOARD_TEST_POSTGRES not set; Scripts/test.sh starts one)")
    print(f"{len(failures)} failure(s)" if failures else "all media checks passed")
    sys.exit(1 if failures else 0)


def run(server, files, folder):
    luke, leia, han = server.account("luke"), server.account("leia"), server.account("han")

    # --- uploads of every accepted kind, by content
    status, body = server.form_upload(files["photo"], luke)
    check("a photo by form (curl -F) is 201", status == 201, body)
    photo = json.loads(body)
    check("the photo's orientation is applied (1200x800 rotated 90°: 800x1200)",
          (photo.get("width"), photo.get("height")) == (800, 1200), body)
    check("the photo's answer names type, size, name, url and thumbnail",
          photo.get("type") == "image/jpeg" and photo.get("name") == "photo.jpg" and photo.get("url") == f"/api/media/{photo['media']}"
          and photo.get("thumbnail") == f"/api/media/{photo['media']}/thumbnail" and len(photo["media"]) == 32, body)
    status, headers, kept = server.request("GET", f"/api/media/{photo['media']}", token=luke)
    check("the uploader reads the photo before it is attached", status == 200, status)
    exif = subprocess.run(["exiftool", "-s", "-a", "-G1", "-"], input=kept, capture_output=True).stdout.decode()
    check("the kept photo has no GPS position, comment or XMP", "GPS" not in exif and "secret" not in exif and "XMP" not in exif
          and b"secret" not in kept, exif)
    check("the kept photo has no orientation left to apply", "Orientation" not in exif or "Horizontal (normal)" in exif, exif)
    status, headers, thumb = server.request("GET", f"/api/media/{photo['media']}/thumbnail", token=luke)
    size = subprocess.run(["identify", "-format", "%w %h", "-"], input=thumb, capture_output=True).stdout.decode()
    check("the thumbnail is at most 320 px on its longer side", status == 200 and max(map(int, size.split())) <= 320, size)

    kinds = {"png": ("image/png", None), "gif": ("image/gif", None), "webp": ("image/webp", None), "mp4": ("video/mp4", None),
             "webm": ("video/webm", None), "ogg": ("audio/ogg", None), "voice.webm": ("audio/webm", "audio/webm;codecs=opus"),
             "m4a": ("audio/mp4", "audio/mp4"), "wav": ("audio/wav", None), "mp3": ("audio/mpeg", None)}
    uploaded = {}
    for name, (expected, declared) in kinds.items():
        status, _, body = server.upload(files[name], luke, content_type=declared, name=os.path.basename(files[name]))
        result = json.loads(body) if status == 201 else {}
        uploaded[name] = result.get("media")
        check(f"{name} is accepted as {expected}", status == 201 and result.get("type") == expected, f"{status} {body[:200]}")
    check("a transparent PNG gets a PNG thumbnail",
          server.request("GET", f"/api/media/{uploaded['png']}/thumbnail", token=luke)[1].get("content-type") == "image/png")
    video = json.loads(server.upload(files["mp4"], luke)[2])
    check("a video has no thumbnail", video.get("thumbnail") is None)
    check("a video's width and height are read from its container (MP4)", (video.get("width"), video.get("height")) == (320, 240), video)
    webm = json.loads(server.upload(files["webm"], luke)[2])
    check("and from a WebM's", (webm.get("width"), webm.get("height")) == (160, 120), webm)
    # A box whose 64-bit length is near 2^63, after the first: its end overflowed, and the trap ended the server.
    lying = os.path.join(os.path.dirname(files["mp4"]), "lying.mp4")
    with open(lying, "wb") as out:
        out.write(b"\x00\x00\x00\x10ftypisom\x00\x00\x00\x00" + b"\x00\x00\x00\x01free\x7f" + b"\xff" * 7 + bytes(64))
    status, _, body = server.upload(lying, luke, content_type="video/mp4")
    check("an MP4 whose box's length overflows is a video of no known size, and the server lives on",
          status == 201 and "width" not in json.loads(body) and server.request("GET", "/healthz")[0] == 200, f"{status} {body[:160]}")

    # --- refusals, each with its status and code
    status, _, body = server.upload(files["photo"], None, content_type="image/jpeg")
    check("a guest's upload is 401 unauthorized", status == 401 and code(body) == "unauthorized", f"{status} {body[:100]}")
    for name, declared in (("html", "text/html"), ("svg", "image/svg+xml"), ("html", "image/jpeg")):
        status, _, body = server.upload(files[name], luke, content_type=declared)
        check(f"{name} declared {declared} is 415 unsupported_media_type", status == 415 and code(body) == "unsupported_media_type",
              f"{status} {body[:100]}")
    status, _, body = server.upload(files["photo"], luke, content_type="image/png")
    check("a JPEG declared image/png (the content contradicts it) is 415", status == 415 and code(body) == "unsupported_media_type", status)
    status, _, body = server.upload(files["mp4"], luke, content_type="audio/mpeg")
    check("an MP4 declared audio/mpeg is 415", status == 415, status)
    status, _, body = server.upload(files["huge.png"], luke)
    check("a 13 KB PNG of 100,010,000 pixels is 415, too large", status == 415 and b"too large" in body, f"{status} {body[:160]}")
    status, _, body = server.upload(files["bomb.gif"], luke)
    check("a 1 KB GIF of 30 frames of 2000 x 2000 (120 megapixels together) is 415, too large, saying the limit",
          status == 415 and json.loads(body)["error"]["message"]
          == "The image is too large: more than 100000000 pixels (an animation's frames together).", f"{status} {body[:160]}")
    # The photo queue is one at a time: while a slow photo of leia's is in it, ten more of hers wait and an eleventh
    # is refused (429) rather than queued.
    answers = []
    def send(path):
        answers.append(server.upload(path, leia))
    slow = threading.Thread(target=send, args=(files["slow.gif"],))
    slow.start()
    time.sleep(0.5)
    senders = [threading.Thread(target=send, args=(files["png"],)) for _ in range(11)]
    for sender in senders:
        sender.start()
    for sender in senders + [slow]:
        sender.join()
    statuses = sorted(status for status, _, _ in answers)
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    check("twelve photos of one user at once: one in the queue and ten waiting are kept, one is 429 rate_limited with Retry-After",
          statuses == [201] * 11 + [429] and code(refused[0][1]) == "rate_limited" and refused[0][0].get("retry-after") == "1",
          f"{statuses} {refused[:1]}")
    status, _, body = server.upload(files["png"], leia)
    check("... and once they are done she uploads again", status == 201, f"{status} {body[:100]}")
    # (curl, as a user would: it waits for the answer to its headers, `Expect: 100-continue`, before a large body.)
    body, status = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {luke}", "-H", "Content-Type: image/jpeg",
                                   "--data-binary", "@" + files["big"], f"http://127.0.0.1:{server.http}/api/media"],
                                  capture_output=True, text=True).stdout.rpartition("\n")[::2]
    check("over --max-upload-mib is 413 too_large", status == "413" and code(body) == "too_large", f"{status} {body[:100]}")
    status, body = server.form_upload(files["big"], luke)
    check("over --max-upload-mib by form is 413 too_large", status == 413 and code(body) == "too_large", f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/media", raw=b"", headers={"Content-Type": "image/jpeg"}, token=luke)
    check("an empty upload is 400", status == 400, f"{status} {body[:100]}")
    # Quota: 3 MiB for all of han's uploads together.
    filler = os.path.join(folder, "filler.wav")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=300:duration=6.5", "-ar", "48000",
                    "-ac", "2", filler], check=True)  # 1.2 MiB: two fit in 3 MiB, three do not
    statuses = [server.upload(filler, han)[0] for _ in range(2)]
    status, _, body = server.upload(filler, han)
    check("past --upload-quota-mib is 413 quota_exceeded", statuses == [201, 201] and status == 413 and code(body) == "quota_exceeded",
          f"{statuses} {status} {body[:120]}")
    # The refusal says what is used to a tenth of a MiB (it said "2 MiB" of 2.4).
    message = json.loads(body)["error"]["message"] if code(body) == "quota_exceeded" else ""
    used = f"{2 * os.path.getsize(filler) / 1048576:.1f} MiB"
    check("... and says how much is in use", message.endswith(f"; {used} are in use.") and "at most 3 MiB together" in message,
          f"{message!r}, used {used}")

    # --- multipart bodies that are not what they say
    # A form part with neither file name nor type (`-F file=<FILE`): the content decides, not the form's own type.
    out = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {luke}", "-F", f"file=<{files['png']}",
                          f"http://127.0.0.1:{server.http}/api/media"], capture_output=True, text=True).stdout
    body, _, status = out.rpartition("\n")
    check("a form part with no file name or type is taken by its content", status == "201" and json.loads(body).get("name") == "upload.png",
          f"{status} {body[:120]}")
    status, body = server.form_upload(files["photo"], luke, "-F", f"file=@{files['png']}")
    check("a form with two files is 400", status == 400 and code(body) == "bad_upload", f"{status} {body[:120]}")
    body, status = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {luke}", "-F", "other=@" + files["photo"],
                                   f"http://127.0.0.1:{server.http}/api/media"], capture_output=True, text=True).stdout.rpartition("\n")[::2]
    check("a form with no 'file' part is 400", status == "400", f"{status} {body[:120]}")
    head = (f"POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAuthorization: Bearer {luke}\r\n"
            f"Content-Type: multipart/form-data\r\nContent-Length: 10\r\n\r\n").encode()
    answer = raw_exchange(server.http, head, b"0123456789")
    check("a multipart body with no boundary is 400", answer.startswith(b"HTTP/1.1 400"), answer[:100])
    boundary = "XyZ"
    huge = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + "a" * 70000 + "\"\r\n\r\nxx\r\n--"
            + boundary + "--\r\n").encode()
    head = (f"POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAuthorization: Bearer {luke}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(huge)}\r\n\r\n").encode()
    answer = raw_exchange(server.http, head, huge)
    check("a part header of 70 kB is 400 (or the connection closed), never kept", answer == b"" or answer.startswith(b"HTTP/1.1 400"),
          answer[:100])

    # --- mutated multipart bodies (libmicrohttpd's post processor and our sink, black-box)
    mutated_multipart(server, luke, open(files["png"], "rb").read())

    # --- names: path, NUL, control characters, 2,000 characters
    for given, expect in (("../../etc/passwd", "passwd"), ("a\u0000b.jpg", "ab.jpg"), ("x" * 2000, "x" * 200), ("..", "upload.jpg")):
        status, body = subprocess.run(["curl", "-s", "-w", "\n%{http_code}", "-H", f"Authorization: Bearer {luke}", "-H", "Content-Type: image/jpeg",
                                       "--data-binary", "@" + files["photo"], f"http://127.0.0.1:{server.http}/api/media?name="
                                       + urllib.request.quote(given, safe="")], capture_output=True, text=True).stdout.rpartition("\n")[::2]
        name = json.loads(status).get("name") if body == "201" else None
        check(f"the name {given[:20]!r} is kept as {expect[:20]!r}", name == expect, f"{body} {status[:120]}")

    # --- bodies that lie or stop halfway: nothing kept, the server keeps serving
    before = set(os.listdir(server.media_dir))
    head = (f"POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAuthorization: Bearer {luke}\r\n"
            f"Content-Type: image/jpeg\r\nContent-Length: 1500000\r\n\r\n").encode()
    raw_exchange(server.http, head, open(files["photo"], "rb").read()[:100000], read=False)
    head = (f"POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAuthorization: Bearer {luke}\r\n"
            f"Content-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    part = b"--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n" + b"\xff\xd8\xff" + b"x" * 50000
    raw_exchange(server.http, head, hex(len(part))[2:].encode() + b"\r\n" + part + b"\r\n", read=False)
    time.sleep(1.0)
    check("uploads cut off halfway leave no temporary file", server.leftovers() == [], server.leftovers())
    check("uploads cut off halfway keep nothing under an id", set(os.listdir(server.media_dir)) == before,
          set(os.listdir(server.media_dir)) ^ before)
    check("the server keeps serving", server.request("GET", "/healthz")[0] == 200)

    # --- attaching: only the uploader; unknown ids; at most 10
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "mine now", "media": [photo["media"]]}, token=leia)
    check("attaching someone else's upload is 403 not_your_media", status == 403 and code(body) == "not_your_media", f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "x", "media": ["0" * 32]}, token=luke)
    check("an unknown upload is 404 no_such_media", status == 404 and code(body) == "no_such_media", f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "x", "media": ["../etc"]}, token=luke)
    check("an id that is not an id is 404 no_such_media", status == 404 and code(body) == "no_such_media", f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "x", "media": [photo["media"]] * 11}, token=luke)
    check("eleven attachments are 422", status == 422, f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "x", "media": "nope"}, token=luke)
    check("media that is not an array is 400", status == 400, f"{status} {body[:100]}")

    # --- reading before it is attached: the uploader only, anyone else 404
    for who, token in (("leia", leia), ("a guest", None)):
        status, _, body = server.request("GET", f"/api/media/{photo['media']}", token=token)
        check(f"{who} cannot read an upload no message carries (404)", status == 404 and code(body) == "no_such_media", status)

    # --- publishing: every way in sees it
    tcp = tcp_line_client(server.tcp, "nc-user")
    read_lines_until(tcp, "has joined")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": "look", "media": [photo["media"], uploaded["ogg"]]},
                                     token=luke)
    check("a publish with media is 201", status == 201, f"{status} {body[:200]}")
    message = json.loads(body) if status == 201 else {}
    media = message.get("media") or [{}]
    check("the stored message carries the attachments with their url and thumbnail",
          media[0].get("id") == photo["media"] and media[0].get("url") == f"/api/media/{photo['media']}"
          and media[0].get("thumbnail") and media[0].get("width") == 800 and len(media) == 2 and "thumbnail" not in media[1], body[:300])
    lines = read_lines_until(tcp, "look")
    base = f"http://127.0.0.1:{server.http}"
    check("raw TCP shows luke:look [photo URL] [voice URL]",
          f"luke:look [photo {base}/api/media/{photo['media']}] [voice {base}/api/media/{uploaded['ogg']}]" in lines, lines)
    tcp.close()
    status, _, body = server.request("GET", f"/api/rooms/lobby/messages?since={message.get('id', 1) - 1}")
    polled = json.loads(body)
    polled = polled.get("messages", polled) if isinstance(polled, dict) else polled
    check("a short poll carries the media", any(m.get("media") and m["media"][0]["id"] == photo["media"] for m in polled), body[:200])
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"media": [uploaded["mp4"]]}, token=luke)
    check("a message with media and no text is 201", status == 201 and json.loads(body)["text"] == "", f"{status} {body[:100]}")
    status, _, body = server.request("POST", "/api/rooms/lobby/messages", {"text": ""}, token=luke)
    check("a message with neither text nor media is still refused", status == 422, status)
    ws_publish(server, luke, uploaded["voice.webm"])

    # --- reading once carried by a public room: anyone
    for who, token in (("leia", leia), ("a guest", None)):
        status, headers, body = server.request("GET", f"/api/media/{photo['media']}", token=token)
        check(f"{who} reads a photo a public room carries", status == 200 and body == kept, status)
    check("the download's headers", headers.get("content-type") == "image/jpeg" and headers.get("x-content-type-options") == "nosniff"
          and headers.get("content-security-policy") == "sandbox" and "immutable" in headers.get("cache-control", "")
          and headers.get("accept-ranges") == "bytes" and 'filename="photo.jpg"' in headers.get("content-disposition", "")
          and headers.get("etag"), headers)

    # --- Range and ETag
    url = f"/api/media/{photo['media']}"
    status, headers, body = server.request("GET", url, headers={"Range": "bytes=10-19"})
    check("Range bytes=10-19 is 206 with those 10 bytes", status == 206 and body == kept[10:20]
          and headers.get("content-range") == f"bytes 10-19/{len(kept)}", f"{status} {headers.get('content-range')}")
    status, headers, body = server.request("GET", url, headers={"Range": "bytes=-5"})
    check("a suffix range gives the last bytes", status == 206 and body == kept[-5:], status)
    status, headers, body = server.request("GET", url, headers={"Range": f"bytes={len(kept) + 5}-"})
    check("a range past the end is 416 with bytes */size", status == 416 and headers.get("content-range") == f"bytes */{len(kept)}", status)
    for header in ("bytes=20-10", "bytes=0-1,5-6", "pages=1-2", "bytes=x-y", "bytes=" + "9" * 40 + "-"):
        status, _, body = server.request("GET", url, headers={"Range": header})
        check(f"Range {header[:20]!r} is ignored: the whole file (200)", status == 200 and body == kept, status)
    etag = server.request("GET", url)[1].get("etag")
    check("If-None-Match with the ETag is 304", server.request("GET", url, headers={"If-None-Match": etag})[0] == 304)
    status, _, body = server.request("GET", url, headers={"Range": "bytes=10-19", "If-Range": etag})
    check("a range If-Range this ETag is 206", status == 206 and body == kept[10:20], status)
    status, _, body = server.request("GET", url, headers={"Range": "bytes=10-19", "If-Range": '"another-version"'})
    check("a range If-Range another ETag is the whole file (200)", status == 200 and body == kept, status)
    big_video = server.request("GET", f"/api/media/{uploaded['mp4']}", token=luke)
    check("a video is served whole", big_video[0] == 200 and big_video[2] == open(files["mp4"], "rb").read(), big_video[0])

    # --- a conversation's media: its members (and the uploader) only
    status, _, body = server.request("POST", "/api/conversations", {"members": ["han"]}, token=luke)
    room = json.loads(body).get("room")
    status, body = server.form_upload(files["png"], luke)
    secret = json.loads(body)["media"]
    status, _, body = server.request("POST", f"/api/rooms/{room}/messages", {"text": "just us", "media": [secret]}, token=luke)
    check("a photo sent in a conversation is 201", status == 201, f"{status} {body[:100]}")
    check("its member reads it", server.request("GET", f"/api/media/{secret}", token=han)[0] == 200)
    status, _, body = server.request("GET", f"/api/media/{secret}", token=leia)
    check("someone outside the conversation gets 404, not 403", status == 404, status)
    check("a guest gets 404", server.request("GET", f"/api/media/{secret}/thumbnail")[0] == 404)
    check("the same upload forwarded to a public room is 201",
          server.request("POST", "/api/rooms/lobby/messages", {"text": "fwd", "media": [secret]}, token=luke)[0] == 201)
    check("once forwarded to a public room, anyone reads it", server.request("GET", f"/api/media/{secret}", token=leia)[0] == 200)

    # --- the operator's
    status, _, body = server.request("GET", "/api/admin/media", headers={"Authorization": "Bearer T"})
    usage = json.loads(body) if status == 200 else {}
    users = {u["user"]: u for u in usage.get("users", [])}
    check("the admin sees storage in all and per user", status == 200 and usage.get("bytes", 0) > 0 and "luke" in users and "han" in users
          and usage["bytes"] == sum(u["bytes"] for u in usage["users"]), body[:200])
    check("the admin's usage needs the token", server.request("GET", "/api/admin/media", token=luke)[0] == 401)
    status, _, _ = server.request("DELETE", f"/api/admin/media/{uploaded['wav']}", headers={"Authorization": "Bearer T"})
    check("the admin deletes an upload (204)", status == 204, status)
    check("a deleted upload is 404 to its uploader", server.request("GET", f"/api/media/{uploaded['wav']}", token=luke)[0] == 404)
    check("its file is gone from --media-dir", not os.path.exists(os.path.join(server.media_dir, uploaded["wav"])))
    check("deleting it again is 404", server.request("DELETE", f"/api/admin/media/{uploaded['wav']}", headers={"Authorization": "Bearer T"})[0] == 404)
    status, _, body = server.request("GET", "/metrics")
    check("/metrics has the storage in use", status == 200 and b"switchboard_media_bytes" in body, body[-300:])
    check("no temporary file is left after all of it", server.leftovers() == [], server.leftovers())


def mutated_multipart(server, token, png, rounds=300):
    """Random cuts, flips and insertions in a valid form: every answer is a status line
    (or the connection closes), the server stays healthy, no temporary file stays,
    and only a form that still holds a whole PNG part can be 201."""
    import random
    rng = random.Random(20261126)
    boundary = "----sbfuzz7MA4YWxkTrZu0gW"
    valid = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
             f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
             ).encode() + png + f"\r\n--{boundary}--\r\n".encode()
    statuses = {}
    for _ in range(rounds):
        body = bytearray(valid)
        for _ in range(rng.randint(1, 4)):
            what = rng.random()
            at = rng.randrange(len(body))
            if what < 0.3:
                body[at] = rng.randrange(256)
            elif what < 0.5:
                del body[at:at + rng.randint(1, 40)]
            elif what < 0.7:
                body[at:at] = rng.choice([b"\r\n", b"--", boundary.encode(), b"\x00" * 8, b"Content-Disposition: form-data; name=\"file\"\r\n\r\n"])
            else:
                body = body[:at]
        head = (f"POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        answer = raw_exchange(server.http, head, bytes(body))
        status = answer[9:12].decode(errors="replace") if answer.startswith(b"HTTP/1.1 ") else "closed"
        statuses[status] = statuses.get(status, 0) + 1
    print(f"     {rounds} mutated forms: {dict(sorted(statuses.items()))}")
    check("mutated forms get an answer of their own (201, 400, 413, 415) or a closed connection",
          set(statuses) <= {"201", "400", "413", "415", "closed"}, statuses)
    check("the server is healthy after them", server.request("GET", "/healthz")[0] == 200)
    time.sleep(0.5)
    check("and keeps no temporary file of them", server.leftovers() == [], server.leftovers())


def ws_publish(server, token, media_id):
    """A WebSocket client publishes a voice message; an SSE reader sees it."""
    try:
        from websockets.sync.client import connect
    except ImportError:
        check("the websockets package is installed (Scripts/install-test-deps.sh)", False)
        return
    sse = socket.create_connection(("127.0.0.1", server.http), timeout=10)
    sse.sendall(f"GET /api/rooms/lobby/events HTTP/1.1\r\nHost: 127.0.0.1:{server.http}\r\nAccept: text/event-stream\r\n\r\n".encode())
    time.sleep(0.3)
    with connect(f"ws://127.0.0.1:{server.http}/api/rooms/lobby/ws", additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        ws.send(json.dumps({"media": [media_id], "ref": 7}))
        answer = None
        for _ in range(10):
            frame = json.loads(ws.recv(timeout=5))
            if frame.get("ack") == 7 or frame.get("ref") == 7:
                answer = frame
                break
        check("a WebSocket publish with media only is acknowledged", answer is not None and "error" not in answer, answer)
        ws.send(json.dumps({"text": "x", "media": ["0" * 32], "ref": 8}))
        for _ in range(10):
            frame = json.loads(ws.recv(timeout=5))
            if frame.get("ack") == 8 or frame.get("ref") == 8:
                answer = frame
                break
        check("a WebSocket publish of an unknown upload is refused no_such_media", "no_such_media" in json.dumps(answer), answer)
    seen = read_lines_until(sse, media_id)
    check("an SSE reader sees the WebSocket's voice message", media_id in seen and "audio/webm" in seen, seen[-300:])
    sse.close()


def two_nodes(binary, folder, files, url):
    """On PostgreSQL the files are in the database: a file uploaded on one node is
    served by the other (which has never seen it), and deleted on both."""
    database = fresh_database(url, "sb_media_")
    a = Server(binary, folder, database=database)
    b = Server(binary, folder, database=database)
    try:
        luke = a.account("luke")
        status, body = a.form_upload(files["mp4"], luke)
        video = json.loads(body)["media"] if status == 201 else None
        check("an upload on node A is 201", status == 201, body[:100])
        status, body = a.form_upload(files["photo"], luke)
        photo = json.loads(body)["media"] if status == 201 else None
        status, _, body = b.request("POST", "/api/rooms/lobby/messages", {"text": "from b", "media": [video, photo]},
                                    token=luke)
        check("node B attaches it to a message (the record is shared)", status == 201, f"{status} {body[:100]}")
        status, headers, got = b.request("GET", f"/api/media/{video}")
        check("node B serves node A's upload, byte for byte", status == 200 and got == open(files["mp4"], "rb").read(), status)
        status, _, part = b.request("GET", f"/api/media/{video}", headers={"Range": "bytes=100-199"})
        check("and its ranges", status == 206 and part == open(files["mp4"], "rb").read()[100:200], status)
        status, _, thumb = b.request("GET", f"/api/media/{photo}/thumbnail")
        check("and the photo's thumbnail", status == 200 and thumb[:3] == b"\xff\xd8\xff", status)
        check("node B's folder now caches it", os.path.exists(os.path.join(b.media_dir, video)))
        status, _, _ = b.request("DELETE", f"/api/admin/media/{video}", headers={"Authorization": "Bearer T"})
        check("deleted on node B", status == 204, status)
        check("node A no longer serves it", a.request("GET", f"/api/media/{video}")[0] == 404)
        left = subprocess.run(["psql", database, "-Atqc", f"SELECT count(*) FROM switchboard_media_chunks WHERE media_id = '{video}'"],
                              capture_output=True, text=True).stdout.strip()
        check("its bytes are gone from the database", left == "0", left)
    finally:
        a.stop()
        b.stop()


def memory(server, folder):
    """A 100 MiB upload streams to disk: the server's memory barely moves."""
    token = server.account("luke")
    path = os.path.join(folder, "large.mp4")
    with open(path, "wb") as f:
        f.write(b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
        f.write(os.urandom(1024 * 1024))
        block = os.urandom(1024 * 1024)
        for _ in range(99):
            f.write(block)
    before = rss_mb(server.process.pid)
    peak = [before]
    curl = subprocess.Popen(["curl", "-s", "-o", os.path.join(folder, "large.out"), "-w", "%{http_code}", "-H", f"Authorization: Bearer {token}",
                             "-H", "Content-Type: video/mp4", "--data-binary", "@" + path, f"http://127.0.0.1:{server.http}/api/media"],
                            stdout=subprocess.PIPE, text=True)
    while curl.poll() is None:
        peak.append(rss_mb(server.process.pid))
        time.sleep(0.02)
    status = curl.stdout.read()
    print(f"     100 MiB upload: RSS {before:.1f} MB before, {max(peak):.1f} MB at most")
    check("a 100 MiB upload is 201", status == "201", status)
    check("a 100 MiB upload grows the server's memory by less than 16 MiB", max(peak) - before < 16, f"{max(peak) - before:.1f} MB")
    answer = json.loads(open(os.path.join(folder, "large.out")).read() or "{}")
    kept = os.path.join(server.media_dir, answer.get("media", "none"))
    check("the kept file is the upload, byte for byte", os.path.exists(kept) and os.path.getsize(kept) == os.path.getsize(path)
          and open(kept, "rb").read(1 << 20) == open(path, "rb").read(1 << 20))


if __name__ == "__main__":
    main(sys.argv[1])
