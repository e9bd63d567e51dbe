# Sourced by the benchmark and soak scripts (after they `cd` to the
# repository): the helpers each of them needs.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# cpu_seconds PID: the user + system seconds a process has run (/proc/PID/stat).
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$1/stat"; }
