#!/usr/bin/env bash
# Attachments' figures (printed, never asserted; they go to docs/BENCHMARKS.md):
# a 64 MiB video to 4 readers against nginx's sendfile, a 100 MiB upload
# against dd, a 12-megapixel photo's re-encoding and thumbnail.
#   Scripts/media-bench.sh                      # the release binary (built if missing)
#   BINARY=.build/debug/switchboard Scripts/media-bench.sh
# Installs nginx-light, wrk, ImageMagick and exiftool when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v nginx >/dev/null || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
command -v convert-im6.q16 >/dev/null || missing+=(imagemagick)
command -v exiftool >/dev/null || missing+=(libimage-exiftool-perl)
Scripts/apt-install.sh "${missing[@]+"${missing[@]}"}"
binary=${BINARY:-.build/release/switchboard}
if [ -z "${BINARY:-}" ] && [ ! -x "$binary" ]; then
  Scripts/install-deps.sh
  swift build -c release --product switchboard >&2
fi
python3 Scripts/media_bench.py "$binary"
