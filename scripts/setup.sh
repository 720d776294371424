#!/usr/bin/env bash
# Idempotent machine + project set-up for a Debian 12 machine (run as root, or with sudo available).
# Every step checks whether it is already done, so a second run takes about a second.
#   1. a deb-src entry (zlib's source package is how the wasm build gets zlib: emscripten ports download)
#   2. Debian packages (compilers, emscripten, chromium for the browser tests, ruby for the recorder)
#   3. zlib compiled with emcc into .deps/wasm, header-only deps copied beside it
#   4. npm packages (Playwright drives Debian's chromium; it never downloads its own browser)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS=$ROOT/.deps
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

log() { printf '[setup] %s\n' "$*"; }

PACKAGES=(build-essential cmake pkg-config git ca-certificates zlib1g-dev catch2 nlohmann-json3-dev
  clang libclang-rt-14-dev emscripten dpkg-dev bzip2 xz-utils chromium fonts-liberation python3
  ruby ruby-stackprof ruby-heapy time nodejs clang-format)

# --- 1. deb-src entry ------------------------------------------------------------------------
if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  log "adding a deb-src entry for Debian bookworm"
  $SUDO tee /etc/apt/sources.list.d/gcscope-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  NEED_UPDATE=1
fi

# --- 2. Debian packages ----------------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# A node from another repository (e.g. nodesource) satisfies the nodejs need; Debian's npm conflicts with it.
if command -v node >/dev/null 2>&1; then
  tmp=(); for p in "${missing[@]}"; do [ "$p" = nodejs ] || tmp+=("$p"); done; missing=("${tmp[@]+"${tmp[@]}"}")
fi
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ] || [ -n "${NEED_UPDATE:-}" ]; then
  log "apt-get update"
  $SUDO apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- 3. zlib for wasm, from Debian's source package ---------------------------------------------
if [ ! -f "$DEPS/wasm/lib/libz.a" ]; then
  log "building zlib for wasm from Debian's source package"
  rm -rf "$DEPS/src" && mkdir -p "$DEPS/src" "$DEPS/wasm"
  ( cd "$DEPS/src" && apt-get source -qq zlib >/dev/null 2>&1 || { $SUDO apt-get update -qq && apt-get source -qq zlib; } )
  zdir=$(find "$DEPS/src" -maxdepth 1 -type d -name 'zlib-*' | head -n 1)
  ( cd "$zdir" && export NODE_PATH=/usr/share/nodejs \
    && CFLAGS=-O2 emconfigure ./configure --static --prefix="$DEPS/wasm" >/dev/null \
    && emmake make -j2 libz.a >/dev/null && emmake make install >/dev/null )
fi
mkdir -p "$DEPS/wasm/include"
# Header-only dependencies for emcc: copied, because -I/usr/include would pull glibc's headers.
[ -d "$DEPS/wasm/include/nlohmann" ] || cp -r /usr/include/nlohmann "$DEPS/wasm/include/"
[ -d "$DEPS/wasm/include/catch2" ] || cp -r /usr/include/catch2 "$DEPS/wasm/include/"

# --- 4. npm packages -------------------------------------------------------------------------
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
log "ready"
