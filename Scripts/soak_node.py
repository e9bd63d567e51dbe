"""The soak's second node (Scripts/soak.sh --nodes 2): a `switchboard serve`
on the same PostgreSQL as the first, started, killed with SIGKILL and
started again by the soak's chaos; and that PostgreSQL stopped and started."""
import asyncio
import shlex
import signal
import subprocess
import time

from soak_clients import request


class SecondNode:
    def __init__(self, command, port, postgres_dir):
        self.command, self.port, self.postgres_dir = shlex.split(command), port, postgres_dir
        self.process = None
        # Where Scripts/postgres.sh put it: the first node's connections to
        # it are its pool, not counted as descriptors that could leak.
        with open(f"{postgres_dir}/port") as port_file:
            self.postgres_port = int(port_file.read())

    async def start(self):
        self.process = subprocess.Popen(self.command)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _ = await request(self.port, "GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the second node did not answer /healthz on :{self.port} in 30 s")

    def kill(self):
        """SIGKILL: no goodbye, nothing flushed that was not already stored."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    async def postgres(self, what):
        """Scripts/postgres.sh pause|resume: PostgreSQL stopped (its data kept) or started again."""
        process = await asyncio.create_subprocess_exec("Scripts/postgres.sh", what, self.postgres_dir,
                                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if await process.wait() != 0:
            raise RuntimeError(f"Scripts/postgres.sh {what} failed")
