// Embedding and sharing: the postMessage handshake from a host on another origin (the copy-paste
// example of docs/EMBEDDING.md), message validation, ?url=, deep-link state, and the self-contained
// HTML report.
// openInGcscope and askGcscope are the host page's functions (e2e/host/embed-example.html).
/* global openInGcscope, askGcscope */
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, chooseFiles, lastJob } = require('./helpers');

const SITE = process.env.GCSCOPE_SITE_URL;
const HOST = process.env.GCSCOPE_HOST_URL;

test('a dashboard on another origin pings, posts a GC log and receives the CLI\'s report', async ({ page }) => {
  await page.goto(HOST + 'embed-example.html?site=' + encodeURIComponent(SITE));
  const log = fs.readFileSync(fixture('jvm/jdk17-g1.log'));
  const result = await page.evaluate(async (b64) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const progress = [];
    const frame = document.getElementById('gcscope');
    const report = await openInGcscope(frame, 'jdk17-g1.log', bytes.buffer, (d, t) => progress.push([d, t]));
    return { report, progress, transferred: bytes.buffer.byteLength === 0 };
  }, log.toString('base64'));
  expect(result.transferred).toBe(true);  // the buffer was moved, not copied
  expect(result.progress.length).toBeGreaterThan(0);
  expect(result.progress[result.progress.length - 1]).toEqual([log.length, log.length]);
  // Same reports as the native CLI on the same file (paths differ: the CLI sees the full path).
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['analyze', fixture('jvm/jdk17-g1.log')], { maxBuffer: 1 << 28 }).toString());
  const strip = (r) => JSON.parse(JSON.stringify(r.reports).split(fixture('jvm/jdk17-g1.log')).join('jdk17-g1.log'));
  expect(result.report.reports).toEqual(strip(cli));
  expect(result.report.inputs[0].format).toBe('jvm-gc-log');
  // The frame shows the result too.
  const frame = page.frameLocator('#gcscope');
  await expect(frame.locator('.job .job-status')).toHaveText('Done');
  await expect(frame.locator('.job .badge').first()).toHaveText('JVM GC log');
  await expect(frame.locator('header.top')).toBeHidden();
});

test('a dashboard on another origin asks the engine the questions gcscope query answers', async ({ page }) => {
  await page.goto(HOST + 'embed-example.html?site=' + encodeURIComponent(SITE));
  const folded = 'main;a;b 3\nmain;a 1\nmain;c 2\n';
  const other = 'main;a;b 1\nmain;c 5\n';
  const answers = await page.evaluate(async (one) => {
    const frame = document.getElementById('gcscope');
    const buf = (text) => new TextEncoder().encode(text).buffer;
    await openInGcscope(frame, 'a.folded', buf(one));
    const reports = await askGcscope(frame, 'session.reports', {});
    const side = await askGcscope(frame, 'compare.side', {});
    const unknown = await askGcscope(frame, 'no.such.method', {}).catch((e) => e.message);
    const noJob = await askGcscope(frame, 'session.reports', {}, 'nope').catch((e) => e.message);
    return { reports, side, unknown, noJob };
  }, folded);
  expect(answers.reports).toEqual([{ report: 0, format: 'folded-stacks', title: 'Folded stacks', inputs: ['a.folded'], methods: answers.reports[0].methods, compare_family: 'tracing' }]);
  expect(answers.unknown).toContain("no report of this analysis answers 'no.such.method'");
  expect(answers.noJob).toContain('no opened job "nope"');
  // The same comparison as the CLI's `gcscope compare`, from the side the frame's engine gave.
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'gcscope-embed-'));
  fs.writeFileSync(path.join(dir, 'a.folded'), folded);
  fs.writeFileSync(path.join(dir, 'b.folded'), other);
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['compare', path.join(dir, 'a.folded'), path.join(dir, 'b.folded')]).toString());
  const viaFrame = await page.evaluate(async ([two, side]) => {
    const frame = document.getElementById('gcscope');
    await openInGcscope(frame, 'b.folded', new TextEncoder().encode(two).buffer);
    return askGcscope(frame, 'compare.with', { other: side });
  }, [other, answers.side]);
  expect(viaFrame.stacks).toEqual(cli.compare.stacks);
  expect(viaFrame.stacks.rows.find((r) => r.stack === 'main;c')).toMatchObject({ a: 2, b: 5, delta: 3 });
});

test('invalid messages get a precise error; other windows are ignored', async ({ page }) => {
  await page.goto(HOST + 'embed-example.html?site=' + encodeURIComponent(SITE));
  const answer = await page.evaluate(async () => {
    const frame = document.getElementById('gcscope');
    const origin = new URL(frame.src).origin;
    const reply = new Promise((resolve) => window.addEventListener('message', (e) => { if (e.data && e.data.type === 'gcscope:error') resolve(e.data); }));
    const ping = setInterval(() => frame.contentWindow.postMessage({ type: 'gcscope:open', id: 'x', name: 'a.log', buffer: 'not a buffer' }, origin), 200);
    const r = await reply;
    clearInterval(ping);
    return r;
  });
  expect(answer.id).toBe('x');
  expect(answer.message).toContain('buffer must be an ArrayBuffer');

  // A format the engine has not registered: the engine's own refusal, naming the registered ones.
  const unknown = await page.evaluate(async () => {
    const frame = document.getElementById('gcscope');
    const reply = new Promise((resolve) => window.addEventListener('message', (e) => { if (e.data && e.data.type === 'gcscope:error' && e.data.id === 'y') resolve(e.data); }));
    const buffer = new TextEncoder().encode('[0.005s][info][gc] Using Serial\n').buffer;
    frame.contentWindow.postMessage({ type: 'gcscope:open', id: 'y', name: 'a.log', buffer, format: 'jvm' }, new URL(frame.src).origin, [buffer]);
    return reply;
  });
  expect(unknown.message).toMatch(/^unknown format 'jvm'; known formats: .*jvm-gc-log/);

  // The site opened as a top-level window by a page on another origin: that page is not its parent,
  // so its messages are ignored (no allow-list given).
  await page.goto(HOST);
  const ignored = await page.evaluate(async (site) => {
    const w = window.open(site, 'gcscope');
    await new Promise((r) => setTimeout(r, 1500));
    let answered = false;
    window.addEventListener('message', () => { answered = true; });
    for (let i = 0; i < 5; i++) { w.postMessage('PING', new URL(site).origin); await new Promise((r) => setTimeout(r, 200)); }
    w.close();
    return !answered;
  }, SITE);
  expect(ignored).toBe(true);
});

test('?url= loads a same-origin file, and explains refusals', async ({ page }) => {
  await page.goto('/?url=samples/jdk17-zgc.log');
  const job = await lastJob(page);
  await expect(job.locator('.badge').first()).toHaveText('JVM GC log');
  await page.goto('/?url=samples/no-such-file.log');
  await expect(page.locator('.notice .error')).toContainText('the server answered 404');
  await page.goto('/?url=' + encodeURIComponent(HOST + 'index.html'));
  await expect(page.locator('.notice .error')).toContainText('only fetches files from its own origin');
});

test('deep-link state survives a reload and back/forward', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => { GCSCOPE.state.set('range', '10,20', { push: true }); GCSCOPE.state.set('view', 'pauses', { push: true }); });
  await page.reload();
  expect(await page.evaluate(() => [GCSCOPE.state.get('range'), GCSCOPE.state.get('view')])).toEqual(['10,20', 'pauses']);
  await page.goBack();
  expect(await page.evaluate(() => GCSCOPE.state.get('view'))).toBe(null);
});

test('the saved HTML report opens offline as one file and shows the analysis', async ({ page, browser }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const job = await lastJob(page);
  const [download] = await Promise.all([page.waitForEvent('download'), job.locator('button', { hasText: 'Save as HTML report' }).click()]);
  expect(download.suggestedFilename()).toBe('jdk17-g1.log.gcscope.html');
  const file = path.join(fs.mkdtempSync(path.join(require('os').tmpdir(), 'gcscope-html-')), download.suggestedFilename());
  await download.saveAs(file);
  const size = fs.statSync(file).size;
  expect(size).toBeLessThan(2 * 1024 * 1024);
  const offline = await browser.newContext({ offline: true });
  const p = await offline.newPage();
  const requests = [];
  p.on('request', (r) => requests.push(r.url()));
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto('file://' + file);
  await expect(p.locator('.job-status')).toHaveText('Saved report');
  await expect(p.locator('table.inputs .badge').first()).toHaveText('JVM GC log');
  expect(errors).toEqual([]);
  expect(requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
  await offline.close();
});

test('the CLI\'s --html report is the same self-contained viewer', async ({ browser }) => {
  const out = path.join(fs.mkdtempSync(path.join(require('os').tmpdir(), 'gcscope-cli-html-')), 'report.html');
  execFileSync(path.join(ROOT, 'build/native/gcscope'), ['analyze', fixture('stackprof/fib-cpu-raw.dump'), fixture('jvm/jdk17-zgc.log'), '--html', out]);
  const offline = await browser.newContext({ offline: true });
  const p = await offline.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto('file://' + out);
  await expect(p.locator('table.inputs .badge')).toHaveText(['stackprof profile', 'JVM GC log']);
  await expect(p.locator('section.report')).toHaveCount(2);
  expect(errors).toEqual([]);
  await offline.close();
});

test('?view= opens one panel; in embed mode the others are hidden', async ({ page }) => {
  await page.goto('/?embed=1&view=findings&sw=0');
  await expect(page.locator('header.top')).toBeHidden();
  await page.locator('#file-input').setInputFiles(fixture('jvm/jdk17-g1-leak.log'));
  const job = await lastJob(page);
  const findings = job.locator('details.gs-section', { has: page.locator('summary', { hasText: /^Findings/ }) });
  await expect(findings).toBeVisible();
  await expect(findings).toHaveAttribute('open', '');
  await expect(job.locator('details.gs-section', { has: page.locator('summary', { hasText: /^Causes/ }) })).toBeHidden();
});
