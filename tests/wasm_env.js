// The Catch2 tests compiled to wasm run in node, where the C environment is emscripten's own: the
// variables the tests read (tests/support.h) are copied into it from node's before main() runs.
Module['preRun'] = (Module['preRun'] || []).concat(function () {
  for (const name of ['GCSCOPE_CORPUS_DIR']) if (process.env[name]) ENV[name] = process.env[name];
});
