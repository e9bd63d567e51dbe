#!/usr/bin/env python3
"""At the open-file limit no port spins, and every port serves again after it. Usage:
    python3 Tests/Security/open_files_test.py .build/debug/switchboard

The real binary runs with RLIMIT_NOFILE at 256 and serves HTTPS, the line
port and --wss (TLS, a throwaway certificate). For each port, 400 clients
connect and hold on: past the limit the kernel refuses the server its
accepts (EMFILE). The server must then use next to no CPU (it waits for a
connection to close, as libmicrohttpd does; SwiftNIO's listeners asked
again at once and spun a core), and once those clients are gone it must
serve that port again (the HTTPS port did not, when it saw them all go in
one pass). The same after --max-connections is reached.
"""
import os, resource, signal, socket, ssl, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, failures, free_port, scratch_folder, wait_for  # noqa: E402

LIMIT = 256
CLIENTS = 400
ROUNDS = 5


def cpu_seconds(pid):
    """The process's user and system CPU time so far, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hold(port):
    """As many connections to port as the server's backlog takes (the rest time out)."""
    held = []
    for _ in range(CLIENTS):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=0.2))
        except OSError:
            break
    return held


def leave_at_once(server, held):
    """Closes every connection in held while the server is stopped (SIGSTOP), so that it sees
    them all gone in one pass: libmicrohttpd watches its listening socket again only at the start
    of a pass after a close, and the loop slept with nothing else to serve (before: the port
    accepted nobody again, every time under load)."""
    os.kill(server.pid, signal.SIGSTOP)
    for connection in held:
        connection.close()
    time.sleep(0.2)
    os.kill(server.pid, signal.SIGCONT)


def connection_limit(binary, folder):
    """--max-connections 20: 40 clients, 20 of them left waiting in the backlog; once all have gone,
    the port serves again."""
    http = free_port()
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{free_port()}",
                               "--db", ":memory:", "--admin-token", "T", "--max-connections", "20"],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "limit.log"), "w"))

    def served():
        try:
            with socket.create_connection(("127.0.0.1", http), timeout=3) as connection:
                connection.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{http}\r\n\r\n".encode())
                return connection.recv(100).startswith(b"HTTP/1.1 200")
        except OSError:
            return False

    try:
        check("--max-connections 20: the server starts", wait_for(served, 20))
        again = 0
        for _ in range(ROUNDS):
            held = hold(http)[:40]
            time.sleep(0.5)
            leave_at_once(server, held)
            again += wait_for(served, 10)
        check(f"--max-connections 20: 40 clients gone at once, and the port serves again ({ROUNDS} rounds)", again == ROUNDS, again)
    finally:
        server.terminate()
        server.wait(timeout=20)


def main(binary):
    folder = scratch_folder("switchboard-open-files-")
    key, cert = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    http, line, wss = free_port(), free_port(), free_port()
    log = open(os.path.join(folder, "server.log"), "w")
    server = subprocess.Popen([binary, "serve", "--http", f"127.0.0.1:{http}", "--tcp", f"127.0.0.1:{line}",
                               "--wss", f"127.0.0.1:{wss}", "--tls-cert", cert, "--tls-key", key, "--db", ":memory:",
                               "--admin-token", "T"],
                              stdout=subprocess.DEVNULL, stderr=log,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT)))
    context = ssl.create_default_context(cafile=cert)

    def answers(name, port):
        """Whether the port serves: HTTPS's /healthz, the line port's who:, wss's TLS handshake."""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=3) as connection:
                if name == "line":
                    connection.sendall(b"who:\n")
                    return connection.recv(100).startswith(b"who:")
                with context.wrap_socket(connection, server_hostname="127.0.0.1") as secured:
                    if name == "https":
                        secured.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                        return secured.recv(100).startswith(b"HTTP/1.1 200")
                    return True
        except OSError:
            return False

    try:
        check("the server starts with 256 open files", wait_for(lambda: answers("https", http), 20))
        for name, port in (("https", http), ("line", line), ("wss", wss)):
            held = hold(port)
            time.sleep(1)  # the accepts that fail have failed by now
            before = cpu_seconds(server.pid)
            time.sleep(3)
            spent = cpu_seconds(server.pid) - before
            check(f"{name}: {len(held)} connections at a limit of {LIMIT} open files, and the server idles "
                  f"({spent:.2f} s of CPU in 3 s; a spinning accept is 3)", len(held) > LIMIT and spent < 0.5, (len(held), spent))
            leave_at_once(server, held)
            check(f"{name}: serves again once they are gone", wait_for(lambda: answers(name, port), 10))
            # Whether the last pass saw every close is a race: more rounds, for a check that fails when it should.
            again = 0
            for _ in range(ROUNDS):
                leave_at_once(server, hold(port))
                again += wait_for(lambda: answers(name, port), 10)
            check(f"{name}: and after each of {ROUNDS} more rounds", again == ROUNDS, again)
        check("and HTTPS still serves", answers("https", http))
    finally:
        server.terminate()
        server.wait(timeout=20)
    connection_limit(binary, folder)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/switchboard")
    if failures:
        sys.exit(f"open files: {len(failures)} check(s) failed")
    print("open files: every check passed")
