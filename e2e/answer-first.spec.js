// The answer first: each view opens with its verdict (the first named part of the report after its
// title), and a JVM report can be read with the keyboard alone: open, sort, zoom and reset, search.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { fixture, chooseFiles, lastJob, textPauses } = require('./helpers');

const CLI = path.join(__dirname, '../build/native/gcscope');
const cli = (...args) => (fs.existsSync(CLI) ? JSON.parse(execFileSync(CLI, args, { maxBuffer: 1 << 28 }).toString()) : null);

// The names of a report's parts in reading order, as assistive technology meets them: section
// summaries, headings and named regions that are visible, below the report's own title.
function partNames(report) {
  return report.locator('.report-body').evaluate((body) => {
    const names = [];
    const visible = (n) => (n.checkVisibility ? n.checkVisibility() : n.offsetParent !== null);
    for (const n of body.querySelectorAll('summary, h1, h2, h3, h4, h5, h6, [role=heading], [role=region][aria-label]')) {
      if (!visible(n)) continue;
      names.push(n.matches('[role=region]') ? n.getAttribute('aria-label') : n.textContent.trim());
    }
    return names;
  });
}

const VERDICTS = [
  // Findings ranked by severity (the engine's order), before KPIs, charts and tables.
  { name: 'JVM GC log', files: ['jvm/jdk17-serial-mixed-stdout.log'], format: 'jvm-gc-log', first: /^Findings \(5\)$/ },
  { name: 'Ruby GC tuner payload', files: ['rubygc/rec31_leak.json'], format: 'tunemygc-payload', first: /^Verdict$/ },
  { name: 'three heap dumps', files: ['heap/leak_1.heap.json.gz', 'heap/leak_2.heap.json.gz', 'heap/leak_3.heap.json.gz'],
    format: 'ruby-heap-dump', first: /^New objects still alive \(3 dumps compared\)$/ },
  { name: 'rbkit capture', files: ['rbkit/leak-synthetic.rbkit'], format: 'rbkit-capture', first: /^Live objects over time$/ },
  { name: 'bpftrace maps', files: ['tracing/bpftrace-maps.txt'], format: 'bpftrace-text', first: /^Slowest probes$/ },
  { name: 'stackprof dump', files: ['stackprof/fib-cpu-raw.dump'], format: 'stackprof', first: /^Flame graph$/ },
];

for (const v of VERDICTS) {
  test(`${v.name}: the first part after the title is the verdict`, async ({ page }) => {
    await page.goto('/?sw=0&warmup=0');
    await chooseFiles(page, v.files.map(fixture));
    const job = await lastJob(page);
    await expect(job.locator('.job-status')).toHaveText('Done');
    const report = job.locator(`section.report[data-format="${v.format}"]`);
    await expect(report).toBeVisible();
    const names = await partNames(report);
    expect(names[0]).toMatch(v.first);
    if (v.format === 'jvm-gc-log') {
      // The engine's ranking (tests/jvm: two errors, one warning, two infos on this log).
      await expect(report.locator('.jvm-findings li .badge')).toHaveText(['error', 'error', 'warning', 'info', 'info']);
      await expect(report.locator('.jvm-findings li .jvm-line-link').first()).toBeVisible();
    }
    if (v.format === 'rbkit-capture') {
      await expect(report.locator('details.rbkit-handshake')).not.toHaveAttribute('open', '');
    }
  });
}


const kpi = (report, label) => report.locator('.gs-kpi', { has: report.page().locator('.gs-kpi-label', { hasText: new RegExp('^' + label + '$') }) }).locator('.gs-kpi-value');

test('keyboard only: open a JVM log, sort its events, zoom a chart and reset, search', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const pauses = textPauses(file);
  expect(pauses.length).toBe(27);  // hand count: 27 "GC(n) Pause … ms" lines
  await page.goto('/?sw=0&warmup=0');

  // Open: Tab from the theme toggle reaches "Choose files…"; Enter opens the file picker.
  const chooserShown = page.waitForEvent('filechooser');
  await page.locator('#theme-toggle').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement.id)).toBe('pick-files');
  await page.keyboard.press('Enter');
  (await chooserShown).setFiles(file);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  const maxPause = await page.evaluate((us) => GCSCOPE.ui.fmt.seconds(us / 1e6), Math.max(...pauses.map((p) => p.us)));
  await expect(kpi(report, 'Max pause')).toHaveText(maxPause);

  // Sort: the events table's headers are buttons with aria-sort; Enter sorts (the engine pages).
  const events = report.locator('.jvm-events');
  const durationTh = events.locator('th', { has: page.locator('button.gs-sort', { hasText: /^Duration$/ }) });
  await durationTh.locator('button').focus();
  await page.keyboard.press('Enter');
  await expect(durationTh).toHaveAttribute('aria-sort', 'descending');
  // The longest event: the CLI's answer to the same question (a concurrent cycle, line 451: 12.394ms).
  const longest = cli('query', file, '--method', 'jvm.events', '--args', JSON.stringify({ offset: 0, limit: 1, sort: 'duration_s', desc: true }));
  if (longest) {
    const want = await page.evaluate((v) => GCSCOPE.ui.fmt.seconds(v), longest.result.rows[0].duration_s);
    await expect(events.locator('tbody tr').first().locator('td').nth(5)).toHaveText(want);
  }
  await page.keyboard.press('Enter');
  await expect(durationTh).toHaveAttribute('aria-sort', 'ascending');

  // Zoom: the pause chart takes the focus; + halves the range, and the KPIs are the range's.
  const chart = report.locator('.jvm-pause-chart .gs-chart-body');
  await chart.focus();
  await expect(chart).toBeFocused();
  await page.keyboard.press('+');
  const range = report.locator('.jvm-range');
  await expect(range).toHaveText(/^\d+\.\d{3} s – \d+\.\d{3} s$/);
  await expect(range).toHaveAttribute('data-shown', /,/);
  const [t0, t1] = (await range.getAttribute('data-shown')).split(',').map(Number);
  const inRange = pauses.filter((p) => p.start >= t0 && p.start <= t1);
  expect(inRange.length).toBeGreaterThan(0);
  expect(inRange.length).toBeLessThan(pauses.length);
  await expect(kpi(report, 'Pauses')).toHaveText(String(inRange.length));
  const summary = cli('query', file, '--method', 'jvm.summary', '--args', JSON.stringify({ t0, t1 }));
  if (summary) {
    expect(summary.result.pauses.count).toBe(inRange.length);
    await expect(kpi(report, 'Paused total')).toHaveText(await page.evaluate((v) => GCSCOPE.ui.fmt.seconds(v), summary.result.pauses.total_s));
  }

  // Reset: "Reset zoom" is reachable with Shift+Tab from the chart; Enter shows the whole log.
  for (let i = 0; i < 12; i++) {
    if (await page.evaluate(() => document.activeElement.textContent === 'Reset zoom')) break;
    await page.keyboard.press('Shift+Tab');
  }
  expect(await page.evaluate(() => document.activeElement.textContent)).toBe('Reset zoom');
  await page.keyboard.press('Enter');
  await expect(range).toHaveText('Whole log');
  await expect(kpi(report, 'Pauses')).toHaveText('27');

  // The chart's own keys: + twice, - once, then 0 for the whole range.
  await chart.focus();
  await page.keyboard.press('+');
  await expect(range).toHaveAttribute('data-shown', /,/);
  const once = (await range.getAttribute('data-shown')).split(',').map(Number);
  await page.keyboard.press('+');
  await expect(range).not.toHaveAttribute('data-shown', once.join(','));
  const twice = (await range.getAttribute('data-shown')).split(',').map(Number);
  expect(twice[1] - twice[0]).toBeCloseTo((once[1] - once[0]) / 2, 6);
  await page.keyboard.press('-');
  await expect(range).not.toHaveAttribute('data-shown', twice.join(','));
  const back = (await range.getAttribute('data-shown')).split(',').map(Number);
  expect(back[0]).toBeCloseTo(once[0], 6);
  expect(back[1]).toBeCloseTo(once[1], 6);
  await page.keyboard.press('0');
  await expect(range).toHaveText('Whole log');
  await expect(kpi(report, 'Pauses')).toHaveText('27');

  // Search: `/` focuses the result's first visible filter field.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('/');
  expect(await page.evaluate(() => document.activeElement.type === 'search' && !!document.activeElement.closest('.job'))).toBe(true);
});
