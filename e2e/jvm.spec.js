// JVM GC log view: KPIs, charts, findings linked to their log line, diary, event table, and zoom
// asking the engine every number of the selected time range.
const { test, expect } = require('@playwright/test');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { fixture, corpus, chooseFiles, lastJob, textPauses } = require('./helpers');

// The native CLI of the same checkout, when it was built: the page must show what it answers.
const CLI = path.join(__dirname, '../build/native/gcscope');
const cli = (...args) => (fs.existsSync(CLI) ? JSON.parse(execFileSync(CLI, args, { maxBuffer: 1 << 28 }).toString()) : null);


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
  const wholeHist = await report.locator('.jvm-pause-hist figure').elementHandle();
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
  // The pause histogram is the same chart redrawn with the range's buckets: its bars hold the range's pauses.
  const hist = report.locator('.jvm-pause-hist figure');
  const histTotal = () => hist.evaluate((f) => f.gcscopePlot.data[1].reduce((a, b) => a + (b || 0), 0));
  expect(await wholeHist.evaluate((f) => f.isConnected)).toBe(true);
  expect(await histTotal()).toBe(zoomed);
  const rows = await report.locator('.jvm-events .gs-table-caption').innerText();
  expect(Number(rows.split(' ')[0])).toBeLessThan(37);
  await report.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  await expect(report.locator('.jvm-range')).toHaveText('Whole log');
  await expect(hist).toHaveCount(1);
  expect(await histTotal()).toBe(27);
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

  // The same KPI rows as gcscope compare computes for the two files (the engine's compare.with on
  // this job, over the G1 job's compare.side), or without the CLI the pause counts of the texts.
  const shown = await panel.locator('.gs-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
  const num = (v) => (v === null ? '—' : Math.abs(v) >= 1000 ? v.toFixed(0) : String(Math.round(v * 1e4) / 1e4));
  const pct = (v) => (v === null ? '—' : (v > 0 ? '+' : '') + v.toFixed(1) + ' %');
  const want = cli('compare', fixture('jvm/jdk17-parallel.log'), fixture('jvm/jdk17-g1.log'));
  if (want) {
    expect(shown).toEqual(want.compare.kpis.map((k) => [k.key, num(k.a), num(k.b), num(k.delta), pct(k.delta_percent)]));
  } else {
    const count = shown.find((r) => r[0] === 'pauses.count');
    expect(count.slice(1, 3)).toEqual([String(textPauses(fixture('jvm/jdk17-parallel.log')).length), '27']);
  }
  expect(shown.map((r) => r[0])).toContain('throughput_percent');
  expect(shown.map((r) => r[0])).toContain('events.total');
  expect(shown.map((r) => r[0])).toContain('heap.max_after_gc_kb');
  expect(shown.map((r) => r[0])).not.toContain('pauses.min_s');
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
  const col = await header.allTextContents();
  await expect(row.locator('td').nth(col.findIndex((h) => h.startsWith('Old after')))).toHaveText('6.00 MB');
});

// A range asks the engine only for the pool figures whose series are shown; showing one asks again.
test('a zoomed heap chart gets the figures of a pool when its series is shown', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const report = (await lastJob(page)).locator('section.report[data-format="jvm-gc-log"]');
  await expect(kpi(report, 'Pauses')).toHaveText('27');
  await page.evaluate(() => { location.hash = 'range=0.04,0.1'; });
  await expect(report.locator('.jvm-range')).toHaveAttribute('data-shown', '0.04,0.1');
  // The old pool's figures at 0.050 s (GC(4): "Old regions: 4->6", 1M regions: lines 8 and 93), in MB.
  const oldAfter = () => report.locator('.jvm-heap-chart .gs-chart').first().evaluate((box) => {
    const plot = box.gcscopePlot;
    const i = plot.series.findIndex((s) => s.label === 'old after GC');
    return plot.data[i][plot.data[0].indexOf(0.05)];
  });
  expect(await oldAfter()).toBeNull();  // hidden: not asked for
  await report.locator('.jvm-heap-chart .u-legend tr.u-series', { hasText: 'old after GC' }).locator('th').click();
  await expect.poll(oldAfter).toBe(6);
});

// A log with more than 4,096 events (the most the report used to keep one by one): a zoomed range's
// figures are exact, the same as `gcscope query … --method jvm.summary` for that range, and as the
// pauses the log's text shows starting in it. parallelgc.log: 4,666 pauses (GCToolKit: 4,638
// PSYoungGen + 28 PSFull, corpus manifest), one event each.
test('zooming a log of more than 4,096 events gives the exact figures of the range', async ({ page }) => {
  const file = corpus('jvm/gctoolkit/unified/parallel/parallelgc.log');
  const all = textPauses(file);
  expect(all.length).toBe(4666);
  const inRange = all.filter((p) => p.start >= 12 && p.start <= 14).map((p) => p.us).sort((a, b) => a - b);
  const rank = (q) => inRange[Math.min(Math.max(Math.ceil(q * inRange.length), 1), inRange.length) - 1];
  const text = { count: inRange.length, total_s: inRange.reduce((s, v) => s + v, 0) / 1e6, max_s: inRange[inRange.length - 1] / 1e6, p99_s: rank(0.99) / 1e6 };
  const summary = cli('query', file, '--method', 'jvm.summary', '--args', JSON.stringify({ t0: 12, t1: 14 }));
  if (summary) {
    for (const k of ['count', 'total_s', 'max_s', 'p99_s']) expect(summary.result.pauses[k]).toBe(text[k]);
  }
  await page.goto('/?sw=0#range=12.000,14.000');
  await chooseFiles(page, [file]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(job.locator('.jvm-range')).toHaveText('12.000 s – 14.000 s');
  const want = await page.evaluate((t) => ({
    count: GCSCOPE.ui.fmt.num(t.count), total: GCSCOPE.ui.fmt.seconds(t.total_s), max: GCSCOPE.ui.fmt.seconds(t.max_s),
    p99: GCSCOPE.ui.fmt.seconds(t.p99_s),
  }), text);
  await expect(kpi(report, 'Pauses')).toHaveText(want.count);
  await expect(kpi(report, 'Paused total')).toHaveText(want.total);
  await expect(kpi(report, 'Max pause')).toHaveText(want.max);
  await expect(kpi(report, 'p99 pause')).toHaveText(want.p99);
  if (summary) {
    const tp = await page.evaluate((v) => GCSCOPE.ui.fmt.pct(v), summary.result.throughput_percent);
    await expect(kpi(report, 'Throughput')).toHaveText(tp);
  }
  // The event table pages over the range's events (one per pause here), longest first on a click.
  await expect(report.locator('.jvm-events .gs-table-caption')).toHaveText(want.count + ' events');
  await report.locator('.jvm-events th', { hasText: 'Duration' }).click();
  const first = report.locator('.jvm-events tbody tr').first().locator('td').nth(5);
  await expect(first).toHaveText(want.max);
  await report.locator('.jvm-events button.gs-next').click();
  await expect(report.locator('.jvm-events .gs-table-count')).toHaveText(new RegExp('^51–'));
  // A page turned reaches the deep link once the paging stops.
  await expect.poll(() => new URL(page.url()).hash).toContain('events=duration_s.d.50');

  // Whole log again: the report's figures.
  await report.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(kpi(report, 'Pauses')).toHaveText(await page.evaluate(() => GCSCOPE.ui.fmt.num(4666)));
});

// The page after the one shown is asked of the engine ahead: "Next" draws it within its click, and
// "Previous" the page kept. A new question (a sort) forgets them and asks again.
test('the event table asks the next page ahead and draws it at the click', async ({ page }) => {
  const log = fixture('jvm/jdk17-serial-mixed-stdout.log');
  // The log's 138 "GC(n) Pause ... N.NNNms" lines: start uptimes (the line's uptime less its
  // duration) in time order, and durations.
  const pauses = fs.readFileSync(log, 'utf8').split('\n').map((l) => /^\[(\d+\.\d+)s\]\[info\s*\]\[gc\s*\] GC\(\d+\) Pause .* (\d+\.\d+)ms$/.exec(l))
    .filter(Boolean).map((m) => ({ start: Number(m[1]) - Number(m[2]) / 1000, ms: Number(m[2]) }));
  expect(pauses).toHaveLength(138);
  await page.goto('/?sw=0');
  await chooseFiles(page, [log]);
  const job = await lastJob(page);
  const events = job.locator('.jvm-events');
  await expect(events.locator('.gs-table-count')).toHaveText('1–50 of 138');
  // The engine has been asked for the rows at offset `at` (the engine's record of answered questions).
  const askedAt = (at, sort) => job.evaluate((card, [o, by]) => Object.keys(card.gcscopeEngine.answers())
    .some((k) => k.startsWith('jvm.events ') && JSON.parse(k.slice(11)).offset === o && JSON.parse(k.slice(11)).sort === by), [at, sort]);
  // One click, and what the table's count and first row say before the click handler returns.
  const clickNow = (button) => events.evaluate((box, b) => {
    box.querySelector('button.' + b).click();
    return [box.querySelector('.gs-table-count').textContent, box.querySelector('tbody tr td').textContent];
  }, button);
  // The first page's rows came with the report (100 of them): page 2 is there before any question.
  expect(await clickNow('gs-next')).toEqual(['51–100 of 138', pauses[50].start.toFixed(3)]);
  expect(await clickNow('gs-prev')).toEqual(['1–50 of 138', pauses[0].start.toFixed(3)]);
  // A turn draws the rows the box shows, and the 6 beyond them once the page is idle.
  const [inView, atClick] = await events.evaluate((box) => {
    box.querySelector('button.gs-next').click();
    const rows = box.querySelector('.gs-table-scroll').clientHeight / box.querySelector('tbody tr').getBoundingClientRect().height;
    return [Math.ceil(rows), box.querySelectorAll('tbody tr').length];
  });
  expect(inView).toBeLessThan(44);
  expect(atClick).toBe(inView);
  await expect(events.locator('tbody tr')).toHaveCount(inView + 6);
  await expect.poll(() => askedAt(100, 't')).toBe(true);
  expect(await clickNow('gs-next')).toEqual(['101–138 of 138', pauses[100].start.toFixed(3)]);
  expect(await clickNow('gs-prev')).toEqual(['51–100 of 138', pauses[50].start.toFixed(3)]);
  // Longest first: a new question, answered by the engine (not drawn within the click).
  const longest = pauses.map((p) => p.ms).sort((a, b) => b - a);
  const seconds = (ms) => page.evaluate((v) => GCSCOPE.ui.fmt.seconds(v / 1000), ms);
  await events.locator('button.gs-sort', { hasText: /^Duration$/ }).click();
  await expect(events.locator('.gs-table-count')).toHaveText('1–50 of 138');
  await expect(events.locator('tbody tr').first().locator('td').nth(5)).toHaveText(await seconds(longest[0]));
  await expect.poll(() => askedAt(50, 'duration_s')).toBe(true);
  const [count] = await clickNow('gs-next');
  expect(count).toBe('51–100 of 138');
  await expect(events.locator('tbody tr').first().locator('td').nth(5)).toHaveText(await seconds(longest[50]));
});

// A page of the event table draws the rows its scroll box shows (and a few beyond); scrolling draws
// the rest, each row in its place of the page, and no column narrows.
test('the event table draws the rows in view and scrolls over the whole page', async ({ page }) => {
  const log = fixture('jvm/jdk17-serial-mixed-stdout.log');
  // The log's 138 "GC(n) Pause ... N.NNNms" lines, in time order: an event starts at the line's
  // uptime less its duration.
  const starts = fs.readFileSync(log, 'utf8').split('\n').map((l) => /^\[(\d+\.\d+)s\]\[info\s*\]\[gc\s*\] GC\(\d+\) Pause .* (\d+\.\d+)ms$/.exec(l))
    .filter(Boolean).map((m) => Number(m[1]) - Number(m[2]) / 1000);
  expect(starts).toHaveLength(138);
  await page.goto('/?sw=0');
  await chooseFiles(page, [log]);
  const events = (await lastJob(page)).locator('.jvm-events');
  await events.locator('button.gs-next').click();
  await expect(events.locator('.gs-table-count')).toHaveText(/^51–100 of /);
  const rows = events.locator('tbody tr');
  const uptime = (k) => starts[50 + k].toFixed(3);
  await expect(rows.first().locator('td').first()).toHaveText(uptime(0));
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');
  await expect(events.locator('table')).toHaveAttribute('aria-rowcount', '51');
  const drawn = await rows.count();
  expect(drawn).toBeGreaterThan(10);
  expect(drawn).toBeLessThan(50);
  const widths = () => events.locator('th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().width));
  const before = await widths();
  await events.locator('.gs-table-scroll').evaluate((box) => { box.scrollTop = box.scrollHeight; });
  await expect(rows.last()).toHaveAttribute('aria-rowindex', '51');
  await expect(rows.last().locator('td').first()).toHaveText(uptime(49));
  const after = await widths();
  after.forEach((w, k) => expect(w).toBeGreaterThanOrEqual(before[k] - 0.5));
  // The next page starts again from its first row.
  await events.locator('button.gs-next').click();
  await expect(events.locator('.gs-table-count')).toHaveText(/^101–/);
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');
});
