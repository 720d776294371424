// JVM GC log view: KPIs, charts, findings linked to their log line, diary, event table, and zoom
// recomputing every number for the selected time range.
const { test, expect } = require('@playwright/test');
const { fixture, chooseFiles, lastJob } = require('./helpers');

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

test('the zoomed range is kept in the link: a reload with the same file returns to it', async ({ page }) => {
  await page.goto('/?sw=0#range=0.050,0.100');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  await expect(job.locator('.jvm-range')).toHaveText('0.050 s – 0.100 s');
  expect(await page.evaluate(() => GCSCOPE.state.get('range'))).toBe('0.050,0.100');
});
