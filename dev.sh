#!/usr/bin/env bash
# The two entry points of the README (each installs what it needs first, idempotently):
#   ./dev.sh serve   build the site and serve it on http://127.0.0.1:8080/ (PORT=... to change)
#   ./dev.sh test    build native + wasm and run every test: CTest native, CTest wasm (node), Playwright
set -euo pipefail
cd "$(dirname "$0")"
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn
JOBS=${JOBS:-2}

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$JOBS"
}
build_wasm() {
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j"$JOBS"
}

case "${1:-}" in
  serve)
    bash scripts/setup.sh
    GCSCOPE_BUILD_TESTS=OFF
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/wasm -j"$JOBS" --target site
    exec node scripts/serve.mjs --root build/wasm/site --port "${PORT:-8080}"
    ;;
  test)
    bash scripts/setup.sh
    echo "== native build"; build_native
    echo "== native tests"; ctest --test-dir build/native --output-on-failure -j"$JOBS"
    echo "== wasm build"; build_wasm
    echo "== wasm tests (node)"; ctest --test-dir build/wasm --output-on-failure
    echo "== browser tests (Playwright, Debian chromium)"; npx playwright test
    echo "== fuzz smoke (libFuzzer, ASan+UBSan, a few seconds per target)"; bash fuzz/run.sh smoke
    echo "== benchmark smoke (small inputs, no speed assertions)"; python3 bench/harness.py --quick --no-write > /dev/null
    echo "all test stages passed"
    ;;
  *)
    echo "usage: ./dev.sh serve | ./dev.sh test" >&2; exit 2 ;;
esac
