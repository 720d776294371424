// The Ruby GC tuner's tables (gc_samples, tuner_samples, gc_stat) as `gcscope tables` writes them, read back by
// DuckDB, against the payloads read independently here with JSON.parse: per payload the samples,
// the events, RSS, the threads and every GC.stat key's values.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { connect, tables, lit, corpus, root, missing } = require('./duckdb');

// One payload's figures from its JSON: [header, sample...]; a sample is [ts, peak_rss, rss, EVENT,
// stat[], info, meta(, thread)] or [thread, ts, peak_rss, rss, EVENT, stat[], info, meta]; the
// GC.stat keys are header[7].
function figures(file) {
  const [header, ...samples] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const keys = header[7];
  const out = { samples: samples.length, events: {}, rss: 0, peak: 0, threads: 0, first_ts: null, stat: {} };
  for (const k of keys) out.stat[k] = 0;
  samples.forEach((s, i) => {
    const first = typeof s[3] !== 'string';  // the thread id comes first
    const [thread, ts, peak, rss, event, stat] = first ? s : [s.length === 8 ? s[7] : null, ...s];
    out.events[event] = (out.events[event] || 0) + 1;
    out.rss += rss;
    out.peak = Math.max(out.peak, peak);
    if (thread !== null) out.threads++;
    if (i === 0) out.first_ts = ts;
    keys.forEach((k, j) => { out.stat[k] += stat[j]; });
  });
  return out;
}

test('gc_samples and gc_stat hold every sample and GC.stat value of each payload', { skip: missing || false }, async () => {
  const inputs = ['rec31_leak.json', 'rec31_capped.json', 'rec31_compacted.json'].map((f) => path.join(root, 'fixtures/rubygc', f))
    .concat(path.join(corpus, 'tuner/mf00_valid_small_reference.json'));
  const { dir, summary } = tables(inputs);
  assert.strictEqual(summary.analyzed, inputs.length);
  const { rows } = await connect();
  const samples = `read_csv(${lit(path.join(dir, 'gc_samples.csv'))})`;
  const stat = `read_csv(${lit(path.join(dir, 'gc_stat.csv'))})`;
  for (const file of inputs) {
    const want = figures(file);
    assert.ok(want.samples > 0, file);
    const [got] = await rows(`SELECT count(*) AS samples, sum(rss_bytes) AS rss, max(peak_rss_bytes) AS peak,
        count(thread) AS threads, min(sample) AS first, max(sample) AS last, arg_min(t_s, sample) AS first_ts
      FROM ${samples} WHERE input = ${lit(file)}`);
    assert.deepStrictEqual(got, { samples: want.samples, rss: want.rss, peak: want.peak, threads: want.threads,
      first: 0, last: want.samples - 1, first_ts: want.first_ts }, file);
    const events = await rows(`SELECT event, count(*) AS n FROM ${samples} WHERE input = ${lit(file)} GROUP BY event`);
    assert.deepStrictEqual(Object.fromEntries(events.map((e) => [e.event, e.n])), want.events, file);
    const sums = await rows(`SELECT key, sum(value) AS total, count(*) AS n FROM ${stat} WHERE input = ${lit(file)} GROUP BY key`);
    assert.deepStrictEqual(Object.fromEntries(sums.map((s) => [s.key, s.total])), want.stat, file);
    assert.ok(sums.every((s) => s.n === want.samples), file);
    // gc_samples' GC.stat columns are the same values as gc_stat's rows of those keys.
    const [diff] = await rows(`SELECT count(*) AS n FROM ${samples} s JOIN ${stat} g USING (input, sample)
      WHERE s.input = ${lit(file)} AND g.key = 'count' AND g.value IS DISTINCT FROM s.gc_count`);
    assert.strictEqual(diff.n, 0, file);
  }
  // The reference payload was stamped by TuneMyGC's agent (Unix-epoch seconds): ts is that instant;
  // the recorder's payloads (a monotonic clock) have none.
  const [ts] = await rows(`SELECT count(ts) FILTER (WHERE input LIKE '%mf00%') AS epoch, count(ts) FILTER (WHERE input LIKE '%rec31%') AS monotonic,
      max(abs(epoch(ts) - t_s)) FILTER (WHERE input LIKE '%mf00%') AS skew FROM ${samples}`);
  assert.strictEqual(ts.monotonic, 0);
  assert.strictEqual(ts.epoch, figures(inputs[3]).samples);
  assert.ok(ts.skew < 1e-6, String(ts.skew));
});

// rt16_rack_app_tiny_seed.json counted by hand (its 9 samples, one thread, printed with their event,
// timestamp, GC.stat count/minor_gc_count/major_gc_count/time/total_allocated_objects and meta):
//   0 BOOTED, 1 PROCESSING_STARTED, 2 PROCESSING_ENDED (Res0Controller#index), 3 STARTED,
//   4 ENDED (Res62Controller#destroy), 5 STARTED, 6 GC_CYCLE_STARTED, 7 ENDED (Res78Controller#update),
//   8 TERMINATED: three units, samples 1-2, 3-4 and 5-7.
//   unit 0: total_allocated_objects 2580147 -> 2719028 = 138881; count stays 48: no GC;
//           1795257973.6756852 -> 1795257974.023913 s = 348.228 ms.
//   unit 1: 2719041 -> 2729052 = 10011 allocations, no GC; 1795257974.023956 -> .0471842 = 23.228 ms.
//   unit 2: 2729060 -> 2739071 = 10011 allocations; .0472116 -> .0792837 = 32.072 ms; count 48 -> 49, minor_gc_count 38 -> 39,
//           major_gc_count stays 10, time 472 -> 474 ms: one minor GC of 2 ms.
// Its agent (1.0.53) stamps Unix-epoch seconds, so ts is t_s as an instant.
test('units_of_work: the units of a tiny payload as counted by hand', { skip: missing || false }, async () => {
  const file = path.join(root, 'fixtures/rubygc/rt16_rack_app_tiny_seed.json');
  const { dir } = tables([file]);
  const { rows } = await connect();
  const got = await rows(`SELECT unit, label, start_sample, end_sample, round(duration_ms, 3) AS ms, allocations,
      gcs, minor_gcs, major_gcs, gc_time_ms, abs(epoch(ts) - t_s) < 1e-6 AS ts_ok, abs(epoch(end_ts) - end_t_s) < 1e-6 AS end_ok
    FROM read_csv(${lit(path.join(dir, 'units_of_work.csv'))}) ORDER BY unit`);
  const unit = (u, label, s, e, ms, allocations, gcs, minor, gcMs) => ({ unit: u, label, start_sample: s, end_sample: e,
    ms, allocations, gcs, minor_gcs: minor, major_gcs: 0, gc_time_ms: gcMs, ts_ok: true, end_ok: true });
  assert.deepStrictEqual(got, [
    unit(0, 'Res0Controller#index', 1, 2, 348.228, 138881, 0, 0, 0),
    unit(1, 'Res62Controller#destroy', 3, 4, 23.228, 10011, 0, 0, 0),
    unit(2, 'Res78Controller#update', 5, 7, 32.072, 10011, 1, 1, 2)]);
});

// A recorder's payload against its JSON read here: each thread's PROCESSING_ENDED closes its latest
// open PROCESSING_STARTED; the units' count, allocations and GCs summed; a monotonic clock, so no ts.
test('units_of_work: every unit of a recorder payload, paired independently', { skip: missing || false }, async () => {
  const file = path.join(root, 'fixtures/rubygc/rec31_leak.json');
  const [header, ...samples] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const col = (k) => header[7].indexOf(k);
  const open = new Map();
  const want = { units: 0, allocations: 0, gcs: 0, ms: 0 };
  for (const s of samples) {
    const [ts, , , event, stat, , , thread] = s;  // layout "8-thread-last" (agent 1.0.71)
    if (event === 'PROCESSING_STARTED') open.set(thread, (open.get(thread) || []).concat([[ts, stat]]));
    if (event === 'PROCESSING_ENDED' && (open.get(thread) || []).length) {
      const [t0, s0] = open.get(thread).pop();
      want.units++;
      want.allocations += stat[col('total_allocated_objects')] - s0[col('total_allocated_objects')];
      want.gcs += stat[col('count')] - s0[col('count')];
      want.ms += (ts - t0) * 1000;
    }
  }
  assert.ok(want.units > 100 && want.gcs > 0, JSON.stringify(want));
  const { dir } = tables([file]);
  const { rows } = await connect();
  const [got] = await rows(`SELECT count(*) AS units, sum(allocations) AS allocations, sum(gcs) AS gcs,
      sum(duration_ms) AS ms, count(ts) AS ts, max(unit) AS last FROM read_csv(${lit(path.join(dir, 'units_of_work.csv'))})`);
  assert.ok(Math.abs(got.ms - want.ms) < 1e-6 * want.ms, `${got.ms} vs ${want.ms}`);
  assert.deepStrictEqual({ ...got, ms: 0 }, { ...want, ms: 0, ts: 0, last: want.units - 1 });
});

// gc_cycles counted by hand: minor_gc_count and major_gc_count at each sample, a row wherever one
// rose over the sample before; duration_ms is GC.stat time from the sample before the rise to the
// sample before the next row's rise (the last row: to the payload's last sample).
//   rec31_leak.json (248 samples, one thread, a monotonic clock): minor_gc_count 14 -> 19 and
//   major_gc_count 4 -> 5, rising at samples 18, 67, 96, 176, 213 (minor, +1 each) and 111 (major,
//   +1), never two at once. time (ms) at the samples before each rise and at the end:
//   17: 23, 66: 25, 95: 27, 110: 29, 175: 39, 212: 42, 247: 45 -> 2, 2, 2, 10, 3, 3 ms.
//   Sample 17 is at 1523.183499882 s, sample 18 0.012682 s later.
//   rt16_rack_app_tiny_seed.json (wall clock): minor_gc_count 38 -> 39 at sample 7 (after the
//   GC_CYCLE_STARTED sample 6 at 1795257974.0500152), time 472 -> 474: one minor row of 2 ms.
test('gc_cycles: the GC intervals of two payloads as counted by hand', { skip: missing || false }, async () => {
  const leak = path.join(root, 'fixtures/rubygc/rec31_leak.json');
  const tiny = path.join(root, 'fixtures/rubygc/rt16_rack_app_tiny_seed.json');
  const { dir } = tables([leak, tiny]);
  const { rows } = await connect();
  const cycles = `read_csv(${lit(path.join(dir, 'gc_cycles.csv'))})`;
  const got = await rows(`SELECT cycle, kind, gcs, duration_ms, ts IS NULL AS no_ts FROM ${cycles}
    WHERE input = ${lit(leak)} ORDER BY cycle`);
  const row = (cycle, kind, ms) => ({ cycle, kind, gcs: 1, duration_ms: ms, no_ts: true });
  assert.deepStrictEqual(got, [row(0, 'minor', 2), row(1, 'minor', 2), row(2, 'minor', 2), row(3, 'major', 10),
    row(4, 'minor', 3), row(5, 'minor', 3)]);
  const [first] = await rows(`SELECT t_s, round(window_s, 6) AS w FROM ${cycles} WHERE input = ${lit(leak)} AND cycle = 0`);
  assert.deepStrictEqual(first, { t_s: 1523.183499882, w: 0.012682 });
  const small = await rows(`SELECT kind, gcs, duration_ms, t_s, abs(epoch(ts) - t_s) < 1e-6 AS ts_ok FROM ${cycles}
    WHERE input = ${lit(tiny)}`);
  assert.deepStrictEqual(small, [{ kind: 'minor', gcs: 1, duration_ms: 2, t_s: 1795257974.0500152, ts_ok: true }]);
});

// A payload read here: its GC.stat keys (header[7]) and each sample's event, thread and GC.stat values,
// in either layout ([ts, peak, rss, EVENT, stat, info, meta(, thread)] or [thread, ts, ...]).
function payloadSamples(file) {
  const [header, ...raw] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const samples = raw.map((s) => {
    const first = typeof s[3] !== 'string';
    const [thread, ts, , , event, stat] = first ? s : [s.length === 8 ? s[7] : null, ...s];
    return { ts, event, thread, stat };
  });
  return { keys: header[7], samples };
}

const fixed = ['input', 'sample', 't_s', 'ts', 'event', 'thread'];

// Column names and DuckDB types of a CSV file, in order.
async function columnsOf(rows, file) {
  const described = await rows(`DESCRIBE SELECT * FROM read_csv(${lit(file)})`);
  return described.map((c) => [c.column_name, c.column_type]);
}

test('tuner_samples: the fixed columns, then every GC.stat key of the header as a column, in order', { skip: missing || false }, async () => {
  const file = path.join(root, 'fixtures/rubygc/rec31_leak.json');
  const want = payloadSamples(file);
  assert.strictEqual(want.keys.length, 29);  // Ruby 3.1.2's GC.stat
  const { dir } = tables([file]);
  const { rows } = await connect();
  const csv = path.join(dir, 'tuner_samples.csv');
  const cols = await columnsOf(rows, csv);
  assert.deepStrictEqual(cols.map((c) => c[0]), fixed.concat(want.keys));
  assert.ok(cols.slice(fixed.length).every((c) => c[1] === 'BIGINT'), JSON.stringify(cols));
  const [n] = await rows(`SELECT count(*) AS n, max(sample) AS last FROM read_csv(${lit(csv)})`);
  assert.deepStrictEqual(n, { n: want.samples.length, last: want.samples.length - 1 });
  // The first sample, the first PROCESSING_ENDED and the last: every cell against the JSON's numbers.
  const picks = [0, want.samples.findIndex((s) => s.event === 'PROCESSING_ENDED'), want.samples.length - 1];
  assert.ok(picks[1] > 0);
  for (const i of picks) {
    const [got] = await rows(`SELECT * EXCLUDE (input, ts) FROM read_csv(${lit(csv)}) WHERE sample = ${i}`);
    const s = want.samples[i];
    const expected = { sample: i, t_s: s.ts, event: s.event, thread: s.thread };
    want.keys.forEach((k, j) => { expected[k] = s.stat[j]; });
    assert.deepStrictEqual(got, expected, `sample ${i}`);
  }
});

// Ruby 3.1.2 (rec31_leak: heap_sorted_length, heap_allocatable_pages, heap_tomb_pages) and Ruby 3.4.1
// (rec34_wasm_steady: marking_time, sweeping_time, heap_empty_pages, heap_allocatable_slots) have
// different GC.stat keys. As two PATHs each writes its own column list (tuner_samples.csv, then
// tuner_samples-2.csv); as one drop (a folder holding both) one file has the union, first payload's
// keys first, and a payload's rows are null in the keys its Ruby lacks.
test('tuner_samples: payloads of two Ruby versions, as separate inputs and as one drop', { skip: missing || false }, async () => {
  const files = ['rec31_leak.json', 'rec34_wasm_steady.json'].map((f) => path.join(root, 'fixtures/rubygc', f));
  const [old, recent] = files.map(payloadSamples);
  const only = (a, b) => a.keys.filter((k) => !b.keys.includes(k));
  assert.deepStrictEqual(only(old, recent), ['heap_sorted_length', 'heap_allocatable_pages', 'heap_tomb_pages']);
  assert.deepStrictEqual(only(recent, old), ['marking_time', 'sweeping_time', 'heap_empty_pages', 'heap_allocatable_slots']);
  const { rows } = await connect();

  const apart = tables(files);
  const written = apart.summary.tables.filter((t) => t.table.startsWith('tuner_samples')).map((t) => [t.table, t.rows]);
  assert.deepStrictEqual(written.sort(), [['tuner_samples', old.samples.length], ['tuner_samples-2', recent.samples.length]]);
  assert.deepStrictEqual((await columnsOf(rows, path.join(apart.dir, 'tuner_samples.csv'))).map((c) => c[0]), fixed.concat(old.keys));
  assert.deepStrictEqual((await columnsOf(rows, path.join(apart.dir, 'tuner_samples-2.csv'))).map((c) => c[0]), fixed.concat(recent.keys));

  const drop = fs.mkdtempSync(path.join(require('os').tmpdir(), 'gcscope-drop-'));
  files.forEach((f) => fs.copyFileSync(f, path.join(drop, path.basename(f))));
  const together = tables([drop]);
  assert.ok(!fs.existsSync(path.join(together.dir, 'tuner_samples-2.csv')));
  const csv = path.join(together.dir, 'tuner_samples.csv');
  assert.deepStrictEqual((await columnsOf(rows, csv)).map((c) => c[0]), fixed.concat(old.keys, only(recent, old)));
  const counts = await rows(`SELECT input LIKE '%rec31%' AS old, count(*) AS n, count(heap_tomb_pages) AS tomb,
      count(marking_time) AS marking, sum("count") AS gcs FROM read_csv(${lit(csv)}) GROUP BY ALL ORDER BY old`);
  const sum = (p, k) => p.samples.reduce((t, s) => t + s.stat[p.keys.indexOf(k)], 0);
  assert.deepStrictEqual(counts, [
    { old: false, n: recent.samples.length, tomb: 0, marking: recent.samples.length, gcs: sum(recent, 'count') },
    { old: true, n: old.samples.length, tomb: old.samples.length, marking: 0, gcs: sum(old, 'count') }]);
  const last = recent.samples.length - 1;
  const [cell] = await rows(`SELECT marking_time, sweeping_time FROM read_csv(${lit(csv)})
    WHERE input LIKE '%rec34%' AND sample = ${last}`);
  const s = recent.samples[last];
  const at = (k) => s.stat[recent.keys.indexOf(k)];
  assert.deepStrictEqual(cell, { marking_time: at('marking_time'), sweeping_time: at('sweeping_time') });
});
