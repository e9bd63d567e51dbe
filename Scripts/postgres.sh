#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the scale-out tests and benchmarks, from
# Debian's packages (installed if missing), run as an unprivileged user in a
# fresh data directory on a free loopback port. Nothing else on the machine
# is touched, and nothing persists.
#
#   Scripts/postgres.sh start DIR   # prints the URL (postgres://...) on stdout
#   Scripts/postgres.sh stop DIR    # fast shutdown, removes DIR
#   Scripts/postgres.sh pause DIR   # stop it, keeping its data (the database "going away")
#   Scripts/postgres.sh resume DIR  # start it again on the same port and data
set -euo pipefail
usage="usage: postgres.sh start|stop|pause|resume DIR"
command="${1:?$usage}"
dir="${2:?$usage}"
here="$(cd "$(dirname "$0")" && pwd)"

bindir() {
    local found
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
    [ -n "$found" ] && [ -x "$found/initdb" ] && echo "$found"
}

# PostgreSQL refuses to run as root: run it as a user of its own.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "$owner" -- "$@"
    else
        "$@"
    fi
}
owner="$(id -un)"
if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    id -u "$owner" >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/false "$owner"
fi

case "$command" in
start)
    if ! bindir >/dev/null; then
        "$here/apt-install.sh" postgresql >&2
    fi
    bin="$(bindir)" || { echo "PostgreSQL could not be installed" >&2; exit 3; }
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    chown -R "$owner" "$dir" 2>/dev/null || true
    as_owner "$bin/initdb" -D "$dir/data" -U switchboard --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    chown "$owner" "$dir/port" 2>/dev/null || true
    ;;
stop|pause)
    bin="$(bindir)"
    dir="$(cd "$dir" && pwd)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    [ "$command" = stop ] && rm -rf "$dir"
    exit 0
    ;;
resume)
    bin="$(bindir)"
    dir="$(cd "$dir" && pwd)"
    port="$(cat "$dir/port")"
    ;;
*)
    echo "$usage" >&2; exit 2 ;;
esac

# max_connections: every node opens up to 10 (pool, listener); the tests run several.
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/data -c max_connections=200 -c fsync=on" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
echo "postgres://switchboard@127.0.0.1:$port/postgres"
