// The capture-recipe builder (web/lib/recipes.js): pure text generation, checked against the
// commands written out by hand here (bpftrace one-liner syntax as in the ruby-static-tracing docs).
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');

const recipes = require(path.join(__dirname, '../../web/lib/recipes.js'));

test('class names map to providers like the gem does', () => {
  assert.strictEqual(recipes.underscore('MyController'), 'my_controller');
  assert.strictEqual(recipes.underscore('A::BFoo'), 'a_b_foo');
  assert.strictEqual(recipes.underscore('HTTPClient'), 'http_client');
});

test('entries: provider:probe, Class#method, full bpftrace probe paths', () => {
  assert.deepStrictEqual(recipes.parseEntry('my_controller:index'), { raw: 'my_controller:index', provider: 'my_controller', name: 'index', ruby: false });
  assert.strictEqual(recipes.parseEntry('MyController#show').provider, 'my_controller');
  assert.strictEqual(recipes.parseEntry('MyController#show').name, 'show');
  const full = recipes.parseEntry('usdt:/proc/24205/root/tmp/my_controller-jNudzY.so:my_controller:create');
  assert.strictEqual(full.provider, 'my_controller');
  assert.strictEqual(full.name, 'create');
  assert.ok(recipes.parseEntry("x:y'; rm -rf /").error, 'shell metacharacters are rejected');
  assert.ok(recipes.parseEntry('nocolon').error);
});

test('gem probes: SIGPROF first, then count/sum/stats/hist/events/interval/stacks one-liners', () => {
  const r = recipes.build({ probes: 'my_controller:index, my_controller:show', pid: '24205', bpftrace: '0.17' });
  assert.deepStrictEqual(r.warnings, []);
  const byId = Object.fromEntries(r.steps.map((s) => [s.id, s.command]));
  assert.strictEqual(r.steps[0].id, 'enable');
  assert.strictEqual(byId.enable, 'kill -PROF 24205');
  assert.strictEqual(byId.count, "bpftrace -e 'usdt::my_controller:index, usdt::my_controller:show { @calls[probe] = count(); }' -p 24205");
  assert.strictEqual(byId.sum, "bpftrace -e 'usdt::my_controller:index, usdt::my_controller:show { @ns_total[probe] = sum(arg1); }' -p 24205");
  assert.strictEqual(byId.hist, "bpftrace -f json -e 'usdt::my_controller:index, usdt::my_controller:show { @ns[probe] = hist(arg1); }' -p 24205 > hist.ndjson");
  assert.strictEqual(byId.events,
    "bpftrace -f json -e 'usdt::my_controller:index, usdt::my_controller:show { printf(\"%llu %s %llu\\n\", nsecs, probe, arg1); }' -p 24205 > events.ndjson");
  assert.match(byId.interval, /interval:s:1 \{ time\(\); print\(@calls\); clear\(@calls\); \}/);
  // 0.17: BPFTRACE_STRLEN, at most 200
  assert.ok(byId.stacks.startsWith('BPFTRACE_STRLEN=200 bpftrace -f json'));
  assert.match(byId.stacks, /@stacks\[str\(arg1\)\] = count\(\);/);
  assert.ok(!('tracepoint' in byId));
});

test('newer bpftrace: the string limit variable and a larger cap', () => {
  const r = recipes.build({ probes: 'my_controller:*', pid: 1, bpftrace: '0.24', strlen: 4096 });
  const stacks = r.steps.find((s) => s.id === 'stacks').command;
  assert.ok(stacks.startsWith('BPFTRACE_MAX_STRLEN=4096 '));
  const old = recipes.build({ probes: 'my_controller:*', pid: 1, bpftrace: '0.17', strlen: 4096 });
  assert.ok(old.steps.find((s) => s.id === 'stacks').command.startsWith('BPFTRACE_STRLEN=200 '), '0.17 caps at 200');
});

test("Ruby's own probes get the TracePoint hint; a missing pid stays a placeholder", () => {
  const r = recipes.build({ probes: 'ruby:method__entry', pid: 'abc' });
  assert.strictEqual(r.pid, '<PID>');
  const ids = r.steps.map((s) => s.id);
  assert.deepStrictEqual(ids, ['tracepoint', 'ruby-count']);
  assert.match(r.steps[0].command, /TracePoint\.new\(:call, :return\) \{\}\.enable/);
  assert.match(r.steps[1].command, /-p <PID>$/);
});

test('nothing typed: a warning, no commands; script() joins the steps', () => {
  const empty = recipes.build({ probes: '  ' });
  assert.strictEqual(empty.steps.length, 0);
  assert.strictEqual(empty.warnings.length, 1);
  const s = recipes.script(recipes.build({ probes: 'a:b', pid: 3 }));
  assert.ok(s.startsWith('#!/bin/sh\n'));
  assert.ok(s.includes('\nkill -PROF 3\n'));
});
