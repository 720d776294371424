// Where the Chromium time goes for one input: the page's own pipeline (web/worker.js: 8 MiB File
// slices read one ahead, copied into the wasm heap, fed; finish; JSON.parse; postMessage to the page;
// GCSCOPE.renderDocument) re-run phase by phase in a Web Worker of the real site, with
// performance.now() around each phase, plus the CPU seconds of all Chromium processes over the
// whole run (from /proc: every process under this node process, i.e. Chromium's; the figure does not
// depend on what else the machine is doing).
//   [READ_PASSES=1] node bench/tracing/chromium_phases.js SITE_DIR REPS FILE   → one JSON line per rep, then the medians
// Kept for the phase figures of bench/tracing/RESULTS.md, which it produced: it re-creates the worker
// loop of that day (File slices read in the analysis worker, one ahead). web/worker.js has since read
// big inputs through a reader worker (web/reader.js) and shares the page's compiled module, so for
// current figures use bench/chromium_bench.js (its worker_ms is web/worker.js's own time).
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('@playwright/test');

const [siteDir, repsArg, file] = process.argv.slice(2);
const reps = Number(repsArg) || 3;
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml' };
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p === '/__phases_worker.js') {  // same origin: the site's CSP allows only 'self' workers
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end(WORKER);
    return;
  }
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(path.resolve(siteDir), p);
  fs.readFile(f, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(f)] || 'application/octet-stream' });
    res.end(data);
  });
});

const TICK = 100;  // USER_HZ
function cpuOfTree(root) {
  const kids = new Map();
  const stat = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      stat.set(Number(d), (Number(f[11]) + Number(f[12])) / TICK);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch (e) { /* gone */ }
  }
  let total = 0;
  const stack = (kids.get(root) || []).slice();  // Chromium's processes: the children of this node process
  while (stack.length) {
    const p = stack.pop();
    total += stat.get(p) || 0;
    for (const k of kids.get(p) || []) stack.push(k);
  }
  return total;
}

const WORKER = `
importScripts('gcscope.js');
const CHUNK = 8 * 1024 * 1024;
self.onmessage = async (e) => {
  const t = {};
  const now = () => performance.now();
  let t0 = now();
  const M = await createGcscope();
  t.module_ms = now() - t0;
  const blob = e.data.blob;
  // 1. reading alone (slices one ahead, as the worker does), only with READ_PASSES=1: these passes
  // add their own CPU to cpu_s
  let next;
  if (e.data.readPasses) {
  t0 = now();
  next = blob.slice(0, CHUNK).arrayBuffer();
  for (let off = 0; off < blob.size; off += CHUNK) {
    await next;
    next = off + CHUNK < blob.size ? blob.slice(off + CHUNK, off + 2 * CHUNK).arrayBuffer() : null;
  }
  t.read_only_ms = now() - t0;
  // 1b. the same bytes through FileReaderSync (workers only): a candidate for web/worker.js
  t0 = now();
  const frs = new FileReaderSync();
  for (let off = 0; off < blob.size; off += CHUNK) frs.readAsArrayBuffer(blob.slice(off, off + CHUNK));
  t.read_sync_ms = now() - t0;
  }
  // 2. the worker's loop, each phase timed
  const session = new M.Session('{}');
  const ptr = M.allocBytes(CHUNK) >>> 0;
  t.wait_ms = 0; t.copy_ms = 0; t.feed_ms = 0;
  const tLoop = now();
  session.beginFile(e.data.name);
  next = blob.slice(0, CHUNK).arrayBuffer();
  for (let off = 0; off < blob.size; off += CHUNK) {
    let a = now();
    const buf = await next;
    next = off + CHUNK < blob.size ? blob.slice(off + CHUNK, off + 2 * CHUNK).arrayBuffer() : null;
    let b = now(); t.wait_ms += b - a;
    M.HEAPU8.set(new Uint8Array(buf), ptr);
    a = now(); t.copy_ms += a - b;
    session.feed(ptr, buf.byteLength);
    t.feed_ms += now() - a;
  }
  session.endFile();
  t.loop_ms = now() - tLoop;
  t0 = now();
  const text = session.finish();
  t.finish_ms = now() - t0;
  t.report_bytes = text.length;
  t0 = now();
  const doc = JSON.parse(text);
  t.json_parse_ms = now() - t0;
  M.freeBytes(ptr);
  session.delete();
  t.sent_at = performance.timeOrigin + now();
  postMessage({ doc, t });
};`;

const median = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/?sw=0`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const rows = [];
  try {
    for (let r = 0; r < reps; r++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.on('console', (m) => process.stderr.write('console: ' + m.text() + '\n'));
      page.on('crash', () => process.stderr.write('page crashed\n'));
      page.on('pageerror', (e) => process.stderr.write('pageerror: ' + e.message + '\n'));
      await page.goto(url);
      await page.evaluate(() => { const i = document.createElement('input'); i.type = 'file'; i.id = 'phase-input'; document.body.appendChild(i); });
      await page.locator('#phase-input').setInputFiles(file);
      const rootPid = Number(fs.readFileSync('/proc/self/stat', 'utf8').split(' ')[0]);
      const cpu0 = cpuOfTree(rootPid);
      const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      const t = await page.evaluate(async (readPasses) => {
        const f = document.getElementById('phase-input').files[0];
        const start = performance.now();
        const w = new Worker('__phases_worker.js');
        const msg = await new Promise((res) => { w.onmessage = (e) => res(e.data); w.postMessage({ blob: f, name: f.name, readPasses }); });
        const t = msg.t;
        t.post_ms = performance.timeOrigin + performance.now() - t.sent_at;
        let a = performance.now();
        const host = document.createElement('div');
        host.className = 'job';
        document.body.appendChild(host);
        GCSCOPE.renderDocument(host, msg.doc, [f]);
        t.render_ms = performance.now() - a;
        a = performance.now();
        await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        t.paint_ms = performance.now() - a;
        t.total_ms = performance.now() - start;
        w.terminate();
        return t;
      }, process.env.READ_PASSES === '1');
      t.cpu_s = cpuOfTree(rootPid) - cpu0;
      t.load = load;
      t.mb = fs.statSync(file).size / 1048576;
      rows.push(t);
      console.log(JSON.stringify(t));
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  const keys = Object.keys(rows[0]).filter((k) => typeof rows[0][k] === 'number');
  const med = {};
  for (const k of keys) med[k] = Math.round(median(rows.map((x) => x[k])) * 10) / 10;
  med.mb_s_wall = Math.round((med.mb / (med.total_ms / 1000)) * 10) / 10;
  med.mb_s_cpu = Math.round((med.mb / med.cpu_s) * 10) / 10;
  console.log('median ' + JSON.stringify(med));
});
