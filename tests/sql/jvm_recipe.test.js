// The fleet recipe of docs/TABLES.md, run as written (its folder and Parquet file renamed into a
// temporary folder) over three logs' tables: its p99 per log is each log's report `pauses.p99_s`,
// its pause counts the logs' own pause lines, and the Parquet file it writes reads back with the
// CSV's rows and typed columns.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { connect, tables, gcscope, root, missing } = require('./duckdb');

// The statements of the JVM section's ```sql block.
function recipe() {
  const doc = fs.readFileSync(path.join(root, 'docs/TABLES.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## JVM GC logs'));
  const block = /```sql\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'no ```sql block in the JVM section of docs/TABLES.md');
  return block[1].split(/;\s*\n/).map((s) => s.trim()).filter(Boolean);
}

// `GC(n) Pause ... <d>ms` lines of a unified log (one per pause).
const pauseLines = (file) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => /\bGC\(\d+\) Pause .* [0-9.]+ms$/.test(l)).length;

test('the fleet recipe\'s p99 per log is the report\'s, and its Parquet reads back', { skip: missing || false }, async () => {
  const logs = ['jdk17-g1.log', 'jdk17-zgc.log', 'jdk17-shenandoah.log'].map((f) => path.join(root, 'fixtures/jvm', f));
  const { dir } = tables(logs);
  const parquet = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-parquet-')), 'pauses.parquet');
  const [select, copy, ...rest] = recipe().map((sql) => sql.replaceAll("'out/", `'${dir}/`).replaceAll("'pauses.parquet'", `'${parquet}'`));
  assert.deepStrictEqual(rest, []);
  assert.match(select, /^SELECT/);
  assert.match(copy, /^COPY/);
  const { rows } = await connect();
  const perLog = await rows(select);
  assert.deepStrictEqual(perLog.map((r) => r.input).sort(), [...logs].sort());
  for (const log of logs) {
    const report = JSON.parse(execFileSync(gcscope, ['analyze', log, '--set', 'jvm_series=false'], { maxBuffer: 1 << 26 }))
      .reports.find((r) => r.format === 'jvm-gc-log');
    const got = perLog.find((r) => r.input === log);
    assert.strictEqual(got.pauses, pauseLines(log), log);
    assert.strictEqual(got.pauses, report.pauses.count, log);
    // The report rounds seconds to the microsecond.
    assert.ok(Math.abs(got.p99_ms / 1000 - report.pauses.p99_s) <= 5e-7 + 1e-12, `${log}: ${got.p99_ms} ms vs ${report.pauses.p99_s} s`);
    assert.ok(Math.abs(got.max_ms / 1000 - report.pauses.max_s) <= 5e-7 + 1e-12, log);
  }
  await rows(copy);
  const csv = `read_csv('${dir}/pauses.csv')`, pq = `read_parquet('${parquet}')`;
  const [a] = await rows(`SELECT count(*) AS n, sum(duration_ms) AS total, count(DISTINCT input) AS inputs FROM ${csv}`);
  const [b] = await rows(`SELECT count(*) AS n, sum(duration_ms) AS total, count(DISTINCT input) AS inputs FROM ${pq}`);
  assert.deepStrictEqual(b, a);
  const types = Object.fromEntries((await rows(`DESCRIBE SELECT * FROM ${pq}`)).map((c) => [c.column_name, c.column_type]));
  assert.strictEqual(types.duration_ms, 'DOUBLE');
  assert.strictEqual(types.gc_id, 'BIGINT');
  assert.strictEqual(types.input, 'VARCHAR');
});
