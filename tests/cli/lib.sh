# The prelude the CLI test scripts share (sourced, not run): G the gcscope binary under test, ROOT the
# checkout, C the shared corpus (GCSCOPE_CORPUS_DIR, else ../shared/corpus beside the checkout), tmp a
# scratch folder removed on exit, and check NAME CONDITION, which counts CONDITION (evaluated) as a
# pass or prints "FAIL: NAME". A script ends with `finish LABEL`: the counts, and its exit status.
G=${GCSCOPE:?path to the gcscope binary}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
C=${GCSCOPE_CORPUS_DIR:-$ROOT/../shared/corpus}
fail=0; pass=0
check() { if eval "$2"; then pass=$((pass+1)); else echo "FAIL: $1"; fail=$((fail+1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
finish() { echo "$1: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
