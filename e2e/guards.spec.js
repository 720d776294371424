// What the browser enforces for the page (Content-Security-Policy with Trusted Types, no inline style)
// and what the page says up front when an input is too big for WebAssembly's memory.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, chooseFiles, lastJob, tempFile } = require('./helpers');

// Records every CSP violation the page reports, from the first script on.
async function watchViolations(page) {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`));
  });
}

test('Trusted Types refuse an injected HTML string; every sample renders without a CSP violation', async ({ page }) => {
  await watchViolations(page);
  await page.goto('/?sw=0&warmup=0');
  const injected = await page.evaluate(() => {
    const results = {};
    for (const [name, f] of Object.entries({
      innerHTML: () => { document.body.innerHTML = '<img src=x>'; },
      insertAdjacentHTML: () => document.body.insertAdjacentHTML('beforeend', '<b>x</b>'),
      workerFromString: () => new Worker('data:text/javascript,0'),
      policyForOtherScript: () => GCSCOPE.scriptURL('https://example.com/x.js'),
    })) {
      try { f(); results[name] = 'accepted'; } catch (e) { results[name] = e.name; }
    }
    return results;
  });
  expect(injected).toEqual({ innerHTML: 'TypeError', insertAdjacentHTML: 'TypeError', workerFromString: 'TypeError', policyForOtherScript: 'TypeError' });
  await expect(page.locator('#drop')).toBeVisible();  // the page survived the attempts

  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  const n = await samples.count();
  for (let i = 0; i < n; i++) await samples.nth(i).click();
  await expect(page.locator('.job .job-status')).toHaveText(Array(n).fill(/Done/), { timeout: 90_000 });
  await expect(page.locator('.job .report').first()).toBeVisible();
  // The three attempts above are the only violations (Trusted Types report them too).
  const violations = await page.evaluate(() => window.__violations);
  expect(violations.filter((v) => !/^require-trusted-types-for/.test(v))).toEqual([]);
  expect(violations.length).toBeLessThanOrEqual(3);
});

test('a saved HTML report enforces Trusted Types too', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: 'Save as HTML report' }).click()]);
  const html = fs.readFileSync(await download.path(), 'utf8');
  expect(html).toContain("require-trusted-types-for 'script'");
  // Opened from a file, as a saved report is.
  await page.goto('file://' + tempFile('report.gcscope.html', html));
  await expect(page.locator('.job .report').first()).toBeVisible();
  const refused = await page.evaluate(() => { try { document.body.innerHTML = '<i>x</i>'; return 'accepted'; } catch (e) { return e.name; } });
  expect(refused).toBe('TypeError');
});

test('an input too big for the browser is refused at once, with what still fits and the CLI command', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  // A real heap dump, presented as 5.07 GB (a test hook stands in for the size; the 5 GB file itself
  // is not needed to decide): 0.85 bytes of memory per byte is more than WebAssembly's 4 GB.
  await page.evaluate(() => { GCSCOPE.testHooks = { assumeInputBytes: 5.07e9 }; });
  const dump = fixture('heap/leak_1.heap.json.gz');
  await chooseFiles(page, [dump]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Failed');
  const box = job.locator('.job-too-big');
  await expect(box).toContainText('Too big for the browser: this Ruby heap dump (ObjectSpace.dump_all) needs about 4110 MB');
  await expect(box.locator('pre').first()).toHaveText('gcscope analyze leak_1.heap.json.gz --html report.html > report.json');
  await expect(box.locator('pre').nth(1)).toHaveText('gcscope analyze leak_1.heap.json.gz --set heap_retention=false > report.json');
  await expect(box).toContainText('What still fits: the summaries');
  await box.getByRole('button', { name: 'Analyze that instead' }).click();
  const lighter = await lastJob(page);
  await expect(lighter.locator('.job-status')).toHaveText('Done');
  const doc = await lighter.evaluate((card) => card.gcscopeDoc);
  expect(doc.reports[0].format).toBe('ruby-heap-dump');
  expect(doc.reports[0].partial).toBe(false);
});
