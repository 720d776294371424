// Browser benchmark (not part of CI): the page's worker analyzing a big heap dump in Debian's chromium.
//   BENCH_DUMP=/tmp/gcscope-bench-heap/app_1000mb.heap.json npx playwright test -c bench/heap/playwright.bench.config.js
const path = require('path');
const base = require('../../playwright.config.js');
const root = path.join(__dirname, '../..');
module.exports = {
  ...base,
  testDir: __dirname,
  testMatch: 'browser_bench.spec.js',
  timeout: 600_000,
  webServer: base.webServer.map((s) => ({ ...s, cwd: root })),
};
