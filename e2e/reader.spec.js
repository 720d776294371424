// The analysis worker's two ways of reading a job's bytes (web/worker.js openSliceSource): a reader
// worker of its own for big inputs (web/reader.js, transferred slices), or reads in the analysis worker.
// Both must hand the parser the same bytes in the same order: a 36 MB folded-stacks file (35 slices,
// with lines cut at the 1 MiB slice borders; the reader has four out at a time, so from the fifth on
// they are read into buffers given back by the analysis worker) gives the hand-counted figures either way, and when
// reader.js cannot be fetched the job falls back to reading in the analysis worker.
const { test, expect } = require('@playwright/test');

// 1,200,000 copies of three stacks: weights 3, 5 and 7, so 3,600,000 lines and a total weight of
// 15 x 1,200,000 = 18,000,000 (hand count).
const COPIES = 1200000;
const UNIT = 'main;a;b 3\nmain;a;c 5\nmain;d 7\n';

// warm: ping the worker first, as the page does with its spare worker (the worker then starts its
// reader before any job).
async function analyzeInWorker(page, how, warm) {
  return page.evaluate(async ({ unit, copies, how, warm }) => {
    const blob = new Blob([unit.repeat(copies)]);
    const w = new Worker('worker.js');
    if (warm) {
      await new Promise((resolve) => {
        w.onmessage = (e) => { if (e.data.type === 'pong') resolve(); };
        w.postMessage({ type: 'ping' });
      });
    }
    const result = await new Promise((resolve) => {
      w.onmessage = (e) => { if (e.data.type === 'result' || e.data.type === 'error') resolve(e.data); };
      w.postMessage({ type: 'analyze', files: [{ path: 'big.folded', blob }], options: {}, limits: how ? { reader: how } : {} });
    });
    w.terminate();
    if (result.type === 'error') return { error: result.message };
    const doc = JSON.parse(result.json);
    const r = doc.reports[0];
    return { bytes: blob.size, format: r.format, lines: r.folded_lines, total: r.stacks.total_weight, weights: r.stacks.weights,
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
  test(`when reader.js cannot be fetched the job reads in the analysis worker and still completes${warm ? ' (reader started by a ping, before the job)' : ''}`, async ({ page }) => {
    const asked = [];
    await page.context().route('**/reader.js', (route) => { asked.push(route.request().url()); return route.fulfill({ status: 404, body: '' }); });
    await page.goto('/');
    const r = await analyzeInWorker(page, 'reader', warm);
    expect(asked.length).toBeGreaterThan(0);  // the reader was really tried (and refused)
    expect(r.error).toBeUndefined();
    expect(r.lines).toBe(3 * COPIES);
    expect(r.total).toBe(15 * COPIES);
  });
}

test('a worker warmed by a ping reads a big input with the reader it started then', async ({ page }) => {
  await page.goto('/');
  const r = await analyzeInWorker(page, undefined, true);
  expect(r.error).toBeUndefined();
  expect(r.lines).toBe(3 * COPIES);
  expect(r.total).toBe(15 * COPIES);
});
