// Wasm in a Chromium Web Worker, driven by Playwright: the time from handing the file to the page's
// picker to the report being rendered, to the first chart canvas painted, the worker's own time (from
// the job's message to the report text: reading, parsing, writing the report) and the worker's wasm heap;
// for the first file after opening the page (top-level fields) and the next one (`warm`).
//   node bench/chromium_bench.js SITE_DIR REPS FILE...   → one JSON line per file
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('@playwright/test');

const [siteDir, repsArg, pre, waitMs, ...files] = process.argv.slice(2);
const reps = Number(repsArg) || 3;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml' };

const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(path.resolve(siteDir), p);
  fs.readFile(f, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(f)] || 'application/octet-stream' });
    res.end(data);
  });
});

const median = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/?sw=0`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  try {
    for (const file of files) {
      // cold: the first file analyzed after opening the page (V8 still compiles the hot functions with
      // its optimizing tier during that job); warm: the next file on the same page (its worker runs
      // the page's module, already optimized). Two jobs per fresh page, `reps` pages.
      const runs = { cold: [], warm: [] };
      for (let r = 0; r < reps; r++) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(url);
        for (const kind of ['cold', 'warm']) {
          const input = kind === 'cold' ? pre : file;
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
          await page.locator('#file-input').setInputFiles(input);
          const t = await page.evaluate(async () => {
            const b = window.__bench;
            await Promise.race([b.finished, new Promise((resolve) => setTimeout(resolve, 600000))]);
            const card = document.querySelector('.job');
            return { start: b.start, done: b.done, chart: b.chart, heap: Number(card.dataset.wasmHeapBytes || 0),
              worker: Number(card.dataset.analysisMs || 0), module: card.dataset.wasmModule || '' };
          });
          runs[kind].push(t);
          // The next job starts on a quiet page (the charts of this one are drawn).
          await page.waitForTimeout(Number(waitMs));
        }
        await page.close();
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
      const cold = sum(runs.cold), warm = sum(runs.warm);
      console.log(JSON.stringify({ file, bytes, reps, ...cold, warm }));
    }
  } finally {
    await browser.close();
    server.close();
  }
});
