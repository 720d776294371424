// The Embind module in node (the same gcscope.js/.wasm the worker loads): a session fed in chunks
// through the wasm heap, exactly as web/worker.js does.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const fixtures = path.join(__dirname, '../../fixtures');
const createGcscope = require(path.join(site, 'gcscope.js'));

async function analyze(files, chunk = 1 << 16) {
  const M = await createGcscope();
  const session = new M.Session('{}');
  const ptr = M.allocBytes(chunk) >>> 0;
  for (const [name, bytes] of files) {
    session.beginFile(name);
    for (let off = 0; off < bytes.length; off += chunk) {
      const part = bytes.subarray(off, Math.min(off + chunk, bytes.length));
      M.HEAPU8.set(part, ptr);
      session.feed(ptr, part.length);
    }
    session.endFile();
  }
  const doc = JSON.parse(session.finish());
  M.freeBytes(ptr);
  session.delete();
  return doc;
}

test('identifies a gzip\'d unified G1 log fed in chunks', async () => {
  const gz = fs.readFileSync(path.join(fixtures, 'jvm/jdk17-g1-gconly.log.gz'));
  const doc = await analyze([['gc.log.gz', gz]], 100);
  assert.strictEqual(doc.inputs[0].format, 'jvm-gc-log');
  assert.strictEqual(doc.inputs[0].compression, 'gzip');
  assert.strictEqual(doc.inputs[0].decoded_bytes, fs.statSync(path.join(fixtures, 'jvm/jdk17-g1-gconly.log')).size);
  assert.strictEqual(doc.inputs[0].identification.collector, 'G1');
});

test('finishInPlace (the worker\'s way) gives the same report text as finish()', async () => {
  // Two sessions over the same bytes: one returns the text through Embind, the other leaves it in
  // the wasm heap for TextDecoder. A report with non-ASCII text (the G1 log's diary has none, so a
  // folded-stacks capture with UTF-8 frame names is added) must come out identical.
  const log = fs.readFileSync(path.join(fixtures, 'jvm/jdk17-g1.log'));
  const folded = Buffer.from('main;caf\u00e9;\u65e5\u672c 3\nmain;x 2\n', 'utf8');
  const M = await createGcscope();
  const run = (inPlace) => {
    const session = new M.Session('{}');
    const ptr = M.allocBytes(1 << 16) >>> 0;
    for (const [name, bytes] of [['gc.log', log], ['stacks.folded', folded]]) {
      session.beginFile(name);
      for (let off = 0; off < bytes.length; off += 1 << 16) {
        const part = bytes.subarray(off, Math.min(off + (1 << 16), bytes.length));
        M.HEAPU8.set(part, ptr);
        session.feed(ptr, part.length);
      }
      session.endFile();
    }
    let text;
    if (inPlace) {
      const at = session.finishInPlace() >>> 0;
      text = new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.reportLength()));
    } else {
      text = session.finish();
    }
    M.freeBytes(ptr);
    session.delete();
    return text;
  };
  const viaEmbind = run(false), inPlace = run(true);
  assert.ok(viaEmbind.length > 10000);
  assert.strictEqual(inPlace, viaEmbind);
  const doc = JSON.parse(inPlace);
  const frames = doc.reports.find((r) => r.format === 'folded-stacks').stacks.frames;
  assert.ok(frames.includes('caf\u00e9') && frames.includes('\u65e5\u672c'), frames.join(','));
});

test('a corrupt gzip is an error with an offset; the other file is still analyzed', async () => {
  const gz = Buffer.from(fs.readFileSync(path.join(fixtures, 'jvm/jdk17-g1-gconly.log.gz')));
  gz[20] ^= 0xff; gz[21] ^= 0xff;
  const dump = fs.readFileSync(path.join(fixtures, 'stackprof/fib-cpu-raw.dump'));
  const doc = await analyze([['bad.gz', gz], ['fib.dump', dump]]);
  assert.strictEqual(doc.inputs[1].format, 'stackprof');
  const err = doc.errors.find((e) => e.path === 'bad.gz');
  assert.ok(err, JSON.stringify(doc.errors));
  assert.match(err.message, /gzip/);
  assert.strictEqual(typeof err.offset, 'number');
});

