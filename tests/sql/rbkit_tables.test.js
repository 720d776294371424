// rbkit's tables (rbkit_events, object_rates, gc_cycles, cpu_samples, snapshots) as `gcscope tables` writes them,
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
  // Every event but the event_collection wrappers, per type: the corpus truth's counts.
  const truthAll = JSON.parse(fs.readFileSync(path.join(corpus, 'heap/expected/rbkit_real_stock_threaddeath.truth.json'), 'utf8'));
  const perType = { ...truthAll.nested };
  for (const [type, n] of Object.entries(truthAll.top_level)) if (type !== 'event_collection') perType[type] = (perType[type] || 0) + n;
  assert.deepStrictEqual(Object.fromEntries(ran['Events per type'].map((r) => [r.type, r.events])), perType);
});

// The rbkit_events table, row for row, against rbkit_frames.py's own msgpack reader (`events`): every
// event of every capture at hand — the real server's capture, rbkit-client's legacy captures of
// the corpus and the fixtures' — in the capture's order, with its type, time, object id, class,
// correlation_id and sizes. A legacy server's timestamp in seconds (1e8 to 1e11) is read as seconds.
test('rbkit_events holds every event of each capture, as an independent msgpack reader reads it', { skip: missing || false }, async () => {
  const { execFileSync } = require('child_process');
  const legacy = path.join(corpus, 'heap/rbkit/legacy_rbkit_client_fixtures');
  const captures = ['cpu-workload.rbkit', 'leak-synthetic.rbkit', 'stock-server-first12.rbkit'].map((f) => path.join(root, 'fixtures/rbkit', f))
    .concat(fs.existsSync(capture) ? [capture] : [])
    .concat(fs.existsSync(legacy) ? fs.readdirSync(legacy).filter((f) => f.endsWith('.rbkit')).map((f) => path.join(legacy, f)) : []);
  assert.ok(!required || captures.length >= 11);
  const { summary } = tables(captures);
  assert.strictEqual(summary.analyzed, captures.length);
  const { rows } = await connect();
  const file = summary.tables.find((t) => t.table === 'rbkit_events').file;
  const names = ['obj_created', 'obj_destroyed', 'gc_start', 'gc_end_m', 'gc_end_s', 'object_space_dump', 'gc_stats', 'event_collection', 'handshake', 'cpu_sample'];
  let total = 0;
  for (const c of captures) {
    const want = execFileSync('python3', [path.join(root, 'fixtures/rbkit/rbkit_frames.py'), 'events', c], { maxBuffer: 1 << 28 })
      .toString().trim().split('\n').map((l) => JSON.parse(l));
    const got = await rows(`SELECT event, t_s, epoch_ms(ts::TIMESTAMPTZ) AS ts_ms, type, object_id::BIGINT AS object_id, class::VARCHAR AS class,
        correlation_id::BIGINT AS correlation_id, objects::BIGINT AS objects, frames::BIGINT AS frames
      FROM read_csv(${lit(file)}) WHERE input = ${lit(c)} ORDER BY event`);
    assert.strictEqual(got.length, want.length, c);
    want.forEach(([type, stamp, id, cls, corr, objects, frames], i) => {
      const ms = stamp >= 1e8 && stamp < 1e11 ? stamp * 1000 : stamp;
      const g = got[i];
      assert.ok(g.event === i && Math.abs(g.t_s * 1000 - ms) < 1e-3 && Math.abs(g.ts_ms - ms) < 1, `${c} #${i}: ${JSON.stringify(g)} vs ${stamp}`);
      assert.deepStrictEqual([g.type, g.object_id, g.class, g.correlation_id, g.objects, g.frames],
        [names[type], id, cls, corr, objects, frames], `${c} #${i}`);
    });
    total += want.length;
  }
  assert.ok(total > (fs.existsSync(capture) ? 246000 : 15000), String(total));
});

// cpu_samples of the capture made from a real stackprof profile (fixtures/rbkit/generate_cpu.rb):
// samples per innermost frame are stackprof's own SAMPLES column (`stackprof --text`, kept beside).
test('cpu_samples: samples per leaf frame are stackprof\'s SAMPLES', { skip: missing || false }, async () => {
  const text = fs.readFileSync(path.join(root, 'fixtures/rbkit/cpu-workload.text.txt'), 'utf8');
  const want = {};
  for (const line of text.split('\n')) {
    const m = /^\s+\d+\s+\(.*?\)\s+(\d+)\s+\(.*?\)\s{5}(.*)$/.exec(line);
    if (m && Number(m[1]) > 0) want[m[2]] = (want[m[2]] || 0) + Number(m[1]);
  }
  const total = Number(/Samples: (\d+)/.exec(text)[1]);
  const { summary } = tables([path.join(root, 'fixtures/rbkit/cpu-workload.rbkit')]);
  const { rows } = await connect();
  const file = summary.tables.find((t) => t.table === 'cpu_samples').file;
  const got = await rows(`SELECT leaf, count(*) AS n FROM read_csv(${lit(file)}) GROUP BY leaf`);
  assert.deepStrictEqual(Object.fromEntries(got.map((r) => [r.leaf, r.n])), want);
  const [all] = await rows(`SELECT count(*) AS n, count(DISTINCT sample) AS positions, max(sample) AS last,
      bool_and(abs(epoch(ts) - t_s) < 1e-6) AS same_instant FROM read_csv(${lit(file)})`);
  assert.deepStrictEqual(all, { n: total, positions: total, last: total - 1, same_instant: true });
});

// snapshots of the real rbkit servers' object_space_dump captures in the corpus (rbkit-client's
// legacy fixtures: one dump in one message, one split in 59 chunks) against rbkit_frames.py's
// own reader (`snapshots`) and the corpus truth (objects, messages, completeness).
const legacyDumps = ['objectdump', 'split_dump'].map((n) => path.join(corpus, `heap/rbkit/legacy_rbkit_client_fixtures/${n}.rbkit`));
const noDumps = !required && !legacyDumps.every((f) => fs.existsSync(f)) ? 'no corpus rbkit dumps (GCSCOPE_REQUIRE_CORPUS=1 makes them required)' : false;
test('snapshots: chunks, objects, sizes and references are the dumps\' own', { skip: missing || noDumps }, async () => {
  const { execFileSync } = require('child_process');
  const { summary } = tables(legacyDumps);
  const { rows } = await connect();
  const file = summary.tables.find((t) => t.table === 'snapshots').file;
  for (const dump of legacyDumps) {
    const want = JSON.parse(execFileSync('python3', [path.join(root, 'fixtures/rbkit/rbkit_frames.py'), 'snapshots', dump]).toString());
    const truth = JSON.parse(fs.readFileSync(path.join(corpus, `heap/expected/rbkit_${path.basename(dump, '.rbkit')}.truth.json`), 'utf8')).object_space_dumps;
    const got = await rows(`SELECT snapshot, correlation_id::BIGINT AS correlation_id, epoch_ms(ts::TIMESTAMPTZ)::DOUBLE AS t_ms, chunks, objects,
        announced_objects::BIGINT AS announced_objects, bytes, "references", complete FROM read_csv(${lit(file)}) WHERE input = ${lit(dump)} ORDER BY snapshot`);
    const keys = Object.keys(want[0] || {});
    assert.deepStrictEqual(got.map((s) => Object.fromEntries(keys.map((k) => [k, s[k]]))), want, dump);
    assert.deepStrictEqual(got.map((s) => [s.snapshot, s.objects, s.chunks]), truth.map((t, k) => [k, t.objects, t.messages]), dump);
    // split_dump: every announced object arrived; objectdump announces none (protocol 1.x) and was not cut.
    assert.deepStrictEqual(got.map((s) => s.complete), [true], dump);
  }
});
