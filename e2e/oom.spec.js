// A worker that runs out of memory (issue #9): the job says so precisely (which input, at which byte,
// how much memory), its worker is stopped, the other results stay on the page, and later jobs run in
// fresh workers. The memory ceiling is lowered with ?max_memory_mb=32 (the page passes it to each
// job's worker, which refuses WebAssembly memory growth past it: the same path as reaching the 4 GB
// maximum, where emscripten's failed growth becomes std::bad_alloc in the analyzer).
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { corpus, chooseFiles, tempFile } = require('./helpers');

// Waits for the newest job to end (helpers.lastJob does not know the "Out of memory" status).
async function lastJob(page) {
  const card = page.locator('.job').first();
  await expect(card.locator('.job-status')).toHaveText(/Done|Not recognized|Failed|Cancelled|Out of memory/, { timeout: 60_000 });
  return card;
}

// A heap dump big enough to need more than the 32 MB the module starts with: sixteen copies of a real
// dump (corpus heap/dumps/variant_full_true.heap.json), each with its own addresses so that no object
// is merged with another (~64 MB; measured in node with 1 MiB slices: the analysis grows the heap to
// 46 MiB, where twelve copies still fit in 32 MB).
const COPIES = 16;
function bigHeapDump() {
  const src = fs.readFileSync(corpus('heap/dumps/variant_full_true.heap.json'), 'utf8');
  const parts = [];
  for (let r = 1; r <= COPIES; r++) parts.push(src.split('"0x').join('"0x' + r.toString(16)));
  return tempFile('big.heap.json', parts.join(''));
}

test('an out-of-memory job is reported precisely; other results stay; new jobs get a fresh worker', async ({ page }) => {
  // The page keeps one warm spare worker (app.js): job N runs in workers[N-1] and, when it ends, the
  // spare workers[N] is started. A finished job keeps its worker (its engine session answers the
  // view's questions); a job that ran out of memory has its worker stopped.
  const workers = [];
  // Analysis workers only: a big input's job also starts a reader worker of its own (reader.js).
  page.on('worker', (w) => {
    if (!/\/worker\.js(\?|$)/.test(w.url())) return;
    const rec = { closed: false }; workers.push(rec); w.on('close', () => { rec.closed = true; });
  });
  await page.goto('/?max_memory_mb=32&sw=0');

  // A first result that must survive.
  await page.locator('#samples button.sample[data-sample="jdk17-g1.log"]').click();
  const first = await lastJob(page);
  await expect(first.locator('.job-status')).toHaveText('Done');
  await expect.poll(() => workers.length).toBe(2);
  expect(workers[0].closed).toBe(false);  // the first job's live session

  // Its estimated need (0.85 bytes per byte of a heap dump) is above the 32 MB: refused up front.
  const big = bigHeapDump();
  const size = fs.statSync(big).size;
  await chooseFiles(page, [big]);
  const refused = await lastJob(page);
  await expect(refused.locator('.job-too-big')).toContainText(`needs about ${Math.round(size * 0.85 / 1048576)} MB of memory`);
  await expect.poll(() => workers.length).toBe(3);
  await expect.poll(() => workers[1].closed, { timeout: 30_000 }).toBe(true);
  await refused.locator('button.job-close').click();

  // Presented as 1 MiB (a test hook), the estimate lets it through and the analysis itself runs out.
  await page.evaluate(() => { GCSCOPE.testHooks = { assumeInputBytes: 1 << 20 }; });
  workers.splice(1, 1);  // the refused job's worker: gone, not counted below
  await chooseFiles(page, [big]);
  const oom = await lastJob(page);
  await expect(oom.locator('.job-status')).toHaveText('Out of memory');
  const msg = oom.locator('.job-oom p.error');
  await expect(msg).toContainText('The analysis ran out of memory while analyzing big.heap.json at byte ');
  await expect(msg).toContainText('(the limit of 32 MB set by max_memory_mb)');
  await expect(msg).toContainText(/the analyzer's memory \(32 MB\) could not grow to \d+ MB/);
  // The byte offset is where the 1 MiB slice that needed the memory starts (worker.js CHUNK).
  const at = Number(/at byte (\d+)/.exec(await msg.textContent())[1]);
  expect(at % (1024 * 1024)).toBe(0);
  expect(at).toBeLessThan(size);
  // The same words at the input, in the inputs table, with the analyzer's own error next to it.
  await expect(oom.locator('table.inputs td.error', { hasText: 'out of memory while analyzing big.heap.json' })).toHaveCount(1);
  await expect(oom.locator('table.inputs td.error', { hasText: 'std::bad_alloc' })).toHaveCount(1);
  // The job's worker was stopped (its reader is the page's, so it has no nested worker whose end
  // could keep it from shutting down: see newAnalysisWorker in web/app.js). The long wait only spares
  // a loaded machine.
  await expect.poll(() => workers.length).toBe(3);
  await expect.poll(() => workers[1].closed, { timeout: 30_000 }).toBe(true);
  expect(workers[2].closed).toBe(false);
  expect(workers[0].closed).toBe(false);

  // The other result is untouched.
  const jvm = page.locator('.job', { has: page.locator('.job-title', { hasText: 'jdk17-g1.log' }) });
  await expect(jvm.locator('.job-status')).toHaveText('Done');
  await expect(jvm.locator('section.report[data-format="jvm-gc-log"] .gs-kpi').first()).toBeVisible();

  // A new job runs in a new worker and works.
  await page.locator('#samples button.sample[data-sample="fib-cpu-raw.dump"]').click();
  const next = await lastJob(page);
  await expect(next.locator('.job-status')).toHaveText('Done');
  await expect(next.locator('section.report[data-format="stackprof"]')).toBeVisible();
  await expect.poll(() => workers.length).toBe(4);
  expect(workers[2].closed).toBe(false);  // live: its engine answers the stackprof view

  // "Analyze again" restarts the job in a fresh worker (and, with the same ceiling, reports the same).
  await page.locator('.job', { has: page.locator('.job-title', { hasText: 'big.heap.json' }) }).locator('button.job-retry').click();
  const again = await lastJob(page);
  await expect(again.locator('.job-status')).toHaveText('Out of memory');
  await expect.poll(() => workers.length).toBe(5);
  await expect.poll(() => workers[3].closed).toBe(true);
  await expect(page.locator('.job')).toHaveCount(4);
});

test('without the lowered ceiling the same input is analyzed', async ({ page }) => {
  await page.goto('/?sw=0');
  await chooseFiles(page, [bigHeapDump()]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('.job-oom')).toHaveCount(0);
  // 16 copies of variant_full_true, whose manifest says object_records 27784 of which 18213 are free
  // slots (count_by_type NONE, shown apart): 16 x (27784 - 18213) = 153,136 objects.
  await expect(job.locator('section.report[data-format="ruby-heap-dump"] .gs-kpi').first()).toContainText('153,136');
  expect(Number(await job.getAttribute('data-wasm-heap-bytes'))).toBeGreaterThan(32 * 1024 * 1024);
});
