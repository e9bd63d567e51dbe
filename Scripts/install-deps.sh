#!/usr/bin/env bash
# Installs the system packages Switchboard builds against, when missing:
# libmicrohttpd (HTTP server), ICU (names compared as a reader sees them:
# TR39 confusables), libvips (photos re-encoded without their metadata,
# thumbnails) and pkg-config (to find them). Debian/Ubuntu.
set -euo pipefail
missing=()
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
pkg-config --exists icu-i18n 2>/dev/null || missing+=(libicu-dev)
pkg-config --exists vips 2>/dev/null || missing+=(libvips-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v curl >/dev/null 2>&1 || missing+=(curl)
"$(dirname "$0")/apt-install.sh" "${missing[@]+"${missing[@]}"}"
