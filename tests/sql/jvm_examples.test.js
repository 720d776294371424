// The SQL panel's JVM example queries (web/sql/examples.js) run by DuckDB over the tables `gcscope
// tables` writes for a real G1 log, registered under the names the page gives them; their figures
// are the log's own, counted here from its text: the pause lines per cause, the one full
// collection's heap before and after.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { connect, tables, lit, root, missing } = require('./duckdb');

global.GCSCOPE = global.GCSCOPE || {};
require(path.join(root, 'web/sql/examples.js'));

test('the JVM examples run on a G1 log; pause time by cause and heap after full GC are the log\'s', { skip: missing || false }, async () => {
  const file = path.join(root, 'fixtures/jvm/jdk17-g1.log');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pausesOf = (cause) => lines.filter((l) => /\bGC\(\d+\) Pause .* [0-9.]+ms$/.test(l) && l.includes(`(${cause}) `)).length;
  const full = lines.map((l) => /\bGC\(\d+\) Pause Full \(System\.gc\(\)\) (\d+)M->(\d+)M\(\d+M\) [0-9.]+ms$/.exec(l)).filter(Boolean);
  assert.strictEqual(full.length, 1);
  const { dir, summary } = tables([file]);
  const { rows } = await connect();
  for (const t of summary.tables) {
    if (t.table !== 'errors') await rows(`CREATE VIEW ${t.table} AS SELECT * FROM read_csv(${lit(t.file)})`);
  }
  assert.ok(fs.existsSync(path.join(dir, 'pauses.csv')));
  const examples = global.GCSCOPE.sqlExamples.forFormats(['jvm-gc-log']);
  const ran = {};
  for (const [label, sql] of examples) ran[label] = await rows(sql);
  assert.ok(examples.length >= 3);
  // cause, pauses, total_ms, max_ms
  const byCause = Object.fromEntries(ran['Pause time by cause'].map((r) => [r.cause, r.pauses]));
  for (const cause of ['G1 Evacuation Pause', 'G1 Humongous Allocation', 'G1 Preventive Collection']) {
    assert.strictEqual(byCause[cause], pausesOf(cause), cause);
  }
  assert.ok(byCause['G1 Evacuation Pause'] > 10);
  const heap = ran['Heap after full GCs'];
  assert.deepStrictEqual(heap.map((r) => [r.cause, r.before_mib, r.after_mib]), [['System.gc()', Number(full[0][1]), Number(full[0][2])]]);
  // Allocation per second sums to the gc_events' allocated_kb: every event with a time counted once.
  const [alloc] = await rows('SELECT sum(allocated_kb) / 1024.0 AS mib FROM gc_events WHERE t_s IS NOT NULL');
  const perSecond = ran['Allocation rate per second'].reduce((s, r) => s + r.allocated_mib_per_s, 0);
  assert.ok(Math.abs(perSecond - alloc.mib) < 1e-9);
});
