#!/usr/bin/env bash
# Installs the system packages Switchboard builds against, when missing:
# libmicrohttpd (HTTP server) and pkg-config (to find it). Debian/Ubuntu.
set -euo pipefail
missing=()
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
