#!/usr/bin/env python3
"""--max-connections-per-address against the real binary, from an address
that is not loopback (loopback is not limited), over TLS on all three ports:
HTTPS, the line port (--tcp-tls) and --wss. Usage:
    python3 Tests/Security/address_limit_test.py .build/debug/switchboard

The server listens on every address; the client connects to this machine's
own non-loopback address (its source is then that address, as a remote
client's would be its own). One address holds 3 connections: its fourth, on
any port, is closed unanswered, loopback is still served, and a connection
that ends makes room. A machine with no address but loopback skips it.
"""
import os, socket, ssl, subprocess, sys, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import check, failures, free_port, scratch_folder, wait_for  # noqa: E402


def own_address():
    """This machine's first IPv4 address that is not loopback, or None."""
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            fields = line.split()
            if "inet" in fields:
                return fields[fields.index("inet") + 1].split("/")[0]
        return None
    except FileNotFoundError:  # no iproute2: hostname -I lists the addresses too
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
        return next((a for a in found if "." in a and not a.startswith("127.")), None)


def main(binary):
    address = own_address()
    if address is None:
        print("skipped: this machine has no address but loopback to connect from")
        return
    folder = scratch_folder("switchboard-address-limit-")
    key, cert = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", f"/CN={address}", "-addext", f"subjectAltName=IP:{address},IP:127.0.0.1"],
                   check=True, capture_output=True)
    https, line, wss = free_port(), free_port(), free_port()
    server = subprocess.Popen([binary, "serve", "--http", f"0.0.0.0:{https}", "--tcp", f"0.0.0.0:{line}", "--tcp-tls",
                               "--wss", f"0.0.0.0:{wss}", "--tls-cert", cert, "--tls-key", key, "--db", ":memory:",
                               "--admin-token", "T", "--max-connections-per-address", "3"],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "server.log"), "w"))
    context = ssl.create_default_context(cafile=cert)
    context.check_hostname = False

    def tls(host, port):
        """A TLS connection from this machine to host:port, or None when the server closed it unanswered."""
        try:
            return context.wrap_socket(socket.create_connection((host, port), timeout=5), server_hostname=host)
        except (ssl.SSLError, ConnectionError, socket.timeout):
            return None

    def served(host):
        """Whether an HTTPS request to host is answered 200."""
        held = tls(host, https)
        if held is None:
            return False
        try:
            held.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            return held.recv(12) == b"HTTP/1.1 200"
        except OSError:
            return False
        finally:
            held.close()

    try:
        check("the server starts", wait_for(lambda: served("127.0.0.1"), 60))
        stream = tls(address, https)
        stream.sendall(f"GET /api/rooms/lobby/events HTTP/1.1\r\nHost: {address}\r\n\r\n".encode())
        check("an HTTPS stream from the address is served", stream.recv(12) == b"HTTP/1.1 200")
        chat = tls(address, line)
        chat.sendall(b"iam:dave\n")
        check("a line client over TLS from the address is served", chat.recv(64) == b"dave has joined\n")
        socket_wss = tls(address, wss)
        check("a connection to the wss port from the address is taken", socket_wss is not None)
        for name, port in (("HTTPS", https), ("the line port", line), ("the wss port", wss)):
            check(f"its fourth connection, on {name}, is closed unanswered", tls(address, port) is None)
        check("loopback is served all the while (not limited)", all(served("127.0.0.1") for _ in range(5)))
        metrics = urllib.request.urlopen(urllib.request.Request(f"https://127.0.0.1:{https}/metrics"), context=context, timeout=5).read()
        check("/metrics counts the three refusals", b'switchboard_connections_refused_total{reason="per_address"} 3' in metrics, metrics[-300:])
        stream.close()
        check("once one of its connections ends, the address is served again", wait_for(lambda: served(address), 5))
        chat.close()
        socket_wss.close()
    finally:
        server.terminate()
        server.wait(10)
    print(f"{len(failures)} failure(s)" if failures else "all address-limit checks passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(sys.argv[1])
