// Throughput of the wasm build (the module the page's worker runs) under node: the file is fed in
// 4 MiB chunks through the wasm heap exactly as web/worker.js does. MB/s = input MB / CPU seconds
// (process.cpuUsage: user + system) of feed+finish, median of 5 (the build machine is shared, so wall
// time would measure the other jobs).
// usage: node bench/tracing/wasm_bench.js SITE_DIR FILE...
const fs = require('fs');
const path = require('path');

async function main() {
  const [site, ...files] = process.argv.slice(2);
  const createGcscope = require(path.resolve(site, 'gcscope.js'));
  const M = await createGcscope();
  const chunk = 4 << 20;
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const rates = [];
    for (let run = 0; run < 5; run++) {
      const t0 = process.cpuUsage();
      const session = new M.Session('{}');
      const ptr = M.allocBytes(chunk) >>> 0;
      session.beginFile(path.basename(file));
      for (let off = 0; off < bytes.length; off += chunk) {
        const part = bytes.subarray(off, Math.min(off + chunk, bytes.length));
        M.HEAPU8.set(part, ptr);
        session.feed(ptr, part.length);
      }
      session.endFile();
      const doc = session.finish();
      M.freeBytes(ptr);
      session.delete();
      const c = process.cpuUsage(t0);
      const s = (c.user + c.system) / 1e6;
      if (run === 0 && JSON.parse(doc).reports.length !== 1) throw new Error('no report for ' + file);
      rates.push(bytes.length / 1e6 / s);
    }
    rates.sort((a, b) => a - b);
    console.log(`${path.basename(file)}: ${(bytes.length / 1e6).toFixed(1)} MB, median ${rates[2].toFixed(1)} MB/s (runs: ${rates.map((r) => r.toFixed(1)).join(' ')})`);
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
