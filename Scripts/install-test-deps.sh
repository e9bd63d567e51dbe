#!/usr/bin/env bash
# What the browser tests need, when missing: Debian's chromium and its
# chromedriver, and Selenium from PyPI (4.27.1: the newest whose dependencies
# the package mirror here carries).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q "selenium==4.27.1"
