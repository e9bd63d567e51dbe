#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the server.
# Usage: Scripts/serve.sh [switchboard serve options...]
#   e.g. Scripts/serve.sh --http 127.0.0.1:8080 --db switchboard.sqlite
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build -c release --product switchboard >&2
exec .build/release/switchboard serve "$@"
