// The Ruby GC tuner's tables (gc_samples, gc_stat) as `gcscope tables` writes them, read back by
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
