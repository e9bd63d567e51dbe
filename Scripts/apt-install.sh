#!/usr/bin/env bash
# Installs the given Debian packages (with sudo unless root). Callers pass only
# what is missing.
set -euo pipefail
[ $# -gt 0 ] || exit 0
echo "Installing: $*" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$@" >/dev/null
