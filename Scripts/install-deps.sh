#!/usr/bin/env bash
# Installs the system packages Switchboard builds against, when missing:
# libmicrohttpd (HTTP server) and pkg-config (to find it). Debian/Ubuntu.
set -euo pipefail
missing=()
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v curl >/dev/null 2>&1 || missing+=(curl)
"$(dirname "$0")/apt-install.sh" "${missing[@]+"${missing[@]}"}"
