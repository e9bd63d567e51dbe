"""`switchboard backup` as an operator runs it, against a running server.

    python3 Tests/Backup/backup_test.py .build/debug/switchboard

A server with accounts, messages and uploads (a photo with its thumbnail, a
voice message, one upload whose file was lost, its thumbnail left) keeps taking publishes while
`switchboard backup --db ... --media-dir ... --to FOLDER` runs. Then a
second server is started on the backup, as the command says to, and must
serve what the first served: the messages up to the backup's moment with
the same ids, the files byte for byte, the accounts (the same password, the
same token), and a 404 for the upload that had no file. A backup into a
folder that holds something is refused and leaves it alone.
"""
import json, os, stat, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Media"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Security"))
from media_test import Server  # noqa: E402  (a server on free ports with its own database and media folder)
from security_test import check, failures  # noqa: E402
from checks import scratch_folder  # noqa: E402


def fetch(server, path, token):
    status, _, body = server.request("GET", path, token=token)
    return status, body


def main(binary):
    folder = scratch_folder("switchboard-backup-test-", lambda: failures)
    photo, voice = os.path.join(folder, "photo.jpg"), os.path.join(folder, "voice.webm")
    subprocess.run(["convert", "-size", "900x600", "gradient:blue-red", photo], check=True)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libopus", voice],
                   check=True)
    database = os.path.join(folder, "live.sqlite")
    live = Server(binary, folder, database=database)
    restored = None
    try:
        luke = live.account("luke")
        ids = []
        for path in (photo, voice, photo):
            status, body = live.form_upload(path, luke)
            check(f"{os.path.basename(path)} uploaded", status == 201, body)
            ids.append(json.loads(body)["media"])
        for index, media in enumerate(ids):
            status, _, body = live.request("POST", "/api/rooms/lobby/messages", {"text": f"attachment {index}", "media": [media]}, token=luke)
            check(f"the message with upload {index} is 201", status == 201, body)
        lost = ids[2]
        os.remove(os.path.join(live.media_dir, lost))  # a file lost from the folder: the backup must say so

        # Publishes go on while the backup runs.
        stop, acknowledged = threading.Event(), []
        def publish():
            while not stop.is_set():
                status, _, body = live.request("POST", "/api/rooms/lobby/messages", {"user": "han", "text": "during"})
                if status == 201:
                    acknowledged.append(json.loads(body)["id"])
        writer = threading.Thread(target=publish)
        writer.start()
        while len(acknowledged) < 20:
            time.sleep(0.005)
        started_after = max(acknowledged)
        target = os.path.join(folder, "backup")
        out = subprocess.run([binary, "backup", "--db", database, "--media-dir", live.media_dir, "--to", target],
                             capture_output=True, text=True, timeout=120)
        stop.set()
        writer.join()
        print("     " + out.stdout.strip().replace("\n", "\n     "))
        check("switchboard backup exits 0", out.returncode == 0, out.stderr)
        check("it names the upload whose file was lost", f"had no file (deleted since, or lost): {lost}" in out.stdout, out.stdout)
        check("it says how to restore",
              f"restore: switchboard serve --db {target}/switchboard.sqlite --media-dir {target}/media" in out.stdout, out.stdout)
        check("the backup folder is its owner's only (0700), the database too (0600)",
              stat.S_IMODE(os.stat(target).st_mode) == 0o700
              and stat.S_IMODE(os.stat(os.path.join(target, "switchboard.sqlite")).st_mode) == 0o600)
        files = sorted(os.listdir(os.path.join(target, "media")))
        check("the photo, its thumbnail, the voice message and the lost upload's thumbnail are copied; nothing else",
              files == sorted([ids[0], ids[0] + ".thumb", ids[1], lost + ".thumb"]), files)

        again = subprocess.run([binary, "backup", "--db", database, "--to", target], capture_output=True, text=True, timeout=60)
        check("a backup into a folder that holds one is refused (exit 1), saying why",
              again.returncode == 1 and "is not empty" in again.stderr, again.stderr)
        check("and leaves it as it was", sorted(os.listdir(target)) == ["media", "switchboard.sqlite"])

        # A server on the backup, as the command says.
        restored = Server(binary, folder, database=os.path.join(target, "switchboard.sqlite"), media_dir=os.path.join(target, "media"))
        _, _, body = restored.request("GET", "/api/rooms/lobby/messages?since=0&limit=1000")
        copied = json.loads(body)["messages"]
        _, _, body = live.request("GET", "/api/rooms/lobby/messages?since=0&limit=1000")
        served = json.loads(body)["messages"]
        check("the restored server serves every message acknowledged before the backup began",
              max(m["id"] for m in copied) >= started_after, f"{len(copied)} messages, acknowledged {started_after} before")
        check("with the same ids and texts as the live one, and no gap",
              [(m["id"], m["text"]) for m in copied] == [(m["id"], m["text"]) for m in served[:len(copied)]]
              and [m["id"] for m in copied] == list(range(1, len(copied) + 1)))
        check("the same token works on it (the server's key is in the backup)",
              restored.request("GET", "/api/me", token=luke)[0] == 200)
        check("and the same password", restored.request("POST", "/api/sessions", {"user": "luke", "password": "correct horse battery"})[0] == 201)

        # The live server went on after the backup: a client holds a cursor past the copy's last id.
        for index in range(3):
            live.request("POST", "/api/rooms/lobby/messages", {"user": "han", "text": f"after the backup {index}"})
        _, _, body = live.request("GET", "/api/rooms/lobby/messages?limit=1")
        cursor = json.loads(body)["messages"][-1]["id"]
        check("(the live server handed out ids after the backup)", cursor > max(m["id"] for m in copied), cursor)
        status, _, body = restored.request("POST", "/api/rooms/lobby/messages", {"user": "rey", "text": "after the restore"})
        first = json.loads(body).get("id", 0) if status == 201 else 0
        check("a message on the restored server takes an id past any the live one handed out", first > cursor, f"{first} after {cursor}")
        _, _, body = restored.request("GET", f"/api/rooms/lobby/messages?since={cursor}")
        check("so a client that resumes there from its cursor gets it, not skips it",
              [m["text"] for m in json.loads(body)["messages"]] == ["after the restore"], body[:200])
        log = open(os.path.join(folder, f"s{restored.http}.log")).read()
        check("the restored server says why its ids jumped", "is a backup's copy, started for the first time" in log, log[-300:])
        restored.stop()
        restored = Server(binary, folder, database=os.path.join(target, "switchboard.sqlite"), media_dir=os.path.join(target, "media"))
        status, _, body = restored.request("POST", "/api/rooms/lobby/messages", {"user": "rey", "text": "after a restart"})
        check("started again, it goes on from there: the ids move on once", status == 201 and json.loads(body)["id"] == first + 1, body)
        for path in (f"/api/media/{ids[0]}", f"/api/media/{ids[0]}/thumbnail", f"/api/media/{ids[1]}", f"/api/media/{lost}/thumbnail"):
            check(f"{path} is served byte for byte as the live server serves it", fetch(restored, path, luke) == fetch(live, path, luke))
        check("the upload that had no file is 404 on both", fetch(restored, f"/api/media/{lost}", luke)[0] == 404
              and fetch(live, f"/api/media/{lost}", luke)[0] == 404)
    finally:
        live.stop()
        if restored:
            restored.stop()
    print(f"{len(failures)} failure(s)" if failures else "all backup checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(sys.argv[1])
