// JVM GC log view: KPIs, charts, findings linked to their log line, diary, event table, and zoom
// recomputing every number for the selected time range.
const { test, expect } = require('@playwright/test');
const { fixture, corpus, chooseFiles, lastJob } = require('./helpers');

function kpi(report, label) {
  return report.locator('.gs-kpi', { has: report.page().locator('.gs-kpi-label', { hasText: new RegExp('^' + label + '$') }) }).locator('.gs-kpi-value');
}

test('a JDK 17 G1 log shows KPIs, charts, findings, diary and events', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(report).toBeVisible();
  // Hand count of the fixture: 27 "GC(n) Pause … ms" lines, 38.614 ms in total.
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  await expect(kpi(report, 'Paused total')).toHaveText('38.6 ms');
  await expect(kpi(report, 'Throughput')).toHaveText(/%$/);
  await expect(report.locator('.jvm-heap-chart canvas').first()).toBeVisible();
  await expect(report.locator('.jvm-pause-chart canvas').first()).toBeVisible();
  await expect(report.locator('.jvm-pause-hist canvas').first()).toBeVisible();
  await expect(report.locator('.jvm-diary')).toContainText('17.0.15+6-Debian-1deb12u1');
  await expect(report.locator('.jvm-events')).toContainText('37 events');

  // A finding opens its log line, read from the dropped file.
  const finding = report.locator('.jvm-findings li[data-id="explicit_system_gc"]');
  await expect(finding).toBeVisible();
  await finding.locator('.jvm-line-link').click();
  await expect(report.locator('.jvm-line')).toContainText('Pause Full (System.gc())');
});

test('zooming the heap chart recomputes the numbers for the range', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  const over = report.locator('.jvm-heap-chart .u-over').first();
  await over.scrollIntoViewIfNeeded();
  await over.scrollIntoViewIfNeeded();  // mouse coordinates are viewport coordinates
  const box = await over.boundingBox();
  // Drag over the first third of the time axis.
  await page.mouse.move(box.x + box.width * 0.02, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(report.locator('.jvm-range')).toHaveText(/s – .* s$/);
  const zoomed = Number(await kpi(report, 'Pauses').innerText());
  expect(zoomed).toBeGreaterThan(0);
  expect(zoomed).toBeLessThan(27);
  const rows = await report.locator('.jvm-events .gs-table-count').innerText();
  expect(Number(rows.split(' ')[0])).toBeLessThan(37);
  await report.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  await expect(report.locator('.jvm-range')).toHaveText('Whole log');
});

test('ZGC: concurrent cycles with their pauses and the allocation-stall finding', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-zgc.log')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(kpi(report, 'Pauses')).toHaveText('27');  // 9 cycles x 3 pauses
  await expect(report.locator('.jvm-findings li[data-id="allocation_stall"]')).toBeVisible();
});

test('two JVM logs analyzed as separate jobs can be compared: KPIs with deltas, overlaid charts', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const first = await lastJob(page);
  await expect(kpi(first.locator('section.report[data-format="jvm-gc-log"]'), 'Pauses')).toHaveText('27');
  // Alone on the page: nothing to compare with.
  await first.locator('.jvm-compare button', { hasText: 'Compare' }).click();
  await expect(first.locator('.jvm-compare-out')).toContainText('No other JVM report');

  await chooseFiles(page, [fixture('jvm/jdk17-parallel.log')]);
  const second = await lastJob(page);
  const report = second.locator('section.report[data-format="jvm-gc-log"]');
  // Hand count of the fixture: 35 "Pause … ms" lines (grep -c 'Pause.*ms$').
  await expect(kpi(report, 'Pauses')).toHaveText('35');
  const panel = report.locator('.jvm-compare');
  await expect(panel.locator('select option')).toHaveCount(1);
  await expect(panel.locator('select option').first()).toContainText('jdk17-g1.log');
  await panel.locator('button', { hasText: 'Compare' }).click();
  // A = this report (parallel, 35 pauses), B = the G1 job (27 pauses): delta -8, -22.9 %.
  const row = panel.locator('tr', { has: page.locator('td', { hasText: /^pauses\.count$/ }) });
  await expect(row.locator('td').nth(1)).toHaveText('35');
  await expect(row.locator('td').nth(2)).toHaveText('27');
  await expect(row.locator('td').nth(3)).toHaveText('-8');
  await expect(row.locator('td').nth(4)).toHaveText('-22.9 %');
  await expect(panel.locator('.jvm-compare-hist canvas').first()).toBeVisible();
  await expect(panel.locator('.jvm-compare-heap canvas').first()).toBeVisible();

  // The same KPI rows as gcscope compare computes (wasm/jvm/compare.cpp): the view's function on the two documents.
  const keys = await page.evaluate(() => {
    const jobs = Array.from(document.querySelectorAll('.job'));
    const a = jobs[0].gcscopeDoc.reports[0], b = jobs[jobs.length - 1].gcscopeDoc.reports[0];  // newest job first
    return GCSCOPE.views['jvm-gc-log'].compareKpis(a, b).map((r) => r.key);
  });
  expect(keys).toContain('throughput_percent');
  expect(keys).toContain('events.total');
  expect(keys).toContain('heap.max_after_gc_kb');
});

test('a rotating set with a JVM restart shows only the latest run', async ({ page }) => {
  await page.goto('/');
  const dir = 'jvm/gctoolkit/rolling/jdk14/rollinglogs/';
  // The live file given first: the order comes from the content (both start near uptime 0 = two runs).
  await chooseFiles(page, [corpus(dir + 'short_restart_4.log'), corpus(dir + 'short_restart_4.log.1')]);
  const report = (await lastJob(page)).locator('section.report[data-format="jvm-gc-log"]');
  await expect(report.locator('.jvm-rotation')).toContainText('JVM restart detected (2 runs)');
  await expect(report.locator('.jvm-rotation')).toContainText('Analyzed: short_restart_4.log.');
  // The same pause count as short_restart_4.log alone (gcscope analyze: 65).
  await expect(kpi(report, 'Pauses')).toHaveText('65');
});

test('the zoomed range is kept in the link: a reload with the same file returns to it', async ({ page }) => {
  await page.goto('/?sw=0#range=0.050,0.100');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  await expect(job.locator('.jvm-range')).toHaveText('0.050 s – 0.100 s');
  expect(await page.evaluate(() => GCSCOPE.state.get('range'))).toBe('0.050,0.100');
});

test('a zoomed range recomputes the phases table (hand count of the fixture)', async ({ page }) => {
  await page.goto('/?sw=0#range=0.050,0.100');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(job.locator('.jvm-range')).toHaveText('0.050 s – 0.100 s');
  // Pauses whose "gc,start" line is in [0.050 s, 0.100 s]: GC(4)…GC(12), GC(14) (Full), GC(15) = 11.
  await expect(kpi(report, 'Pauses')).toHaveText('11');
  const phases = report.locator('.jvm-phases');
  const count = (name) => phases.locator('tr', { has: page.locator('td', { hasText: new RegExp('^' + name + '$') }) }).locator('td').nth(1);
  await expect(report.locator('details', { has: page.locator('.jvm-phases') }).locator('summary')).toHaveText('Phases (range)');
  // "GC(n)   Pre Evacuate Collection Set: …" lines of the pauses starting in the range: GC(4)…GC(12)
  // and GC(15) = 10 (24 such lines in the whole log). Pause kinds are named by event type: GC(14)
  // "Pause Full (System.gc())" (line 232) is SystemGC, GC(12) "Pause Young (Concurrent Start)" is
  // G1GCYoungInitialMark, and GC(4)…GC(11), GC(15) are 9 "Pause Young".
  await expect(count('Pre Evacuate Collection Set')).toHaveText('10');
  await expect(count('Pause SystemGC')).toHaveText('1');
  await expect(count('Pause G1GCYoungInitialMark')).toHaveText('1');
  await expect(count('Pause Young')).toHaveText('9');
  await report.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(report.locator('details', { has: page.locator('.jvm-phases') }).locator('summary')).toHaveText('Phases (whole log)');
  await expect(count('Pre Evacuate Collection Set')).toHaveText('24');
});

test('eden, survivor, old, humongous and metaspace: toggleable heap-chart series and event-table columns', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const report = (await lastJob(page)).locator('section.report[data-format="jvm-gc-log"]');
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  const legend = report.locator('.jvm-heap-chart .u-legend');
  const entry = legend.locator('tr.u-series', { hasText: 'old after GC' });
  await expect(entry).toHaveClass(/u-off/);  // hidden until asked for
  await entry.locator('th').click();
  await expect(entry).not.toHaveClass(/u-off/);
  for (const pool of ['eden', 'survivor', 'humongous', 'metaspace']) await expect(legend).toContainText(pool + ' after GC');
  // Event table, GC(4): "Old regions: 4->6" with "Heap Region Size: 1M" (lines 8, 93) → 6 MB after.
  const header = report.locator('.jvm-events th');
  await expect(header.filter({ hasText: 'Old after' })).toHaveCount(1);
  const row = report.locator('.jvm-events tr', { has: page.locator('td', { hasText: /^0\.050$/ }) });
  const col = await header.allInnerTexts();
  await expect(row.locator('td').nth(col.findIndex((h) => h.startsWith('Old after')))).toHaveText('6.00 MB');
});

// A log with more pauses than the aggregator keeps one by one (option jvm_exact_pauses, here 50
// instead of 2^20): the pauses come as buckets of consecutive pauses (wasm/jvm/pause_series.h).
// parallelgc.log: 4,666 pauses (GCToolKit: 4,638 PSYoungGen + 28 PSFull, corpus manifest).
test('bucketed pauses (past the exact cap): whole-log figures as the exact job, a zoom sums whole buckets', async ({ page }) => {
  const file = corpus('jvm/gctoolkit/unified/parallel/parallelgc.log');
  await page.route('**/__e2e/parallelgc.log', (route) => route.fulfill({ path: file, contentType: 'text/plain' }));
  await page.goto('/?sw=0#range=5.000,15.000');
  await page.evaluate(async () => {
    const blob = await (await fetch('/__e2e/parallelgc.log')).blob();
    GCSCOPE.startJob([{ path: 'parallelgc.log', blob }], { jvm_exact_pauses: 50 });
  });
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(job.locator('.jvm-range')).toHaveText('5.000 s – 15.000 s');
  // The buckets whose first pause is in [5 s, 15 s], decoded here from the report (packed text:
  // delta-coded microseconds for t_us, run-length "v*n" for the counts), independently of the view.
  const expected = await page.evaluate(() => {
    const p = document.querySelector('.job').gcscopeDoc.reports[0].series.pauses;
    const ints = (text, delta) => {
      const out = [];
      let prev = 0;
      for (const f of text.split(',')) {
        const [v, run] = f.split('*').map(Number);
        const value = delta ? (prev += v) : v;
        for (let r = 0; r < (run || 1); r++) out.push(value);
      }
      return out;
    };
    const t = ints(p.t_us, true), n = ints(p.n, false);
    let count = 0, buckets = 0;
    for (let i = 0; i < t.length; i++) if (t[i] / 1e6 >= 5 && t[i] / 1e6 <= 15) { count += n[i]; buckets++; }
    const c = GCSCOPE.views['jvm-gc-log'].compute(document.querySelector('.job').gcscopeDoc.reports[0], 5, 15);
    return { encoding: p.encoding, nb: t.length, perBucket: p.per_bucket, count, buckets, text: GCSCOPE.ui.fmt.num(count),
      computed: c.pauses.count, kindsSum: c.pauseKinds.reduce((s, k) => s + k.count, 0), p50: c.pauses.p50, p99: c.pauses.p99,
      min: c.pauses.min, max: c.pauses.max };
  });
  expect(expected.encoding).toBe('buckets');
  expect(expected.nb).toBeLessThanOrEqual(4096);
  expect(expected.buckets).toBeGreaterThan(100);
  expect(expected.computed).toBe(expected.count);
  expect(expected.kindsSum).toBe(expected.count);  // every pause has its kind
  // Approximate percentiles stay within the range's exact min and max, in order.
  expect(expected.p50).toBeGreaterThanOrEqual(expected.min);
  expect(expected.p99).toBeGreaterThanOrEqual(expected.p50);
  expect(expected.p99).toBeLessThanOrEqual(expected.max);
  await expect(kpi(report, 'Pauses')).toHaveText(expected.text);
  await expect(kpi(report, 'p99 pause')).toHaveText(/^≈ /);
  await expect(report.locator('.jvm-percentiles')).toContainText('histograms of its groups of pauses');
  await expect(report.locator('.jvm-pause-chart')).toContainText('the longest of each group of up to ' + expected.perBucket);
  await expect(report.locator('.jvm-pause-hist canvas').first()).toBeVisible();

  // Whole log: the same KPIs as the exact analysis of the same file (a second job, default cap).
  await report.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(kpi(report, 'Pauses')).toHaveText(await page.evaluate(() => GCSCOPE.ui.fmt.num(4666)));
  await expect(kpi(report, 'p99 pause')).not.toHaveText(/≈/);
  await chooseFiles(page, [file]);
  const exactJob = await lastJob(page);
  const exact = exactJob.locator('section.report[data-format="jvm-gc-log"]');
  expect(await page.evaluate(() => document.querySelector('.job').gcscopeDoc.reports[0].series.pauses.encoding)).toBe('packed');
  for (const label of ['Pauses', 'Paused total', 'Max pause', 'p99 pause', 'Throughput']) {
    await expect(kpi(exact, label)).toHaveText(await kpi(report, label).innerText());
  }
  await expect(exact.locator('.jvm-percentiles')).toHaveText(await report.locator('.jvm-percentiles').innerText());
});
