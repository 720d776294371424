// Accessibility, checked by axe-core on every view (each bundled sample), in the light and the dark
// theme, and on the embed layout: no serious or critical violation.
const { test, expect } = require('@playwright/test');
const AxeBuilder = require('@axe-core/playwright').default;
const { lastJob } = require('./helpers');

const SERIOUS = new Set(['serious', 'critical']);

async function seriousViolations(page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => SERIOUS.has(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// Opens every sample (one job per sample: every view) on a page in the given color scheme.
async function everyView(browser, colorScheme, query = '') {
  const context = await browser.newContext({ colorScheme });
  const page = await context.newPage();
  await page.goto('/?sw=0&warmup=0' + query);
  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  const n = await samples.count();
  for (let i = 0; i < n; i++) {
    await samples.nth(i).click();
    await lastJob(page);
  }
  await expect(page.locator('.job .job-status')).toHaveText(Array(n).fill(/Done/), { timeout: 90_000 });
  return { context, page };
}

for (const scheme of ['light', 'dark']) {
  test(`every view passes axe in the ${scheme} theme`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { context, page } = await everyView(browser, scheme);
    expect(await page.evaluate(() => GCSCOPE.theme.current())).toBe(scheme);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
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
