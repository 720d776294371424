// The analysis worker: one per analysis job, so a job can be cancelled (terminate) or die (out of
// memory) without touching the page or the other jobs. It streams each File into the wasm core in
// 8 MiB slices with one slice read ahead, so no file ever has to fit in memory whole.
/* global createGcscope */
'use strict';
importScripts('gcscope.js');

const CHUNK = 8 * 1024 * 1024;
let modulePromise = null;

function loadModule() {
  if (!modulePromise) modulePromise = createGcscope();
  return modulePromise;
}

async function analyze(msg) {
  const M = await loadModule();
  const files = msg.files;
  const total = files.reduce((sum, f) => sum + f.blob.size, 0);
  let done = 0;
  let lastPost = 0;
  const session = new M.Session(JSON.stringify(msg.options || {}));
  const ptr = M.allocBytes(CHUNK) >>> 0;
  try {
    for (const f of files) {
      session.beginFile(f.path);
      const blob = f.blob;
      let next = blob.slice(0, CHUNK).arrayBuffer();
      for (let off = 0; off < blob.size; off += CHUNK) {
        const buf = await next;
        next = off + CHUNK < blob.size ? blob.slice(off + CHUNK, off + 2 * CHUNK).arrayBuffer() : null;
        // HEAPU8 must be re-read every time: memory growth replaces the buffer.
        M.HEAPU8.set(new Uint8Array(buf), ptr);
        session.feed(ptr, buf.byteLength);
        done += buf.byteLength;
        const now = Date.now();
        if (now - lastPost > 100 || done === total) {
          lastPost = now;
          postMessage({ type: 'progress', done, total, path: f.path });
        }
      }
      session.endFile();
    }
    postMessage({ type: 'progress', done: total, total, path: '' });
    const text = session.finish();
    // Peak wasm memory: the heap only grows, so its size now is its peak.
    postMessage({ type: 'result', doc: JSON.parse(text), stats: { wasm_heap_bytes: M.HEAPU8.length } });
  } finally {
    M.freeBytes(ptr);
    session.delete();
  }
}

self.onmessage = (e) => {
  const msg = e.data || {};
  if (msg.type === 'analyze') {
    analyze(msg).catch((err) => {
      postMessage({ type: 'error', message: String((err && err.message) || err) });
    });
  } else if (msg.type === 'ping') {
    loadModule().then((M) => postMessage({ type: 'pong', version: M.version() }),
      (err) => postMessage({ type: 'error', message: 'the analyzer could not start: ' + err }));
  }
};
