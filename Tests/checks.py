"""What the Python end-to-end tests share: a check that records failures and prints one line,
a free loopback port, and waiting for a condition (never a timed assertion: a bound on how long
to wait for something that must happen)."""
import socket
import time

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f' ({detail})'}", flush=True)
    if not ok:
        failures.append(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
