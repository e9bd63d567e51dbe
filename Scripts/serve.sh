#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the server.
# Usage: Scripts/serve.sh [switchboard serve options...]
#   e.g. Scripts/serve.sh --http 127.0.0.1:8080 --db switchboard.sqlite
# The server runs in the caller's folder, so relative paths given to it
# (--db, --tls-cert, --tls-key, --jwt-public-key) mean what they say there.
set -euo pipefail
repository="$(cd "$(dirname "$0")/.." && pwd)"
"$repository/Scripts/install-deps.sh"
swift build --package-path "$repository" -c release --product switchboard >&2
exec "$repository/.build/release/switchboard" serve "$@"
