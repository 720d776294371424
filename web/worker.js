// The analysis worker: one per analysis job, so a job can be cancelled (terminate) or die (out of
// memory) without touching the page or the other jobs. It streams each File into the wasm core in
// 1 MiB slices, read ahead (by a reader worker beside it for big inputs, see openSliceSource), so no
// file ever has to fit in memory whole.
/* global createGcscope */
'use strict';
// This worker's build (filled in by scripts/assemble_site.cmake; left as is when web/ is served
// unbuilt). The page sends its own with every message: a page opened before a new build was deployed
// gets this worker.js (from the server, or offline the service worker's copy) when its own build's
// copy is no longer cached (see sw.js), and then this worker, its glue and the page's module and
// messages are of different builds. It answers such a page with a request to reload instead of
// analyzing.
const BUILD = '__BUILD_ID__';
const BUILT = /^[0-9a-f]{40}$/.test(BUILD);
importScripts(BUILT ? 'gcscope.js?v=' + BUILD : 'gcscope.js');

// Why 1 MiB: each slice is copied into the wasm heap and parsed right away, and a slice that fits
// in the core's 1 MiB L2 cache is still there when the parser reads it, where a bigger slice is
// pushed out to L3 or memory by its own copy. Smaller slices cost more in messages and reads than
// they save.
const MB = 1024 * 1024;
const CHUNK = MB;
// Reads in this worker (inputs of up to READER_MIN_BYTES) stay 8 MiB: every Blob.slice().arrayBuffer()
// is a round trip to the browser process, so a 16 MiB input takes 2 of them, not 16. Their bytes are
// still fed CHUNK at a time.
const HERE_READ = 8 * MB;
let modulePromise = null;
let moduleSource = 'own';  // 'shared' once the page's compiled module is instantiated here

// Out of memory: the wasm heap grows through WebAssembly.Memory.prototype.grow (emscripten's
// resize_heap calls it and turns a refusal into a failed malloc, so C++ sees std::bad_alloc). Every
// refused growth is noted with where the input was, so the page can say precisely what happened.
// A job may lower the maximum (limits.maxMemoryBytes, from the page's ?max_memory_mb=): the same path
// as reaching the 4 GB maximum, at a size a test can reach.
let memoryLimit = null;
let refused = null;   // {wanted, have, path, offset}: the first refused growth of this job
const cursor = { path: '', offset: 0 };
const nativeGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  const have = this.buffer.byteLength;
  const wanted = have + pages * 65536;
  const note = () => { if (!refused) refused = { wanted, have, path: cursor.path, offset: cursor.offset }; };
  if (memoryLimit !== null && wanted > memoryLimit) {
    note();
    throw new RangeError(`WebAssembly memory limit: ${Math.round(wanted / MB)} MB asked, ${Math.round(memoryLimit / MB)} MB allowed`);
  }
  try { return nativeGrow.call(this, pages); } catch (e) { note(); throw e; }
};
const OOM_TEXT = /bad_alloc|out of memory|\bOOM\b|Cannot enlarge memory|memory limit|Array buffer allocation failed/i;

// The precise words for an out-of-memory job: which input, at which byte, how much memory.
function oomMessage(M, why) {
  const heap = M ? M.HEAPU8.length : (refused ? refused.have : 0);
  const where = refused && refused.path ? `${refused.path} at byte ${refused.offset}` : (cursor.path ? `${cursor.path} at byte ${cursor.offset}` : 'the input');
  const limit = memoryLimit !== null ? `the limit of ${Math.round(memoryLimit / MB)} MB set by max_memory_mb` : 'the 4 GB maximum of WebAssembly memory';
  return `out of memory while analyzing ${where}: the analyzer's memory${heap ? ` (${Math.round(heap / MB)} MB)` : ''} could not grow` +
    (refused ? ` to ${Math.round(refused.wanted / MB)} MB` : '') + ` (${limit})` + (why ? ` [${why}]` : '') + '.';
}

// compiled: the page's WebAssembly.Module (see newAnalysisWorker in app.js), instantiated here so that
// this worker runs the code V8 has already optimized for earlier jobs; without one (or if it cannot be
// instantiated) the module is fetched and compiled here.
function loadModule(compiled) {
  if (!modulePromise) {
    // A module of its own: this build's, asked for under its name like the page's (see sw.js).
    const own = () => createGcscope(BUILT ? { locateFile: (path, dir) => dir + path + (path.endsWith('.wasm') ? '?v=' + BUILD : '') } : {});
    modulePromise = !(compiled instanceof WebAssembly.Module) ? own() : new Promise((resolve, reject) => {
      createGcscope({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(compiled, imports).then((instance) => { moduleSource = 'shared'; receive(instance, compiled); }, reject);
          return {};
        },
      }).then(resolve, reject);
    }).catch(() => own());
  }
  return modulePromise;
}

// Where a job's bytes come from, one slice at a time in order: next() resolves to {type: 'slice',
// file, offset, buf, length?} (the first `length` bytes of buf, all of it when read here) or, after
// each file's last slice, {type: 'end', file}; taken(slice) says its bytes were copied out.
//
// Inputs of more than READER_MIN_BYTES are read by the reader worker that the page starts beside this
// one (reader.js, joined by a MessagePort; see newAnalysisWorker in app.js): there the reads run while
// this thread parses, instead of taking turns with it. Smaller inputs are read here, one slice ahead
// (the reader's messages would cost more than they save). Without a reader (a worker started on its
// own), or if it fails (reader.js not reachable: the page forwards its error), reading carries on here
// from the first byte not yet received, so a job never fails for that. `how` ('reader' |
// 'reader-pieces' | 'here', from the job's limits) forces one way: the tests compare them
// ('reader-pieces': the reader's way for browsers whose file streams cannot read into buffers of ours).
const READER_MIN_BYTES = 16 * MB;
const READ_AHEAD = 4;  // slices the reader may have out: 4 MiB, ~10 ms of parsing

// The reader's end of the channel, with its messages and failure (also when it comes during the job).
let readerLink = null;
function connectReader(port) {
  const r = { port, queue: [], failed: null, used: false, notify() {} };
  port.onmessage = (e) => { r.queue.push(e.data); r.notify(); };
  readerLink = r;
}

function openSliceSource(files, how) {
  const total = files.reduce((sum, f) => sum + f.blob.size, 0);
  const wantReader = how === 'reader' || how === 'reader-pieces' || (how !== 'here' && total > READER_MIN_BYTES);
  let file = 0, offset = 0;  // the next byte this job has not received yet
  let pending = null;        // this thread's read-ahead: {file, offset, promise}

  function readHere() {
    const blob = files[file] && files[file].blob;
    if (!blob) return Promise.resolve({ type: 'end', file });
    if (offset >= blob.size) {
      const end = { type: 'end', file };
      file++; offset = 0; pending = null;
      return Promise.resolve(end);
    }
    if (!pending || pending.file !== file || pending.offset !== offset)
      pending = { file, offset, promise: blob.slice(offset, offset + HERE_READ).arrayBuffer() };
    const here = pending;
    return here.promise.then((buf) => {
      offset = here.offset + buf.byteLength;
      // Start the next slice of this file now, so it reads while this one is parsed.
      pending = offset < blob.size ? { file, offset, promise: blob.slice(offset, offset + HERE_READ).arrayBuffer() } : null;
      return { type: 'slice', file: here.file, offset: here.offset, buf };
    });
  }

  const r = wantReader ? readerLink : null;
  if (!r || r.failed || r.used) return { way: 'here', next: readHere, taken() {}, close() {} };
  r.used = true;  // one job per reader (its stream state is that job's)

  let port = r.port;
  let wake = null;
  // The reader is told to stop reading (it is never terminated from here: the page stops it with this
  // worker, see newAnalysisWorker in app.js).
  const stop = () => { if (port) port.postMessage({ type: 'stop' }); port = null; };
  r.notify = () => { if (wake) { const w = wake; wake = null; w(); } };
  port.postMessage({ type: 'read', blobs: files.map((f) => f.blob), chunk: CHUNK, ahead: READ_AHEAD, byob: how !== 'reader-pieces' });
  const source = {
    way: 'reader',  // how the bytes came: 'reader', or 'reader, then here' after the reader failed
    async next() {
      for (;;) {
        if (port && r.queue.length) {
          const m = r.queue.shift();
          if (m.type === 'error') throw new Error(`reading ${files[m.file].path} at byte ${m.offset}: ${m.message}`);
          if (m.type === 'slice') {
            offset = m.offset + m.length;
          } else {
            file = m.file + 1; offset = 0;
          }
          return m;
        }
        if (r.failed || !port) {
          if (port) source.way = 'reader, then here';
          stop();
          return readHere();
        }
        await new Promise((resolve) => { wake = resolve; });
      }
    },
    // A slice's bytes are in the wasm heap: its buffer goes back to the reader with the credit for
    // the next slice (the reader reads into it again instead of a new buffer).
    taken(m) {
      if (port && m.length !== undefined) port.postMessage({ type: 'credit', buf: m.buf }, [m.buf]);
    },
    close: stop,
  };
  return source;
}

// The input is too big for WebAssembly's memory: known from the first slice (once its format is
// identified) instead of after reading all of it. need: bytes of memory the engine estimates.
// estimate: the engine's {format, title, bytes, lighter?} (InputSet::memory_estimate).
class TooBig extends Error {
  constructor(estimate, limit, total) {
    super(`this ${estimate.title} needs about ${Math.round(estimate.bytes / MB)} MB of memory to analyze, more than ` +
      `the ${Math.round(limit / MB)} MB this page can give its analysis`);
    Object.assign(this, { estimate, limit, total });
  }
}
const WASM_MAX_BYTES = 4 * 1024 * MB;

async function analyze(msg) {
  const started = performance.now();
  const limits = msg.limits || {};
  if (Number.isFinite(limits.maxMemoryBytes) && limits.maxMemoryBytes > 0) memoryLimit = limits.maxMemoryBytes;
  const M = await loadModule(msg.module);
  // A forced format must be one the engine registered; its message names them (as the CLI's does).
  const forced = msg.options && msg.options.format;
  if (forced !== undefined && M.unknownFormat(String(forced))) throw new Error(M.unknownFormat(String(forced)));
  const files = msg.files;
  const total = files.reduce((sum, f) => sum + f.blob.size, 0);
  let done = 0;
  let lastPost = 0;
  // Sizes as the estimate sees them: a test can stand in a big size (limits.assumeInputBytes)
  // without a file of that size.
  const sized = Number.isFinite(limits.assumeInputBytes) && limits.assumeInputBytes > 0 ? limits.assumeInputBytes : total;
  let estimated = false;
  const session = new M.Session(JSON.stringify(msg.options || {}));
  const ptr = M.allocBytes(CHUNK) >>> 0;
  try {
    const source = openSliceSource(files, limits.reader);
    try {
      for (let i = 0; i < files.length; i++) {
        const f = files[i];
        session.beginFile(f.path);
        for (let m; (m = await source.next()).type === 'slice';) {
          const length = m.length !== undefined ? m.length : m.buf.byteLength;
          cursor.path = f.path;
          for (let at = 0; at < length; at += CHUNK) {
            const n = Math.min(CHUNK, length - at);
            // HEAPU8 must be re-read every time: memory growth replaces the buffer.
            M.HEAPU8.set(new Uint8Array(m.buf, at, n), ptr);
            if (at + n >= length) source.taken(m);  // all its bytes are in the wasm heap: give it back
            cursor.offset = m.offset + at;
            session.feed(ptr, n);
            if (!estimated) {
              const estimate = JSON.parse(session.memoryEstimate(sized));
              if (estimate) {
                estimated = true;
                const limit = memoryLimit !== null ? memoryLimit : WASM_MAX_BYTES;
                if (estimate.bytes > limit) throw new TooBig(estimate, limit, sized);
              }
            }
          }
          done += length;
          const now = Date.now();
          if (now - lastPost > 100 || done === total) {
            lastPost = now;
            postMessage({ type: 'progress', done, total, path: f.path });
          }
        }
        // A followed file stays open: its appended bytes continue it (follow below).
        if (!(msg.options && msg.options.follow && i === files.length - 1)) session.endFile();
      }
    } finally {
      source.close();
    }
    postMessage({ type: 'progress', done: total, total, path: '' });
    // The report's JSON text, decoded from the wasm heap (see Session::finishInPlace).
    const at = session.finishInPlace() >>> 0;
    let text = new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.reportLength()));
    // The report goes to the page as JSON text, parsed there once: posting the parsed document would
    // make the worker parse it and both sides structure-clone every array of it, where a string is
    // copied in one piece.
    //
    // An analyzer that hit the memory ceiling reports std::bad_alloc as its internal error and the
    // others go on: keep their results, and say what happened in words, at the input it happened in.
    // The document's keys are written in order, so "errors" is all that comes before "gcscope": only
    // that part is searched, and the document is parsed here only when an error needs adding.
    const errorsPart = text.slice(0, Math.max(0, text.indexOf('"gcscope":')));
    let oom = null;
    if (refused || OOM_TEXT.test(errorsPart)) {
      const doc = JSON.parse(text);
      const oomErrors = doc.errors.filter((e) => OOM_TEXT.test(e.message));
      if (refused || oomErrors.length) {
        oom = oomMessage(M);
        doc.errors.push({ path: refused ? refused.path : (oomErrors[0] && oomErrors[0].path) || '', line: null,
          offset: refused ? refused.offset : null, severity: 'error', message: oom + ' What was analyzed before is kept; other inputs are unaffected.' });
        text = JSON.stringify(doc);
      }
    }
    // Peak wasm memory: the heap only grows, so its size now is its peak. analysis_ms: from the job's
    // message to its report text, in this worker (module loading, reading, parsing, writing the report).
    // module: whether this worker runs the page's compiled module ('shared') or compiled its own.
    // read: how the bytes came ('here', 'reader', or 'reader, then here' when the reader failed).
    // The session stays: the page's later questions (query messages) are answered from it. A job that
    // ran out of memory keeps no session (its worker is stopped).
    if (!oom) live = { M, session };
    postMessage({ type: 'result', json: text, oom, formats: M.formats(), stats: { build: BUILT ? BUILD : '', wasm_heap_bytes: M.HEAPU8.length, analysis_ms: performance.now() - started, module: moduleSource, read: source.way } });
    // While the page draws the report, the session builds its indexes: the first question does not
    // wait for them (a question that arrives meanwhile waits in this worker's queue).
    if (live) setTimeout(() => prepareSession(live), 0);
  } finally {
    M.freeBytes(ptr);
    if (!live || live.session !== session) session.delete();
  }
}

// The job's session after its report: {M, session}, or null before the report or once released.
let live = null;

// One question of the query protocol (wasm/core/query.h): answered as JSON text, {"result": ...} or
// {"error": "..."}, decoded from the wasm heap like the report.
function answer(msg) {
  if (!live) return JSON.stringify({ error: 'this analysis is no longer in memory: open the input again to ask it more' });
  const { M, session } = live;
  try {
    cursor.path = ''; refused = null;
    const at = session.queryInPlace(String(msg.method || ''), JSON.stringify(msg.args || {})) >>> 0;
    return new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.resultLength()));
  } catch (err) {
    const text = String((err && err.message) || err);
    const oom = refused || OOM_TEXT.test(text) || err instanceof RangeError;
    return JSON.stringify({ error: oom ? 'out of memory while answering: ' + text : 'internal error: ' + text, oom: !!oom });
  }
}

// Builds the session's indexes (session.prepare) unless another job replaced it meanwhile; a failure
// (memory) leaves the questions to build them on demand, and to say so.
function prepareSession(session) {
  if (live === session) answer({ method: 'session.prepare' });
}

// Following a file that grows (options.follow; wasm/core/follow.h): `file` is the file as it is now.
// The engine says what to read (the bytes appended since the last read, or all of a truncated or
// replaced file, which continues the set as its next member); they are fed like the first read and
// the answer is the new report's JSON text, {"result": document}.
let following = Promise.resolve();
function follow(msg) {
  const run = async () => {
    if (!live) return JSON.stringify({ error: 'this analysis is no longer in memory: open the input again to follow it' });
    const { M, session } = live;
    const file = msg.file;
    const ptr = M.allocBytes(CHUNK) >>> 0;
    try {
      const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
      M.HEAPU8.set(head, ptr);
      const step = JSON.parse(session.followStep(file.size, ptr, head.length));
      for (let at = step.from; at < step.to; at += CHUNK) {
        const buf = new Uint8Array(await file.slice(at, Math.min(step.to, at + CHUNK)).arrayBuffer());
        if (!live || live.session !== session) return JSON.stringify({ error: 'the analysis was released while following' });
        M.HEAPU8.set(buf, ptr);
        session.feed(ptr, buf.length);
      }
      const at = session.finishInPlace() >>> 0;
      live.tables = null;
      const text = new TextDecoder().decode(M.HEAPU8.subarray(at, at + session.reportLength()));
      return '{"result":' + text + '}';
    } catch (err) {
      return JSON.stringify({ error: 'following failed: ' + String((err && err.message) || err) });
    } finally {
      M.freeBytes(ptr);
    }
  };
  following = following.then(run, run);  // one read at a time, in order
  return following;
}

// ---- Arrow IPC streams (the Arrow columnar format's "IPC streaming format") -----------------------
// A table's batch reaches DuckDB-wasm as one IPC stream: the schema message, one record batch
// message, end of stream. Each message is a flatbuffer (Message.fbs, Schema.fbs) framed by
// 0xFFFFFFFF and its 8-aligned length, then the batch's body: every buffer 8-aligned. The column
// buffers are copied once, from the wasm heap straight into the stream; nothing else is built.

// A flatbuffer written front to back: a table's vtable just before it, its children after it (so
// that every uoffset points forward), scalars aligned to their size from the buffer's start.
class Flat {
  constructor() { this.bytes = new Uint8Array(512); this.len = 0; }
  take(n, align) {
    while (this.len % align) this.len++;
    const pos = this.len;
    this.len += n;
    if (this.len > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.len, this.bytes.length * 2));
      grown.set(this.bytes);
      this.bytes = grown;
    }
    return pos;
  }
  get view() { return new DataView(this.bytes.buffer); }
}
const FLAT_SIZE = { u8: 1, bool: 1, i16: 2, i32: 4, offset: 4, i64: 8 };
// A table of `fields` ([id, kind, value]: value a number, or for 'offset' a function writing the
// child and returning its position); returns the table's position.
function flatTable(f, fields) {
  const slots = fields.reduce((m, [id]) => Math.max(m, id + 1), 0);
  const sorted = fields.slice().sort((a, b) => FLAT_SIZE[b[1]] - FLAT_SIZE[a[1]]);
  let inline = 4;
  const at = new Map();
  for (const field of sorted) {
    const size = FLAT_SIZE[field[1]];
    inline = Math.ceil(inline / size) * size;
    at.set(field, inline);
    inline += size;
  }
  const vt = f.take(4 + 2 * slots, 2);
  const t = f.take(inline, 8);
  let v = f.view;
  v.setUint16(vt, 4 + 2 * slots, true);
  v.setUint16(vt + 2, inline, true);
  v.setInt32(t, t - vt, true);
  for (const field of sorted) {
    const [id, kind, value] = field;
    const pos = t + at.get(field);
    v.setUint16(vt + 4 + 2 * id, pos - t, true);
    if (kind === 'i64') v.setBigInt64(pos, BigInt(value), true);
    else if (kind === 'i32') v.setInt32(pos, value, true);
    else if (kind === 'i16') v.setInt16(pos, value, true);
    else if (kind !== 'offset') v.setUint8(pos, value);
  }
  for (const field of sorted) {
    if (field[1] !== 'offset') continue;
    const pos = t + at.get(field);
    const child = field[2](f);
    v = f.view;
    v.setUint32(pos, child - pos, true);
  }
  return t;
}
function flatString(f, text) {
  const bytes = new TextEncoder().encode(text);
  const pos = f.take(4 + bytes.length + 1, 4);
  f.view.setUint32(pos, bytes.length, true);
  f.bytes.set(bytes, pos + 4);
  return pos;
}
// A vector of tables, each written by one of `writers`.
function flatTables(f, writers) {
  const pos = f.take(4 + 4 * writers.length, 4);
  f.view.setUint32(pos, writers.length, true);
  writers.forEach((write, i) => {
    const child = write(f);
    f.view.setUint32(pos + 4 + 4 * i, child - (pos + 4 + 4 * i), true);
  });
  return pos;
}
// A vector of structs of two int64 (FieldNode, Buffer), the elements 8-aligned.
function flatPairs(f, pairs) {
  while ((f.len + 4) % 8) f.take(1, 1);
  const pos = f.take(4 + 16 * pairs.length, 4);
  const v = f.view;
  v.setUint32(pos, pairs.length, true);
  pairs.forEach(([a, b], i) => {
    v.setBigInt64(pos + 4 + 16 * i, BigInt(a), true);
    v.setBigInt64(pos + 12 + 16 * i, BigInt(b), true);
  });
  return pos;
}
// One framed message (MetadataVersion V5; header 1 = Schema, 3 = RecordBatch), body not included.
function ipcMessage(headerType, header, bodyLength) {
  const f = new Flat();
  const root = f.take(4, 4);
  const msg = flatTable(f, [[0, 'i16', 4], [1, 'u8', headerType], [2, 'offset', header], [3, 'i64', bodyLength]]);
  f.view.setUint32(root, msg - root, true);
  const meta = Math.ceil(f.len / 8) * 8;
  const out = new Uint8Array(8 + meta);
  const v = new DataView(out.buffer);
  v.setInt32(0, -1, true);
  v.setInt32(4, meta, true);
  out.set(f.bytes.subarray(0, f.len), 8);
  return out;
}
// Arrow's type of a column of core/table_columns.h: [Type union id, the type table's fields].
const IPC_TYPES = {
  int64: [2, [[0, 'i32', 64], [1, 'bool', 1]]],
  float64: [3, [[0, 'i16', 2]]],
  bool: [6, []],
  timestamp: [10, [[0, 'i16', 2], [1, 'offset', (f) => flatString(f, 'UTC')]]],
  string: [5, []],
};
// The schema message of table `table`'s columns; throws, naming the column, its type and the table,
// for a type IPC_TYPES does not know (its buffers would not be that of any type written here).
function ipcSchema(table, columns) {
  const unknown = columns.find((c) => !Object.prototype.hasOwnProperty.call(IPC_TYPES, c.type));
  if (unknown) throw new Error(`table ${table}: column ${unknown.name} has type '${unknown.type}', which the Arrow writer (worker.js IPC_TYPES) does not know`);
  const field = (c) => (f) => {
    const [typeId, typeFields] = IPC_TYPES[c.type];
    return flatTable(f, [[0, 'offset', (g) => flatString(g, c.name)], [1, 'bool', 1], [2, 'u8', typeId],
      [3, 'offset', (g) => flatTable(g, typeFields)], [5, 'offset', (g) => flatTables(g, [])]]);
  };
  return ipcMessage(1, (f) => flatTable(f, [[1, 'offset', (g) => flatTables(g, columns.map(field))]]), 0);
}
// One batch (embind.cpp's description of it) as an IPC stream; `schema` is ipcSchema's message.
function ipcStream(schema, d, heap) {
  const spans = [];
  for (const c of d.columns) {
    spans.push(c.nulls ? c.validity : [0, 0]);
    if (c.offsets) spans.push(c.offsets);
    spans.push(c.data);
  }
  let body = 0;
  const buffers = spans.map(([, len]) => { const at = body; body += Math.ceil(len / 8) * 8; return [at, len]; });
  const nodes = d.columns.map((c) => [d.rows, c.nulls]);
  const head = ipcMessage(3, (f) => flatTable(f, [[0, 'i64', d.rows], [1, 'offset', (g) => flatPairs(g, nodes)],
    [2, 'offset', (g) => flatPairs(g, buffers)]]), body);
  const out = new Uint8Array(schema.length + head.length + body + 8);
  out.set(schema, 0);
  out.set(head, schema.length);
  const start = schema.length + head.length;
  spans.forEach(([ptr, len], i) => { if (len) out.set(heap.subarray(ptr, ptr + len), start + buffers[i][0]); });
  new DataView(out.buffer).setInt32(start + body, -1, true);
  return out;
}

// The columns of table `name` as session.tables lists them ([{name, type, …}]), or an error's text.
// The list is asked once per session state (the SQL panel registers every table in turn); a followed
// input's next read may change it, so follow() forgets it.
function tableColumns(name) {
  if (!live.tables) {
    const a = JSON.parse(answer({ method: 'session.tables' }));
    if (a.error !== undefined) return { error: a.error };
    live.tables = a.result;
  }
  const table = live.tables.find((t) => t.name === name);
  return table ? { columns: table.columns } : { error: `no table named '${name}' (session.tables lists them)` };
}

// Why batch number `index` (from 1) of table `table` does not fit the table's columns (the schema
// its streams carry), or null: each of its columns must be the schema's, in order, of the same type.
function batchMismatch(table, columns, d, index) {
  if (d.columns.length !== columns.length) return `table ${table}: batch ${index} has ${d.columns.length} columns, its schema ${columns.length}`;
  const k = d.columns.findIndex((c, i) => c.name !== columns[i].name || c.type !== columns[i].type);
  if (k < 0) return null;
  const got = d.columns[k], want = columns[k];
  return `table ${table}: batch ${index} has column ${got.name} of type '${got.type}' where its schema has ${want.name} of type '${want.type}'`;
}

// The rows of one table (wasm/core/tables.h), batch by batch, each batch an Arrow IPC stream
// (ipcStream) transferred to the page, which hands it to DuckDB-wasm (see web/sql/). Every stream
// carries the schema of the table's columns as session.tables lists them, so each batch is checked
// against it. Returns {json, timings}: json the engine's answer {"result": {"rows"}} as it gave it,
// timings the worker's (sent beside the answer, not written into it); or an {"error"} naming the
// table, and the column when a column's type has no Arrow writer here (no batch is sent then) or a
// batch's column is not the schema's (the batches before it were sent). An error is kept rather
// than thrown in the callback: it would unwind through the engine's frames.
function tableBatches(msg) {
  if (!live) return { json: JSON.stringify({ error: 'this analysis is no longer in memory: open the input again to ask it more' }) };
  const { M, session } = live;
  try {
    const t0 = performance.now();
    const name = String(msg.name || '');
    const table = tableColumns(name);
    if (table.error !== undefined) return { json: JSON.stringify({ error: table.error }) };
    let schema;
    try { schema = ipcSchema(name, table.columns); } catch (err) { return { json: JSON.stringify({ error: err.message }) }; }
    let sendMs = 0, batches = 0, failure = null;
    const json = session.writeTableBatches(name, msg.batchRows | 0, (text) => {
      if (failure) return;
      const t1 = performance.now();
      const d = JSON.parse(text);
      failure = batchMismatch(name, table.columns, d, ++batches);
      if (failure) return;
      const ipc = ipcStream(schema, d, M.HEAPU8);
      postMessage({ type: 'table-batch', id: msg.id, batch: { rows: d.rows, ipc } }, [ipc.buffer]);
      sendMs += performance.now() - t1;
    });
    if (failure) return { json: JSON.stringify({ error: failure }) };
    // The worker's time for the whole table (writing the rows, the streams, sending them) and for
    // the streams and sending only, for the SQL benchmark.
    return { json, timings: { ms: performance.now() - t0, sendMs } };
  } catch (err) {
    return { json: JSON.stringify({ error: 'internal error: ' + String((err && err.message) || err) }) };
  }
}

// The words for a page of another build (see BUILD), or null. A message that names no build is of
// another build when it brings a module (every built page names its build), and otherwise is from a
// page script or test that runs the worker directly.
function otherBuild(msg) {
  if (!BUILT || msg.build === BUILD) return null;
  const page = typeof msg.build === 'string' && msg.build ? msg.build.slice(0, 12) : null;
  if (!page && !msg.module) return null;  // a page script or test that names no build and brings no module
  return `this page (${page ? 'build ' + page : 'an earlier build'}) and its analysis worker (build ${BUILD.slice(0, 12)}) ` +
    'are of different builds, as when gcscope is updated while a page is open. Reload the page to run one build ' +
    '(a reload does not keep the results shown on this page).';
}

self.onmessage = (e) => {
  const msg = e.data || {};
  const stale = (msg.type === 'analyze' || msg.type === 'ping') && otherBuild(msg);
  if (stale) {
    postMessage({ type: 'error', stale: true, message: stale });
  } else if (msg.type === 'analyze') {
    analyze(msg).catch((err) => {
      if (err instanceof TooBig) {
        postMessage({ type: 'error', tooBig: { estimate: err.estimate, limit: err.limit, total: err.total }, message: err.message });
        return;
      }
      const text = String((err && err.message) || err);
      const oom = refused || OOM_TEXT.test(text) || err instanceof RangeError;
      postMessage({ type: 'error', oom, message: oom ? oomMessage(null, text) : text });
    });
  } else if (msg.type === 'query') {
    postMessage({ type: 'answer', id: msg.id, json: answer(msg) });
  } else if (msg.type === 'follow') {
    follow(msg).then((json) => postMessage({ type: 'answer', id: msg.id, json }));
  } else if (msg.type === 'table') {
    const { json, timings } = tableBatches(msg);
    postMessage({ type: 'answer', id: msg.id, json, timings });
  } else if (msg.type === 'release') {
    if (live) { live.session.delete(); live = null; }
  } else if (msg.type === 'reader') {
    connectReader(msg.port);
  } else if (msg.type === 'reader-failed') {
    if (readerLink) {
      readerLink.failed = msg.message || 'the reader worker stopped';
      readerLink.notify();
    }
  } else if (msg.type === 'ping') {
    loadModule(msg.module).then((M) => postMessage({ type: 'pong', version: M.version() }),
      (err) => postMessage({ type: 'error', message: 'the analyzer could not start: ' + err }));
  }
};
