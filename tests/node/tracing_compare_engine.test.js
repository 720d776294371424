// Comparing two tracing captures is the engine's answer: compare.side of capture A's session, then
// compare.with on B's session (what the page does with two jobs' engines, and what
// `gcscope compare A B` does). The expected figures are the hand-computed ones of
// tests/tracing/test_tracing_compare.cpp (worked out there from the corpus files).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const corpusDir = process.env.GCSCOPE_CORPUS_DIR || path.join(__dirname, '../../../shared/corpus');
const createGcscope = require(path.resolve(site, 'gcscope.js'));

// A live session of one capture, as the worker keeps it: ask(method, args) → the answer.
async function sessionOf(rel) {
  const M = await createGcscope();
  const bytes = fs.readFileSync(path.join(corpusDir, rel));
  const session = new M.Session('{}');
  const ptr = M.allocBytes(Math.max(bytes.length, 1)) >>> 0;
  session.beginFile(path.basename(rel));
  M.HEAPU8.set(bytes, ptr);
  session.feed(ptr, bytes.length);
  session.endFile();
  const doc = JSON.parse(session.finish());
  M.freeBytes(ptr);
  assert.strictEqual(doc.reports.length, 1, rel);
  const ask = (method, args) => {
    const at = session.queryInPlace(method, JSON.stringify(args || {})) >>> 0;
    const answer = JSON.parse(new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.resultLength())));
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result;
  };
  return { ask, close: () => session.delete() };
}

// A's side, compared on B's engine: the page's two-job comparison.
async function compareOnEngines(relA, relB) {
  const a = await sessionOf(relA), b = await sessionOf(relB);
  try {
    return b.ask('compare.with', { other: a.ask('compare.side') });
  } finally {
    a.close();
    b.close();
  }
}
const row = (c, probe) => c.probes.find((r) => r.probe === probe);

test('histogram captures (text vs JSON): calls deltas and bucket-bound deltas', async () => {
  const c = await compareOnEngines('trace/bpftrace-0.17-det/det_hist_keyed.txt', 'trace/bpftrace-0.17-det/det_lhist_keyed.ndjson');
  assert.strictEqual(c.kind, 'tracing');
  assert.deepStrictEqual(c.probes.map((r) => r.probe), ['bpftrace', 'curl']);
  const bt = row(c, 'bpftrace');
  assert.deepStrictEqual([bt.calls.a, bt.calls.b, bt.calls.delta, bt.calls.delta_percent], [1, 2, 1, 100]);
  assert.strictEqual(bt.p50.delta, null);
  assert.deepStrictEqual(bt.p50.delta_bounds, [-3, 7]);
  assert.deepStrictEqual(bt.p90.delta_bounds, [97, null]);
  const curl = row(c, 'curl');
  assert.deepStrictEqual([curl.calls.delta, curl.calls.delta_percent], [-4, -80]);
  assert.deepStrictEqual(curl.p50.delta_bounds, [-461, -197]);
  assert.deepStrictEqual(curl.p99.delta_bounds, [-1997, -965]);
  assert.strictEqual(c.stacks.rows.length, 0);
});

test('the same Rails app traced with aggregation maps, then with hist()', async () => {
  const c = await compareOnEngines('trace/malformed/bt_text_with_stderr_mixed.txt', 'trace/malformed/bt_text_bar_count_mismatch.txt');
  assert.strictEqual(c.probes.length, 5);
  const create = row(c, 'create');
  assert.deepStrictEqual([create.calls.a, create.calls.b, create.calls.delta], [143, 208, 65]);
  assert.ok(Math.abs(create.calls.delta_percent - (100 * 65) / 143) < 1e-9);
  assert.strictEqual(create.mean.delta, null);
  assert.deepStrictEqual(create.p50.b, [4194304, 8388607]);
  assert.strictEqual(create.p50.delta_bounds, null);
  assert.deepStrictEqual(['index', 'show', 'default_url_options', 'current_user'].map((p) => row(c, p).calls.delta), [8832, 317, 330, 636]);
});

test('per-stack weight deltas between two foldings of the dd capture', async () => {
  const s = (await compareOnEngines('trace/stacks/flamegraph-tests/perf-dd-stacks-01.txt', 'trace/stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-all.txt')).stacks;
  assert.deepStrictEqual([s.a.total_weight, s.b.total_weight, s.a.unique, s.b.unique, s.common, s.only_a, s.only_b], [111111110, 101010100, 10, 9, 2, 8, 7]);
  assert.strictEqual(s.rows.length, 17);
  assert.strictEqual(s.rows[0].stack, 'dd;[unknown];write;system_call;sys_write;vfs_write;fsnotify;__srcu_read_unlock');
  assert.deepStrictEqual([s.rows[0].a, s.rows[0].b, s.rows[0].delta], [20202020, null, -20202020]);
  assert.ok(Math.abs(s.rows[0].share_delta + 200 / 11) < 1e-9);
  assert.strictEqual(s.rows[1].stack, 'dd;[unknown];write;system_call_[k];sys_write_[k];vfs_write_[k];fsnotify_[k];__srcu_read_unlock_[k]');
  assert.deepStrictEqual([s.rows[15].stack, s.rows[15].delta, s.rows[16].stack], ['dd;[unknown];[dd]', 0, 'dd;[unknown];read']);
  assert.strictEqual(s.rows_omitted, 0);
});

test('a capture against itself in another format (perf script vs its folding): zero deltas', async () => {
  const s = (await compareOnEngines('trace/stacks/live/perf_script_ruby.txt', 'trace/stacks/live/perf_script_ruby.folded.txt')).stacks;
  assert.deepStrictEqual([s.common, s.only_a, s.only_b, s.a.total_weight], [10, 0, 0, 131313130]);
  assert.ok(s.rows.every((r) => r.delta === 0 && r.share_delta === 0));
  assert.strictEqual(s.rows[0].stack, 'ruby;[libruby-3.1.so.3.1.2]');
});

test('a tracing capture cannot be compared with a heap dump', async () => {
  const a = await sessionOf('trace/stacks/live/perf_script_ruby.folded.txt');
  const b = await sessionOf('heap/dumps/variant_since_partial.heap.json');
  assert.throws(() => b.ask('compare.with', { other: a.ask('compare.side') }), /has no comparison/);
  a.close();
  b.close();
});
