// A JVM log's live session in Chromium, driven by Playwright: the time to the first report and the
// first chart, then zooms and event-table pages answered by the engine and rendered by the view, and
// the job's wasm memory (the worker's heap, which only grows: its size at the end is its peak).
//   zoom:  a range set as the page's deep link (#range=a,b, what back/forward and shared links do):
//          from the change to the view showing that range's KPIs and charts (.jvm-range data-shown,
//          set once jvm.summary and jvm.series are answered and drawn), and to the next frame after it.
//          The same ranges' two questions are then asked of the engine alone (engine_only).
//          Ranges: widths of 1/2, 1/10, 1/100 and 1/1000 of the log in turn, at seeded random places.
//   page:  the event table's "Next" (jvm.events, one page of the view's rows), from the click to the
//          new rows and to the next frame after them, over the whole log in time order, then sorted
//          by duration (the sort's own page first, apart). The table asks for the page after the one
//          shown once that one is drawn, so a turn mostly draws rows already answered; a click that
//          comes first waits for the answer. The same pages are then asked of the engine alone
//          (engine_only), 50 rows each, as the table asks them.
//   The part of the page a reader uses is in view: the charts while zooming, the table while paging
//   (sections out of view are not drawn, style.css).
//   node bench/jvm/zoom_bench.js SITE_DIR LOG [ZOOMS] [PAGES]   → one JSON object on stdout
const fs = require('fs');
const { chromium } = require('@playwright/test');
const { serve, siteFiles } = require('../static_server');

const [siteDir, logPath, zoomsArg, pagesArg] = process.argv.slice(2);
if (!siteDir || !logPath) {
  console.error('usage: node bench/jvm/zoom_bench.js SITE_DIR LOG [ZOOMS] [PAGES]');
  process.exit(2);
}
const ZOOMS = Number(zoomsArg) || 60;
const PAGES = Number(pagesArg) || 30;


// p-th percentile (nearest rank) of a list of milliseconds.
function pct(list, p) {
  const s = list.slice().sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil(p * s.length))) - 1];
}
const stats = (list) => ({ n: list.length, p50_ms: +pct(list, 0.5).toFixed(1), p95_ms: +pct(list, 0.95).toFixed(1), max_ms: +Math.max(...list).toFixed(1) });

// Seeded pseudo-random numbers (mulberry32), so each run asks the same ranges.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The job: the log handed to the page's picker, timed in the page to the report and its first chart.
async function openLog(page) {
  await page.evaluate(() => {
    const jobs = document.getElementById('jobs');
    const b = window.__bench = { start: 0, chart: 0, done: 0 };
    b.finished = new Promise((resolve) => {
      const mo = new MutationObserver(() => {
        const card = jobs.querySelector('.job');
        if (!card) return;
        if (!b.chart && card.querySelector('.report canvas')) b.chart = performance.now();
        if (!b.done && card.querySelector('.job-status.done, .job-status.failed')) b.done = performance.now();
        if (b.done && (b.chart || card.querySelector('.job-status.failed'))) { mo.disconnect(); resolve(); }
      });
      mo.observe(jobs, { subtree: true, childList: true, attributes: true });
    });
    document.getElementById('file-input').addEventListener('change', () => { if (!b.start) b.start = performance.now(); }, { capture: true });
  });
  await page.locator('#file-input').setInputFiles(logPath);
  return page.evaluate(async () => {
    const b = window.__bench;
    await b.finished;
    const card = document.querySelector('.job');
    const series = card.gcscopeDoc.reports[0].series;
    const t = series ? series.events.t : [];
    return { report_ms: b.done - b.start, first_chart_ms: b.chart - b.start, worker_ms: Number(card.dataset.analysisMs || 0),
      heap_after_report: Number(card.dataset.wasmHeapBytes || 0), events: card.gcscopeDoc.reports[0].events.count,
      pauses: card.gcscopeDoc.reports[0].pauses.count, t0: t[0], t1: t[t.length - 1] };
  });
}

// One zoom through the deep link; resolves with [to rendered, to the next frame] in ms.
function zoomOnce(page, a, b) {
  return page.evaluate(([lo, hi]) => new Promise((resolve, reject) => {
    const label = document.querySelector('.job .jvm-range');
    const want = `${Number(lo)},${Number(hi)}`;
    const start = performance.now();
    const timer = setTimeout(() => reject(new Error('no answer for ' + want + ': ' + label.textContent)), 120000);
    const mo = new MutationObserver(() => {
      if (label.dataset.shown !== want) return;
      mo.disconnect();
      const shown = performance.now();
      requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve([shown - start, performance.now() - start]); }, 0));
    });
    mo.observe(label, { attributes: true, attributeFilter: ['data-shown'] });
    location.hash = 'range=' + lo + ',' + hi;
  }), [a, b]);
}

// The same range's two questions asked of the engine directly (no rendering), as the view asks them
// (no pool series shown): message round trips to the worker and the C++ answers, in ms.
function askOnce(page, a, b, width) {
  return page.evaluate(async ([lo, hi, w]) => {
    const engine = document.querySelector('.job').gcscopeEngine;
    const start = performance.now();
    await Promise.all([engine.query('jvm.summary', { report: 0, t0: lo, t1: hi }), engine.query('jvm.series', { report: 0, t0: lo, t1: hi, width: w, pools: [] })]);
    return performance.now() - start;
  }, [Number(a), Number(b), width]);
}

// One click on a button of the event table; resolves with [ms until its rows changed, ms until the
// frame after that].
function tableClick(page, selector) {
  return page.evaluate((sel) => new Promise((resolve, reject) => {
    const box = document.querySelector('.job .jvm-events');
    const count = box.querySelector('.gs-table-count');
    const before = count.textContent + '|' + (box.querySelector('tbody tr') || {}).textContent;
    const start = performance.now();
    const timer = setTimeout(() => reject(new Error('no page after ' + sel)), 120000);
    const mo = new MutationObserver(() => {
      const now = count.textContent + '|' + (box.querySelector('tbody tr') || {}).textContent;
      if (now === before) return;
      mo.disconnect();
      const shown = performance.now();
      requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve([shown - start, performance.now() - start]); }, 0));
    });
    mo.observe(box, { subtree: true, childList: true, characterData: true });
    box.querySelector(sel).click();
  }), selector);
}

// Pages of the event table asked of the engine directly (no rendering), in ms each.
function askPages(page, pages, limit, sort) {
  return page.evaluate(async ([n, lim, by]) => {
    const engine = document.querySelector('.job').gcscopeEngine;
    const times = [];
    for (let i = 1; i <= n; i++) {
      const start = performance.now();
      await engine.query('jvm.events', { report: 0, offset: i * lim, limit: lim, sort: by, desc: by !== 't' });
      times.push(performance.now() - start);
    }
    return times;
  }, [pages, limit, sort]);
}

// The job's worker heap (worker.js keeps the session in `live`).
/* global live */
async function workerHeap(page) {
  for (const w of page.workers()) {
    const bytes = await w.evaluate(() => (typeof live !== 'undefined' && live ? live.M.HEAPU8.length : 0)).catch(() => 0);
    if (bytes) return bytes;
  }
  return 0;
}

(async () => {
  const site = await serve(siteFiles(siteDir));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(site.url + '?sw=0&warmup=0');
  await page.locator('#samples button.sample').first().waitFor();
  const out = { log: logPath, bytes: fs.statSync(logPath).size };
  Object.assign(out, await openLog(page));

  const rnd = random(29);
  const widths = [1 / 2, 1 / 10, 1 / 100, 1 / 1000];
  const span = out.t1 - out.t0, rendered = [], framed = [], asked = [];
  const inView = (selector) => page.evaluate((sel) => new Promise((resolve) => {
    document.querySelector(sel).scrollIntoView();
    requestAnimationFrame(() => setTimeout(resolve, 100));
  }), selector);
  await inView('.job .jvm-rangebar');
  const width = await page.evaluate(() => Math.round(document.querySelector('.job .jvm-heap-chart').clientWidth));
  for (let i = 0; i < ZOOMS; i++) {
    const w = span * widths[i % widths.length];
    const a = out.t0 + rnd() * (span - w);
    const [r, f] = await zoomOnce(page, a.toFixed(3), (a + w).toFixed(3));
    rendered.push(r);
    framed.push(f);
    asked.push(await askOnce(page, a.toFixed(3), (a + w).toFixed(3), width));
  }
  out.zoom = { rendered: stats(rendered), next_frame: stats(framed), engine_only: stats(asked), chart_width: width };
  // The engine's time by range width (a range's cost grows with the records in it).
  out.zoom.engine_only_by_width = Object.fromEntries(widths.map((w, k) => ['1/' + Math.round(1 / w), stats(asked.filter((_, i) => i % widths.length === k))]));
  await page.evaluate(() => { location.hash = ''; });
  await page.locator('.job .jvm-range', { hasText: 'Whole log' }).waitFor();
  await page.locator('.job .jvm-events .gs-table-count').filter({ hasText: /^1–/ }).waitFor();

  await inView('.job .jvm-events');
  const inTime = [];
  for (let i = 0; i < PAGES; i++) inTime.push(await tableClick(page, 'button.gs-next'));
  const [sortMs] = await tableClick(page, 'th:nth-child(6) button.gs-sort');  // Duration, longest first
  const sorted = [];
  for (let i = 0; i < PAGES; i++) sorted.push(await tableClick(page, 'button.gs-next'));
  // The page size, from the count of the page shown ("51–100 of N"), not the rows drawn in view.
  const limit = await page.evaluate(() => {
    const [a, b] = document.querySelector('.job .jvm-events .gs-table-count').textContent.split(' of ')[0].split('–').map((v) => Number(v.replace(/\D/g, '')));
    return b - a + 1;
  });
  const shownAndFramed = (runs) => ({ shown: stats(runs.map((r) => r[0])), next_frame: stats(runs.map((r) => r[1])) });
  out.events_page = {
    rows: limit, drawn: await page.evaluate(() => document.querySelectorAll('.job .jvm-events tbody tr').length),
    time_order: shownAndFramed(inTime), by_duration: shownAndFramed(sorted), sort_first_page_ms: +sortMs.toFixed(1),
    engine_only: { time_order: stats(await askPages(page, PAGES, limit, 't')), by_duration: stats(await askPages(page, PAGES, limit, 'duration_s')) },
  };
  out.heap_live_end = await workerHeap(page);
  console.log(JSON.stringify(out));
  await browser.close();
  site.close();
})().catch((err) => { console.error(err); process.exit(1); });
