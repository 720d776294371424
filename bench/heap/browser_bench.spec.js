// Times one analysis of BENCH_DUMP in the page (worker + wasm), from choosing the file to the rendered report.
const { test, expect } = require('@playwright/test');
test('heap dump in a Chromium worker', async ({ page }) => {
  const dump = process.env.BENCH_DUMP;
  test.skip(!dump, 'set BENCH_DUMP');
  await page.goto('/');
  const t0 = Date.now();
  await page.locator('#file-input').setInputFiles([dump]);
  const card = page.locator('.job').first();
  await expect(card.locator('.job-status')).toHaveText('Done', { timeout: 600_000 });
  const seconds = (Date.now() - t0) / 1000;
  const objects = await card.locator('.gs-kpi').first().locator('.gs-kpi-value').textContent();
  console.log(JSON.stringify({ dump, seconds, objects }));
});
