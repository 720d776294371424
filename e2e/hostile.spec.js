// Hostile input (issue: hardening): markup, script URLs and bidi controls in every place data reaches
// the page — file names, GC causes, frame names, map keys, class names, file paths — must show as
// text. No script runs, no element is injected, nothing is stored.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, corpus, lastJob } = require('./helpers');

const PAYLOAD = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';
const SCRIPT = '<script>window.__xss=(window.__xss||0)+1</script>';
const BIDI = '\u202Egol.exe\u202C';

function hostileFiles() {
  const g1 = fs.readFileSync(fixture('jvm/jdk17-g1.log'), 'utf8').replace(/G1 Evacuation Pause/g, PAYLOAD + BIDI);
  const profile = fs.readFileSync(fixture('stackprof/fib-cpu-raw.json'), 'utf8').split('Object#fib').join(SCRIPT + 'javascript:alert(1)');
  return [
    { name: PAYLOAD + '.log', mimeType: 'text/plain', buffer: Buffer.from(g1) },
    { name: 'profile.json', mimeType: 'application/json', buffer: Buffer.from(profile) },
    { name: 'stacks.folded', mimeType: 'text/plain', buffer: Buffer.from(`ruby;${SCRIPT};${PAYLOAD} 7\nruby;main;${BIDI} 3\n`) },
    { name: 'maps.txt', mimeType: 'text/plain', buffer: Buffer.from(`Attaching 1 probe...\n\n@calls[${PAYLOAD}]: 5\n@calls[javascript:alert(1)]: 2\n`) },
    { name: 'heap_xss_fields.heap.json', mimeType: 'application/json', buffer: fs.readFileSync(corpus('heap/malformed/heap_xss_fields.heap.json')) },
    { name: 'rbkit_xss_strings.rbkit', mimeType: 'application/octet-stream', buffer: fs.readFileSync(corpus('heap/malformed/rbkit_xss_strings.rbkit')) },
    { name: 'not_json.heap.json', mimeType: 'text/html', buffer: fs.readFileSync(corpus('heap/malformed/heap_not_json_html.heap.json')) },
  ];
}

test('markup in names and data is shown as text: no script runs, nothing is injected', async ({ page }) => {
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto('/');
  await page.locator('#file-input').setInputFiles(hostileFiles());
  const job = await lastJob(page);
  // Open every collapsed section and the raw JSON so all rendered text is in the DOM.
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await page.locator('#jobs img').count()).toBe(0);
  expect(await page.locator('#jobs script').count()).toBe(0);
  expect(await page.locator('#jobs a[href^="javascript:"]').count()).toBe(0);
  // The hostile file name is displayed literally.
  await expect(job.locator('table.inputs td.path').first()).toHaveText(PAYLOAD + '.log');
  await expect(job.locator('.job-status')).toHaveText('Done');
});

test('nothing is stored in the browser during a session', async ({ page }) => {
  await page.goto('/?sw=0');
  const samples = page.locator('#samples button.sample');
  await expect(samples.first()).toBeVisible();
  const n = await samples.count();
  for (let i = 0; i < n; i++) await samples.nth(i).click();
  await expect(page.locator('.job .job-status')).toHaveText(Array(n).fill(/Done/), { timeout: 60_000 });
  const stored = await page.evaluate(async () => ({
    local: localStorage.length, session: sessionStorage.length, cookies: document.cookie,
    idb: indexedDB.databases ? (await indexedDB.databases()).length : 0,
    caches: (await caches.keys()).length,
  }));
  expect(stored).toEqual({ local: 0, session: 0, cookies: '', idb: 0, caches: 0 });
});
