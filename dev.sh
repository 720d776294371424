#!/usr/bin/env bash
# The two entry points of the README (each installs what it needs first, idempotently):
#   ./dev.sh serve   build the site and serve it on http://127.0.0.1:8080/ (PORT=... to change)
#   ./dev.sh test    lint (clang-format, ESLint), build native + wasm and run every test: CTest native,
#                    CTest wasm (node), Playwright, fuzz smoke, benchmark smoke (`./dev.sh test lint
#                    native ...` runs only those stages)
# Many tests compare against the shared corpus (real inputs with peers' expected results, outside this
# repository): GCSCOPE_CORPUS_DIR, else ../shared/corpus beside the checkout. Without it, `test` says
# where it is expected and how to get it, runs the tests that need only the repository, and ends with
# a line naming the skipped suites; GCSCOPE_REQUIRE_CORPUS=1 (.ci/run) makes its absence a failure.
set -euo pipefail
cd "$(dirname "$0")"
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn
JOBS=${JOBS:-2}
GCSCOPE_CORPUS_DIR=$(realpath -m "${GCSCOPE_CORPUS_DIR:-../shared/corpus}")
export GCSCOPE_CORPUS_DIR
CORPUS_PARTS=(heap jvm prof trace tuner)   # its top folders, each read by some tests

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$JOBS"
}
build_wasm() {
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j"$JOBS"
}

# Whether the corpus is there (all its top folders); if not, says where and how to get it.
check_corpus() {
  local missing=() d
  for d in "${CORPUS_PARTS[@]}"; do [ -d "$GCSCOPE_CORPUS_DIR/$d" ] || missing+=("$d/"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  cat <<MSG
== the shared corpus is missing: expected at $GCSCOPE_CORPUS_DIR (absent: ${missing[*]})
   It holds the real inputs with peers' expected results that many tests compare against; it is not
   part of this repository. Put it at ../shared/corpus beside this checkout, or point
   GCSCOPE_CORPUS_DIR at it. CI checks it out from the repository that its variable CORPUS_REPO
   names (that repository's corpus/ folder; see .github/workflows/ci.yml).
MSG
  return 1
}

# The test stages; without the corpus each leaves out the tests labelled `corpus` and adds what it
# left out to `skipped`.
skipped=()
only_repo=()
stage_lint() {
  echo "== lint (clang-format, ESLint)"; bash scripts/lint.sh
}
stage_native() {
  echo "== native build"; build_native
  echo "== native tests"; ctest --test-dir build/native --output-on-failure -j"$JOBS" "${only_repo[@]}"
  [ ${#only_repo[@]} -eq 0 ] && return 0
  local names; names=$(ctest --test-dir build/native -N -L corpus | sed -n 's/^ *Test *#[0-9]*: //p')
  skipped+=("native Catch2 test cases tagged [corpus] ($(grep -vc '_corpus$' <<<"$names"))")
  mapfile -t -O ${#skipped[@]} skipped < <(grep '_corpus$' <<<"$names")
}
stage_wasm() {
  echo "== wasm build"; build_wasm
  echo "== wasm tests (node)"; ctest --test-dir build/wasm --output-on-failure "${only_repo[@]}"
  [ ${#only_repo[@]} -eq 0 ] && return 0
  mapfile -t -O ${#skipped[@]} skipped < <(ctest --test-dir build/wasm -N -L corpus | sed -n 's/^ *Test *#[0-9]*: //p')
}
stage_browser() {
  # Without the corpus, the tests that ask e2e/helpers.js for a corpus file skip themselves.
  echo "== browser tests (Playwright, Debian chromium)"; npx playwright test
  [ ${#only_repo[@]} -eq 0 ] && return 0
  local spec
  for spec in $(grep -l '\bcorpus(' e2e/*.spec.js); do skipped+=("the corpus tests of $spec"); done
}
stage_fuzz() {
  echo "== fuzz smoke (libFuzzer, ASan+UBSan, a few seconds per target)"; bash fuzz/run.sh smoke
}
stage_bench() {
  if [ ${#only_repo[@]} -ne 0 ]; then skipped+=("benchmark smoke"); return 0; fi
  echo "== benchmark smoke (small inputs, no speed assertions)"; python3 bench/harness.py --quick --no-write > /dev/null
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
    shift
    stages=("$@"); [ ${#stages[@]} -gt 0 ] || stages=(lint native wasm browser fuzz bench)
    for st in "${stages[@]}"; do
      case $st in lint|native|wasm|browser|fuzz|bench) ;; *) echo "unknown stage $st" >&2; exit 2 ;; esac
    done
    if ! check_corpus; then
      if [ "${GCSCOPE_REQUIRE_CORPUS:-0}" = 1 ]; then echo "GCSCOPE_REQUIRE_CORPUS=1: failing"; exit 1; fi
      echo "   Running the tests that need only the repository."
      only_repo=(-LE corpus)
    fi
    bash scripts/setup.sh
    for st in "${stages[@]}"; do "stage_$st"; done
    if [ ${#skipped[@]} -eq 0 ]; then
      echo "all test stages passed: ${stages[*]}"
    else
      echo "passed: ${stages[*]}, without the shared corpus ($GCSCOPE_CORPUS_DIR); SKIPPED ${#skipped[@]} suites: $(printf '%s; ' "${skipped[@]}" | sed 's/; $//')"
    fi
    ;;
  *)
    echo "usage: ./dev.sh serve | ./dev.sh test" >&2; exit 2 ;;
esac
