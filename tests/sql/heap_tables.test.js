// The Ruby heap dump's tables (objects, object_references, roots) as `gcscope tables` writes them,
// read back by DuckDB, against independent sources: Ruby's own ObjectSpace.count_objects taken
// by fixtures/heap/generate.rb just before its dump_all, the dump's JSON lines counted here
// with JSON.parse (objects per type, memsize, references to objects the dump holds, roots), and
// for a set of three dumps the leak sizes Ruby itself recorded (sites.truth.json).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { connect, tables, lit, root, missing } = require('./duckdb');

global.GCSCOPE = global.GCSCOPE || {};
require(path.join(root, 'web/sql/examples.js'));

const dumpFile = path.join(root, 'fixtures/heap/points.heap.json.gz');

// The dump read line by line: objects per type with their bytes, references whose target is an
// object of the dump, roots per category. ROOT and SHAPE records and free slots are not objects.
function handCount(file = dumpFile) {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const objects = lines.filter((r) => r.address && !['ROOT', 'SHAPE', 'NONE'].includes(r.type));
  const held = new Set(objects.map((o) => o.address));
  const out = { types: {}, bytes: {}, references: 0, roots: {}, withSite: 0 };
  for (const o of objects) {
    out.types[o.type] = (out.types[o.type] || 0) + 1;
    out.bytes[o.type] = (out.bytes[o.type] || 0) + (o.memsize || 0);
    out.references += (o.references || []).filter((a) => held.has(a)).length;
    if (o.file) out.withSite++;
  }
  for (const r of lines.filter((x) => x.type === 'ROOT')) out.roots[r.root] = (out.roots[r.root] || 0) + r.references.filter((a) => held.has(a)).length;
  return out;
}

async function load() {
  const { dir, summary } = tables([dumpFile]);
  assert.strictEqual(summary.analyzed, 1);
  const { rows } = await connect();
  for (const t of summary.tables) {
    if (t.table !== 'errors') await rows(`CREATE VIEW ${t.table} AS SELECT * FROM read_csv(${lit(t.file)})`);
  }
  assert.ok(fs.existsSync(path.join(dir, 'objects.csv')));
  return rows;
}

test('objects per type are Ruby\'s ObjectSpace.count_objects; references and roots are the dump\'s', { skip: missing || false }, async () => {
  const rows = await load();
  const counts = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/heap/points.counts.json'), 'utf8')).counts;
  const got = Object.fromEntries((await rows('SELECT type, count(*) AS n FROM objects GROUP BY type')).map((r) => [r.type, r.n]));
  // Types the dump_all call itself does not allocate: exactly Ruby's count, taken before it.
  for (const t of ['OBJECT', 'CLASS', 'MODULE', 'FLOAT', 'REGEXP', 'STRUCT', 'BIGNUM', 'COMPLEX', 'SYMBOL', 'ICLASS']) {
    assert.strictEqual(got[t], counts[`T_${t}`], t);
  }
  // dump_all allocates a few strings, arrays, hashes, a File and its IMEMOs between the two.
  for (const t of ['STRING', 'ARRAY', 'HASH', 'FILE', 'DATA', 'IMEMO']) {
    assert.ok(got[t] >= counts[`T_${t}`] && got[t] <= counts[`T_${t}`] + 40, `${t}: ${got[t]} vs ${counts[`T_${t}`]}`);
  }
  const hand = handCount();
  assert.deepStrictEqual(got, hand.types);
  const [refs] = await rows('SELECT count(*) AS n FROM object_references');
  assert.strictEqual(refs.n, hand.references);
  const roots = Object.fromEntries((await rows('SELECT category, count(*) AS n FROM roots GROUP BY category')).map((r) => [r.category, r.n]));
  assert.deepStrictEqual(roots, hand.roots);
  // generate.rb keeps 300 Point structs.
  const [points] = await rows("SELECT count(*) AS n FROM objects WHERE class = 'Point'");
  assert.strictEqual(points.n, 300);
  // Every reference and root names an object of the table.
  const [orphans] = await rows(`SELECT (SELECT count(*) FROM object_references r ANTI JOIN objects o ON o.address = r.to_address)
    + (SELECT count(*) FROM roots r ANTI JOIN objects o USING (address)) AS n`);
  assert.strictEqual(orphans.n, 0);
});

test('the heap examples run; per type and per root category they give the dump\'s own counts', { skip: missing || false }, async () => {
  const rows = await load();
  const hand = handCount();
  const examples = global.GCSCOPE.sqlExamples.forFormats(['ruby-heap-dump']);
  assert.ok(examples.length >= 3);
  const ran = {};
  for (const [label, sql] of examples) ran[label] = await rows(sql);
  const perType = ran['Objects and bytes per type'];
  assert.deepStrictEqual(Object.fromEntries(perType.map((r) => [r.type, [r.objects, r.bytes]])),
    Object.fromEntries(Object.keys(hand.types).map((t) => [t, [hand.types[t], hand.bytes[t]]])));
  assert.deepStrictEqual(Object.fromEntries(ran['Roots per category'].map((r) => [r.category, r.roots])), hand.roots);
  const sites = ran['Allocation sites'];
  assert.ok(sites.length > 0 && sites.every((s) => s.file !== null));
  const top = ran['Most referenced objects'];
  assert.ok(top.length > 0 && top[0].referrers >= top[top.length - 1].referrers);
});

// Three dumps of one process: as one set (a folder) and as three inputs, every dump's rows are
// there under its own input, with the dump's own counts; the three leak sites hold nothing in
// dump 1 and exactly what Ruby held (CACHE.size, ...) in dumps 2 and 3.
test('a set of dumps gives every dump\'s rows, each under its own input', { skip: missing || false }, async () => {
  const names = ['sites_1', 'sites_2', 'sites_3'];
  const folder = fs.mkdtempSync(path.join(require('os').tmpdir(), 'gcscope-heapset-'));
  for (const n of names) fs.copyFileSync(path.join(root, `fixtures/heap/${n}.heap.json.gz`), path.join(folder, `${n}.heap.json.gz`));
  const files = names.map((n) => path.join(folder, `${n}.heap.json.gz`));
  const truth = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/heap/sites.truth.json'), 'utf8')).sites;
  const hands = files.map((f) => handCount(f));
  for (const [args, analyzed] of [[[folder], 1], [files, 3]]) {
    const { summary } = tables(args);
    assert.strictEqual(summary.analyzed, analyzed);
    const { rows } = await connect();
    for (const t of summary.tables) {
      if (t.table !== 'errors') await rows(`CREATE VIEW ${t.table} AS SELECT * FROM read_csv(${lit(t.file)})`);
    }
    const perInput = async (sql) => {
      const out = {};
      for (const r of await rows(sql)) (out[r.input] ||= {})[r.k] = r.n;
      return out;
    };
    const types = await perInput('SELECT input, type AS k, count(*) AS n FROM objects GROUP BY ALL');
    const refs = await perInput("SELECT input, 'all' AS k, count(*) AS n FROM object_references GROUP BY ALL");
    const roots = await perInput('SELECT input, category AS k, count(*) AS n FROM roots GROUP BY ALL');
    assert.deepStrictEqual(Object.keys(types).sort(), files);
    files.forEach((f, i) => {
      assert.deepStrictEqual(types[f], hands[i].types, f);
      assert.strictEqual(refs[f].all, hands[i].references, f);
      assert.deepStrictEqual(roots[f], hands[i].roots, f);
    });
    for (const site of truth) {
      const got = await perInput(`SELECT input, 'n' AS k, count(*) AS n FROM objects
        WHERE (file = ${lit(site.file)} OR file LIKE ${lit('%/' + site.file)}) AND line = ${site.line} AND type = ${lit(site.type)} GROUP BY ALL`);
      assert.deepStrictEqual(files.map((f) => (got[f] || { n: 0 }).n), [0, site.count, site.count], JSON.stringify(site));
    }
    // Every reference and root names an object of its own dump.
    const [orphans] = await rows(`SELECT (SELECT count(*) FROM object_references r ANTI JOIN objects o
        ON o.input = r.input AND o.address = r.to_address) + (SELECT count(*) FROM roots r ANTI JOIN objects o USING (input, address)) AS n`);
    assert.strictEqual(orphans.n, 0);
  }
});
