// Every format the engine registers (`gcscope formats`) comes with what the product needs around it:
// a view that registers its id, a real fixture and a site sample that identify as it, and fuzz seeds
// for its fuzz target (the targets themselves are made from the registry by the fuzz build).
// Run by ctest in the native build: GCSCOPE names the CLI.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { execFileSync } = require('child_process');

const root = path.join(__dirname, '../..');
const cli = process.env.GCSCOPE || path.join(root, 'build/native/gcscope');
const gcscope = (...args) => execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
const formats = JSON.parse(gcscope('formats'));

// `gcscope identify` prints "path<TAB>format<TAB>evidence" per input (and per archive member).
function identified(paths) {
  const byFormat = new Map();
  for (const line of gcscope('identify', ...paths).split('\n').filter(Boolean)) {
    const [file, format] = line.split('\t');
    if (!byFormat.has(format)) byFormat.set(format, []);
    byFormat.get(format).push(file);
  }
  return byFormat;
}

test('the registry lists formats, each with a title and its domain folder', () => {
  assert.ok(formats.length > 0);
  for (const f of formats) {
    assert.match(f.id, /^[a-z0-9-]+$/, JSON.stringify(f));
    assert.ok(f.title, f.id);
    assert.ok(fs.existsSync(path.join(root, 'wasm', f.domain, 'register.cpp')), `${f.id}: wasm/${f.domain}/register.cpp`);
  }
});

test('every registered format has a view in web/views/ that registers its id', () => {
  const registered = new Set();
  const dir = path.join(root, 'web/views');
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    // The views only register at load time; everything they draw with is asked for when they render.
    const anything = new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : anything), apply: () => anything });
    const GCSCOPE = { ui: anything, charts: anything, flamegraph: anything, registerView: (id) => registered.add(id) };
    const sandbox = { GCSCOPE, console };
    sandbox.window = sandbox;
    vm.runInNewContext(fs.readFileSync(path.join(dir, name), 'utf8'), sandbox, { filename: name });
  }
  const missing = formats.map((f) => f.id).filter((id) => !registered.has(id));
  assert.deepStrictEqual(missing, [], 'formats without a view');
});

test('every registered format has a real fixture in fixtures/ that identifies as it', () => {
  const found = identified([path.join(root, 'fixtures')]);
  const missing = formats.map((f) => f.id).filter((id) => !found.has(id));
  assert.deepStrictEqual(missing, [], 'formats without a fixture');
});

test('every registered format has a sample on the site (fixtures/samples.json) that identifies as it', () => {
  const samples = JSON.parse(fs.readFileSync(path.join(root, 'fixtures/samples.json'), 'utf8')).samples;
  const found = identified(samples.map((s) => path.join(root, 'fixtures', s.path)));
  const missing = formats.map((f) => f.id).filter((id) => !found.has(id));
  assert.deepStrictEqual(missing, [], 'formats without a sample');
});

test('every registered format has fuzz seeds for its target fuzz_<id> in fuzz/corpus/', () => {
  // fuzz/run.sh unpacks the archive fuzz/corpus/fuzz_<id>.tar.xz (xz magic FD 37 7A 58 5A 00).
  const has = (target) => {
    const file = path.join(root, 'fuzz/corpus', target + '.tar.xz');
    if (!fs.existsSync(file)) return false;
    const head = fs.readFileSync(file).subarray(0, 6);
    return head.equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]));
  };
  const missing = formats.map((f) => 'fuzz_' + f.id).filter((t) => !has(t));
  assert.deepStrictEqual(missing, [], 'fuzz targets without seeds');
});
