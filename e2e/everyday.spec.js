// Everyday use: paste, the keyboard (page keys, sortable headers, paging), the theme, and section
// states kept in the URL fragment.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, chooseFiles, lastJob } = require('./helpers');

// Pastes `text` into the page as a user's Ctrl+V does (a paste event with the clipboard's text).
async function paste(page, text) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

test('pasted text is analyzed like a dropped file, identified from its content', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  // The first 40 lines of a real unified G1 log: a user's excerpt.
  const excerpt = fs.readFileSync(fixture('jvm/jdk17-g1.log'), 'utf8').split('\n').slice(0, 40).join('\n') + '\n';
  const pauses = excerpt.split('\n').filter((l) => /GC\(\d+\) Pause .* \d+\.\d+ms$/.test(l)).length;
  expect(pauses).toBeGreaterThan(0);
  await paste(page, excerpt);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('.badge').first()).toHaveText('JVM GC log');
  await expect(job.locator('.job-title')).toHaveText(/^pasted-\d{6}\.txt$/);
  const doc = await job.evaluate((card) => card.gcscopeDoc);
  expect(doc.reports[0].pauses.count).toBe(pauses);

  // Folded stacks pasted: another format, identified as such (hand count: 3 + 2 samples).
  await paste(page, 'main;work;parse 3\nmain;work;write 2\n');
  const second = await lastJob(page);
  await expect(second.locator('.badge').first()).toHaveText('Folded stacks');

  // Text typed into a field is the field's: nothing starts.
  const jobs = await page.locator('.job').count();
  await page.locator('.job input[type=search]').first().focus();
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', 'main;x 1\n');
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForTimeout(300);
  expect(await page.locator('.job').count()).toBe(jobs);
});

test('keyboard only: open a log, sort a table, page it, search, move between results, help', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  // Open: Tab reaches "Choose files…", Enter opens the file picker. (The chooser is awaited from the
  // start: Playwright intercepts file choosers only once its listener is installed in the browser.)
  const chooserShown = page.waitForEvent('filechooser');
  await expect(page.locator('#samples button.sample').first()).toBeVisible();
  await page.locator('#theme-toggle').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement.id)).toBe('pick-files');
  await page.keyboard.press('Enter');
  const chooser = await chooserShown;
  await chooser.setFiles(fixture('jvm/jdk17-g1.log'));
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');

  // Sort: the headers are buttons with aria-sort; Enter on one sorts by it.
  const table = job.locator('.gs-table').filter({ has: page.locator('button.gs-sort', { hasText: /^Cause$/ }) }).first();
  const header = table.locator('button.gs-sort', { hasText: /^Cause$/ });
  await header.focus();
  await page.keyboard.press('Enter');
  const th = table.locator('th:has(button.gs-sort:text-is("Cause"))');
  await expect(th).toHaveAttribute('aria-sort', 'ascending');
  const causes = await table.locator('tbody tr td:first-child').allTextContents();
  expect(causes).toEqual([...causes].sort((a, b) => a.localeCompare(b)));
  await page.keyboard.press('Enter');
  await expect(th).toHaveAttribute('aria-sort', 'descending');

  // Search: `/` focuses the current result's first filter field.
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('/');
  const focusedIsSearch = await page.evaluate(() => document.activeElement.type === 'search' && !!document.activeElement.closest('.job'));
  expect(focusedIsSearch).toBe(true);
  await page.keyboard.press('Escape');

  // A second result, then k/j move between the two.
  await chooseFiles(page, [fixture('jvm/jdk17-zgc.log')]);
  await expect(page.locator('.job .job-status').first()).toHaveText('Done');
  await page.keyboard.press('j');
  const second = await page.evaluate(() => Array.from(document.querySelectorAll('#jobs > .job')).indexOf(document.activeElement));
  expect(second).toBe(1);
  await page.keyboard.press('k');
  expect(await page.evaluate(() => Array.from(document.querySelectorAll('#jobs > .job')).indexOf(document.activeElement))).toBe(0);

  // `?` lists the keys in a dialog; Esc closes it and gives the focus back.
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('kbd', { hasText: 'j / k' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('long tables page instead of growing, and the pager works by keyboard', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  // 250 distinct stacks: the tracing view's stack table pages them 50 at a time.
  const lines = [];
  for (let i = 0; i < 250; i++) lines.push(`main;f${i} ${i + 1}`);
  await paste(page, lines.join('\n') + '\n');
  const job = await lastJob(page);
  const table = job.locator('.gs-table').filter({ has: page.locator('.gs-pager:not([hidden])') }).first();
  await expect(table.locator('tbody tr')).toHaveCount(50);
  await expect(table.locator('.gs-page-where')).toHaveText('rows 1–50 of 250');
  await table.getByRole('button', { name: 'Next ›' }).focus();
  await page.keyboard.press('Enter');
  await expect(table.locator('.gs-page-where')).toHaveText('rows 51–100 of 250');
});

test('the theme follows the system, a pick is remembered, and it is all that is stored', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/?sw=0&warmup=0');
  const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const axis = () => page.evaluate(() => GCSCOPE.charts.themeColor('--chart-axis', ''));
  expect(await bg()).toBe('rgb(11, 18, 32)');  // the dark --bg, from the system's preference
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  await lastJob(page);
  const darkAxis = await axis();
  await page.locator('#theme-toggle').click();
  expect(await bg()).toBe('rgb(248, 250, 252)');  // light --bg
  expect(await axis()).not.toBe(darkAxis);
  await expect(page.locator('#theme-toggle')).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  expect(await bg()).toBe('rgb(248, 250, 252)');  // the pick outlives a reload
  const stored = await page.evaluate(() => Object.keys(localStorage));
  expect(stored).toEqual(['gcscope.theme']);
  await context.close();
});

test('sections a reader closes stay closed after a reload (URL fragment, per format)', async ({ page }) => {
  await page.goto('/?sw=0&warmup=0');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const section = job.locator('details.gs-section', { has: page.locator('summary', { hasText: /^Diary$/ }) });
  await expect(section).toHaveAttribute('open', '');
  await section.locator('summary').click();
  await expect(page).toHaveURL(/open\.jvm-gc-log=-diary/);
  await page.reload();
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const again = await lastJob(page);
  await expect(again.locator('details.gs-section', { has: page.locator('summary', { hasText: /^Diary$/ }) })).not.toHaveAttribute('open', '');
});
