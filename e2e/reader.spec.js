// The analysis worker's two ways of reading a job's bytes (web/worker.js openSliceSource): the reader
// worker the page starts beside it, for big inputs (web/reader.js, transferred slices through a
// MessageChannel), or reads in the analysis worker.
// Both must hand the parser the same bytes in the same order: a 36 MB folded-stacks file (35 slices,
// with lines cut at the 1 MiB slice borders; the reader has four out at a time, so from the fifth on
// they are read into buffers given back by the analysis worker) gives the hand-counted figures either way, and when
// reader.js cannot be fetched the job falls back to reading in the analysis worker.
const { test, expect } = require('@playwright/test');
const { chooseFiles, tempFile } = require('./helpers');

// 1,200,000 copies of three stacks: weights 3, 5 and 7, so 3,600,000 lines and a total weight of
// 15 x 1,200,000 = 18,000,000 (hand count).
const COPIES = 1200000;
const UNIT = 'main;a;b 3\nmain;a;c 5\nmain;d 7\n';

// The worker (and its reader) are made as the page makes them (GCSCOPE.newAnalysisWorker). warm: ping
// the worker first and wait for its answer, as the page does with its spare worker, so that the job
// starts after the reader is running (or, when it cannot start, after its failure is known).
async function analyzeInWorker(page, how, warm) {
  return page.evaluate(async ({ unit, copies, how, warm }) => {
    const blob = new Blob([unit.repeat(copies)]);
    const w = GCSCOPE.newAnalysisWorker();
    if (warm) {
      await new Promise((resolve) => {
        w.onmessage = (e) => { if (e.data.type === 'pong') resolve(); };
        w.send({ type: 'ping' });
      });
    }
    const result = await new Promise((resolve) => {
      w.onmessage = (e) => { if (e.data.type === 'result' || e.data.type === 'error') resolve(e.data); };
      w.send({ type: 'analyze', files: [{ path: 'big.folded', blob }], options: {}, limits: how ? { reader: how } : {} });
    });
    w.terminate();
    if (result.type === 'error') return { error: result.message };
    const doc = JSON.parse(result.json);
    const r = doc.reports[0];
    return { read: result.stats.read, bytes: blob.size, format: r.format, lines: r.folded_lines, total: r.stacks.total_weight, weights: r.stacks.weights,
      unique: r.stacks.unique, errors: doc.errors.length };
  }, { unit: UNIT, copies: COPIES, how, warm });
}

const WAYS = {
  reader: 'by the reader worker (a file stream read into its own buffers)',
  'reader-pieces': 'by the reader worker from the stream\'s own pieces',
  here: 'in the analysis worker',
};
for (const how of ['reader', 'reader-pieces', 'here', undefined]) {
  test(`a 36 MB input read ${WAYS[how] || 'the default way'} gives the hand-counted figures`, async ({ page }) => {
    await page.goto('/');
    const r = await analyzeInWorker(page, how);
    expect(r.error).toBeUndefined();
    expect(r.read).toBe(how === 'here' ? 'here' : 'reader');  // 36 MB is a big input: read by the reader
    expect(r.bytes).toBe(UNIT.length * COPIES);  // 36,000,000 bytes: 35 slices of 1 MiB
    expect(r.format).toBe('folded-stacks');
    expect(r.lines).toBe(3 * COPIES);
    expect(r.total).toBe(15 * COPIES);
    expect(r.unique).toBe(3);
    expect([...r.weights].sort((a, b) => a - b)).toEqual([3 * COPIES, 5 * COPIES, 7 * COPIES]);
    expect(r.errors).toBe(0);
  });
}

for (const warm of [false, true]) {
  test(`when reader.js cannot be fetched the job reads in the analysis worker and still completes${warm ? ' (the job starting after the worker answered a ping)' : ''}`, async ({ page }) => {
    const asked = [];
    // Asked for as reader.js?v=BUILD_ID (the page's build).
    await page.context().route((url) => url.pathname.endsWith('/reader.js'), (route) => { asked.push(route.request().url()); return route.fulfill({ status: 404, body: '' }); });
    // No service worker: its install would ask for reader.js too (and fail on the 404).
    await page.goto('/?sw=0');
    const r = await analyzeInWorker(page, 'reader', warm);
    expect(asked.length).toBeGreaterThan(0);  // the reader was really tried (and refused)
    expect(r.error).toBeUndefined();
    // Known before the job when the worker was pinged first; otherwise it may come during the job.
    if (warm) expect(r.read).toBe('here');
    else expect(['here', 'reader, then here']).toContain(r.read);
    expect(r.lines).toBe(3 * COPIES);
    expect(r.total).toBe(15 * COPIES);
  });
}

test('a worker warmed by a ping reads a big input with the reader started beside it', async ({ page }) => {
  await page.goto('/');
  const r = await analyzeInWorker(page, undefined, true);
  expect(r.error).toBeUndefined();
  expect(r.read).toBe('reader');
  expect(r.lines).toBe(3 * COPIES);
  expect(r.total).toBe(15 * COPIES);
});

// A job that ends early, such as a big file that no analyzer claims, stops its worker and its reader:
// a worker terminated just after terminating a nested reader of its own may never finish shutting
// down in Chromium, so the reader is the page's (see newAnalysisWorker in web/app.js).
test('jobs that end early stop their worker and its reader, every time', async ({ page }) => {
  const started = { worker: [], reader: [] };
  page.on('worker', (w) => {
    const kind = /\/worker\.js(\?|$)/.test(w.url()) ? 'worker' : /\/reader\.js(\?|$)/.test(w.url()) ? 'reader' : null;
    if (!kind) return;
    const rec = { closed: false };
    started[kind].push(rec);
    w.on('close', () => { rec.closed = true; });
  });
  await page.goto('/?sw=0&warmup=0');
  // 20 MB of text that is no format: identification gives up at once and the job ends as soon as the
  // reader has handed over the bytes.
  const garbage = tempFile('not-a-log.txt', ('nothing to analyze here ' + 'z'.repeat(60) + '\n').repeat(250000));
  const JOBS = 12;
  for (let j = 1; j <= JOBS; j++) {
    await chooseFiles(page, [garbage]);
    await expect(page.locator('.job').first().locator('.job-status')).toHaveText('Not recognized');
    // Job j ran in workers[j - 1] (the spare worker, started with its reader, the job after).
    await expect.poll(() => started.worker.length).toBe(j + 1);
    await expect.poll(() => started.worker[j - 1].closed, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => started.reader[j - 1] && started.reader[j - 1].closed, { timeout: 10_000 }).toBe(true);
  }
  // Left running: the spare worker and its reader only (Playwright may tell of the spare's reader a
  // moment after the job's end: polled).
  await expect.poll(() => started.worker.filter((w) => !w.closed).length).toBe(1);
  await expect.poll(() => started.reader.filter((r) => !r.closed).length).toBe(1);
});
