// Profile exports through the Embind module (the same stacks.export answer the page downloads and
// `gcscope export` writes): the pprof file decoded by an independent decoder (npm pprof-format)
// gives per-function flat/cum totals equal to stackprof's own --text; the speedscope file follows
// speedscope's published schema (its required fields) and holds every raw sample.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const corpus = process.env.GCSCOPE_CORPUS_DIR || path.join(__dirname, '../../../shared/corpus');
const createGcscope = require(path.join(site, 'gcscope.js'));

// One session over the files (one input set), finished; ask(method, args) answers its queries.
async function session(...files) {
  const M = await createGcscope();
  const s = new M.Session('{}');
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const ptr = M.allocBytes(bytes.length) >>> 0;
    M.HEAPU8.set(bytes, ptr);
    s.beginFile(path.basename(file));
    s.feed(ptr, bytes.length);
    s.endFile();
    M.freeBytes(ptr);
  }
  JSON.parse(s.finish());
  const ask = (method, args) => {
    const at = s.queryInPlace(method, JSON.stringify(args || {})) >>> 0;
    const a = JSON.parse(new TextDecoder().decode(M.HEAPU8.subarray(at, at + s.resultLength())));
    if (a.error !== undefined) throw new Error(a.error);
    return a.result;
  };
  return { s, ask };
}

// `stackprof --text --limit 0` rows: [{name, total, self}].
function textRows(name) {
  const rows = [];
  for (const line of fs.readFileSync(path.join(corpus, `prof/${name}/golden/text-all.txt`), 'utf8').split('\n')) {
    const m = /^\s+(\d+)\s+\(.*?\)\s+(\d+)\s+\(.*?\)\s{5}(.*)$/.exec(line);
    if (m) rows.push({ total: Number(m[1]), self: Number(m[2]), name: m[3] });
  }
  return rows;
}

// Per function name: flat = weight where it is the leaf, cum = weight of samples holding it (once).
function flatCum(profile, valueIndex) {
  const str = (i) => profile.stringTable.strings[Number(i)];
  const fnName = new Map(profile.function.map((f) => [Number(f.id), str(f.name)]));
  const locName = new Map(profile.location.map((l) => [Number(l.id), fnName.get(Number(l.line[0].functionId))]));
  const flat = new Map(), cum = new Map();
  for (const s of profile.sample) {
    const v = Number(s.value[valueIndex]);
    const names = s.locationId.map((id) => locName.get(Number(id)));
    if (names.length) flat.set(names[0], (flat.get(names[0]) || 0) + v);  // leaf first
    for (const n of new Set(names)) cum.set(n, (cum.get(n) || 0) + v);
  }
  return { flat, cum };
}

test('pprof export: flat/cum per function equal stackprof --text, sample types after the mode', async () => {
  for (const name of ['blocks-cpu-raw', 'gc-cpu-raw', 'blocks-object-raw']) {
    const { s, ask } = await session(path.join(corpus, `prof/${name}/${name}.dump`));
    const gz = Buffer.from(ask('stacks.export', { to: 'pprof' }), 'base64');
    assert.deepStrictEqual([...gz.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
    const profile = Profile.decode(zlib.gunzipSync(gz));
    const str = (i) => profile.stringTable.strings[Number(i)];
    const types = profile.sampleType.map((t) => str(t.type) + '/' + str(t.unit));
    const { flat, cum } = flatCum(profile, 0);
    // stackprof lists frames; several frames may share a name (<main> twice on every stack):
    // their self samples add up, and a sample holding both counts once.
    const want = new Map();
    for (const r of textRows(name)) {
      const w = want.get(r.name) || { self: 0, total: 0 };
      want.set(r.name, { self: w.self + r.self, total: Math.max(w.total, r.total) });
    }
    for (const [fn, w] of want) {
      assert.strictEqual(flat.get(fn) || 0, w.self, `${name} ${fn} flat`);
      assert.strictEqual(cum.get(fn) || 0, w.total, `${name} ${fn} cum`);
    }
    if (name === 'blocks-object-raw') {
      assert.deepStrictEqual(types, ['objects/count']);
    } else {
      assert.deepStrictEqual(types, ['samples/count', 'cpu/nanoseconds']);  // cpu(1000): 1 sample = 1 ms
      assert.strictEqual(Number(profile.period), 1000000);
      const { flat: ns } = flatCum(profile, 1);
      for (const [fn, v] of flat) assert.strictEqual(ns.get(fn), v * 1000000);
    }
    s.delete();
  }
});

test('speedscope export: the schema\'s required fields, every raw sample, one profile per dump', async () => {
  const schema = JSON.parse(fs.readFileSync(require.resolve('speedscope/dist/release/file-format-schema.json'), 'utf8'));
  const a = path.join(corpus, 'prof/blocks-cpu-raw/blocks-cpu-raw.dump'), b = path.join(corpus, 'prof/gc-cpu-raw/gc-cpu-raw.dump');
  const { s, ask } = await session(a, b);
  const file = JSON.parse(ask('stacks.export', { to: 'speedscope' }));
  for (const key of schema.definitions['FileFormat.File'].required) assert.ok(key in file, 'required ' + key);
  for (const key of schema.definitions['FileFormat.SampledProfile'].required) assert.ok(key in file.profiles[0], 'profile requires ' + key);
  assert.strictEqual(file.$schema, 'https://www.speedscope.app/file-format-schema.json');
  // Two dumps summed in one session: one profile each, with every raw sample of that dump
  // (manifest.json: raw_total_weight 486 and 878).
  assert.deepStrictEqual(file.profiles.map((p) => [p.name, p.type, p.unit, p.endValue]),
    [['blocks-cpu-raw.dump', 'sampled', 'none', 486], ['gc-cpu-raw.dump', 'sampled', 'none', 878]]);
  for (const p of file.profiles) {
    assert.strictEqual(p.samples.length, p.weights.length);
    assert.strictEqual(p.weights.reduce((x, y) => x + y, 0), p.endValue);
    for (const st of p.samples) for (const f of st) assert.ok(f >= 0 && f < file.shared.frames.length);
  }
  s.delete();
});
