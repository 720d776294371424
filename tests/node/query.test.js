// The query protocol through the Embind module, as web/worker.js drives it: a session stays alive
// after its report and answers {method, args} in place ({"result"} or {"error"}).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const fixtures = path.join(__dirname, '../../fixtures');
const createGcscope = require(path.join(site, 'gcscope.js'));

async function liveSession(files) {
  const M = await createGcscope();
  const session = new M.Session('{}');
  const ptr = M.allocBytes(1 << 16) >>> 0;
  for (const [name, bytes] of files) {
    session.beginFile(name);
    for (let off = 0; off < bytes.length; off += 1 << 16) {
      const part = bytes.subarray(off, Math.min(off + (1 << 16), bytes.length));
      M.HEAPU8.set(part, ptr);
      session.feed(ptr, part.length);
    }
    session.endFile();
  }
  M.freeBytes(ptr);
  const doc = JSON.parse(session.finish());
  const ask = (method, args) => {
    const at = session.queryInPlace(method, JSON.stringify(args || {})) >>> 0;
    return JSON.parse(new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.resultLength())));
  };
  return { M, session, doc, ask };
}

test('session.reports lists the reports with their titles after the first report', async () => {
  const log = fs.readFileSync(path.join(fixtures, 'jvm/jdk17-g1.log'));
  const folded = Buffer.from('main;a 3\nmain;b 2\n');
  const { session, doc, ask } = await liveSession([['gc.log', log], ['x.folded', folded]]);
  const reports = ask('session.reports').result;
  assert.deepStrictEqual(reports.map((r) => [r.report, r.format, r.title]),
    [[0, 'jvm-gc-log', 'JVM GC log'], [1, 'folded-stacks', 'Folded stacks']]);
  assert.deepStrictEqual(doc.reports.map((r) => r.title), ['JVM GC log', 'Folded stacks']);
  session.delete();
});

test('an unknown method or a bad argument is an error answer, and the session still answers', async () => {
  const folded = Buffer.from('main;a 3\n');
  const { session, ask } = await liveSession([['x.folded', folded]]);
  assert.match(ask('no.such.method').error, /no report of this analysis answers 'no.such.method'/);
  assert.match(ask('compare.side', { report: 7 }).error, /argument 'report' must be an integer from 0 to 0/);
  assert.strictEqual(ask('session.reports').result.length, 1);
  session.delete();
});

test('compare.with in one session gives what gcscope compare computes from two (tracing)', async () => {
  const a = await liveSession([['a.folded', Buffer.from('main;a 3\nmain;b 1\n')]]);
  const b = await liveSession([['b.folded', Buffer.from('main;a 1\nmain;b 1\nmain;c 2\n')]]);
  const side = a.ask('compare.side').result;
  assert.strictEqual(side.family, 'tracing');
  const c = b.ask('compare.with', { other: side }).result;
  // Hand count: a = {main;a: 3, main;b: 1}, b = {main;a: 1, main;b: 1, main;c: 2}.
  const rows = Object.fromEntries(c.stacks.rows.map((r) => [r.stack, [r.a, r.b, r.delta]]));
  assert.deepStrictEqual(rows['main;a'], [3, 1, -2]);
  assert.deepStrictEqual(rows['main;c'], [null, 2, 2]);  // absent from a: null, not 0
  assert.strictEqual(c.stacks.only_b, 1);
  a.session.delete();
  b.session.delete();
});
