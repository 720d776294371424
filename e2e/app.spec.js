// The page shell: picking and dropping files, progress and cancel, errors next to their input,
// sub-path serving, a cross-origin iframe, and no request ever leaving the site's origin.
const fs = require('fs');
const zlib = require('zlib');
const { test, expect } = require('@playwright/test');
const { fixture, chooseFiles, dropFiles, lastJob, tempFile } = require('./helpers');

test('a file chosen with the picker is identified', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const row = job.locator('table.inputs tbody tr').first();
  await expect(row.locator('.badge')).toHaveText('JVM GC log');
  await expect(row.locator('.why')).toContainText('unified JVM logging');
  await expect(row.locator('.why')).toContainText('collector: G1');
});

test('jobs run the page\'s compiled wasm module, with the same report as a worker that compiles its own', async ({ page }) => {
  await page.goto('/');
  for (let n = 1; n <= 2; n++) {
    await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
    await expect(page.locator('.job .job-status.done')).toHaveCount(n);
  }
  // Both jobs (the warm spare and the one started after the first job) instantiated the page's module.
  expect(await page.locator('.job').evaluateAll((cards) => cards.map((c) => c.dataset.wasmModule))).toEqual(['shared', 'shared']);
  const shared = await page.locator('.job').first().evaluate((c) => JSON.stringify(c.gcscopeDoc));
  // A worker given no module fetches and compiles its own; the report is the same document.
  const own = await page.evaluate(async () => {
    const blob = await (await fetch('samples/jdk17-g1.log')).blob();
    const w = new Worker(GCSCOPE.scriptURL('worker.js'));
    const m = await new Promise((resolve) => {
      w.onmessage = (e) => { if (e.data.type === 'result' || e.data.type === 'error') resolve(e.data); };
      w.postMessage({ type: 'analyze', files: [{ path: 'jdk17-g1.log', blob }], options: {} });
    });
    w.terminate();
    return { module: m.stats && m.stats.module, json: JSON.stringify(JSON.parse(m.json)) };
  });
  expect(own.module).toBe('own');
  expect(own.json).toBe(shared);
});

// Warming (startWarmUp in web/app.js): an idle page analyzes its bundled samples in a worker of its
// own, so that V8's optimizing compiles are done before the first real file.
const SAMPLE_COUNT = JSON.parse(fs.readFileSync(fixture('samples.json'), 'utf8')).samples.length;
// Hand count: `grep -cE '\[gc *\] GC\([0-9]+\) Pause.*ms$' fixtures/jvm/jdk17-g1.log` → 27.
const PAUSES_IN_G1_FIXTURE = 27;

test('an idle page warms up on every bundled sample, out of sight, and its first job runs the shared module', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-warm-up', 'done', { timeout: 60_000 });
  // 16 samples in fixtures/samples.json when this was written; each one gave a report.
  expect(SAMPLE_COUNT).toBe(16);
  await expect(page.locator('html')).toHaveAttribute('data-warm-up-inputs', String(SAMPLE_COUNT));
  await expect(page.locator('.job')).toHaveCount(0);
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(await job.evaluate((c) => c.dataset.wasmModule)).toBe('shared');
  // The page's report is whole: every pause the JDK logged.
  expect(await job.evaluate((c) => c.gcscopeDoc.reports[0].pauses.count)).toBe(PAUSES_IN_G1_FIXTURE);
});

test('a job started while the page warms up stops the warming, and its report is whole', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-warm-up', 'running', { timeout: 10_000 });
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  await expect(page.locator('html')).toHaveAttribute('data-warm-up', 'stopped');
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(await job.evaluate((c) => c.gcscopeDoc.reports[0].pauses.count)).toBe(PAUSES_IN_G1_FIXTURE);
  const analyzed = Number(await page.locator('html').getAttribute('data-warm-up-inputs') || 0);
  expect(analyzed).toBeLessThan(SAMPLE_COUNT);
});

test('no warming with ?warmup=0, nor on a page whose memory is capped', async ({ page }) => {
  for (const url of ['/?warmup=0', '/?max_memory_mb=64']) {
    await page.goto(url);
    await expect(page.locator('#samples .sample')).toHaveCount(SAMPLE_COUNT);
    // Warming would start at the latest 2 s after the sample list arrived (requestIdleCallback's timeout).
    await page.waitForTimeout(2500);
    expect(await page.locator('html').getAttribute('data-warm-up')).toBeNull();
  }
});

test('a sample the site cannot serve says so, and starts no job', async ({ page }) => {
  await page.route('**/samples/jdk17-zgc.log', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/?warmup=0&sw=0');  // a service worker would serve the sample from its cache, past the route
  await page.locator('#samples .sample[data-sample="jdk17-zgc.log"]').click();
  await expect(page.locator('#samples .sample-error')).toHaveText('The sample could not be loaded (samples/jdk17-zgc.log: HTTP 404).');
  await expect(page.locator('.job')).toHaveCount(0);
});

test('files dropped with a synthetic drop event are identified', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [
    { name: 'fib.dump', path: fixture('stackprof/fib-cpu-raw.dump') },
    { name: 'hist.txt', path: fixture('tracing/bpftrace-hist.txt') },
  ]);
  const job = await lastJob(page);
  const badges = job.locator('table.inputs .badge');
  await expect(badges).toHaveText(['stackprof profile', 'bpftrace output']);
});

test('a corrupt .gz shows its error while the other file of the drop is identified', async ({ page }) => {
  await page.goto('/');
  const gz = fs.readFileSync(fixture('jvm/jdk17-g1-gconly.log.gz'));
  const broken = Buffer.from(gz);
  broken[20] ^= 0xff; broken[21] ^= 0xff;
  await dropFiles(page, [
    { name: 'broken.log.gz', buffer: broken },
    { name: 'payload.json', path: fixture('rubygc/rt16_rack_app_tiny_seed.json') },
  ]);
  const job = await lastJob(page);
  await expect(job.locator('td.error').first()).toContainText(/gzip: corrupt compressed data .*compressed byte offset \d+/);
  await expect(job.locator('table.inputs .badge').nth(1)).toHaveText('Ruby GC tuner (TuneMyGC payload)');
  await expect(job.locator('.job-status')).toHaveText('Done');
});

test('a multi-MB file shows progress with bytes done/total, and Cancel stops it', async ({ page }) => {
  await page.goto('/');
  // ~48 MB of a real log, gzip'd at level 1 so inflating keeps the worker busy for a while.
  const log = fs.readFileSync(fixture('jvm/jdk17-g1.log'));
  const big = Buffer.concat(Array(1400).fill(log));
  const p = tempFile('big-g1.log.gz', zlib.gzipSync(big, { level: 1 }));
  await chooseFiles(page, [p]);
  const card = page.locator('.job').first();
  await expect(card.locator('.progress-row')).toBeVisible();
  await expect(card.locator('.progress-text')).toHaveText(/ MB \/ \d+(\.\d+)? MB$/);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('table.inputs td.num').first()).toContainText('(gzip)');

  // Cancel: a fresh big job, cancelled from inside the page at its first progress update (no race
  // with a fast machine finishing the job before a click from the test could land).
  const raw = tempFile('bigger.log', Buffer.concat([big, big, big]));
  await page.evaluate(() => {
    const seen = new Set(Array.from(document.querySelectorAll('.job')));
    new MutationObserver((_, obs) => {
      const card = Array.from(document.querySelectorAll('.job')).find((c) => !seen.has(c));
      const text = card && card.querySelector('.progress-text');
      if (text && !text.textContent.startsWith('0 /')) { obs.disconnect(); card.querySelector('.job-cancel').click(); }
    }).observe(document.getElementById('jobs'), { subtree: true, childList: true, characterData: true });
  });
  await chooseFiles(page, [raw]);
  const second = page.locator('.job').first();
  await expect(second.locator('.job-status')).toHaveText('Cancelled');
  await expect(second.locator('.job-body')).toContainText('Analysis cancelled');
  // The earlier result is still on the page.
  await expect(page.locator('.job').nth(1).locator('.job-status')).toHaveText('Done');
});

test('garbage is rejected with a precise error and the page keeps working', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [{ name: 'noise.bin', buffer: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 73) % 256)) }]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Not recognized');
  await expect(job.locator('td.error')).toContainText('at byte 0: unrecognized input: binary data');
  await chooseFiles(page, [fixture('jvm/jdk17-zgc.log')]);
  const next = await lastJob(page);
  await expect(next.locator('.badge').first()).toHaveText('JVM GC log');
});

test('every bundled sample opens from one click and is recognized', async ({ page }) => {
  await page.goto('/');
  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  const n = await samples.count();
  expect(n).toBeGreaterThanOrEqual(9);
  for (let i = 0; i < n; i++) {
    await samples.nth(i).click();
    const job = await lastJob(page);
    await expect(job.locator('.job-status')).toHaveText('Done');
  }
  await expect(page.locator('.job')).toHaveCount(n);
});

test('the site works under a sub-path (GitHub Pages project site)', async ({ page }) => {
  await page.goto(process.env.GCSCOPE_SUBPATH_URL);
  await page.locator('#samples button.sample').first().click();
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('.badge').first()).toHaveText('JVM GC log');
});

test('the site works inside a cross-origin iframe', async ({ page }) => {
  await page.goto(process.env.GCSCOPE_HOST_URL);
  await page.evaluate((src) => {
    const f = document.createElement('iframe');
    f.id = 'frame'; f.src = src; f.style.width = '1000px'; f.style.height = '700px';
    document.getElementById('slot').appendChild(f);
  }, process.env.GCSCOPE_SITE_URL);
  const frame = page.frameLocator('#frame');
  // The input exists before the page's script has wired it: wait until the app has run (its samples
  // list is filled by script) so the change event is not lost.
  await expect(frame.locator('#samples button.sample').first()).toBeVisible({ timeout: 60_000 });
  await frame.locator('#file-input').setInputFiles(fixture('stackprof/fib-cpu-raw.json'));
  await expect(frame.locator('.job .job-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(frame.locator('.job .badge').first()).toHaveText('stackprof profile');
  expect(new URL(process.env.GCSCOPE_HOST_URL).origin).not.toBe(new URL(process.env.GCSCOPE_SITE_URL).origin);
});

test('no request leaves the site origin during a session', async ({ page }) => {
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto('/');
  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  const n = await samples.count();
  for (let i = 0; i < n; i++) await samples.nth(i).click();
  await expect(page.locator('.job .job-status')).toHaveText(Array(n).fill(/Done/), { timeout: 60_000 });
  const origin = new URL(process.env.GCSCOPE_SITE_URL).origin;
  const foreign = requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('blob:') && !u.startsWith('data:'));
  expect(requests.length).toBeGreaterThan(n);
  expect(foreign).toEqual([]);
});
