// stackprof's tables (frames, samples, stacks) as `gcscope tables` writes them, read back by DuckDB,
// against the real stackprof 0.2.21 CLI's own output kept in the corpus beside each dump:
// `stackprof --text --limit 0` (per-frame TOTAL and SAMPLES) and `stackprof --stackcollapse` (one
// line per raw record: its frames root first and its weight), and the raw timestamp deltas read
// from the dump's JSON twin with JSON.parse; and the panel's stackprof examples on the repository's
// raw cpu fixture against its `stackprof --text` report.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { connect, tables, lit, corpus, root, missing } = require('./duckdb');

global.GCSCOPE = global.GCSCOPE || {};
require(path.join(root, 'web/sql/examples.js'));

const prof = path.join(corpus, 'prof');
const manifest = fs.existsSync(path.join(prof, 'manifest.json')) ? JSON.parse(fs.readFileSync(path.join(prof, 'manifest.json'), 'utf8')) : null;
const golden = (name, file) => path.join(prof, name, 'golden', file);

// `stackprof --text --limit 0` rows as "name|total|self", sorted (names repeat: two <main> frames).
function textRows(name) {
  const rows = [];
  for (const line of fs.readFileSync(golden(name, 'text-all.txt'), 'utf8').split('\n')) {
    const m = /^\s+(\d+)\s+\(.*?\)\s+(\d+)\s+\(.*?\)\s{5}(.*)$/.exec(line);
    if (m) rows.push(`${m[3]}|${m[1]}|${m[2]}`);
  }
  return rows.sort();
}

// `stackprof --stackcollapse` lines: [folded, weight] per raw record, in the dump's order.
function collapsed(name) {
  return fs.readFileSync(golden(name, 'stackcollapse.txt'), 'utf8').split('\n').filter(Boolean).map((l) => {
    const at = l.lastIndexOf(' ');
    return [l.slice(0, at), Number(l.slice(at + 1))];
  });
}

const profiles = manifest ? Object.values(manifest.profiles) : [];
const required = process.env.GCSCOPE_REQUIRE_CORPUS === '1';
const skipCorpus = missing || (!required && !manifest
  ? `no corpus at ${prof} (GCSCOPE_CORPUS_DIR names another; GCSCOPE_REQUIRE_CORPUS=1 makes it required)` : false);

test('frames reproduce stackprof --text for every corpus dump', { skip: skipCorpus }, async () => {
  const withText = profiles.filter((p) => fs.existsSync(golden(p.dir, 'text-all.txt')));
  assert.ok(withText.length >= 8, String(withText.length));
  const inputs = withText.map((p) => path.join(prof, p.dump));
  const { dir, summary } = tables(inputs);
  assert.strictEqual(summary.analyzed, inputs.length);
  const { rows } = await connect();
  const frames = `read_csv(${lit(path.join(dir, 'frames.csv'))})`;
  for (const p of withText) {
    const input = path.join(prof, p.dump);
    const got = await rows(`SELECT name || '|' || total_samples || '|' || self_samples AS row FROM ${frames}
      WHERE input = ${lit(input)} AND total_samples > 0`);
    assert.deepStrictEqual(got.map((r) => r.row).sort(), textRows(p.dir), p.dir);
    const [n] = await rows(`SELECT count(*) AS n, count(DISTINCT frame_id) AS ids FROM ${frames} WHERE input = ${lit(input)}`);
    assert.strictEqual(n.n, p.frames, p.dir);
    assert.strictEqual(n.ids, p.frames, p.dir);
  }
});

test('samples and stacks reproduce stackprof --stackcollapse and the raw timestamp deltas', { skip: skipCorpus }, async () => {
  const raw = profiles.filter((p) => p.generator && p.generator.raw && fs.existsSync(golden(p.dir, 'stackcollapse.txt')));
  assert.ok(raw.length >= 5, String(raw.length));
  const inputs = raw.map((p) => path.join(prof, p.dump));
  const { dir } = tables(inputs);
  const { rows } = await connect();
  const samples = `read_csv(${lit(path.join(dir, 'samples.csv'))})`;
  const stacks = `read_csv(${lit(path.join(dir, 'stacks.csv'))}, types = {'folded': 'VARCHAR', 'root': 'VARCHAR', 'leaf': 'VARCHAR'})`;
  for (const p of raw) {
    const input = path.join(prof, p.dump);
    const got = await rows(`SELECT st.folded, s.weight FROM ${samples} s JOIN ${stacks} st USING (input, stack_id)
      WHERE input = ${lit(input)} ORDER BY s.sample`);
    assert.deepStrictEqual(got.map((r) => [r.folded, r.weight]), collapsed(p.dir), p.dir);
    assert.strictEqual(got.length, p.raw.raw_stack_records, p.dir);
    // The stacks' weights are the records' weights summed per distinct stack.
    const [sums] = await rows(`SELECT (SELECT sum(weight) FROM ${stacks} WHERE input = ${lit(input)}) AS stacks,
      (SELECT count(*) FROM ${stacks} WHERE input = ${lit(input)}) AS distinct_stacks,
      (SELECT count(DISTINCT folded) FROM ${stacks} WHERE input = ${lit(input)}) AS distinct_folded`);
    assert.strictEqual(sums.stacks, p.raw.raw_total_weight, p.dir);
    assert.strictEqual(sums.distinct_stacks, new Set(collapsed(p.dir).map((c) => c[0])).size, p.dir);
    // t_s: the deltas summed up to each record's first sample; duration_s: its samples' deltas.
    const dump = JSON.parse(fs.readFileSync(path.join(prof, p.json), 'utf8'));
    const timed = p.generator.mode !== 'object' && Array.isArray(dump.raw_timestamp_deltas);
    const times = await rows(`SELECT t_s, duration_s FROM ${samples} WHERE input = ${lit(input)} ORDER BY sample`);
    if (!timed) {
      assert.ok(times.every((t) => t.t_s === null && t.duration_s === null), p.dir);
      continue;
    }
    const d = dump.raw_timestamp_deltas;
    const want = [];
    let k = 0, clock = 0;
    for (const [, weight] of collapsed(p.dir)) {
      const first = clock + d[k];
      let span = 0;
      for (let j = 0; j < weight; j++) span += d[k++];
      clock += span;
      want.push([first / 1e6, span / 1e6]);
    }
    assert.strictEqual(k, d.length, p.dir);
    times.forEach((t, i) => {
      assert.ok(Math.abs(t.t_s - want[i][0]) < 1e-9 && Math.abs(t.duration_s - want[i][1]) < 1e-9, `${p.dir} record ${i}`);
    });
  }
});

// The fixture's `stackprof --text` report (fixtures/stackprof/generate.rb): header samples and rows.
function fixtureText() {
  const text = fs.readFileSync(path.join(root, 'fixtures/stackprof/fib-cpu-raw.text.txt'), 'utf8');
  const rows = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\d+)\s+\(.*?\)\s+(\d+)\s+\(.*?\)\s{5}(.*)$/.exec(line);
    if (m) rows.push({ name: m[3], total: Number(m[1]), self: Number(m[2]) });
  }
  return { samples: Number(/Samples: (\d+)/.exec(text)[1]), rows };
}

test('the stackprof examples run on a raw cpu dump and give stackprof --text\'s figures', { skip: missing || false }, async () => {
  const { summary } = tables([path.join(root, 'fixtures/stackprof/fib-cpu-raw.dump')]);
  const { rows } = await connect();
  for (const t of summary.tables) {
    if (t.table !== 'errors') await rows(`CREATE VIEW ${t.table} AS SELECT * FROM read_csv(${lit(t.file)})`);
  }
  const examples = global.GCSCOPE.sqlExamples.forFormats(['stackprof']);
  assert.ok(examples.length >= 3);
  const ran = {};
  for (const [label, sql] of examples) ran[label] = await rows(sql);
  const want = fixtureText();
  const byFrame = ran['Frames by self samples'];
  assert.deepStrictEqual(byFrame.map((r) => `${r.name}|${r.total_samples}|${r.self_samples}`).sort(),
    want.rows.map((r) => `${r.name}|${r.total}|${r.self}`).sort());
  assert.ok(byFrame.every((r, i) => i === 0 || byFrame[i - 1].self_samples >= r.self_samples));
  // A raw profile's leaves are its frames' own samples: per name, --text's SAMPLES.
  const selfByName = {};
  for (const r of want.rows) if (r.self) selfByName[r.name] = (selfByName[r.name] || 0) + r.self;
  assert.deepStrictEqual(Object.fromEntries(ran['Heaviest leaf frames'].map((r) => [r.leaf, r.weight])), selfByName);
  const perTime = ran['Samples per 100 ms'];
  assert.strictEqual(perTime.reduce((s, r) => s + r.samples, 0), want.samples);
  assert.ok(perTime.length >= 5 && perTime.every((r, i) => i === 0 || perTime[i - 1].t_s < r.t_s));
});
