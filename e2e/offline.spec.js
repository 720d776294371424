// The service worker (web/sw.js) and builds: once visited, the site works with no server at all; a new
// build (a changed build id in sw.js, new files) is picked up, and is installed only with its own
// files; a page left open across a deployment keeps its own build's workers, or is asked to reload
// when they are gone. The site is served here from a copy of build/wasm/site by a server this test
// starts and stops, so "offline" is real (the server is gone), not only the browser's offline
// emulation, and a deployment is a real change of the served files.
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, chooseFiles, lastJob } = require('./helpers');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

async function startServer(root, port, serverArgs = []) {
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--root', root, '--port', String(port), ...serverArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => { if (String(d).includes('serving')) resolve(); });
    proc.on('exit', (code) => reject(new Error('server exited ' + code)));
  });
  return proc;
}
function stopServer(proc) {
  return new Promise((resolve) => { if (proc.exitCode !== null || proc.signalCode !== null) { resolve(); return; } proc.on('exit', () => resolve()); proc.kill(); });
}

// Waits until a service worker controls the page; returns the cache names the site holds.
async function controlled(page) {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
    return (await caches.keys()).filter((k) => k.startsWith('gcscope'));
  });
}

// The files a page asks for under its build's name (see web/sw.js), sorted.
const VERSIONED = ['app.bundle.js', 'gcscope.js', 'gcscope.wasm', 'index.html', 'reader.js', 'report-template.html', 'style.css',
  'vendor/uPlot.iife.min.js', 'vendor/uPlot.min.css', 'worker.js'];
const sha1Of = (site, file) => crypto.createHash('sha1').update(fs.readFileSync(path.join(site, file))).digest('hex');

// A copy of the built site that a test may change and serve, with what the build filled into its
// service worker: the build id and the SHA-1 of each file asked for under the build's name.
function copySite() {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sw-'));
  fs.cpSync(path.join(ROOT, 'build/wasm/site'), site, { recursive: true });
  const swText = fs.readFileSync(path.join(site, 'sw.js'), 'utf8');
  const buildId = (/const BUILD = '([0-9a-f]{40})'/.exec(swText) || [])[1];
  expect(buildId, 'the build replaced __BUILD_ID__').toBeTruthy();
  const sha1 = {};
  for (const m of swText.matchAll(/'([\w./-]+)': '([0-9a-f]{40})'/g)) sha1[m[1]] = m[2];
  expect(Object.keys(sha1).sort(), 'the build listed the versioned files').toEqual(VERSIONED);
  for (const [file, sum] of Object.entries(sha1)) expect(sum, file).toBe(sha1Of(site, file));
  expect(fs.readFileSync(path.join(site, 'worker.js'), 'utf8')).toContain(`const BUILD = '${buildId}'`);
  return { site, swText, buildId, sha1 };
}

// Deploys another build over a site copy, as the build would make it: the new build id in the page's
// script, the analysis worker and the service worker, and the versioned files' new SHA-1s in the
// service worker.
// edit(rewrite), if given, changes more files the same way.
function deployBuild(site, oldId, newId, edit) {
  const rewrite = (file, f) => fs.writeFileSync(path.join(site, file), f(fs.readFileSync(path.join(site, file), 'utf8')));
  const before = Object.fromEntries(VERSIONED.map((f) => [f, sha1Of(site, f)]));
  if (edit) edit(rewrite);
  for (const file of ['app.bundle.js', 'worker.js']) {
    rewrite(file, (text) => { expect(text).toContain(oldId); return text.split(oldId).join(newId); });
  }
  // The glue and the reader differ between builds too (a comment naming the build), so a test can tell
  // whose copy it was given.
  for (const file of ['gcscope.js', 'reader.js']) rewrite(file, (text) => text + `\n// build ${newId}\n`);
  rewrite('sw.js', (text) => {
    let out = text.split(oldId).join(newId);
    for (const f of VERSIONED) {
      expect(out).toContain(`'${f}': '${before[f]}'`);
      out = out.replace(`'${f}': '${before[f]}'`, `'${f}': '${sha1Of(site, f)}'`);
    }
    return out;
  });
}

// A second deployment of the site under beta/ of the same server, of a build of its own; returns
// its build id.
function deployBeta(site, buildId) {
  const entries = fs.readdirSync(site);
  const beta = path.join(site, 'beta');
  fs.mkdirSync(beta);
  for (const e of entries) fs.cpSync(path.join(site, e), path.join(beta, e), { recursive: true });
  const betaId = '5'.repeat(40);
  deployBuild(beta, buildId, betaId);
  return betaId;
}

// Moves the server's copies of the files asked for under a build's name away (a job that still
// reached the server for one would fail) or back.
function serverVersionedFiles(site, away) {
  for (const f of ['worker.js', 'reader.js', 'gcscope.js', 'gcscope.wasm']) {
    const p = path.join(site, f);
    if (away) fs.renameSync(p, p + '.away'); else fs.renameSync(p + '.away', p);
  }
}

// Registers the site's service worker from a page that does not itself (?sw=0), or updates it, and
// waits until the worker it installs is activated or redundant (a failed install); returns that state.
function register(page) {
  return page.evaluate(async () => {
    // Both promises resolve once the new worker's install has begun (it is then reg.installing).
    const before = await navigator.serviceWorker.getRegistration();
    const reg = before ? (await before.update(), before) : await navigator.serviceWorker.register(GCSCOPE.scriptURL('sw.js'));
    const w = reg.installing || reg.waiting || reg.active;
    const done = () => w.state === 'activated' || w.state === 'redundant';
    if (!done()) await new Promise((r) => w.addEventListener('statechange', () => { if (done()) r(); }));
    return w.state;
  });
}

// Runs one job on the page; returns its card.
async function analyze(page, file, options) {
  await chooseFiles(page, [fixture(file)]);
  return lastJob(page, options);
}

// Opens address on page and checks that it is of the given build and that a job runs there on that
// build's worker (used after the server is stopped and the browser set offline).
async function opensAndAnalyzes(page, address, build, file) {
  await page.goto(address);
  expect(await page.evaluate(() => GCSCOPE.build)).toBe(build);
  const job = await analyze(page, file);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-worker-build', build);
}

// Waits until the newest service worker has taken over (none installing or waiting); returns the
// cache names the site holds then.
function updated(page) {
  return page.evaluate(async () => {
    const settled = (reg) => reg && reg.active && reg.active.state === 'activated' && !reg.installing && !reg.waiting;
    const reg = await navigator.serviceWorker.getRegistration();
    if (!settled(reg)) return [];
    const active = reg.active;
    const names = (await caches.keys()).filter((k) => k.startsWith('gcscope'));
    // A new build's cache exists from the start of its install: if an update began while the names
    // were read, they are not the settled state. (Once in CI they passed for it; the test deployed
    // the next build at once, and the half-installed one failed its SHA-1 check and was dropped.)
    return settled(reg) && reg.active === active ? names : [];
  });
}

// The name of a build's cache for the site served at the root (see PREFIX in web/sw.js).
const cacheOf = (buildId, scopePath = '/') => `gcscope:${scopePath}:${buildId}`;

// The URLs a cache holds.
function cachedUrls(page, buildId, scopePath) {
  return page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), cacheOf(buildId, scopePath));
}

// Whether the build's cache holds its install marker (written last by a complete install, see
// precache in web/sw.js).
function installComplete(page, buildId, scopePath = '/') {
  return page.evaluate(async ({ name, marker }) => (await caches.has(name))
    && !!(await (await caches.open(name)).match(new URL(marker, location.origin))),
  { name: cacheOf(buildId, scopePath), marker: scopePath + 'gcscope-install-complete' });
}

// A browser of these tests' own: in the browser the other spec files use (their pages on the same
// 127.0.0.1 site, so sharing its renderer processes), a new build's service worker can stay
// "installed" for over 30 s with no event of the old one pending.
let browser;
test.beforeAll(async ({ playwright }, testInfo) => {
  browser = await playwright.chromium.launch(testInfo.project.use.launchOptions);
});
test.afterAll(async () => { if (browser) await browser.close(); });

// A copy of the built site (copySite) served on a free port, with a browser context and a page of the
// test's own; body({...copy, url, context, page, stop, start}) runs with it (stop and start the
// server), and the server, the context and the copy are always cleaned up. serverArgs: more options
// for scripts/serve.mjs.
async function withServedSite(body, serverArgs = []) {
  const copy = copySite();
  const port = await freePort();
  let server = await startServer(copy.site, port, serverArgs);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await body({
      ...copy, url: `http://127.0.0.1:${port}/`, context, page,
      stop: () => stopServer(server),
      start: async () => { server = await startServer(copy.site, port, serverArgs); },
    });
  } finally {
    await context.close();
    await stopServer(server);
    fs.rmSync(copy.site, { recursive: true, force: true });
  }
}

test('once visited, the site works offline; a new build replaces the cached one', () => withServedSite(async ({ site, buildId, url, context, page, stop, start }) => {
  await page.goto(url);
  expect(await controlled(page)).toEqual([cacheOf(buildId)]);
  // Open a sample while online (samples are cached the first time they are opened).
  await page.locator('#samples button.sample[data-sample="jdk17-zgc.log"]').click();
  await expect((await lastJob(page)).locator('.job-status')).toHaveText('Done');
  // A file loaded with ?url= is user data (here a log stored beside the site): fetched, analyzed,
  // never stored.
  fs.mkdirSync(path.join(site, 'logs'));
  fs.copyFileSync(fixture('jvm/jdk17-g1-leak.log'), path.join(site, 'logs/user.log'));
  await page.goto(url + '?url=logs/user.log');
  await expect((await lastJob(page)).locator('.job-status')).toHaveText('Done');
  const cached = (await cachedUrls(page, buildId)).map((u) => new URL(u).pathname);
  for (const p of ['/', '/index.html', '/app.bundle.js', '/worker.js', '/reader.js', '/gcscope.js', '/gcscope.wasm', '/samples/samples.json', '/samples/jdk17-zgc.log']) {
    expect(cached).toContain(p);
  }
  expect(cached).not.toContain('/logs/user.log');
  // The wasm module is cached under its build's URL and served from the cache first, even online:
  // with the server's copy gone, a job still runs on the page's compiled module.
  // So are the module's glue, the two workers and what a saved report inlines (see sw.js).
  const urls = await cachedUrls(page, buildId);
  for (const file of VERSIONED) expect(urls).toContain(`${url}${file}?v=${buildId}`);
  fs.renameSync(path.join(site, 'gcscope.wasm'), path.join(site, 'gcscope.wasm.away'));
  await page.goto(url + '?warmup=0');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const online = await lastJob(page);
  await expect(online.locator('.job-status')).toHaveText('Done');
  await expect(online).toHaveAttribute('data-wasm-module', 'shared');
  fs.renameSync(path.join(site, 'gcscope.wasm.away'), path.join(site, 'gcscope.wasm'));
  expect(cached.filter((p) => !/^\/(index\.html|style\.css|app\.bundle\.js|worker\.js|reader\.js|gcscope\.(js|wasm)|favicon\.png|report-template\.html|vendor\/.*|samples\/.*|gcscope-install-complete)?$/.test(p))).toEqual([]);

  // Offline: the server is gone and the browser is offline.
  await stop();
  await context.setOffline(true);
  await page.goto(url + '?embed=0');
  await expect(page.locator('#samples button.sample').first()).toBeVisible();
  // A user's file is analyzed (worker, module and wasm come from the cache).
  await chooseFiles(page, [fixture('stackprof/fib-cpu-raw.dump')]);
  let job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('section.report[data-format="stackprof"]')).toBeVisible();
  await expect(job).toHaveAttribute('data-wasm-module', 'shared');  // the page compiled the cached module
  // The sample opened before is there too.
  await page.locator('#samples button.sample[data-sample="jdk17-zgc.log"]').click();
  job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job.locator('.badge').first()).toHaveText('JVM GC log');

  // A new build is deployed: another build id (in the service worker and the page's script, which
  // names the module's URL after it) and a changed page. (One update per test: a second update in
  // the same context sometimes stayed "installed" for over 30 s in Debian's Chromium, with no event
  // of the old worker pending.)
  const newId = 'f'.repeat(40);
  expect(fs.readFileSync(path.join(site, 'app.bundle.js'), 'utf8')).toContain(`GCSCOPE.build = "${buildId}"`);
  deployBuild(site, buildId, newId, (rewrite) => rewrite('index.html', (text) => text.replace('<footer class="foot">', '<footer class="foot" data-build="second">')));
  await context.setOffline(false);
  await start();
  await page.goto(url);
  await expect(page.locator('footer.foot')).toHaveAttribute('data-build', 'second');  // network first
  // The page asks for an update on every visit; the new worker installs and takes over. The old
  // build's cache is kept beside the new one (a page of that build may still be open; see the test
  // below), and a build older than that is dropped (the last test).
  await expect.poll(() => updated(page), { timeout: 30_000 }).toEqual([cacheOf(buildId), cacheOf(newId)]);
  // The new build's module is cached under the new build's URL.
  expect(await cachedUrls(page, newId)).toEqual(expect.arrayContaining([`${url}gcscope.wasm?v=${newId}`, `${url}worker.js?v=${newId}`]));
  // Offline again: the new build's page comes from the cache, and the page compiles the new build's
  // module from there.
  await stop();
  await context.setOffline(true);
  await page.goto(url + '?warmup=0');
  await expect(page.locator('footer.foot')).toHaveAttribute('data-build', 'second');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-wasm-module', 'shared');
  await expect(job).toHaveAttribute('data-worker-build', newId);
}));

// A deployment half uploaded, or a CDN edge behind: the server hands out another gcscope.wasm than the
// one the build was made with (here the service worker is told to expect another SHA-1). That build
// is not installed, and nothing of it is cached. Over an installed build, the installed one stays in
// charge, its cache untouched, and its pages work offline.
test('a build whose files on the server are not its own is not installed', () => withServedSite(async ({ site, swText, buildId, sha1, url, context, page, stop }) => {
  const gcscopeCaches = () => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('gcscope')));
  await page.goto(url + '?sw=0&warmup=0');
  fs.writeFileSync(path.join(site, 'sw.js'), swText.split(sha1['gcscope.wasm']).join('0'.repeat(40)));
  expect(await register(page)).toBe('redundant');
  expect(await gcscopeCaches()).toEqual([]);
  await expect((await analyze(page, 'jvm/jdk17-g1.log')).locator('.job-status')).toHaveText('Done');  // online, all is well
  // The whole upload done: the build installs.
  fs.writeFileSync(path.join(site, 'sw.js'), swText);
  expect(await register(page)).toBe('activated');
  expect(await gcscopeCaches()).toEqual([cacheOf(buildId)]);
  // The next build, half uploaded: its worker.js is there, its module not yet.
  const newId = 'b'.repeat(40);
  deployBuild(site, buildId, newId);
  const newSw = fs.readFileSync(path.join(site, 'sw.js'), 'utf8');
  fs.writeFileSync(path.join(site, 'sw.js'), newSw.split(sha1['gcscope.wasm']).join('0'.repeat(40)));
  expect(await register(page)).toBe('redundant');
  expect(await gcscopeCaches()).toEqual([cacheOf(buildId)]);
  expect(await cachedUrls(page, buildId)).toContain(`${url}worker.js?v=${buildId}`);
  // An online visit meanwhile gets the half-uploaded build's page from the server; none of its files
  // may end up in the installed build's cache.
  await page.goto(url + '?warmup=0');
  expect(await page.evaluate(() => GCSCOPE.build)).toBe(newId);
  // Offline, the first build's page still analyzes with the first build's files.
  await stop();
  await context.setOffline(true);
  await opensAndAnalyzes(page, url + '?warmup=0', buildId, 'stackprof/fib-cpu-raw.dump');
}));

// A page stays open while a new build is deployed and another tab picks it up: the new service worker
// takes the old page over at once. The old page's next jobs still run on workers of its own build
// (worker.js?v=ITS_BUILD and the rest from its build's cache, kept beside the new one), online and
// offline. One more build, and the first build's cache is dropped: its page is then asked to reload.
// Each check is made on the second job after a change: a job takes the spare worker that the job
// before started when it ended, which may predate the change.
test('a page opened before a new build took over keeps analyzing with its own build', () => withServedSite(async ({ site, buildId, url, context, page: oldPage, stop, start }) => {
  const twoJobs = async (page, file) => { await analyze(page, file); return analyze(page, file); };
  await oldPage.goto(url + '?warmup=0');
  expect(await controlled(oldPage)).toEqual([cacheOf(buildId)]);
  await expect(await analyze(oldPage, 'jvm/jdk17-g1.log')).toHaveAttribute('data-worker-build', buildId);

  // A cache left by an install cut short (no install marker), newer than the first build's: the
  // update keeps the complete one, for the first build's page, and drops this one.
  const partial = '9'.repeat(40);
  await oldPage.evaluate(async ([name, id]) => { await (await caches.open(name)).put('worker.js?v=' + id, new Response('')); }, [cacheOf(partial), partial]);
  const newId = 'e'.repeat(40);
  deployBuild(site, buildId, newId);
  const newPage = await context.newPage();
  await newPage.goto(url + '?warmup=0');
  await expect.poll(() => updated(newPage), { timeout: 30_000 }).toEqual([cacheOf(buildId), cacheOf(newId)]);
  expect(await oldPage.evaluate(() => GCSCOPE.build)).toBe(buildId);
  expect(await newPage.evaluate(() => GCSCOPE.build)).toBe(newId);
  // The server's workers, glue and module are moved away: whatever a job gets, it gets from a cache.
  serverVersionedFiles(site, true);
  const glue = (page) => page.evaluate(() => fetch('gcscope.js?v=' + GCSCOPE.build).then(async (r) => ({ ok: r.ok, text: await r.text() })));
  const oldGlue = await glue(oldPage);
  const newGlue = await glue(newPage);
  expect(oldGlue.ok && newGlue.ok).toBe(true);
  expect(oldGlue.text).toContain('createGcscope');
  expect(oldGlue.text).not.toContain('// build ');
  expect(newGlue.text).toContain('createGcscope');
  expect(newGlue.text).toContain(`// build ${newId}`);
  let job = await twoJobs(oldPage, 'stackprof/fib-cpu-raw.dump');
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-worker-build', buildId);
  await expect(job.locator('section.report[data-format="stackprof"]')).toBeVisible();
  job = await twoJobs(newPage, 'stackprof/fib-cpu-raw.dump');
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-worker-build', newId);
  // Offline too.
  await stop();
  await context.setOffline(true);
  job = await twoJobs(oldPage, 'jvm/jdk17-g1.log');
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-worker-build', buildId);
  await expect(oldPage.locator('.job .job-status', { hasText: 'Done' })).toHaveCount(5);
  // Its HTML export inlines its own build's viewer.
  const [download] = await Promise.all([oldPage.waitForEvent('download'), job.locator('button', { hasText: 'Save as HTML report' }).click()]);
  expect(fs.readFileSync(await download.path(), 'utf8')).toContain(`GCSCOPE.build = "${buildId}";`);

  // A third build: the first build's cache is dropped, the second's kept.
  await context.setOffline(false);
  serverVersionedFiles(site, false);
  const thirdId = 'd'.repeat(40);
  deployBuild(site, newId, thirdId);
  await start();
  await newPage.goto(url + '?warmup=0');
  await expect.poll(() => updated(newPage), { timeout: 30_000 }).toEqual([cacheOf(newId), cacheOf(thirdId)]);
  // The first build's page now gets the server's worker.js, of the third build, online; offline, the
  // third build's cached copy: either way, that worker asks it to reload.
  job = await twoJobs(oldPage, 'jvm/jdk17-g1.log');
  await expect(job).toHaveAttribute('data-stale', 'true');
  // Its export would now get the server's viewer, of another build: refused, with the reason.
  await oldPage.locator('.job').last().locator('button', { hasText: 'Save as HTML report' }).click();
  await expect(oldPage.locator('.job.notice .error').first()).toContainText(`this page's build (${buildId.slice(0, 12)}) is no longer available`, { timeout: 30_000 });
  await stop();
  await context.setOffline(true);
  job = await twoJobs(oldPage, 'jvm/jdk17-g1.log');
  await expect(job).toHaveAttribute('data-stale', 'true');
  await expect(job.locator('.job-stale .error')).toContainText(`this page (build ${buildId.slice(0, 12)}) and its analysis worker (build ${thirdId.slice(0, 12)})`);
  await expect(oldPage.locator('.job').last().locator('section.report[data-format="jvm-gc-log"]')).toBeVisible();  // still shown
}));

// With no service worker (?sw=0 here; also a first visit, or a browser without one), a page whose
// build is no longer the server's gets the new worker.js from the server: that worker refuses the job
// and asks for a reload, and what the page showed stays. After the reload, the page is of the new build.
test('a page whose build is no longer on the server is asked to reload, and keeps what it showed', () => withServedSite(async ({ site, buildId, url, page }) => {
  await page.goto(url + '?sw=0&warmup=0');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  const first = await lastJob(page);
  await expect(first.locator('.job-status')).toHaveText('Done');
  await expect(first).toHaveAttribute('data-worker-build', buildId);
  const newId = 'c'.repeat(40);
  deployBuild(site, buildId, newId);
  // The spare worker started when the first job ended may have been fetched before the deployment
  // (a job takes it): then it runs the next job, and the job after that starts a worker from the server.
  await chooseFiles(page, [fixture('stackprof/fib-cpu-raw.dump')]);
  let stale = await lastJob(page);
  if (await stale.getAttribute('data-stale') === null) {
    await expect(stale).toHaveAttribute('data-worker-build', buildId);
    await chooseFiles(page, [fixture('stackprof/fib-cpu-raw.dump')]);
    stale = await lastJob(page);
  }
  await expect(stale.locator('.job-status')).toHaveText('Failed');
  await expect(stale).toHaveAttribute('data-stale', 'true');
  await expect(stale.locator('.job-stale .error')).toContainText(`this page (build ${buildId.slice(0, 12)}) and its analysis worker (build ${newId.slice(0, 12)})`);
  // The first job's report is still on the page.
  await expect(page.locator('.job').last().locator('section.report[data-format="jvm-gc-log"]')).toBeVisible();
  await Promise.all([page.waitForEvent('load'), stale.locator('button.job-reload').click()]);
  expect(await page.evaluate(() => GCSCOPE.build)).toBe(newId);
  await chooseFiles(page, [fixture('stackprof/fib-cpu-raw.dump')]);
  const after = await lastJob(page);
  await expect(after.locator('.job-status')).toHaveText('Done');
  await expect(after).toHaveAttribute('data-worker-build', newId);
}));

// Offline with nothing cached (no service worker here): a worker's script cannot be loaded. The spare
// worker, started when a job ends, fails before any job listens to it; a job must not take it and wait
// forever, but fail and say so.
test('a job whose worker cannot be loaded fails instead of waiting', () => withServedSite(async ({ buildId, url, context, page, stop }) => {
  await page.goto(url + '?sw=0&warmup=0');
  // The page's spare worker, started online, has loaded its glue and the page its module; then the
  // network goes.
  await expect.poll(async () => {
    const loaded = await Promise.all(page.workers().map((w) => w.evaluate(() => typeof createGcscope === 'function').catch(() => false)));
    return loaded.includes(true);
  }).toBe(true);
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('gcscope.wasm?v=')))).toBe(true);
  await stop();
  await context.setOffline(true);
  const first = await analyze(page, 'jvm/jdk17-g1.log');
  await expect(first.locator('.job-status')).toHaveText('Done');
  await expect(first).toHaveAttribute('data-worker-build', buildId);
  // The spare started when it ended could not load worker.js, before any job listened to it.
  await expect(page.locator('html')).toHaveAttribute('data-spare-worker', 'failed');
  const second = await analyze(page, 'jvm/jdk17-g1.log', { timeout: 15_000 });
  await expect(second.locator('.job-status')).toHaveText('Failed');
  await expect(second.locator('.error')).toContainText('The analysis worker stopped');
  await expect(page.locator('.job').last().locator('section.report[data-format="jvm-gc-log"]')).toBeVisible();  // the first job's
}));

// An embedding host learns from the error itself that the frame must be reloaded: gcscope:error
// carries stale: true when the frame's page and its worker are of different builds.
test('an embedding host is told when the frame is of an older build than the server', () => withServedSite(async ({ site, buildId, url, page }) => {
  fs.writeFileSync(path.join(site, 'host.html'), `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="f" src="index.html?embed=1&sw=0&warmup=0"></iframe>
<script>
  window.replies = [];
  window.addEventListener('message', (e) => { if (e.source === document.getElementById('f').contentWindow) window.replies.push(e.data); });
  window.open1 = (id) => document.getElementById('f').contentWindow.postMessage(
    { type: 'gcscope:open', id, name: 'g1.log', buffer: new TextEncoder().encode('[0.010s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.456ms\\n').buffer }, '*');
</script>`);
  const reply = (id) => page.evaluate((i) => window.replies.find((r) => r && r.id === i && (r.type === 'gcscope:result' || r.type === 'gcscope:error')) || null, id);
  await page.goto(url + 'host.html');
  await expect.poll(() => page.frame({ url: /embed=1/ }).evaluate(() => !!(window.GCSCOPE && GCSCOPE.build))).toBe(true);
  await page.evaluate(() => window.open1('before'));
  await expect.poll(() => reply('before')).toMatchObject({ type: 'gcscope:result' });
  deployBuild(site, buildId, 'a'.repeat(40));
  // The first job after the deployment may take the spare worker started before it.
  await page.evaluate(() => window.open1('after-1'));
  await expect.poll(() => reply('after-1')).not.toBeNull();
  await page.evaluate(() => window.open1('after-2'));
  await expect.poll(() => reply('after-2')).not.toBeNull();
  const after = await reply('after-2');
  expect(after).toMatchObject({ type: 'gcscope:error', stale: true });
  expect(after.message).toContain(`this page (build ${buildId.slice(0, 12)})`);
}));

// Two deployments on one origin, one below the other (/ and /beta/, like /gcscope/ and /gcscope/beta/
// on a project site): each one's updates keep and drop only its own caches (their names hold the
// path; see PREFIX in web/sw.js).
test('two deployments on one origin keep their caches apart', () => withServedSite(async ({ site, buildId, url, context, page, stop }) => {
  const betaId = deployBeta(site, buildId);
  const betaCache = cacheOf(betaId, '/beta/');
  const sortedCaches = async (p) => (await updated(p)).sort();
  await page.goto(url + '?warmup=0');
  expect(await controlled(page)).toEqual([cacheOf(buildId)]);
  const betaPage = await context.newPage();
  await betaPage.goto(url + 'beta/?warmup=0');
  // The beta's own service worker takes its page over from the root's (whose scope holds /beta/ too).
  await expect.poll(() => betaPage.evaluate(() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL), { timeout: 30_000 }).toBe(url + 'beta/sw.js');
  await expect.poll(() => sortedCaches(betaPage), { timeout: 30_000 }).toEqual([cacheOf(buildId), betaCache].sort());
  // Two more builds at the root, each picked up by a page of its own: the root's older cache goes as
  // always (all but the one installed last before), the beta's stays.
  const secondId = '6'.repeat(40);
  const thirdId = '7'.repeat(40);
  deployBuild(site, buildId, secondId);
  const second = await context.newPage();
  await second.goto(url + '?warmup=0');
  await expect.poll(() => sortedCaches(second), { timeout: 30_000 }).toEqual([cacheOf(buildId), cacheOf(secondId), betaCache].sort());
  // The second build's install is over before the third is deployed (an install whose files change
  // on the server meanwhile fails, and its cache goes).
  await expect.poll(() => installComplete(second, secondId), { timeout: 30_000 }).toBe(true);
  deployBuild(site, secondId, thirdId);
  const third = await context.newPage();
  await third.goto(url + '?warmup=0');
  await expect.poll(() => sortedCaches(third), { timeout: 30_000 }).toEqual([cacheOf(secondId), cacheOf(thirdId), betaCache].sort());
  expect(await cachedUrls(third, betaId, '/beta/')).toContain(`${url}beta/worker.js?v=${betaId}`);
  // Offline, the beta opens and analyzes with its own build.
  await stop();
  await context.setOffline(true);
  await opensAndAnalyzes(betaPage, url + 'beta/?warmup=0', betaId, 'jvm/jdk17-g1.log');
}));

// A host that redirects /index.html to / (the query kept), as some do: the install stores the page's
// plain copies as fresh responses, so offline both addresses open the page (a navigation refuses a
// redirected response) and a file is analyzed.
test('offline, the page opens from a host that redirects index.html to /', () => withServedSite(async ({ buildId, url, context, page, stop }) => {
  await page.goto(url + 'index.html?warmup=0');
  expect(page.url()).toBe(url + '?warmup=0');  // the server redirected
  expect(await controlled(page)).toEqual([cacheOf(buildId)]);
  await stop();
  await context.setOffline(true);
  for (const address of [url + 'index.html?warmup=0', url + '?embed=0', url + 'index.html']) {
    await page.goto(address);
    await expect(page.locator('#samples button.sample').first()).toBeVisible();
  }
  const job = await analyze(page, 'jvm/jdk17-g1.log');
  await expect(job.locator('.job-status')).toHaveText('Done');
  await expect(job).toHaveAttribute('data-worker-build', buildId);
}, ['--redirect-index']));
