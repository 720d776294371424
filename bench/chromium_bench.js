// Wasm in a Chromium Web Worker, driven by Playwright: the time from handing the file to the page's
// picker to the report being rendered, to the first chart canvas painted, the worker's own time (from
// the job's message to the report text: reading, parsing, writing the report) and the worker's wasm heap;
// for the first file after opening the page (top-level fields), the next one (`warm`), and the first
// file on a page that was left idle until it had warmed up on its samples (`idle`, see startWarmUp in
// web/app.js; `warm_up_ms` is how long that warming took). With GCSCOPE_BENCH_RETURNING=1, also the
// first file of a returning visit (`returning`): a browser profile of its own visits the site twice
// with the service worker on, each time until the page has warmed up, then the browser is closed and
// started again on that profile for the measured visit (warm-up off). See compileModule in web/app.js.
//   node bench/chromium_bench.js SITE_DIR REPS FILE...   → one JSON line per file
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('@playwright/test');
const { serve, siteFiles } = require('./static_server');

const [siteDir, repsArg, ...files] = process.argv.slice(2);
const reps = Number(repsArg) || 3;

const median = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

// One job: the file handed to the page's picker, timed in the page up to the rendered report.
async function measureJob(page, file) {
  // Everything is timed in the page, and the end is noticed by a MutationObserver there:
  // Playwright's waitForSelector polls on every animation frame, which made the page paint
  // ~60 frames a second during the analysis (CPU taken from the worker on a 2-core machine).
  await page.evaluate(() => {
    const jobs = document.getElementById('jobs');
    const before = jobs.querySelectorAll('.job').length;
    const b = window.__bench = { start: 0, chart: 0, done: 0 };
    b.finished = new Promise((resolve) => {
      const mo = new MutationObserver(() => {
        const card = jobs.querySelectorAll('.job').length > before ? jobs.querySelector('.job') : null;
        if (!card) return;
        if (!b.chart && card.querySelector('.report canvas')) b.chart = performance.now();
        if (!b.done && card.querySelector('.job-status.done, .job-status.failed')) b.done = performance.now();
        if (b.done && (b.chart || card.querySelector('.job-status.failed'))) { mo.disconnect(); resolve(); }
      });
      mo.observe(jobs, { subtree: true, childList: true, attributes: true });
    });
    document.getElementById('file-input').addEventListener('change', () => { if (!b.start) b.start = performance.now(); }, { capture: true });
  });
  await page.locator('#file-input').setInputFiles(file);
  return page.evaluate(async () => {
    const b = window.__bench;
    await Promise.race([b.finished, new Promise((resolve) => setTimeout(resolve, 600000))]);
    const card = document.querySelector('.job');
    return { start: b.start, done: b.done, chart: b.chart, heap: Number(card.dataset.wasmHeapBytes || 0),
      worker: Number(card.dataset.analysisMs || 0), module: card.dataset.wasmModule || '' };
  });
}

const CHROMIUM = { executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] };

// The first file of a returning visit: two visits that warm up (the first registers the service
// worker, which caches the module; on the second the page compiles the module from that cache and
// V8 writes its code cache beside it once the warm-up has optimized enough), the browser closed in
// between, then a third visit on the same profile measures its first file.
async function measureReturningVisit(origin, file) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-bench-profile-'));
  const visit = async (url, body) => {
    const context = await chromium.launchPersistentContext(profile, CHROMIUM);
    try {
      const page = await context.newPage();
      await page.goto(url);
      return await body(page);
    } finally {
      await context.close();
    }
  };
  try {
    for (let i = 0; i < 2; i++) {
      await visit(origin, async (page) => {
        await page.waitForFunction(() => ['done', 'stopped'].includes(document.documentElement.dataset.warmUp), null, { timeout: 60000, polling: 100 });
        await page.evaluate(() => navigator.serviceWorker.ready);
        // V8 writes its code cache once no new code was optimized for 2 s (3 s after the warm-up was
        // not always enough here).
        await page.waitForTimeout(5000);
      });
    }
    return await visit(origin + '?warmup=0', async (page) => {
      const controlled = await page.evaluate(async () => { await navigator.serviceWorker.ready; return !!navigator.serviceWorker.controller; });
      if (!controlled) throw new Error(`${file}: the returning visit is not served by the service worker`);
      await page.waitForTimeout(1500);  // as a person would: the page settles before a file comes
      return measureJob(page, file);
    });
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

// Served as a host whose max-age has run out: every request is revalidated (no-cache, answered 304
// when unchanged). That is what a returning visit meets after a while, and it is what dropped V8's
// code cache for a module that came through the network (see compileModule in web/app.js).
serve(siteFiles(siteDir), { revalidate: true }).then(async (server) => {
  const origin = server.url;
  const base = origin + '?sw=0';
  const browser = await chromium.launch(CHROMIUM);
  try {
    for (const file of files) {
      // cold: the first file analyzed right after opening the page, with the page's warming off (V8
      // still compiles the hot functions with its optimizing tier during that job); warm: the next file
      // on the same page (its worker runs the page's module, already optimized); idle: the first file
      // on a fresh page that was left alone until its warming was done, as when a person opens the
      // page and then picks a file. Three jobs on two fresh pages per rep.
      const runs = { cold: [], warm: [], idle: [], returning: [] };
      const warmUps = [];
      for (let r = 0; r < reps; r++) {
        for (const plan of [{ url: base + '&warmup=0', kinds: ['cold', 'warm'] }, { url: base, kinds: ['idle'] }]) {
          const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          await page.goto(plan.url);
          if (plan.kinds[0] === 'idle') {
            // A site without samples never warms up: its "idle" figure is then a plain first file.
            await page.waitForFunction(() => ['done', 'stopped'].includes(document.documentElement.dataset.warmUp), null, { timeout: 60000, polling: 100 })
              .catch(() => console.error(`${file}: the page did not warm up within 60 s`));
            const ms = await page.evaluate(() => Number(document.documentElement.dataset.warmUpMs || 0));
            if (ms) warmUps.push(ms);
            await page.waitForTimeout(500);
          }
          for (const kind of plan.kinds) {
            runs[kind].push(await measureJob(page, file));
            // The next job starts on a quiet page (the charts of this one are drawn).
            await page.waitForTimeout(500);
          }
          await page.close();
        }
        if (process.env.GCSCOPE_BENCH_RETURNING === '1') runs.returning.push(await measureReturningVisit(origin, file));
      }
      const bytes = fs.statSync(file).size;
      const mbs = (ms) => (ms ? bytes / 1048576 / (ms / 1000) : null);
      const sum = (list) => {
        const ready = list.map((t) => t.done - t.start);
        const chart = list.filter((t) => t.chart).map((t) => t.chart - t.start);
        const worker = list.filter((t) => t.worker).map((t) => t.worker);
        const readyMs = median(ready), workerMs = worker.length ? median(worker) : null;
        return { report_ms: readyMs, report_ms_min: Math.min(...ready), report_ms_max: Math.max(...ready), mb_s: mbs(readyMs),
          first_chart_ms: chart.length ? median(chart) : null, worker_ms: workerMs,
          worker_ms_min: worker.length ? Math.min(...worker) : null, worker_ms_max: worker.length ? Math.max(...worker) : null,
          worker_mb_s: mbs(workerMs), wasm_heap_bytes: Math.max(...list.map((t) => t.heap)), modules: [...new Set(list.map((t) => t.module))] };
      };
      const cold = sum(runs.cold), warm = sum(runs.warm), idle = sum(runs.idle);
      const returning = runs.returning.length ? sum(runs.returning) : undefined;
      console.log(JSON.stringify({ file, bytes, reps, ...cold, warm, idle, returning, warm_up_ms: warmUps.length ? median(warmUps) : null }));
    }
  } finally {
    await browser.close();
    server.close();
  }
});
