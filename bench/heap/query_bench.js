// The heap.* questions on a live session of the wasm module (what the page's worker holds):
// node bench/heap/query_bench.js DUMP [N]. Analyzes DUMP once, then asks each method about N objects
// spread over the dump (every k-th record's address) and prints the time per answer: the first
// (which builds the referrer / dominator-children indexes) and p50 / p95 / max of the rest.
'use strict';
const fs = require('fs');
const path = require('path');

const site = process.env.GCSCOPE_SITE || path.join(__dirname, '../../build/wasm/site');
const createGcscope = require(path.resolve(site, 'gcscope.js'));

async function main() {
  const [dump, nArg] = process.argv.slice(2);
  const n = Number(nArg) || 200;
  const bytes = fs.readFileSync(dump);
  const M = await createGcscope();
  const session = new M.Session('{}');
  const chunk = 1 << 20;
  const ptr = M.allocBytes(chunk) >>> 0;
  const t0 = performance.now();
  session.beginFile(path.basename(dump));
  for (let off = 0; off < bytes.length; off += chunk) {
    const part = bytes.subarray(off, Math.min(off + chunk, bytes.length));
    M.HEAPU8.set(part, ptr);
    session.feed(ptr, part.length);
  }
  session.endFile();
  session.finish();
  M.freeBytes(ptr);
  const analyzeMs = performance.now() - t0;
  const ask = (method, args) => {
    const at = session.queryInPlace(method, JSON.stringify(args)) >>> 0;
    return JSON.parse(new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.resultLength())));
  };
  // Addresses of every k-th object record (ROOT records have none).
  const text = bytes.toString('latin1');
  const all = [];
  for (const m of text.matchAll(/^\{"address":"(0x[0-9a-f]+)"/gm)) all.push(m[1]);
  const step = Math.max(1, Math.floor(all.length / n));
  const picks = all.filter((_, i) => i % step === 0).slice(0, n);
  console.log(`${path.basename(dump)}: ${all.length} objects, analyzed in ${analyzeMs.toFixed(0)} ms, wasm heap ${(M.HEAPU8.length / 1048576).toFixed(0)} MiB`);
  const methods = [
    ['heap.object', (a) => ({ address: a })],
    ['heap.parents', (a) => ({ address: a, limit: 50 })],
    ['heap.path', (a) => ({ address: a })],
    ['heap.subtree', (a) => ({ address: a, max_nodes: 60 })],
    ['heap.subtree', (a) => ({ address: a, max_nodes: 2000 })],
  ];
  for (const [method, args] of methods) {
    const times = [];
    let errors = 0;
    for (const a of picks) {
      const t = performance.now();
      const answer = ask(method, args(a));
      times.push(performance.now() - t);
      if (answer.error !== undefined) errors++;
    }
    const first = times[0];
    const rest = times.slice(1).sort((x, y) => x - y);
    const q = (p) => rest[Math.min(rest.length - 1, Math.floor(p * rest.length))];
    const label = method + (args('x').max_nodes ? ` (max_nodes ${args('x').max_nodes})` : '');
    console.log(`${label}: first ${first.toFixed(1)} ms, then p50 ${q(0.5).toFixed(2)} / p95 ${q(0.95).toFixed(2)} / max ${rest[rest.length - 1].toFixed(2)} ms` +
      ` over ${rest.length}${errors ? `, ${errors} answered an error (unreachable objects)` : ''}`);
  }
  console.log(`wasm heap after the questions: ${(M.HEAPU8.length / 1048576).toFixed(0)} MiB`);
  session.delete();
}

main().catch((e) => { console.error(e); process.exit(1); });
