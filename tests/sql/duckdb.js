// DuckDB (npm @duckdb/node-api) for the tests that read gcscope's tables with SQL, and the CLI runs
// they read: an independent reader of the files `gcscope tables` writes.
// scripts/setup.sh's `npm ci` installs it (package-lock.json). These tests are skipped only where the
// node_modules in place was installed before that dependency existed: npm's own record of what it
// installed (node_modules/.package-lock.json) lacks it. Wherever npm ci ran with this lock file (a
// clean CI machine after setup.sh), a DuckDB that does not load fails the tests instead.
const fs = require('fs');
const path = require('path');

function duckdbOrReason() {
  const record = path.join(__dirname, '../../node_modules/.package-lock.json');
  let installed;
  try {
    installed = 'node_modules/@duckdb/node-api' in JSON.parse(fs.readFileSync(record, 'utf8')).packages;
  } catch (err) {
    installed = true;  // no record of an npm install: nothing explains a missing DuckDB, so fail
  }
  if (!installed) return { missing: 'npm package @duckdb/node-api is not installed yet: run scripts/setup.sh (npm ci)' };
  return { DuckDBInstance: require('@duckdb/node-api').DuckDBInstance, missing: null };
}
const { DuckDBInstance, missing } = duckdbOrReason();
const { execFileSync } = require('child_process');
const os = require('os');

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

// A printf event stream as the capture recipe's bpftrace program prints it: "<nsecs> <probe> <ns>".
// 30,000 events of each of two probes: enough rows (~4 MB of CSV) for several 1 MiB pieces per file.
function eventStream(file) {
  const lines = ['Attaching 2 probes...'];
  for (let i = 1; i <= 30000; i++) {
    lines.push(`${1000000000 + i * 1000} usdt:app:"a, \\"quoted\\" probe" ${i}`);
    lines.push(`${1000000500 + i * 1000} usdt:app:plain ${2 * i}`);
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

// SQL text of a string literal.
const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;

module.exports = { connect, tables, lit, gcscope, corpus, root, missing, eventStream };
