// Ruby heap dumps in the browser: summary tables, icicle with path to root, diff of 3 dumps, and
// hostile strings rendered as text.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, corpus, chooseFiles, lastJob } = require('./helpers');

test('a dump shows its summaries, icicle and path to a root', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/dumps/small_points.heap.json')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  // 7762 objects (manifest expect.object_records), 2207939 bytes of memsize.
  await expect(report.locator('.gs-kpi').first()).toContainText('7,762');
  // By class: Point has 500 instances (expected/small_points.inprocess.json retained.Point).
  const classes = report.locator('details', { hasText: 'By class' }).first();
  await classes.locator('input[type=search]').fill('Point');
  await expect(classes.locator('tbody tr').first()).toContainText('500');
  // Sorting by the Objects column puts String (3404 instances) first.
  const byClass = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: /^By class$/ }) });
  await byClass.locator('input[type=search]').fill('');
  await byClass.locator('th', { hasText: 'Objects' }).click();
  await expect(byClass.locator('tbody tr').first().locator('td').first()).toHaveText('String');
  await expect(byClass.locator('tbody tr').first().locator('td').nth(1)).toHaveText('3,404');
  // The icicle is drawn; clicking the top retainer row shows its path from a GC root.
  await expect(report.locator('canvas.heap-icicle')).toBeVisible();
  const top = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Top retainers' }) });
  await top.locator('tbody tr').first().click();
  await expect(report.locator('.heap-detail ol.heap-path li').first()).toContainText('GC root:');
  // Clicking into the icicle selects a node and shows its details.
  await report.locator('canvas.heap-icicle').scrollIntoViewIfNeeded();  // mouse coordinates are viewport coordinates
  const box = await report.locator('canvas.heap-icicle').boundingBox();
  await page.mouse.click(box.x + 5, box.y + 18 + 9);
  await expect(report.locator('.heap-detail h4')).not.toBeEmpty();
  // zoomed in: the row below the focus is now the selected node's children; pick one deeper down
  await page.mouse.click(box.x + 5, box.y + 18 + 9);
  await expect(report.locator('.heap-detail ol.heap-path li').first()).toContainText('GC root:');
});

test('a partial (since:) dump says why there is no dominator tree', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/dumps/variant_since_partial.heap.json')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  await expect(report.locator('.gs-kpi').first()).toContainText('2,015');
  await expect(report).toContainText('No dominator tree: no ROOT records');
  await expect(report.locator('canvas.heap-icicle')).toHaveCount(0);
});

test('three dumps diffed: the 2000 leaked strings are listed at their line', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, ['leak_1', 'leak_2', 'leak_3'].map((n) => fixture(`heap/${n}.heap.json.gz`)));
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  await report.locator('button.heap-diff-button').click();
  const diffJob = await lastJob(page);
  const diff = diffJob.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Diff' }) });
  // fixtures/heap/diff.truth.json: 2000 strings leak at generate_diff.rb:<leak.line>
  const truth = JSON.parse(fs.readFileSync(fixture('heap/diff.truth.json'), 'utf8')).leak;
  const first = diff.locator('tbody').first().locator('tr').first();
  await expect(first.locator('td').nth(0)).toHaveText(truth.file);
  await expect(first.locator('td').nth(1)).toHaveText(String(truth.line));
  await expect(first.locator('td').nth(3)).toHaveText('2,000');
});

test('HTML in class names, files and roots stays text', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/malformed/heap_xss_fields.heap.json')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  await expect(report.locator('td', { hasText: '<img src=x onerror=alert(1)>' }).first()).toBeVisible();
  await expect(report.locator('td', { hasText: '<script>alert(2)</script>.rb' }).first()).toBeVisible();
  expect(await page.locator('img[src=x], iframe, svg[onload]').count()).toBe(0);
  expect(dialogs).toBe(0);
});
