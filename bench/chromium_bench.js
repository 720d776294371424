// Wasm in a Chromium Web Worker, driven by Playwright: the time from handing the file to the page's
// picker to the report being rendered, to the first chart canvas painted, the worker's own time (from
// the job's message to the report text: reading, parsing, writing the report) and the worker's wasm heap.
//   node bench/chromium_bench.js SITE_DIR REPS FILE...   → one JSON line per file
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('@playwright/test');

const [siteDir, repsArg, ...files] = process.argv.slice(2);
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
      const ready = [], chart = [], heap = [], worker = [];
      for (let r = 0; r < reps; r++) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(url);
        await page.evaluate(() => {
          window.__bench = { start: 0, chart: 0 };
          new MutationObserver(() => {
            if (!window.__bench.chart && document.querySelector('.report canvas')) window.__bench.chart = performance.now();
          }).observe(document.getElementById('jobs'), { subtree: true, childList: true });
          document.getElementById('file-input').addEventListener('change', () => { window.__bench.start = performance.now(); }, { capture: true });
        });
        await page.locator('#file-input').setInputFiles(file);
        await page.waitForSelector('.job .job-status.done, .job .job-status.failed', { timeout: 600000 });
        const t = await page.evaluate(() => ({ done: performance.now(), ...window.__bench,
          heap: Number(document.querySelector('.job').dataset.wasmHeapBytes || 0),
          worker: Number(document.querySelector('.job').dataset.analysisMs || 0) }));
        ready.push(t.done - t.start);
        if (t.chart) chart.push(t.chart - t.start);
        heap.push(t.heap);
        if (t.worker) worker.push(t.worker);
        await page.close();
      }
      const bytes = fs.statSync(file).size;
      const readyMs = median(ready);
      console.log(JSON.stringify({ file, bytes, reps, report_ms: readyMs, report_ms_min: Math.min(...ready), report_ms_max: Math.max(...ready),
        first_chart_ms: chart.length ? median(chart) : null, mb_s: bytes / 1048576 / (readyMs / 1000), wasm_heap_bytes: Math.max(...heap),
        worker_ms: worker.length ? median(worker) : null, worker_mb_s: worker.length ? bytes / 1048576 / (median(worker) / 1000) : null }));
    }
  } finally {
    await browser.close();
    server.close();
  }
});
