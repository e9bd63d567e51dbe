#!/usr/bin/env python3
"""What an operator can type for each numeric option of `switchboard serve`,
against the real binary. A value outside its range (a huge number, 1e300,
nan, inf) stops the start with the option's name and range (exit 64); the
top and bottom of each range start a server that then serves what they
govern. Values the parser took used to fail later: the first edit under
`--edit-window 9223372036854775807` trapped, as did the second sign-in
under `--sign-in-rate 1e-300`; under a `--tcp-keepalive` over Linux's
32,767 every raw TCP client was reset as it connected. Usage:
    python3 Tests/Security/options_test.py .build/debug/switchboard
"""
import os, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from security_test import check, failures, request, start  # noqa: E402

OUT_OF_RANGE = {
    "--tcp-flush-ms": ["0", "10001"], "--tcp-keepalive": ["0", "32768", "86400", "9223372036854775807"],
    "--tcp-idle-timeout": ["0", "9223372036854775807"], "--keepalive": ["0", "1e300", "inf", "nan"],
    "--max-connections": ["0", "9223372036854775807"], "--threads": ["0", "257"], "--idle-timeout": ["-1", "4294967296"],
    "--max-body-bytes": ["0", "9223372036854775807"], "--wake-batch": ["0", "9223372036854775807"],
    "--connection-memory-kib": ["4", "4096"], "--store-timeout": ["0", "1e300", "nan"],
    "--max-text-bytes": ["0", "9223372036854775807"], "--edit-window": ["-1", "9223372036854775807"],
    "--max-group-members": ["1", "9223372036854775807"], "--session-ttl": ["59", "1e300", "inf", "nan"],
    "--publish-rate": ["0", "1e-300", "inf", "nan"], "--publish-burst": ["0.5", "1e300"],
    "--sign-in-rate": ["-1", "1e300", "nan"], "--sign-up-rate": ["inf"], "--room-rate": ["1e7"],
    "--max-connections-per-address": ["-1", "9223372036854775807"], "--webhook-backlog": ["0", "9223372036854775807"],
    "--publish-hook-timeout-ms": ["0", "60001"], "--max-upload-mib": ["0", "4097"], "--upload-quota-mib": ["0", "9223372036854775807"],
}


def refused(binary, folder):
    for option, values in OUT_OF_RANGE.items():
        for value in values:
            try:
                run = subprocess.run([binary, "serve", "--http", "127.0.0.1:0", "--tcp", "off", "--db", ":memory:",
                                      "--media-dir", os.path.join(folder, "media"), option, value],
                                     capture_output=True, text=True, timeout=10)
                code, said = run.returncode, run.stderr
            except subprocess.TimeoutExpired:  # it started, and serves with the value
                code, said = None, "still serving after 10 s"
            check(f"{option} {value}: the server does not start, and names the option",
                  code == 64 and option in said and "Fatal error" not in said, f"exit {code}: {said.strip()[-200:]}")


def line(sock):
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


def at_the_edges(binary, folder):
    process, http, tcp = start(binary, folder, "--tcp-keepalive", "32767", "--tcp-idle-timeout", "604800",
                               "--keepalive", "86400", "--max-connections", "1000000", "--idle-timeout", "604800",
                               "--edit-window", "315360000", "--session-ttl", "315360000", "--sign-in-rate", "1e-300",
                               "--publish-rate", "0.000001", "--publish-burst", "2", "--max-text-bytes", "1048576",
                               "--max-body-bytes", "67108864", "--wake-batch", "65536", "--store-timeout", "600",
                               "--max-connections-per-address", "1000000", "--webhook-backlog", "10000000",
                               "--media-dir", os.path.join(folder, "media-edges"))
    try:
        status, _, _ = request(http, "POST", "/api/accounts", {"user": "edge", "password": "correct horse battery"})
        check("the top of every range: an account is made", status == 201, status)
        signed = request(http, "POST", "/api/sessions", {"user": "edge", "password": "correct horse battery"})
        check("a session of ten years is given", signed[0] == 201, signed[0])
        token = __import__("json").loads(signed[2])["token"] if signed[0] == 201 else ""
        again = request(http, "POST", "/api/sessions", {"user": "edge", "password": "wrong"})
        check("a second sign-in under --sign-in-rate 1e-300 is 429 with a Retry-After of a year at most",
              again[0] == 429 and 1 <= int(again[1].get("Retry-After", "0")) <= 31_536_000, f"{again[0]} {again[1]}")
        auth = {"Authorization": f"Bearer {token}"}
        status, _, body = request(http, "POST", "/api/rooms/lobby/messages", {"text": "first"}, auth)
        check("a publish is stored", status == 201, status)
        message = __import__("json").loads(body)["id"] if status == 201 else 0
        edited = request(http, "PATCH", f"/api/rooms/lobby/messages/{message}", {"text": "edited"}, auth)
        check("an edit under a ten-year --edit-window is taken", edited[0] == 200, edited[0])
        limited = request(http, "POST", "/api/rooms/lobby/messages", {"text": "second"}, auth)
        check("a publish after the burst of 2 (a publish, an edit) under --publish-rate 0.000001 is 429 with its Retry-After",
              limited[0] == 429 and 1 <= int(limited[1].get("Retry-After", "0")) <= 31_536_000, f"{limited[0]} {limited[1]}")
        with socket.create_connection(("127.0.0.1", tcp), timeout=10) as sock:
            sock.sendall(b"ping:edge\n")
            check("a raw TCP client under the most --tcp-keepalive Linux takes is answered", line(sock) == "pong:edge\n")
        check("the server serves on", request(http, "GET", "/healthz")[0] == 200 and process.poll() is None)
    finally:
        process.terminate()
        process.wait(timeout=30)


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        refused(binary, folder)
        try:
            at_the_edges(binary, folder)
        except OSError as error:  # the server hung up or went away: it died of a value it took
            check("the server at the top of every range serves on", False, repr(error))
    if failures:
        print(f"options: {len(failures)} failed: {', '.join(failures)}")
        sys.exit(1)
    print("options: every check passed")


if __name__ == "__main__":
    main()
