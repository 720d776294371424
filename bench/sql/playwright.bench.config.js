// Browser benchmark of the SQL panel (not part of CI), in Debian's chromium:
//   npx playwright test -c bench/sql/playwright.bench.config.js            (an event stream of 10^6 rows)
//   BENCH_JVM_LOG=bench/out/jvm-unified-g1.log npx playwright test -c bench/sql/playwright.bench.config.js
//   BENCH_STACKPROF_DUMP=bench/out/stackprof-object-260000.dump npx playwright test -c bench/sql/playwright.bench.config.js
const path = require('path');
const base = require('../../playwright.config.js');
const root = path.join(__dirname, '../..');
module.exports = {
  ...base,
  testDir: __dirname,
  testMatch: 'sql_bench.spec.js',
  timeout: 900_000,
  webServer: base.webServer.map((s) => ({ ...s, cwd: root })),
};
