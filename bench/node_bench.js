// Wasm in node: the site's module fed a file in 1 MiB chunks, exactly as the worker does (worker.js CHUNK).
//   node bench/node_bench.js SITE_DIR FILE  → {"cpu_s", "wall_s", "wasm_heap_bytes", "reports"}
const fs = require('fs');
const path = require('path');
const [siteDir, file] = process.argv.slice(2);
const createGcscope = require(path.resolve(siteDir, 'gcscope.js'));
(async () => {
  const M = await createGcscope();
  const CHUNK = 1 << 20;
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(CHUNK);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const session = new M.Session('{}');
  const ptr = M.allocBytes(CHUNK) >>> 0;
  session.beginFile(path.basename(file));
  for (let n; (n = fs.readSync(fd, buf, 0, CHUNK, null)) > 0;) {
    M.HEAPU8.set(buf.subarray(0, n), ptr);
    session.feed(ptr, n);
  }
  session.endFile();
  const doc = JSON.parse(session.finish());
  const cpu = process.cpuUsage(cpu0);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({ cpu_s: (cpu.user + cpu.system) / 1e6, wall_s: wall, wasm_heap_bytes: M.HEAPU8.length,
    reports: doc.reports.map((r) => r.format), errors: doc.errors.length }));
})();
