// Following a log as it grows. Headless Chromium cannot drive the real file picker, so a test hook
// (GCSCOPE.testHooks.showOpenFilePicker) hands the page a file handle whose getFile() returns the
// file as it is now: the first part of fixtures/jvm/jdk17-g1.log, then all of it.
// Hand counts (grep -cE 'GC\([0-9]+\) Pause.*ms$' fixtures/jvm/jdk17-g1.log):
//   27 pauses in the whole file; 10 of them before GC(10)'s first line, where the first part ends.
const { test, expect } = require('@playwright/test');
const fs = require('fs');
const { fixture, lastJob } = require('./helpers');

function kpi(report, label) {
  return report.locator('.gs-kpi', { has: report.page().locator('.gs-kpi-label', { hasText: new RegExp('^' + label + '$') }) }).locator('.gs-kpi-value');
}

// Installs a picker whose file grows when the test says so (window.growFollowedFile()).
async function fakePicker(page, parts) {
  await page.evaluate((texts) => {
    let shown = 1;
    const file = () => new File([texts.slice(0, shown).join('')], 'gc.log', { type: 'text/plain' });
    window.growFollowedFile = () => { shown = Math.min(texts.length, shown + 1); };
    window.truncateFollowedFile = (text) => { texts.splice(0, texts.length, text); shown = 1; };
    GCSCOPE.testHooks = {
      followIntervalMs: 200,
      showOpenFilePicker: async () => [{ kind: 'file', name: 'gc.log', getFile: async () => file() }],
    };
  }, parts);
}

test('following a file that grows shows the new pauses, zoom kept', async ({ page }) => {
  const log = fs.readFileSync(fixture('jvm/jdk17-g1.log'), 'utf8');
  const split = log.lastIndexOf('\n', log.indexOf('GC(10) ')) + 1;
  // The second part starts mid-line: the engine holds the piece back until the line is whole.
  const mid = split + 1500;
  await page.goto('/?sw=0&warmup=0');
  await fakePicker(page, [log.slice(0, split), log.slice(split, mid), log.slice(mid)]);
  const follow = page.locator('#follow-file');
  await expect(follow).toBeEnabled();
  await expect(page.locator('#follow-note')).toContainText('its report updates as it grows');
  await follow.focus();
  await page.keyboard.press('Enter');
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(kpi(report, 'Pauses')).toHaveText('10');
  const toggle = job.getByRole('button', { name: 'Stop following this file' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(job.locator('.job-follow-status')).toContainText('10 pauses');

  // Zoom on the first part of the time axis; the range stays through the updates.
  const over = report.locator('.jvm-heap-chart .u-over').first();
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  await page.mouse.move(box.x + box.width * 0.02, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(report.locator('.jvm-range')).toHaveText(/s – .* s$/);
  const range = await report.locator('.jvm-range').innerText();
  const zoomedBefore = Number(await kpi(report, 'Pauses').innerText());
  expect(zoomedBefore).toBeGreaterThan(0);
  expect(zoomedBefore).toBeLessThanOrEqual(10);

  // Sort the event table by duration: the order survives the updates too (fragment key `events`).
  const durationHeader = () => job.locator('section.report[data-format="jvm-gc-log"] .gs-paged th', { hasText: /^Duration$/ });
  await durationHeader().getByRole('button').click();
  await expect(durationHeader()).toHaveAttribute('aria-sort', 'descending');
  const plotsBefore = await page.evaluate(() => GCSCOPE.charts.livePlots());
  expect(plotsBefore).toBeGreaterThan(0);
  await page.evaluate(() => window.growFollowedFile());
  await page.evaluate(() => window.growFollowedFile());
  await expect(job.locator('.job-follow-status')).toContainText('27 pauses');
  const after = job.locator('section.report[data-format="jvm-gc-log"]');
  await expect(after.locator('.jvm-range')).toHaveText(range);
  // The charts of the replaced drawings are destroyed: updates do not add live plots.
  expect(await page.evaluate(() => GCSCOPE.charts.livePlots())).toBe(plotsBefore);
  await expect(durationHeader()).toHaveAttribute('aria-sort', 'descending');
  expect(page.url()).toContain('events=duration_s.d.0');
  await after.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(kpi(after, 'Pauses')).toHaveText('27');

  // Stop: the file grows no further into the report.
  await job.getByRole('button', { name: 'Stop following this file' }).click();
  await expect(job.getByRole('button', { name: 'Follow this file as it grows' })).toHaveAttribute('aria-pressed', 'false');
});

test('a truncated followed file continues the log as its next member', async ({ page }) => {
  // fixtures/jvm/jdk17-serial-mixed-stdout.log: 138 "GC(n) Pause … ms" lines, 70 before GC(70)'s
  // (at 13.2 s of uptime, so the rest is the same JVM run written on after a copytruncate).
  const log = fs.readFileSync(fixture('jvm/jdk17-serial-mixed-stdout.log'), 'utf8');
  const split = log.lastIndexOf('\n', log.indexOf('GC(70) ')) + 1;
  await page.goto('/?sw=0&warmup=0');
  await fakePicker(page, [log.slice(0, split)]);
  await page.locator('#follow-file').click();
  const job = await lastJob(page);
  await expect(job.locator('.job-follow-status')).toContainText('70 pauses');
  await page.evaluate((rest) => window.truncateFollowedFile(rest), log.slice(split));
  await expect(job.locator('.job-follow-status')).toContainText('138 pauses, 68 new');
  await expect(job.locator('.job-follow-status')).toContainText('1 rotation');
  await expect(kpi(job.locator('section.report[data-format="jvm-gc-log"]'), 'Pauses')).toHaveText('138');
});

test('without the File System Access API the Follow control says why', async ({ page }) => {
  await page.addInitScript(() => { delete Window.prototype.showOpenFilePicker; delete window.showOpenFilePicker; });
  await page.goto('/?sw=0&warmup=0');
  await expect(page.locator('#follow-file')).toBeDisabled();
  await expect(page.locator('#follow-note')).toContainText('needs the File System Access API');
  await expect(page.locator('#follow-note')).toContainText('gcscope analyze --follow FILE');
});
