#!/usr/bin/env bash
# What the browser and identity tests need, when missing: Debian's chromium and its
# chromedriver, and Selenium from PyPI (4.27.1: the newest whose dependencies
# the package mirror here carries).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # the TLS test's throwaway CA
# The media test's photos, video and voice: ImageMagick, exiftool (a phone's GPS and orientation), ffmpeg.
command -v convert-im6.q16 >/dev/null 2>&1 || missing+=(imagemagick)
command -v exiftool >/dev/null 2>&1 || missing+=(libimage-exiftool-perl)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
"$(dirname "$0")/apt-install.sh" "${missing[@]+"${missing[@]}"}"
python3 -c 'import selenium' 2>/dev/null || python3 -m pip install -q "selenium==4.27.1"
# PyJWT (with cryptography, for RS256 and ES256): the identity tests mint
# tokens with the ecosystem's standard library, to prove the server accepts them.
python3 -c 'import jwt, cryptography' 2>/dev/null || python3 -m pip install -q "pyjwt[crypto]"
# websockets: the media test's WebSocket client (an implementation not ours).
python3 -c 'import websockets' 2>/dev/null || python3 -m pip install -q "websockets"
# The push service in Tests/Push decrypts as a browser does, with an implementation of RFC 8188/8291 not ours.
python3 -c 'import http_ece, cryptography' 2>/dev/null || python3 -m pip install -q "http-ece"
