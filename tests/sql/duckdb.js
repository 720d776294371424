// DuckDB (npm @duckdb/node-api) for the tests that read gcscope's tables with SQL, and the CLI runs
// they read: an independent reader of the files `gcscope tables` writes.
// A checkout whose node_modules predates this dependency (scripts/setup.sh's `npm ci` installs it)
// skips these tests with that reason; CI (CI=true, after setup.sh) never skips them.
let DuckDBInstance = null;
let missing = null;
try {
  ({ DuckDBInstance } = require('@duckdb/node-api'));
} catch (err) {
  if (process.env.CI) throw err;
  missing = 'npm package @duckdb/node-api is not installed: run scripts/setup.sh (npm ci)';
}
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const gcscope = process.env.GCSCOPE || path.join(__dirname, '../../build/native/gcscope');
const corpus = process.env.GCSCOPE_CORPUS_DIR || path.join(__dirname, '../../../shared/corpus');
const root = path.join(__dirname, '../..');

async function connect() {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  // Rows as plain objects, BIGINT as Number where exact (the tests' figures are far below 2^53).
  const rows = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJS().map((r) => {
    for (const k of Object.keys(r)) if (typeof r[k] === 'bigint') r[k] = Number(r[k]);
    return r;
  });
  return { conn, rows };
}

// `gcscope tables ARGS...` into a fresh folder: {dir, summary}.
function tables(args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-tables-'));
  const out = execFileSync(gcscope, ['tables', ...args, '--out', dir], { maxBuffer: 1 << 26 }).toString();
  return { dir, summary: JSON.parse(out) };
}

// SQL text of a string literal.
const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;

module.exports = { connect, tables, lit, gcscope, corpus, root, missing };
