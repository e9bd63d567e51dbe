#!/usr/bin/env python3
"""Attachments' figures, printed (never asserted): run by Scripts/media-bench.sh.

1. A 64 MiB video served to 4 concurrent readers (wrk, 10 s): requests per
   second against nginx serving the same file from the same disk with
   `sendfile on`, in the same run; the server's RSS while it serves.
2. A 100 MiB upload (curl --data-binary): seconds and MB/s against `dd` of
   the same bytes to the same disk (conv=fsync), and the server's RSS growth.
3. A 12-megapixel JPEG from a phone (EXIF orientation and GPS): the upload's
   answer time (metadata removed, rotated, thumbnail, synced, recorded)
   against the same bytes as a voice upload (no image work), and the RSS peak.
Usage: python3 Scripts/media_bench.py BINARY
"""
import json, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, threading, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


class Sampler(threading.Thread):
    """The highest RSS of `pid` while it runs."""
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def stop(self):
        self.running = False
        self.join()
        return self.peak


def request(port, method, path, body=None, headers=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers or {})
    with urllib.request.urlopen(req, timeout=120) as r:
        return r.status, r.read()


def wrk(url, seconds=10, connections=4):
    out = subprocess.run(["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds}s", "--latency", url],
                         capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    transfer = re.search(r"Transfer/sec:\s+([\d.]+)(\w+)", out)
    scale = {"B": 1 / 1048576, "KB": 1 / 1024, "MB": 1, "GB": 1024}[transfer.group(2)]
    return rps, float(transfer.group(1)) * scale


def main(binary):
    folder = tempfile.mkdtemp(prefix="switchboard-media-bench-")
    os.chmod(folder, 0o755)  # nginx's workers (not root) read the video below it
    http = free_port()
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{free_port()}",
                               "--db", os.path.join(folder, "db.sqlite"), "--media-dir", os.path.join(folder, "media"),
                               "--max-upload-mib", "200", "--admin-token", "T", "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nginx_dir = os.path.join(folder, "nginx")
    os.makedirs(os.path.join(nginx_dir, "www"))
    nginx_port = free_port()
    try:
        for _ in range(300):
            try:
                request(http, "GET", "/healthz")
                break
            except Exception:
                time.sleep(0.1)
        request(http, "POST", "/api/accounts", json.dumps({"user": "bench", "password": "correct horse battery"}).encode(),
                {"Content-Type": "application/json"})
        token = json.loads(request(http, "POST", "/api/sessions", json.dumps({"user": "bench", "password": "correct horse battery"}).encode(),
                                   {"Content-Type": "application/json"})[1])["token"]
        auth = {"Authorization": f"Bearer {token}"}
        print(f"machine: {os.cpu_count()} cores, {os.uname().release}; nginx {subprocess.run(['nginx', '-v'], capture_output=True, text=True).stderr.strip().split('/')[-1]}")

        # --- 1. a 64 MiB video to 4 readers, against nginx's sendfile
        video = os.path.join(nginx_dir, "www", "video.mp4")
        with open(video, "wb") as f:
            f.write(b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
            block = os.urandom(1 << 20)
            f.write(block[: (1 << 20) - 24])
            for _ in range(63):
                f.write(block)
        status, body = request(http, "POST", "/api/media?name=video.mp4", open(video, "rb").read(), {**auth, "Content-Type": "video/mp4"})
        media = json.loads(body)["media"]
        request(http, "POST", "/api/rooms/lobby/messages", json.dumps({"text": "the video", "media": [media]}).encode(),
                {**auth, "Content-Type": "application/json"})
        open(os.path.join(nginx_dir, "nginx.conf"), "w").write(f"""
worker_processes 2;
pid {nginx_dir}/nginx.pid;
error_log {nginx_dir}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    server {{ listen 127.0.0.1:{nginx_port}; root {nginx_dir}/www; }}
}}""")
        os.chmod(video, 0o644)
        subprocess.run(["nginx", "-c", f"{nginx_dir}/nginx.conf", "-p", nginx_dir], check=True)
        time.sleep(0.5)
        with urllib.request.urlopen(f"http://127.0.0.1:{nginx_port}/video.mp4") as r:
            assert len(r.read()) == os.path.getsize(video), "nginx serves the whole video"
        urls = {"switchboard": f"http://127.0.0.1:{http}/api/media/{media}", "nginx": f"http://127.0.0.1:{nginx_port}/video.mp4"}
        for url in urls.values():
            wrk(url, seconds=2)  # warm the page cache and both servers
        results = {}
        for run in range(3):
            for name, url in urls.items():
                sampler = Sampler(server.pid) if name == "switchboard" else None
                if sampler:
                    sampler.start()
                rps, mbps = wrk(url)
                peak = sampler.stop() if sampler else None
                results.setdefault(name, []).append((rps, mbps, peak))
        sb = statistics.median(r[0] for r in results["switchboard"])
        ng = statistics.median(r[0] for r in results["nginx"])
        peak = max(r[2] for r in results["switchboard"])
        print("\n64 MiB video, 4 concurrent readers, wrk 10 s (median of 3 runs, alternating):")
        print(f"  switchboard {sb:8.1f} req/s ({statistics.median(r[1] for r in results['switchboard']):7.0f} MiB/s), RSS at most {peak:.1f} MB")
        print(f"  nginx       {ng:8.1f} req/s ({statistics.median(r[1] for r in results['nginx']):7.0f} MiB/s), sendfile on, 2 workers")
        print(f"  ratio switchboard / nginx: {sb / ng:.2f} (goal >= 0.8); RSS goal < 100 MB")

        # --- 2. a 100 MiB upload against dd of the same bytes to the same disk
        upload = os.path.join(folder, "upload.mp4")
        with open(upload, "wb") as f:
            f.write(b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
            for _ in range(100):
                f.write(os.urandom(1 << 20))
        size_mb = os.path.getsize(upload) / 1048576
        subprocess.run(["cat", upload], stdout=subprocess.DEVNULL)  # in the page cache, for both
        dd_times, up_times, growth = [], [], []
        for run in range(3):
            target = os.path.join(folder, f"dd-{run}")
            started = time.monotonic()
            subprocess.run(["dd", f"if={upload}", f"of={target}", "bs=1M", "conv=fsync"], capture_output=True, check=True)
            dd_times.append(time.monotonic() - started)
            os.remove(target)
            before = rss_mb(server.pid)
            sampler = Sampler(server.pid)
            sampler.start()
            started = time.monotonic()
            out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", f"Authorization: Bearer {token}",
                                  "-H", "Content-Type: video/mp4", "--data-binary", f"@{upload}", f"http://127.0.0.1:{http}/api/media"],
                                 capture_output=True, text=True).stdout
            up_times.append(time.monotonic() - started)
            growth.append(sampler.stop() - before)
            assert out == "201", out
        dd_s, up_s = statistics.median(dd_times), statistics.median(up_times)
        print(f"\n100 MiB upload (curl --data-binary, loopback; median of 3):")
        print(f"  switchboard {up_s:6.2f} s = {size_mb / up_s:6.0f} MiB/s (streamed to disk, synced, renamed, recorded); RSS grew {max(growth):.1f} MB at most")
        print(f"  dd          {dd_s:6.2f} s = {size_mb / dd_s:6.0f} MiB/s (bs=1M conv=fsync, same disk)")
        print(f"  ratio switchboard / dd throughput: {dd_s / up_s:.2f}; RSS goal < 16 MiB growth")

        # --- 3. a 12-megapixel phone photo
        convert = shutil.which("convert-im6.q16") or "/usr/bin/convert"
        photo = os.path.join(folder, "phone.jpg")
        subprocess.run([convert, "-size", "4000x3000", "plasma:fractal", "-quality", "92", photo], check=True)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Orientation#=6", "-GPSLatitude=51.5", "-GPSLatitudeRef=N", photo], check=True)
        data = open(photo, "rb").read()
        as_voice = b"ID3\x04\x00\x00\x00\x00\x00\x00" + data[10:]
        image_ms, plain_ms, peaks = [], [], []
        for run in range(5):
            before = rss_mb(server.pid)
            sampler = Sampler(server.pid)
            sampler.start()
            started = time.monotonic()
            status, body = request(http, "POST", "/api/media?name=phone.jpg", data, {**auth, "Content-Type": "image/jpeg"})
            image_ms.append((time.monotonic() - started) * 1000)
            peaks.append(sampler.stop() - before)
            started = time.monotonic()
            request(http, "POST", "/api/media?name=same-bytes.mp3", as_voice, {**auth, "Content-Type": "audio/mpeg"})
            plain_ms.append((time.monotonic() - started) * 1000)
        answer = json.loads(body)
        print(f"\n12-megapixel JPEG ({len(data) / 1048576:.1f} MiB, EXIF orientation 6 and GPS; median of 5):")
        print(f"  upload answered in {statistics.median(image_ms):.0f} ms; the same bytes as a voice upload (no image work) {statistics.median(plain_ms):.0f} ms")
        print(f"  so the re-encoding and thumbnail take about {statistics.median(image_ms) - statistics.median(plain_ms):.0f} ms; "
              f"RSS grew {max(peaks):.1f} MB at most; kept {answer['width']}x{answer['height']}, {answer['size'] / 1048576:.1f} MiB")
    finally:
        if os.path.exists(os.path.join(nginx_dir, "nginx.pid")):
            subprocess.run(["nginx", "-c", f"{nginx_dir}/nginx.conf", "-p", nginx_dir, "-s", "stop"], capture_output=True)
        server.send_signal(signal.SIGTERM)
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1])
