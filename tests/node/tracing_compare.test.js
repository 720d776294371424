// The tracing view's comparison of two captures (web/views/tracing.js compareCaptures, a JS port of
// wasm/tracing/compare.cpp, which `gcscope compare A B` runs): the reports come from the wasm module
// (as in the worker), and the expected figures are the hand-computed ones of
// tests/tracing/test_tracing_compare.cpp (worked out there from the corpus files).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const corpusDir = process.env.GCSCOPE_CORPUS_DIR || path.join(__dirname, '../../../shared/corpus');
const createGcscope = require(path.resolve(site, 'gcscope.js'));
const { compareCaptures } = require(path.join(__dirname, '../../web/views/tracing.js'));

async function reportOf(rel) {
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
  session.delete();
  assert.strictEqual(doc.reports.length, 1, rel);
  return doc.reports[0];
}
const row = (c, probe) => c.probes.find((r) => r.probe === probe);

test('histogram captures (text vs JSON): calls deltas and bucket-bound deltas', async () => {
  const c = compareCaptures(await reportOf('trace/bpftrace-0.17-det/det_hist_keyed.txt'), await reportOf('trace/bpftrace-0.17-det/det_lhist_keyed.ndjson'));
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
  const c = compareCaptures(await reportOf('trace/malformed/bt_text_with_stderr_mixed.txt'), await reportOf('trace/malformed/bt_text_bar_count_mismatch.txt'));
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
  const a = await reportOf('trace/stacks/flamegraph-tests/perf-dd-stacks-01.txt');
  const b = await reportOf('trace/stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-all.txt');
  const s = compareCaptures(a, b).stacks;
  assert.deepStrictEqual([s.a.total_weight, s.b.total_weight, s.a.unique, s.b.unique, s.common, s.only_a, s.only_b], [111111110, 101010100, 10, 9, 2, 8, 7]);
  assert.strictEqual(s.rows.length, 17);
  assert.strictEqual(s.rows[0].stack, 'dd;[unknown];write;system_call;sys_write;vfs_write;fsnotify;__srcu_read_unlock');
  assert.deepStrictEqual([s.rows[0].a, s.rows[0].b, s.rows[0].delta], [20202020, null, -20202020]);
  assert.ok(Math.abs(s.rows[0].share_delta + 200 / 11) < 1e-9);
  assert.strictEqual(s.rows[1].stack, 'dd;[unknown];write;system_call_[k];sys_write_[k];vfs_write_[k];fsnotify_[k];__srcu_read_unlock_[k]');
  assert.deepStrictEqual([s.rows[15].stack, s.rows[15].delta, s.rows[16].stack], ['dd;[unknown];[dd]', 0, 'dd;[unknown];read']);
  const cut = compareCaptures(a, b, 5).stacks;
  assert.deepStrictEqual([cut.rows.length, cut.rows_omitted], [5, 12]);
});

test('a capture against itself in another format (perf script vs its folding): zero deltas', async () => {
  const s = compareCaptures(await reportOf('trace/stacks/live/perf_script_ruby.txt'), await reportOf('trace/stacks/live/perf_script_ruby.folded.txt')).stacks;
  assert.deepStrictEqual([s.common, s.only_a, s.only_b, s.a.total_weight], [10, 0, 0, 131313130]);
  assert.ok(s.rows.every((r) => r.delta === 0 && r.share_delta === 0));
  assert.strictEqual(s.rows[0].stack, 'ruby;[libruby-3.1.so.3.1.2]');
});

test('integers beyond 2^53 give exact deltas (as strings when large)', () => {
  const rep = (v) => ({ latency: [{ probe: 'u', total: v }] });
  assert.strictEqual(compareCaptures(rep('9007199254740993'), rep('9007199254740995')).probes[0].total.delta, 2);
  assert.strictEqual(compareCaptures(rep(0), rep('18446744073709551615')).probes[0].total.delta, '18446744073709551615');
});
