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

// The pauses of a unified log counted from its text, independently of the parser: each
// "GC(n) Pause <Kind> … <d>ms" line, started at its "[gc,start] GC(n) Pause <Kind>" line, in µs.
function textPauses(text) {
  const starts = new Map(), out = [];
  for (const line of text.split('\n')) {
    let m = /^\[(\d+\.\d+)s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) (Pause \w+)/.exec(line);
    if (m) { starts.set(m[2] + ' ' + m[3], Number(m[1])); continue; }
    m = /^\[\d+\.\d+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) (Pause \w+).* (\d+)\.(\d{3})ms$/.exec(line);
    if (m && starts.has(m[1] + ' ' + m[2])) out.push({ start: starts.get(m[1] + ' ' + m[2]), us: Number(m[3]) * 1000 + Number(m[4]) });
  }
  return out;
}

test('jvm.summary, jvm.events and jvm.series answer a time range of a JVM log exactly', async () => {
  const log = fs.readFileSync(path.join(fixtures, 'jvm/jdk17-g1.log'));
  const all = textPauses(log.toString());
  assert.strictEqual(all.length, 27);  // grep -c 'Pause.*ms$'
  const { session, doc, ask } = await liveSession([['gc.log', log]]);
  assert.strictEqual(doc.reports[0].pauses.count, 27);
  const t0 = 0.1, t1 = 0.13;  // the pauses starting at 0.101, 0.108, 0.111, 0.115, 0.121, 0.127, 0.129 s
  const want = all.filter((p) => p.start >= t0 && p.start <= t1).map((p) => p.us).sort((a, b) => a - b);
  assert.strictEqual(want.length, 7);
  const s = ask('jvm.summary', { t0, t1 }).result;
  assert.strictEqual(s.pauses.count, want.length);
  assert.strictEqual(s.pauses.total_s, want.reduce((a, b) => a + b, 0) / 1e6);
  assert.strictEqual(s.pauses.max_s, want[want.length - 1] / 1e6);
  assert.strictEqual(s.pauses.p50_s, want[Math.ceil(0.5 * want.length) - 1] / 1e6);
  const events = ask('jvm.events', { t0, t1, sort: 'paused_s', desc: true, limit: 2 }).result;
  assert.strictEqual(events.rows[0].paused_s, want[want.length - 1] / 1e6);
  const series = ask('jvm.series', { t0, t1, width: 1000 }).result;
  assert.strictEqual(series.decimated, false);
  assert.deepStrictEqual(series.pauses.duration_s.slice().sort((a, b) => a - b), want.map((us) => us / 1e6));
  assert.match(ask('jvm.summary', { t0: 2, t1: 1 }).error, /'t1' must not be before 't0'/);
  session.delete();
});
