// The Ruby GC tuner view: verdicts, advice with evidence and copyable blocks, the 412 side-by-side
// table, timelines, the per-unit table, a re-analysis with an RSS budget, payload text kept inert, and
// the time a 3 MB payload takes in the worker. Expected figures are those of the corpus manifest's oracle
// (rt01: INIT 929657 / GROWTH 1.25 for speed, 300 units) and of the tests in tests/rubygc/.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, corpus, chooseFiles, lastJob, tempFile } = require('./helpers');

const panel = (job) => job.locator('section.report[data-format="tunemygc-payload"]');

test('a rack-app payload gets speed advice with evidence and copyable env blocks', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('tuner/rt01_rack_app_seed.json')]);
  const job = await lastJob(page);
  const p = panel(job);
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '200');
  await expect(p.locator('.gs-kpi', { hasText: 'units of work' }).locator('.gs-kpi-value')).toHaveText('300');
  const speed = p.locator('.rubygc-strategy[data-strategy="speed"]');
  await expect(speed.locator('tbody tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('929657');
  await expect(speed.locator('tbody tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('boot needed 48 GCs');
  await expect(speed.locator('pre.gs-copy')).toHaveText('export RUBY_GC_HEAP_GROWTH_FACTOR=1.25\nexport RUBY_GC_HEAP_INIT_SLOTS=929657\n');
  await speed.locator('button[data-form="dockerfile"]').click();
  await expect(speed.locator('pre.gs-copy')).toContainText('ENV RUBY_GC_HEAP_GROWTH_FACTOR=1.25');
  await speed.locator('button[data-form="heroku"]').click();
  await expect(speed.locator('pre.gs-copy')).toContainText('heroku config:set RUBY_GC_HEAP_GROWTH_FACTOR=1.25 RUBY_GC_HEAP_INIT_SLOTS=929657');
  await speed.locator('button[data-form="systemd"]').click();
  await expect(speed.locator('pre.gs-copy')).toContainText('Environment=RUBY_GC_HEAP_INIT_SLOTS=929657');
  // Timelines (heap, RSS, GC count, malloc) and the per-unit table.
  await expect(p.locator('.rubygc-timelines canvas')).toHaveCount(4);
  await expect(p.locator('.gs-table-count', { hasText: '300 rows' })).toHaveCount(1);
  await expect(p.locator('.rubygc-findings')).toContainText('GC time is 3.0% of unit-of-work wall time');
});

test('an over-tuned payload answers 412 with existing values side by side', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('tuner/rt10_rack_app_preset_far.json')]);
  const p = panel(await lastJob(page));
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '412');
  const row = p.locator('tr', { hasText: 'RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR' }).first();
  await expect(row).toContainText('0.5');
  await expect(row).toContainText('3.0');
});

test('a malformed payload names the sample and the element', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('tuner/mf08_stat_length_mismatch.json')]);
  const p = panel(await lastJob(page));
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '400');
  await expect(p.locator('.rubygc-message')).toContainText('sample #1');
  await expect(p.locator('.rubygc-message')).toContainText('27 values; header[7] names 29 keys');
});

test('an RSS budget re-analyzes the same file with that budget', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('tuner/rt01_rack_app_seed.json')]);
  const first = panel(await lastJob(page));
  await first.locator('input.rubygc-budget').fill('120');
  await first.locator('.rubygc-budget-form button').click();
  await expect(page.locator('.job')).toHaveCount(2);
  const second = panel(await lastJob(page));
  const budget = second.locator('.rubygc-strategy[data-strategy="rss_budget"]');
  await expect(budget.locator('tbody tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toHaveCount(1);
  await expect(budget.locator('pre.gs-copy')).toContainText('export RUBY_GC_HEAP_INIT_SLOTS=');
});

test('markup inside a payload stays text', async ({ page }) => {
  await page.goto('/');
  const text = fs.readFileSync(fixture('rubygc/rec31_steady.json'), 'utf8')
    .replace(/"Res(\d+)Controller"/g, '"<img src=x onerror=window.__pwned=1>Res$1"');
  await chooseFiles(page, [tempFile('markup.json', text)]);
  const p = panel(await lastJob(page));
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '200');
  await expect(p.locator('td', { hasText: '<img src=x' }).first()).toBeVisible();
  expect(await p.locator('img').count()).toBe(0);
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
});

test('a 3 MB payload is analyzed in the worker (timing logged)', async ({ page }) => {
  // Built at test time from rt01: its samples repeated with counters and time shifted forward.
  const doc = JSON.parse(fs.readFileSync(corpus('tuner/rt01_rack_app_seed.json'), 'utf8'));
  const header = doc[0];
  const keys = header[7];
  const mono = ['count', 'minor_gc_count', 'major_gc_count', 'total_allocated_objects', 'total_freed_objects']
    .map((k) => keys.indexOf(k)).filter((i) => i >= 0);
  const samples = doc.slice(1);
  const last = samples[samples.length - 1];
  const out = [header];
  let round = 0;
  while (JSON.stringify(out).length < 3_000_000) {
    for (const s of samples) {
      const c = s.slice();
      c[1] = s[1] + round * (last[1] - samples[0][1] + 1);
      c[5] = s[5].slice();
      for (const i of mono) c[5][i] = s[5][i] + round * last[5][i];
      out.push(c);
    }
    round++;
  }
  const text = JSON.stringify(out);
  await page.goto('/');
  // A worker of the site: load the module first (ping), then time one analysis message round trip
  // (read the Blob, wasm analysis, report JSON, parse, post back).
  const result = await page.evaluate(async (payload) => {
    const w = new Worker(GCSCOPE.scriptURL('worker.js'));
    const next = (type) => new Promise((resolve) => {
      w.addEventListener('message', function on(e) { if (e.data.type === type || e.data.type === 'error') { w.removeEventListener('message', on); resolve(e.data); } });
    });
    const pong = next('pong');
    w.postMessage({ type: 'ping' });
    await pong;
    const blob = new Blob([payload]);
    const runs = [];
    let status = null;
    for (let i = 0; i < 3; i++) {
      const done = next('result');
      const t0 = performance.now();
      w.postMessage({ type: 'analyze', files: [{ path: 'big.json', blob }], options: {} });
      const msg = await done;
      runs.push(performance.now() - t0);
      status = msg.json ? JSON.parse(msg.json).reports[0].verdict.status : msg.message;
    }
    w.terminate();
    runs.sort((a, b) => a - b);
    return { median: runs[1], runs, status, bytes: blob.size };
  }, text);
  expect(result.status).toBe(200);
  console.log(`rubygc: ${(result.bytes / 1e6).toFixed(2)} MB payload in a Chromium worker: median ${result.median.toFixed(1)} ms of ${result.runs.map((r) => r.toFixed(1)).join(', ')} ms`);
  expect(result.median).toBeLessThan(5000);  // the target is 150 ms (BENCHMARKS.md); shared CI machines are slower
});

// ---- Fleets, before/after, the rules' evidence (issue 31). Figures: tests/rubygc/test_fleet_compare.cpp
// and test_counter_order.cpp (from the corpus manifest, fixtures/rubygc/check_payload.py, generate.sh).

test('payloads dropped together form a fleet: a row per process, merged advice, one process on demand', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, ['rt01_rack_app_seed.json', 'rt10_rack_app_preset_far.json', 'rt16_rack_app_tiny_seed.json'].map((f) => corpus('tuner/' + f)));
  const p = panel(await lastJob(page));
  await expect(p).toHaveCount(1);
  const rows = p.locator('.rubygc-fleet-table tbody tr');
  await expect(rows).toHaveCount(3);
  // rt01: 300 units, 48 GCs during boot (manifest oracle).
  const rt01 = rows.filter({ hasText: '929,563' });
  await expect(rt01).toContainText('300');
  await expect(rt01).toContainText('48');
  await expect(p.locator('.rubygc-fleet-note')).toContainText('different RUBY_GC_* settings');
  // Group 1 (rt01 + rt16): the merged heap at boot is the larger plateau, rt01's.
  const speed = p.locator('.rubygc-merged[data-strategy="speed"]').first();
  await expect(speed.locator('tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('929657');
  await expect(speed.locator('tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('2 of 2');
  // A click asks the engine for that process's own report (rt10: 412).
  await rows.filter({ hasText: '9,989,861' }).locator('td').first().click();
  await expect(p.locator('.rubygc-process-detail .rubygc-verdict')).toHaveAttribute('data-status', '412');
});

test('before and after: the engine compares two runs and names the settings that changed', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('rubygc/rec31_steady.json')]);
  await lastJob(page);
  await chooseFiles(page, [fixture('rubygc/rec31_tuned.json')]);
  const after = panel(await lastJob(page));
  const box = after.locator('.rubygc-compare').first();
  await expect(box.locator('select option').first()).toContainText('rec31_steady.json');
  await box.locator('button', { hasText: 'Compare' }).click();
  // GC.stat count at BOOTED: 18 before, 3 after (check_payload.py).
  const boot = box.locator('tr', { has: page.locator('td', { hasText: /^GCs during boot$/ }) });
  await expect(boot.locator('td').nth(1)).toHaveText('18');
  await expect(boot.locator('td').nth(2)).toHaveText('3');
  await expect(boot).toContainText('better');
  await expect(box.locator('tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('89571');
  await expect(box.locator('tr', { hasText: 'RUBY_GC_HEAP_INIT_SLOTS' })).toContainText('(unset)');
  // The whole answer downloads as JSON: before is side a, after b, as `gcscope compare BEFORE AFTER`.
  const [download] = await Promise.all([page.waitForEvent('download'), box.locator('button', { hasText: 'Download comparison JSON' }).click()]);
  expect(download.suggestedFilename()).toBe('rubygc-compare.json');
  const c = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const boots = c.metrics.find((m) => m.id === 'boot_gcs');
  expect([boots.a, boots.b]).toEqual([18, 3]);
  // The tuned run's RUBY_GC_* environment (its payload's first row), less RUBY_GC_TUNE_OUTPUT (where
  // the payload was written, not a GC setting).
  expect(c.b.settings).toEqual({ RUBY_GC_HEAP_GROWTH_FACTOR: '1.25', RUBY_GC_HEAP_INIT_SLOTS: '89571' });
  expect(c.a.settings).toEqual({});
});

test('malloc advice shows its evidence, and lagged samples are named', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('rubygc/rec31_malloc.json')]);
  const p = panel(await lastJob(page));
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '200');
  const speed = p.locator('.rubygc-strategy[data-strategy="speed"]');
  const malloc = speed.locator('tbody tr', { hasText: /^RUBY_GC_MALLOC_LIMIT/ }).first();
  await expect(malloc).toContainText('33554432');
  await expect(malloc).toContainText('36 of 62 minor GCs were triggered by malloc growth');
  await expect(malloc).toContainText('minor_by_malloc: 36');
  const oldmalloc = speed.locator('tbody tr', { hasText: 'RUBY_GC_OLDMALLOC_LIMIT' }).first();
  await expect(oldmalloc).toContainText('majors_by_oldmalloc: 11');
  await expect(p.locator('.rubygc-findings li[data-id="lagged_samples"]')).toContainText('33 samples were written after samples with newer GC counters');
});

test('shady advice shows its evidence on a real Ruby 3.3 run; its control gets none', async ({ page }) => {
  await page.goto('/');
  // ruby.wasm 3.3.3 runs of shady_workload.rb: 20 of 20 major GCs in units by shady, and the control
  // (SHADY=0) with one major, not by shady (fixtures/rubygc/check_stat_heap.py).
  await chooseFiles(page, [fixture('rubygc/rec33_wasm_shady.json')]);
  const p = panel(await lastJob(page));
  await expect(p.locator('.rubygc-verdict')).toHaveAttribute('data-status', '200');
  const speed = p.locator('.rubygc-strategy[data-strategy="speed"]');
  const shady = speed.locator('tbody tr', { hasText: /^RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO/ });
  await expect(shady).toContainText('0.02');
  await expect(shady).toContainText('20 of 20 major GCs were caused by write-barrier-unprotected (shady) objects');
  await expect(shady).toContainText('majors_by_shady: 20');

  await chooseFiles(page, [fixture('rubygc/rec33_wasm_shady_control.json')]);
  const control = panel(await lastJob(page));
  await expect(control.locator('.rubygc-verdict')).toHaveAttribute('data-status', '200');
  await expect(control.locator('.rubygc-strategy[data-strategy="speed"] tbody tr').first()).toBeVisible();
  await expect(control.locator('.rubygc-strategy tbody tr', { hasText: 'WB_UNPROTECTED' })).toHaveCount(0);
});
