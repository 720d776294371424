// rbkit's tables (object_rates, gc_cycles, cpu_samples, snapshots) as `gcscope tables` writes them,
// read back by DuckDB, against the real server's capture counted by decoders that are not the
// engine's: fixtures/rbkit/real_stock_windows.truth.json (obj_created, obj_destroyed and gc_start
// per window of whole seconds, by rbkit_frames.py's own msgpack reader) and the corpus truth of the
// capture (its event totals). The panel's rbkit examples run on the same capture.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { connect, tables, lit, corpus, root, missing } = require('./duckdb');

global.GCSCOPE = global.GCSCOPE || {};
require(path.join(root, 'web/sql/examples.js'));

const capture = path.join(corpus, 'heap/rbkit/real_stock_threaddeath.rbkit');
const required = process.env.GCSCOPE_REQUIRE_CORPUS === '1';
const skip = missing || (!required && !fs.existsSync(capture)
  ? `no corpus capture at ${capture} (GCSCOPE_REQUIRE_CORPUS=1 makes it required)` : false);

async function load() {
  const { summary } = tables([capture]);
  assert.strictEqual(summary.analyzed, 1);
  const { rows } = await connect();
  for (const t of summary.tables) {
    if (t.table !== 'errors') await rows(`CREATE VIEW ${t.table} AS SELECT * FROM read_csv(${lit(t.file)})`);
  }
  return { rows, summary };
}

test('object_rates and gc_cycles give the capture\'s events per window of seconds', { skip }, async () => {
  const { rows } = await load();
  const truth = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/rbkit/real_stock_windows.truth.json'), 'utf8'));
  const nested = JSON.parse(fs.readFileSync(path.join(corpus, 'heap/expected/rbkit_real_stock_threaddeath.truth.json'), 'utf8')).nested;
  const [all] = await rows('SELECT sum(created) AS created, sum(destroyed) AS destroyed, min(bin_s) AS bin, max(bin_s) AS bin_max FROM object_rates');
  assert.deepStrictEqual(all, { created: nested.obj_created, destroyed: nested.obj_destroyed, bin: 1, bin_max: 1 });
  const [gc] = await rows('SELECT count(*) AS starts, count(duration_ms) AS closed, count(mark_ms) AS marked FROM gc_cycles');
  assert.strictEqual(gc.starts, nested.gc_start);
  assert.ok(gc.closed <= nested.gc_end_s && gc.marked <= nested.gc_end_m);
  for (const w of truth.windows) {
    const [got] = await rows(`SELECT
        (SELECT coalesce(sum(created), 0) FROM object_rates WHERE floor(t_s) BETWEEN ${w.s0} AND ${w.s1}) AS created,
        (SELECT coalesce(sum(destroyed), 0) FROM object_rates WHERE floor(t_s) BETWEEN ${w.s0} AND ${w.s1}) AS destroyed,
        (SELECT count(*) FROM gc_cycles WHERE floor(t_s) BETWEEN ${w.s0} AND ${w.s1}) AS gc_start`);
    assert.deepStrictEqual(got, { created: w.created, destroyed: w.destroyed, gc_start: w.gc_start }, JSON.stringify(w));
  }
  // rbkit stamps wall-clock milliseconds: ts is t_s as an instant.
  const [skew] = await rows('SELECT max(abs(epoch(ts) - t_s)) AS s FROM gc_cycles');
  assert.ok(skew.s < 1e-6, String(skew.s));
  // A cycle's marking and sweeping make up its duration.
  const [parts] = await rows('SELECT max(abs(mark_ms + sweep_ms - duration_ms)) AS d FROM gc_cycles');
  assert.ok(parts.d < 1e-9, String(parts.d));
});

test('the rbkit examples run on the real capture; objects per class are the capture\'s', { skip }, async () => {
  const { rows } = await load();
  const truth = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/rbkit/real_stock_windows.truth.json'), 'utf8'));
  const examples = global.GCSCOPE.sqlExamples.forFormats(['rbkit-capture']);
  assert.ok(examples.length >= 3);
  const ran = {};
  for (const [label, sql] of examples) ran[label] = await rows(sql);
  const perSecond = ran['Objects created and destroyed per second'];
  const whole = truth.windows[0];  // the whole capture
  assert.strictEqual(perSecond.reduce((s, r) => s + r.created, 0), whole.created);
  assert.strictEqual(perSecond.reduce((s, r) => s + r.destroyed, 0), whole.destroyed);
  const classes = ran['Classes by objects created'];
  assert.strictEqual(classes.reduce((s, r) => s + r.created, 0), whole.created);
  assert.ok(classes.every((r, i) => i === 0 || classes[i - 1].created >= r.created));
  const gc = ran['GC cycles'];
  assert.strictEqual(gc.length, whole.gc_start);
});
