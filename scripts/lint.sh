#!/usr/bin/env bash
# The lint stage of ./dev.sh test: fails on any violation.
#   - clang-format (.clang-format) over the C++ of wasm/, tests/ and fuzz/: the files must be as the
#     formatter writes them (fix with: clang-format -i FILE...);
#   - ESLint (eslint.config.mjs) over the page, the browser and node tests, the benchmarks and the
#     node scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "clang-format: $(clang-format --version)"
git ls-files -z 'wasm/*.cpp' 'wasm/*.h' 'tests/*.cpp' 'tests/*.h' 'fuzz/*.cpp' 'fuzz/*.h' \
  | xargs -0 clang-format --dry-run --Werror

npx --no-install eslint web e2e bench tests 'scripts/*.mjs' playwright.config.js eslint.config.mjs
echo "lint: clean"
