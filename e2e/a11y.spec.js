// Accessibility, checked by axe-core on every view (each bundled sample), in the light and the dark
// theme, on the embed layout and on the SQL panel: no serious or critical violation.
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;
const { lastJob } = require('./helpers');

const SERIOUS = new Set(['serious', 'critical']);

async function seriousViolations(page, include) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations.filter((v) => SERIOUS.has(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// Every view: one bundled sample of each format, each checked on its own (axe's time grows with the
// page's size), then the page around them.
async function checkEveryView(browser, colorScheme) {
  const context = await browser.newContext({ colorScheme });
  const page = await context.newPage();
  await page.goto('/?sw=0&warmup=0');
  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  expect(await page.evaluate(() => GCSCOPE.theme.current())).toBe(colorScheme);
  const found = [];
  const seen = new Set();
  for (let i = 0; i < await samples.count(); i++) {
    await samples.nth(i).click();
    const job = await lastJob(page);
    await expect(job.locator('.job-status')).toHaveText(/Done/);
    const format = await job.locator('section.report').first().getAttribute('data-format');
    if (seen.has(format)) { await job.locator('button.job-close').click(); continue; }
    seen.add(format);
    for (const v of await seriousViolations(page, '#jobs > .job:first-child')) found.push(`${format}: ${v}`);
    await job.locator('button.job-close').click();
  }
  expect(seen.size).toBeGreaterThanOrEqual(10);
  found.push(...await seriousViolations(page));
  await context.close();
  return found;
}

for (const scheme of ['light', 'dark']) {
  test(`every view passes axe in the ${scheme} theme`, async ({ browser }) => {
    test.setTimeout(300_000);
    expect(await checkEveryView(browser, scheme)).toEqual([]);
  });
}

test('the embed layout passes axe', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/?sw=0&warmup=0&embed=1');
  await page.locator('#file-input').setInputFiles(require('./helpers').fixture('jvm/jdk17-g1.log'));
  await lastJob(page);
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

test('the SQL panel, with a result and with an error, passes axe in both themes', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const colorScheme of ['light', 'dark']) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto('/?sw=0&warmup=0');
    await page.locator('#file-input').setInputFiles(require('./helpers').fixture('tracing/perf-script-ruby.folded.txt'));
    const job = await lastJob(page);
    await job.locator('.job-sql').click();
    const panel = job.locator('.sql-panel');
    await expect(panel).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
    await panel.locator('.sql-example', { hasText: 'Heaviest leaf frames' }).click();
    await expect(panel.locator('.sql-result .gs-table tbody tr').first()).toBeVisible();
    expect(await seriousViolations(page, '.sql-panel')).toEqual([]);
    await panel.locator('.sql-text').fill('SELEC 1');
    await panel.locator('.sql-run').click();
    await expect(panel.locator('.sql-error')).toBeVisible();
    expect(await seriousViolations(page, '.sql-panel')).toEqual([]);
    await context.close();
  }
});
