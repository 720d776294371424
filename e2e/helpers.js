// Shared helpers for the browser tests.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { test, expect } = require('@playwright/test');

const ROOT = path.join(__dirname, '..');
const fixture = (rel) => path.join(ROOT, 'fixtures', rel);
// The shared corpus (real inputs with peers' expectations, outside the repository): GCSCOPE_CORPUS_DIR
// when set (CI checks it out elsewhere), else ../shared/corpus. Called in a test: where the corpus
// folder of the file (heap/, jvm/, prof/, trace/, tuner/) is absent, the test is skipped, saying so.
const CORPUS_DIR = process.env.GCSCOPE_CORPUS_DIR || path.join(ROOT, '..', 'shared', 'corpus');
const corpus = (rel) => {
  const part = path.join(CORPUS_DIR, rel.split('/')[0]);
  test.skip(!fs.existsSync(part), `needs the shared corpus: ${part} is missing (set GCSCOPE_CORPUS_DIR)`);
  return path.join(CORPUS_DIR, rel);
};

// Chooses files through the page's file input (what a user does with the picker).
async function chooseFiles(page, paths) {
  await page.locator('#file-input').setInputFiles(paths);
}

// Dispatches a real `drop` event carrying a DataTransfer with the given files ({name, base64}).
async function dropFiles(page, files) {
  const payload = files.map((f) => ({ name: f.name, b64: (f.buffer || fs.readFileSync(f.path)).toString('base64') }));
  const dt = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      transfer.items.add(new File([bytes], f.name));
    }
    return transfer;
  }, payload);
  await page.dispatchEvent('#drop', 'drop', { dataTransfer: dt });
}

// Waits for the newest job to finish and returns its card locator.
async function lastJob(page, { timeout = 60_000 } = {}) {
  const card = page.locator('.job').first();
  await expect(card.locator('.job-status')).toHaveText(/Done|Not recognized|Failed|Cancelled/, { timeout });
  return card;
}

// Writes a temporary file and returns its path (big inputs are made at test time, never stored).
function tempFile(name, data) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-e2e-'));
  const p = path.join(dir, name);
  fs.writeFileSync(p, data);
  return p;
}

// The pauses of a unified log counted from its text, independently of the engine: the uptime of each "[gc,start] GC(n) Pause X"
// line that has its "GC(n) Pause X … <d>ms" end line, with that duration in µs.
function textPauses(file) {
  const starts = new Map(), out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let m = /^\[(\d+\.\d+)s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) (Pause \w+)/.exec(line);
    if (m) { starts.set(m[2] + ' ' + m[3], Number(m[1])); continue; }
    m = /^\[\d+\.\d+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) (Pause \w+).* (\d+)\.(\d{3})ms$/.exec(line);
    if (m && starts.has(m[1] + ' ' + m[2])) out.push({ start: starts.get(m[1] + ' ' + m[2]), us: Number(m[3]) * 1000 + Number(m[4]) });
  }
  return out;
}

// speedscope's sandwich table ("Total (pct)", "Self (pct)", name per row, heaviest self first), read
// from the real speedscope 1.25 (npm release build, opened from disk in the same chromium) after it
// opened `file`. `expect` is the caller's (Playwright's test module).
async function speedscopeSandwich(context, file, expect) {
  const ss = await context.newPage();
  await ss.goto('file://' + path.join(ROOT, 'node_modules/speedscope/dist/release/index.html'));
  await ss.locator('input[type=file]').setInputFiles(file);
  await ss.getByText('Sandwich').click();
  await expect(ss.locator('body')).toContainText('Symbol Name');
  const text = await ss.evaluate(() => document.body.innerText);
  const lines = text.slice(text.indexOf('Symbol Name') + 11).split('\n').map((l) => l.trim()).filter(Boolean);
  const rows = [];
  for (let i = 0; i + 2 < lines.length && /^\d/.test(lines[i]); i += 3) rows.push({ total: lines[i], self: lines[i + 1], name: lines[i + 2] });
  return rows;
}

// What the real speedscope shows of FILE in its Left Heavy view, read from its hover tooltips
// ("WEIGHT (PCT%) NAME"): `roots`, the frames of the top row (swept left to right), and `heaviest`,
// the frames down the left edge, which Left Heavy gives to the heaviest child at every depth.
async function speedscopeLeftHeavy(context, file, expect) {
  const ss = await context.newPage();
  await ss.setViewportSize({ width: 1200, height: 800 });
  await ss.goto('file://' + path.join(ROOT, 'node_modules/speedscope/dist/release/index.html'));
  await ss.locator('input[type=file]').setInputFiles(file);
  await ss.getByText('Left Heavy').click();
  const header = await ss.locator('body').innerText();
  const tip = async (x, y) => {
    await ss.mouse.move(x, y);
    const m = (await ss.locator('body').innerText()).slice(header.length).trim().match(/^(\d+) \([\d.]+%\) (.+)$/m);
    return m && { weight: Number(m[1]), name: m[2] };
  };
  // The flame chart's first row: the first height, below the minimap, where a tooltip appears.
  let top = 0;
  for (let y = 60; y < 400 && !top; y += 4) if (await tip(3, y)) top = y;
  expect(top, 'speedscope shows a frame at the left edge').toBeGreaterThan(0);
  const heaviest = [];
  for (let y = top + 8, f; (f = await tip(3, y)); y += 20) heaviest.push(f);
  const roots = [];
  for (let x = 3; x < 1200; x += 6) {
    const f = await tip(x, top + 8);
    if (f && !(roots.length && roots[roots.length - 1].name === f.name)) roots.push(f);
  }
  await ss.close();
  return { roots, heaviest };
}

module.exports = { ROOT, fixture, corpus, chooseFiles, dropFiles, lastJob, tempFile, textPauses, speedscopeSandwich, speedscopeLeftHeavy };
