// An independent cross-check of the JVM aggregator: DuckDB reads the pauses.csv that `gcscope tables`
// writes for every JVM log of the shared corpus (../shared/corpus/jvm, its manifest's files) and
// recomputes each input's pause count, total, longest and 99th percentile, which must be the
// report's `pauses` figures (`gcscope analyze`).
//
// The report's percentiles are nearest-rank (wasm/jvm/queries.cpp): p99 is the ⌈0.99·n⌉-th smallest
// pause. DuckDB's quantile_disc(x, 0.99) is checked here to pick that same row (a row_number()
// window at rank ⌈0.99·n⌉ computed beside it), then compared with the report. The report rounds
// seconds to the microsecond, so SQL's seconds may differ from it by half a microsecond.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { connect, tables, lit, gcscope, corpus, missing } = require('./duckdb');

const jvmDir = path.join(corpus, 'jvm');
const required = process.env.GCSCOPE_REQUIRE_CORPUS === '1';
const skip = missing || (!required && !fs.existsSync(path.join(jvmDir, 'manifest.json'))
  ? `no corpus at ${jvmDir} (GCSCOPE_CORPUS_DIR names another; GCSCOPE_REQUIRE_CORPUS=1 makes it required)` : false);
const HALF_MICROSECOND = 5e-7 + 1e-12;

// `gcscope analyze` of one PATH: its JVM report, or null when it has none (exit 3: nothing analyzed).
function jvmReport(file) {
  return new Promise((resolve, reject) => {
    execFile(gcscope, ['analyze', file, '--set', 'jvm_series=false'], { maxBuffer: 1 << 28 }, (err, stdout) => {
      if (err && err.code !== 3) return reject(new Error(`${file}: ${err.message}`));
      const doc = JSON.parse(stdout);
      resolve((doc.reports || []).find((r) => r.format === 'jvm-gc-log') || null);
    });
  });
}

// The reports of `files`, two analyses at a time.
async function reportsOf(files) {
  const out = new Map();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      out.set(file, await jvmReport(file));
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

// Per PATH of `files`: n, total_ms, max_ms, p99 (quantile_disc) and p99_rank (the ⌈0.99·n⌉-th
// smallest) of the pauses whose input is that PATH or one of its members (PATH/member).
// The CSV is RFC 4180: quote and escape are given, since DuckDB's sniffer would see no quoted field
// in its sample when the first input named with a comma comes later.
async function pauseFigures(rows, dir, files) {
  await rows(`CREATE OR REPLACE TABLE p AS SELECT input, duration_ms
    FROM read_csv(${lit(path.join(dir, 'pauses.csv'))}, quote = '"', escape = '"', types = {'input': 'VARCHAR', 'duration_ms': 'DOUBLE'})`);
  const inputs = (await rows('SELECT DISTINCT input FROM p')).map((r) => r.input);
  const owner = (input) => files.find((f) => input === f || input.startsWith(f + '/'));
  const unowned = inputs.filter((i) => !owner(i));
  assert.deepStrictEqual(unowned, [], 'rows whose input is no PATH given');
  await rows('CREATE OR REPLACE TABLE owner (input VARCHAR, path VARCHAR)');
  if (inputs.length) await rows(`INSERT INTO owner VALUES ${inputs.map((i) => `(${lit(i)}, ${lit(owner(i))})`).join(', ')}`);
  const figures = await rows(`WITH ranked AS (
      SELECT path, duration_ms, row_number() OVER (PARTITION BY path ORDER BY duration_ms) AS k,
             count(*) OVER (PARTITION BY path) AS n
      FROM p JOIN owner USING (input))
    SELECT path, count(*) AS n, sum(duration_ms) AS total_ms, max(duration_ms) AS max_ms,
           quantile_disc(duration_ms, 0.99) AS p99,
           any_value(duration_ms) FILTER (WHERE k = greatest(1, ceil(0.99 * n))) AS p99_rank
    FROM ranked GROUP BY path`);
  return new Map(figures.map((f) => [f.path, f]));
}

// What differs between the report's `pauses` and the SQL figures of one PATH ([] when nothing).
function differences(file, report, f) {
  const n = f ? f.n : 0;
  const want = report ? report.pauses : { count: 0 };
  const out = [];
  if (n !== want.count) out.push(`${file}: ${n} pause rows, the report counts ${want.count}`);
  if (!f || n !== want.count) return out;
  const near = (sql, rep) => Math.abs(sql / 1000 - rep) <= HALF_MICROSECOND;
  if (!near(f.total_ms, want.total_s)) out.push(`${file}: total ${f.total_ms} ms, the report ${want.total_s} s`);
  if (!near(f.max_ms, want.max_s)) out.push(`${file}: max ${f.max_ms} ms, the report ${want.max_s} s`);
  if (f.p99 !== f.p99_rank) out.push(`${file}: quantile_disc ${f.p99} ms is not the nearest-rank ${f.p99_rank} ms`);
  if (!near(f.p99_rank, want.p99_s)) out.push(`${file}: p99 ${f.p99_rank} ms, the report ${want.p99_s} s`);
  return out;
}

test('SQL over pauses.csv reproduces every JVM log\'s pause count, total, max and p99', { skip }, async (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(jvmDir, 'manifest.json'), 'utf8'));
  const files = manifest.files.map((f) => path.join(jvmDir, f.path));
  assert.ok(files.length >= 500, `${files.length} files in the manifest`);
  const list = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-jvm-list-')), 'paths.txt');
  fs.writeFileSync(list, files.join('\n') + '\n');
  const { dir } = tables(['--from', list, '-j2']);
  const reports = await reportsOf(files);
  const { rows } = await connect();
  const figures = await pauseFigures(rows, dir, files);
  const wrong = files.flatMap((f) => differences(f, reports.get(f), figures.get(f)));
  const withPauses = files.filter((f) => figures.has(f)).length;
  const noReport = files.filter((f) => !reports.get(f)).map((f) => path.relative(jvmDir, f));
  t.diagnostic(`${files.length} logs, ${withPauses} with pauses; without a JVM report: ${noReport.join(', ') || 'none'}`);
  assert.deepStrictEqual(wrong, []);
  assert.ok(withPauses >= 400, `${withPauses} logs with pauses`);
});

test('a directory of rotated logs: rows name their member, SQL reproduces the set\'s report', { skip }, async () => {
  const set = path.join(jvmDir, 'gctoolkit/rolling/jdk14/rollinglogs');
  const { dir } = tables([set]);
  const report = await jvmReport(set);
  assert.ok(report && report.pauses.count > 0);
  const { rows } = await connect();
  const figures = await pauseFigures(rows, dir, [set]);
  assert.deepStrictEqual(differences(set, report, figures.get(set)), []);
  // Every row's input is a member the set's report selected (the latest JVM run), never the folder.
  const inputs = (await rows('SELECT DISTINCT input FROM p')).map((r) => r.input);
  assert.ok(inputs.length >= 2, inputs.join(', '));
  for (const input of inputs) assert.ok(report.rotation.selected.includes(input), `${input} is not a selected member`);
});
