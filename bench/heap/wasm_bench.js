// Runs the wasm module (the same gcscope.js/.wasm the page's worker loads) over a heap dump in node,
// streaming 8 MiB chunks as web/worker.js does, and prints wall/CPU time and the wasm heap size.
//   node bench/heap/wasm_bench.js DUMP [OPTIONS_JSON]
const fs = require('fs');
const path = require('path');
const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const createGcscope = require(path.join(site, 'gcscope.js'));

(async () => {
  const file = process.argv[2];
  const options = process.argv[3] || '{}';
  const M = await createGcscope();
  const chunk = 8 << 20;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const session = new M.Session(options);
  const ptr = M.allocBytes(chunk) >>> 0;
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(chunk);
  session.beginFile(path.basename(file));
  for (;;) {
    const n = fs.readSync(fd, buf, 0, chunk, null);
    if (n <= 0) break;
    M.HEAPU8.set(buf.subarray(0, n), ptr);
    session.feed(ptr, n);
  }
  session.endFile();
  const text = session.finish();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const doc = JSON.parse(text);
  const r = doc.reports[0] || {};
  console.log(JSON.stringify({
    file, mb: fs.statSync(file).size / 1e6, wall_s: +wall.toFixed(3), cpu_s: +((cpu.user + cpu.system) / 1e6).toFixed(3),
    wasm_heap_mb: +(M.HEAPU8.length / 1048576).toFixed(0), objects: r.objects, dominators: r.dominators && r.dominators.available,
    report_kb: Math.round(text.length / 1024),
  }));
  M.freeBytes(ptr);
  session.delete();
})();
