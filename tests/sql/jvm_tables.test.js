// The JVM tables as `gcscope tables` writes them, read back by DuckDB, against the logs' own text
// read here with regular expressions (not gcscope's parser): one pauses.csv row per `GC(n) Pause ...
// <d>ms` line, with that line's GC number and duration, and wall-clock instants that keep the
// offset the log's decorations print between its two clocks.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { connect, tables, lit, root, missing } = require('./duckdb');

// Every pause line of a unified log: [{gc_id, name, ms}], e.g. "GC(3) Pause Young (Normal) (G1
// Evacuation Pause) 20M->6M(34M) 2.557ms" or ZGC's "GC(0) Pause Mark Start 0.006ms".
function pauseLines(file) {
  const out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /\bGC\((\d+)\) (Pause [A-Za-z ]*[A-Za-z]).* ([0-9.]+)ms$/.exec(line);
    if (m) out.push({ gc_id: Number(m[1]), name: m[2], ms: Number(m[3]) });
  }
  return out;
}

const key = (p) => `${p.gc_id}/${p.ms}`;
const sorted = (list) => list.map(key).sort();

test('pauses.csv has one row per pause line of a G1 and a ZGC log', { skip: missing || false }, async () => {
  const g1 = path.join(root, 'fixtures/jvm/jdk17-g1-time.log');
  const zgc = path.join(root, 'fixtures/jvm/jdk17-zgc.log');
  const { dir, summary } = tables([g1, zgc]);
  assert.strictEqual(summary.analyzed, 2);
  const { rows } = await connect();
  const pauses = `read_csv(${lit(path.join(dir, 'pauses.csv'))})`;
  for (const file of [g1, zgc]) {
    const want = pauseLines(file);
    const got = await rows(`SELECT gc_id, kind, duration_ms AS ms, type, cause FROM ${pauses} WHERE input = ${lit(file)} ORDER BY line`);
    assert.strictEqual(got.length, want.length, file);
    assert.ok(want.length >= 27, file);  // 30 in the G1 log, 27 in the ZGC log (grep -c 'GC(.*) Pause .*ms$')
    assert.deepStrictEqual(sorted(got), sorted(want), file);
    const total = want.reduce((s, p) => s + p.ms, 0);
    const [sum] = await rows(`SELECT sum(duration_ms) AS total FROM ${pauses} WHERE input = ${lit(file)}`);
    assert.ok(Math.abs(sum.total - total) < 1e-9, `${file}: ${sum.total} vs ${total}`);
    assert.ok(got.every((p) => p.type && p.kind.startsWith('Pause ')), file);
  }
  // ZGC's pauses are inside its cycles: their kinds are the printed names, their type the cycle's.
  const zgcKinds = await rows(`SELECT kind, count(*) AS n, any_value(type) AS type FROM ${pauses} WHERE input = ${lit(zgc)} GROUP BY kind ORDER BY kind`);
  const counts = {};
  for (const p of pauseLines(zgc)) counts[p.name] = (counts[p.name] || 0) + 1;
  assert.deepStrictEqual(Object.fromEntries(zgcKinds.map((k) => [k.kind, k.n])), counts);
  assert.ok(zgcKinds.every((k) => k.type === 'ZGCFull'));
  // G1's young pauses carry the cause their line printed.
  const causes = await rows(`SELECT cause, count(*) AS n FROM ${pauses} WHERE input = ${lit(g1)} AND kind = 'Pause Young' GROUP BY cause`);
  const printed = fs.readFileSync(g1, 'utf8').split('\n').filter((l) => /GC\(\d+\) Pause Young \((Normal|Prepare Mixed)\) \((.*?)\) .*ms$/.test(l));
  assert.strictEqual(causes.reduce((s, c) => s + c.n, 0), printed.length);
  for (const c of causes) {
    assert.strictEqual(c.n, printed.filter((l) => l.includes(`(${c.cause})`)).length, c.cause);
  }
});

test('ts keeps the offset between the wall clock and the uptime that the log prints', { skip: missing || false }, async () => {
  // [2026-11-21T12:09:42.549+0000][0.005s]: both decorations on every line, each to the millisecond.
  const g1 = path.join(root, 'fixtures/jvm/jdk17-g1-time.log');
  const offsets = fs.readFileSync(g1, 'utf8').split('\n').map((l) => /^\[(\S+?)\+0000\]\[([0-9.]+)s\]/.exec(l))
    .filter(Boolean).map((m) => Date.parse(m[1] + 'Z') - Number(m[2]) * 1000);
  const lo = Math.min(...offsets), hi = Math.max(...offsets);
  assert.ok(hi - lo <= 2, `${lo} .. ${hi}`);  // one offset, give or take the two clocks' rounding
  const { dir } = tables([g1]);
  const { rows } = await connect();
  for (const table of ['gc_events', 'pauses', 'phases', 'heap_pools']) {
    const [r] = await rows(`SELECT count(*) AS n, count(ts) AS stamped, min(epoch_ms(ts) - t_s * 1000) AS lo, max(epoch_ms(ts) - t_s * 1000) AS hi
      FROM read_csv(${lit(path.join(dir, table + '.csv'))})`);
    assert.ok(r.n > 0, table);
    assert.strictEqual(r.stamped, r.n, table);
    assert.ok(r.lo >= lo - 1 && r.hi <= hi + 1, `${table}: ${r.lo} .. ${r.hi} outside ${lo} .. ${hi}`);
  }
  // A log without wall-clock decorations has no ts.
  const plain = tables([path.join(root, 'fixtures/jvm/jdk17-g1.log')]);
  const [p] = await rows(`SELECT count(*) AS n, count(ts) AS stamped FROM read_csv(${lit(path.join(plain.dir, 'pauses.csv'))}, types = {'ts': 'TIMESTAMPTZ'})`);
  assert.ok(p.n > 0);
  assert.strictEqual(p.stamped, 0);
});
