// The page: collects files (drop, picker, folder picker, samples), runs each collection as one job
// in its own worker, and renders what comes back — the inputs with their identification and errors,
// then one panel per report through the view registered for its format.
'use strict';
(function () {
  const { el, fmt } = GCSCOPE.ui;
  const jobsBox = document.getElementById('jobs');
  const SHOW_PROGRESS_BYTES = 1024 * 1024;  // below this a job finishes before a bar would mean anything
  // ?max_memory_mb=N caps each job's WebAssembly memory (default: the 4 GB maximum). For dashboards
  // that must bound a frame's memory, and for the tests, which reach an out-of-memory this way.
  const maxMemoryMb = Number(new URLSearchParams(location.search).get('max_memory_mb'));
  const LIMITS = Number.isInteger(maxMemoryMb) && maxMemoryMb >= 32 && maxMemoryMb <= 4096 ? { maxMemoryBytes: maxMemoryMb * 1024 * 1024 } : {};
  let jobCounter = 0;

  // Format titles come from the engine's registry (each report names its format's title; a worker
  // sends the whole list with its first answer), never from a table of the page's own.
  const formatTitles = new Map();
  const formatMethods = new Map();
  function learnTitles(list) {
    for (const f of list || []) {
      if (f && typeof f.id === 'string' && typeof f.title === 'string') formatTitles.set(f.id, f.title);
      if (f && typeof f.id === 'string' && Array.isArray(f.methods)) formatMethods.set(f.id, f.methods);
    }
  }
  GCSCOPE.formatTitle = (id) => formatTitles.get(id) || id;
  // The query methods a format's session answers (null until a worker has sent the registry).
  GCSCOPE.formatMethods = (id) => formatMethods.get(id) || null;

  // Trusted Types: the page's CSP (require-trusted-types-for 'script') refuses strings as script URLs
  // and HTML. This one policy is how the page starts scripts of its own: workers (and their vendored
  // libraries) from this site's own folder, nothing else; no policy makes HTML, so every HTML sink
  // stays closed. (The service worker, sw.js, is registered through it too: see embed.js.)
  const SCRIPT_URLS = [/^(?:[a-z]+\/)*[a-z]+\.js$/, /^vendor\/[\w./-]+\.js$/, /^sql\/vendor\/[\w.-]+\.js$/];
  const scriptPolicy = typeof trustedTypes !== 'undefined' && trustedTypes.createPolicy
    ? trustedTypes.createPolicy('gcscope', {
      createScriptURL(url) {
        const u = new URL(url, location.href);
        const here = new URL('.', location.href);
        const rel = u.href.startsWith(here.href) ? u.pathname.slice(here.pathname.length) : null;
        if (u.origin !== location.origin || rel === null || !SCRIPT_URLS.some((re) => re.test(rel))) {
          throw new TypeError('gcscope: refused to load a script from ' + url);
        }
        return url;
      },
    })
    : null;
  GCSCOPE.scriptURL = (url) => (scriptPolicy ? scriptPolicy.createScriptURL(url) : url);

  // ---- Collecting files -------------------------------------------------------------------

  // Walks a dropped folder (FileSystemDirectoryEntry) into [{path, blob}] in name order.
  async function filesFromEntry(entry, prefix) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      return [{ path: prefix + entry.name, blob: file }];
    }
    if (!entry.isDirectory) return [];
    const reader = entry.createReader();
    const children = [];
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      children.push(...batch);
    }
    children.sort((a, b) => a.name.localeCompare(b.name));
    const out = [];
    for (const c of children) out.push(...await filesFromEntry(c, prefix + entry.name + '/'));
    return out;
  }

  async function filesFromDataTransfer(dt) {
    const items = dt.items ? Array.from(dt.items) : [];
    const entries = items.map((it) => (it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
    if (entries.length && entries.every(Boolean)) {
      const out = [];
      for (const e of entries) out.push(...await filesFromEntry(e, ''));
      return out;
    }
    return Array.from(dt.files || []).map((f) => ({ path: f.name, blob: f }));
  }

  function filesFromInput(input) {
    return Array.from(input.files || []).map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  // ---- Jobs ---------------------------------------------------------------------------------

  // One compiled wasm module for the page's life, handed to every analysis worker (worker.js
  // instantiates it instead of compiling its own). Why: V8 compiles a module's hot functions a second
  // time, with its optimizing compiler, while they run (dynamic tiering), and that code belongs to the
  // compiled module. A worker with a module of its own starts cold every job: the parsers' hot paths
  // are recompiled during each parse, on another thread that a 2-core machine takes from the parse.
  // Shared, only the page's first analysis pays for it. If the page cannot compile the module, each
  // worker loads its own.
  // Compiled on first use: a saved HTML report starts no worker and fetches nothing.
  let wasmModule = null;
  // The files that must be of the page's build (the module, its glue, the workers) are asked for under
  // its name (gcscope.wasm?v=BUILD_ID): the service worker answers them from that build's cache, so a
  // page still open after a new build took over keeps starting workers of its own build (see sw.js).
  const versioned = (file) => (GCSCOPE.build ? file + '?v=' + GCSCOPE.build : file);
  GCSCOPE.versioned = versioned;
  function sharedModule() {
    if (!wasmModule) wasmModule = compileModule();
    return wasmModule;
  }
  // The module's URL names its build (gcscope.wasm?v=BUILD_ID): the service worker answers it from
  // its cache first (see sw.js), so the cached copy must be the build's own, which the name (and the
  // service worker's check of its SHA-1) makes sure of. Why cache first: V8 keeps a module's optimized code
  // beside a response it compiled (its code cache, written once enough of the module is optimized,
  // which the page's warm-up does), and a Cache Storage entry keeps it until the next deployment, so
  // a returning visit's first file runs as fast as a next one. A module revalidated through the
  // network (a 304, as hosts answer once max-age runs out) loses V8's code cache.
  async function compileModule() {
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.compile !== 'function') return null;
    try {
      const response = await fetch(versioned('gcscope.wasm'), { credentials: 'same-origin' });
      if (!response.ok) return null;
      if (typeof WebAssembly.compileStreaming === 'function') {
        try {
          return await WebAssembly.compileStreaming(response.clone());
        } catch (e) {
          // Served without the application/wasm type: compile the same bytes below.
        }
      }
      return await WebAssembly.compile(await response.arrayBuffer());
    } catch (e) {
      return null;
    }
  }

  // A new analysis worker; worker.send(msg) posts msg with the shared module once it is known
  // (messages keep their order). Unless opts.reader is false, a reader worker (reader.js) is started
  // beside it and joined to it by a MessageChannel: the analysis worker reads big inputs through it
  // (see openSliceSource in worker.js). worker.terminate() stops both.
  //
  // Why the page starts the reader, not the analysis worker (as a nested worker): in Debian's
  // Chromium, an analysis worker terminated a few milliseconds after it has itself terminated a nested
  // worker may never finish shutting down; its thread stays, with its wasm memory, and no longer
  // answers. Jobs that end early (out of memory, a big file no analyzer claims) end that way.
  //
  // Both are asked for under the page's build (see versioned). Every message carries the build too: a
  // worker of another build (no longer cached, so from the server) refuses the job and asks for a reload.
  function newAnalysisWorker(opts) {
    const worker = new Worker(GCSCOPE.scriptURL(versioned('worker.js')));
    let reader = null;
    if (!opts || opts.reader !== false) {
      try {
        reader = new Worker(GCSCOPE.scriptURL(versioned('reader.js')));
        const channel = new MessageChannel();
        reader.postMessage({ type: 'connect', port: channel.port2 }, [channel.port2]);
        worker.postMessage({ type: 'reader', port: channel.port1 }, [channel.port1]);
        // A reader that cannot start (reader.js not served) or dies: the analysis worker reads itself.
        reader.onerror = (e) => {
          e.preventDefault();
          worker.postMessage({ type: 'reader-failed', message: (e && e.message) || 'the reader worker stopped' });
        };
      } catch (e) {
        if (reader) reader.terminate();  // started, but the channel could not be set up
        reader = null;
      }
    }
    worker.failed = false;
    worker.addEventListener('error', () => {
      worker.failed = true;
      if (worker === spareWorker) document.documentElement.dataset.spareWorker = 'failed';  // for the tests
    });
    const terminate = worker.terminate.bind(worker);
    worker.terminate = () => {
      terminate();
      if (reader) reader.terminate();
    };
    worker.send = (msg) => {
      const withBuild = GCSCOPE.build ? Object.assign({ build: GCSCOPE.build }, msg) : msg;
      sharedModule().then((module) => worker.postMessage(module ? Object.assign({ module }, withBuild) : withBuild));
    };
    return worker;
  }
  GCSCOPE.newAnalysisWorker = newAnalysisWorker;

  // Starting a worker costs fetching and compiling the wasm module when it compiles its own, and an
  // instantiation when it shares the page's: most of the wait for a small file. One spare
  // worker is kept warm (a ping makes it load the module) and a job takes it. The next spare is
  // started when a job ends, so warming never competes with a running analysis.
  let spareWorker = null;
  function warmSpareWorker() {
    if (spareWorker || GCSCOPE.staticReport) return;
    spareWorker = newAnalysisWorker();
    document.documentElement.dataset.spareWorker = 'started';
    spareWorker.send({ type: 'ping' });
  }
  // A spare whose script could not be loaded (offline with nothing cached, a server gone) has already
  // had its error event, before any job listened: a job that took it would wait forever. It is
  // replaced by a new worker, whose error (if any) comes after the job's handlers are set.
  function takeWorker() {
    let worker = spareWorker;
    spareWorker = null;
    if (worker && worker.failed) {
      worker.terminate();
      worker = null;
    }
    return worker || newAnalysisWorker();
  }

  // Warming the optimizing tier while the page waits for a file. The module's hot functions are
  // compiled again by TurboFan while they run, and that code stays with the shared module (see
  // sharedModule), so it is the page's first analysis that pays, and on a big log that is a large
  // share of its time. Analyzing the bundled samples (small real files of every format) in a worker
  // of their own once the page is idle gets those compiles done before a file comes. The warming worker is
  // stopped as soon as a job starts (what it compiled so far is kept), and it never starts on a page
  // that has run a job, on a saved report, or when memory is capped (?max_memory_mb) or ?warmup=0.
  // On <html>, for the tests and the benchmark: data-warm-up ('running', then 'done' or 'stopped'),
  // data-warm-up-inputs (samples analyzed) and data-warm-up-ms.
  const warming = { worker: null, started: false, samples: null, analyzed: 0 };
  function startWarmUp() {
    if (warming.started || jobCounter || GCSCOPE.staticReport || LIMITS.maxMemoryBytes) return;
    if (new URLSearchParams(location.search).get('warmup') === '0') return;
    warming.started = true;
    const worker = warming.worker = newAnalysisWorker({ reader: false });  // the samples are small
    const root = document.documentElement;
    root.dataset.warmUp = 'running';
    const t0 = performance.now();
    const names = warming.samples.slice();
    const next = async () => {
      if (warming.worker !== worker) return;
      const name = names.shift();
      if (!name) {
        root.dataset.warmUp = 'done';
        root.dataset.warmUpMs = String(Math.round(performance.now() - t0));
        stopWarmUp(true);
        return;
      }
      try {
        const blob = await fetchSample(name);
        if (warming.worker === worker) worker.send({ type: 'analyze', files: [{ path: name, blob }], options: {} });
      } catch (e) {
        next();  // a sample that cannot be fetched is skipped: warming is only an optimization
      }
    };
    // One sample at a time: the worker's reply to each (result or error) asks for the next.
    worker.onmessage = (e) => {
      const type = e.data && e.data.type;
      if (type === 'result') root.dataset.warmUpInputs = String(++warming.analyzed);
      if (e.data && e.data.stale) stopWarmUp(false);  // a worker of another build: nothing to warm
      else if (type === 'result' || type === 'error') next();
    };
    worker.onerror = (e) => { e.preventDefault(); stopWarmUp(false); };
    next();
  }
  function stopWarmUp(finished) {
    if (!warming.worker) return;
    warming.worker.terminate();
    warming.worker = null;
    if (!finished) document.documentElement.dataset.warmUp = 'stopped';
  }
  // Once the sample list is known and the page has nothing better to do.
  function warmUpWhenIdle(sampleNames) {
    warming.samples = sampleNames;
    const go = () => startWarmUp();
    if (typeof requestIdleCallback === 'function') requestIdleCallback(go, { timeout: 2000 });
    else setTimeout(go, 500);
  }

  // ---- Live sessions ------------------------------------------------------------------------
  // A finished job keeps its worker, and in it the engine's session: the views ask it questions
  // (ctx.query → {id, method, args} → {id, result} | {id, error}, wasm/core/query.h) instead of
  // computing anything themselves. Sessions hold their inputs' data, so the page keeps at most
  // MAX_LIVE_SESSIONS of them and at most MAX_LIVE_HEAP bytes of wasm memory in all; past that the
  // oldest is released, and its card says so (what it shows stays; new questions need a new analysis).
  const MAX_LIVE_SESSIONS = 8;
  const MAX_LIVE_HEAP = 3 * 1024 * 1024 * 1024;
  const liveEngines = [];
  // Answers a saved HTML report carries: the questions the page had asked when it was saved.
  const MAX_RECORDED_ANSWERS_BYTES = 8 * 1024 * 1024;
  const answerKey = (method, args) => method + ' ' + JSON.stringify(args || {});

  class QueryError extends Error {}
  GCSCOPE.QueryError = QueryError;

  function makeEngine(worker, onRelease) {
    const pending = new Map();
    const recorded = new Map();
    let recordedBytes = 0, nextId = 0, released = null;
    const engine = {
      heapBytes: 0,
      get released() { return released; },
      answers: () => Object.fromEntries(recorded),
      query(method, args) {
        if (released) return Promise.reject(new QueryError(released));
        const id = ++nextId;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject, key: answerKey(method, args) });
          worker.postMessage({ type: 'query', id, method, args: args || {} });
        });
      },
      // The rows of one table as Arrow IPC streams (worker.js tableBatches; web/sql/ registers them in
      // DuckDB): onBatch({rows, ipc}) for each, then the promise resolves to {rows, ms, sendMs}.
      table(name, onBatch, batchRows) {
        if (released) return Promise.reject(new QueryError(released));
        const id = ++nextId;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject, onBatch, key: null });
          worker.postMessage({ type: 'table', id, name, batchRows });
        });
      },
      // A followed file as it is now (web/lib/follow.js, worker.js follow): resolves to the new document.
      follow(file) {
        if (released) return Promise.reject(new QueryError(released));
        const id = ++nextId;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject, key: null });
          worker.postMessage({ type: 'follow', id, file });
        });
      },
      onAnswer(m) {
        const p = pending.get(m.id);
        if (!p) return;
        if (m.type === 'table-batch') { p.onBatch(m.batch); return; }
        pending.delete(m.id);
        const a = JSON.parse(m.json);
        if (a.error !== undefined) { p.reject(new QueryError(a.error)); return; }
        if (p.key !== null && recordedBytes + m.json.length <= MAX_RECORDED_ANSWERS_BYTES && !recorded.has(p.key)) {
          recorded.set(p.key, a.result);
          recordedBytes += m.json.length;
        }
        // A table's answer comes with the worker's timings beside it: {rows, ms, sendMs}.
        p.resolve(m.timings ? Object.assign(a.result, m.timings) : a.result);
      },
      release(reason) {
        if (released) return;
        released = reason;
        worker.terminate();
        for (const p of pending.values()) p.reject(new QueryError(reason));
        pending.clear();
        const at = liveEngines.indexOf(engine);
        if (at >= 0) liveEngines.splice(at, 1);
        if (onRelease) onRelease(reason);
      },
    };
    return engine;
  }

  function keepLive(engine) {
    liveEngines.push(engine);
    const heap = () => liveEngines.reduce((sum, e) => sum + e.heapBytes, 0);
    while (liveEngines.length > 1 && (liveEngines.length > MAX_LIVE_SESSIONS || heap() > MAX_LIVE_HEAP)) {
      liveEngines[0].release(`its analysis was released from memory to make room for newer ones (at most ${MAX_LIVE_SESSIONS} ` +
        `analyses, ${fmt.bytes(MAX_LIVE_HEAP)} of engine memory, stay live)`);
    }
  }

  // A saved report's engine: the answers recorded when it was saved, nothing more.
  function savedEngine(answers) {
    return {
      released: null,
      answers: () => answers || {},
      query(method, args) {
        const key = answerKey(method, args);
        if (answers && Object.prototype.hasOwnProperty.call(answers, key)) return Promise.resolve(answers[key]);
        return Promise.reject(new QueryError('a saved report holds only what was shown when it was saved: open the input in gcscope to ask more'));
      },
    };
  }

  function startJob(files, options, hooks) {
    if (!files.length) return null;
    stopWarmUp(false);
    hooks = hooks || {};
    const id = ++jobCounter;
    const total = files.reduce((s, f) => s + f.blob.size, 0);
    const card = el('article', { class: 'job', dataset: { job: String(id) } });
    const title = files.length === 1 ? files[0].path : `${files.length} files`;
    const status = el('span', { class: 'job-status', text: 'Analyzing…' });
    const cancel = el('button', { type: 'button', class: 'gs-small job-cancel', text: 'Cancel' });
    const close = el('button', { type: 'button', class: 'gs-small job-close', text: 'Close', title: 'Remove this result from the page' });
    const progress = el('progress', { max: total || 1, value: 0 });
    const progressText = el('span', { class: 'progress-text', text: `0 / ${fmt.bytes(total)}` });
    const progressRow = el('div', { class: 'progress-row' }, progress, progressText);
    if (total < SHOW_PROGRESS_BYTES) progressRow.hidden = true;
    const body = el('div', { class: 'job-body' });
    card.append(el('header', { class: 'job-head' }, el('h2', { class: 'job-title', text: title, title: files.map((f) => f.path).join('\n') }),
      el('span', { class: 'job-size', text: fmt.bytes(total) }), status, cancel, close), progressRow, body);
    jobsBox.prepend(card);

    const worker = takeWorker();
    let finished = false;
    let engine = null;
    // keepWorker: the job's report came and its session stays in the worker for the views' questions.
    const finish = (text, cls, keepWorker) => {
      finished = true;
      status.textContent = text;
      status.className = 'job-status ' + (cls || '');
      cancel.remove();
      progressRow.hidden = true;
      if (!keepWorker) worker.terminate();
      warmSpareWorker();
    };
    const onRelease = (reason) => {
      card.dataset.engine = 'released';
      body.prepend(el('p', { class: 'muted job-released', text: 'This result stays as shown, but ' + reason +
        '. To zoom, page or compare it again, analyze the input again.' }),
        el('button', { type: 'button', class: 'gs-small job-retry', text: 'Analyze again', on: { click: () => startJob(files, options, hooks) } }));
    };
    cancel.addEventListener('click', () => {
      if (finished) return;
      finish('Cancelled', 'cancelled');
      body.appendChild(el('p', { class: 'muted', text: 'Analysis cancelled; nothing was kept.' }));
      if (hooks.onError) hooks.onError('cancelled by the user');
    });
    close.addEventListener('click', () => {
      if (!finished) finish('Cancelled');
      if (engine) engine.release('the result was closed');
      card.remove();
      GCSCOPE.charts.release();
    });
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'answer' || m.type === 'table-batch') { if (engine) engine.onAnswer(m); return; }
      if (finished) return;
      if (m.type === 'progress') {
        progress.value = m.done;
        progressText.textContent = `${fmt.bytes(m.done)} / ${fmt.bytes(m.total)}`;
        if (hooks.onProgress) hooks.onProgress(m.done, m.total);
      } else if (m.type === 'result') {
        const doc = JSON.parse(m.json);
        if (m.formats) learnTitles(JSON.parse(m.formats));
        const rejected = doc.reports.length === 0;
        const partial = doc.reports.some((r) => r.partial === true);
        if (m.oom) finish('Out of memory', 'failed');
        else finish(rejected ? 'Not recognized' : partial ? 'Done (partial)' : 'Done', rejected ? 'failed' : 'done', !rejected);
        if (!m.oom && !rejected) {
          engine = makeEngine(worker, onRelease);
          engine.heapBytes = m.stats ? m.stats.wasm_heap_bytes : 0;
          card.gcscopeEngine = engine;
          card.dataset.engine = 'live';
          keepLive(engine);
          offerSql(card);
        }
        if (m.oom) outOfMemory(m.oom, partial);
        card.gcscopeDoc = doc;
        if (m.stats) {
          card.dataset.wasmHeapBytes = String(m.stats.wasm_heap_bytes);
          card.dataset.analysisMs = String(Math.round(m.stats.analysis_ms));
          card.dataset.wasmModule = m.stats.module || '';
          card.dataset.workerBuild = m.stats.build || '';
        }
        renderDocument(body, doc, files, engine);
        if (engine && hooks.followHandle && GCSCOPE.follow) {
          GCSCOPE.follow.attach({ card, engine, handle: hooks.followHandle, render: (next, file) => {
            const y = window.scrollY;
            files[0].blob = file;  // the file as read: finding links read their lines from it
            card.gcscopeDoc = next;
            body.replaceChildren();
            GCSCOPE.charts.release();
            renderDocument(body, next, files, engine);
            window.scrollTo(0, y);
          } });
        }
        card.dispatchEvent(new CustomEvent('gcscope:result', { bubbles: true, detail: { doc } }));
        if (hooks.onResult) hooks.onResult(doc);
      } else if (m.type === 'error') {
        finish(m.oom ? 'Out of memory' : 'Failed', 'failed');
        if (m.oom) outOfMemory(m.message, false);
        else if (m.tooBig) tooBig(m.tooBig, m.message);
        else if (m.stale) {
          card.dataset.stale = 'true';
          body.appendChild(el('div', { class: 'job-stale' }, el('p', { class: 'error', text: m.message }),
            el('button', { type: 'button', class: 'gs-small job-reload', text: 'Reload the page', on: { click: () => location.reload() } })));
        } else body.appendChild(el('p', { class: 'error', text: 'The analysis failed: ' + m.message }));
        if (hooks.onError) hooks.onError(m.message, { stale: !!m.stale });
      }
    };
    // Too big for this page (the worker knew from the first slice): say so at once, offer the format's
    // lighter analysis when it fits, and give the command that analyzes it natively, with no limit.
    function tooBig(info, message) {
      card.dataset.tooBig = 'true';
      const names = files.map((f) => (/^[\w./-]+$/.test(f.path) ? f.path : "'" + f.path.replace(/'/g, "'\\''") + "'"));
      const lighter = info.estimate.lighter;
      const fits = lighter && lighter.bytes <= info.limit;
      const sets = fits ? Object.entries(lighter.options).map(([k, v]) => ` --set ${k}=${JSON.stringify(v)}`).join('') : '';
      body.appendChild(el('div', { class: 'job-too-big' },
        el('p', { class: 'error', text: `Too big for the browser: ${message}. Nothing was analyzed beyond the first megabyte.` }),
        fits ? el('p', {}, `What still fits: ${lighter.what} (about ${fmt.bytes(lighter.bytes)}). `,
          el('button', { type: 'button', class: 'gs-small job-lighter', text: 'Analyze that instead',
            on: { click: () => startJob(files, Object.assign({}, options, lighter.options), hooks) } })) : null,
        el('p', { text: 'The command-line tool has no such limit and writes the same report:' }),
        GCSCOPE.ui.copyBlock('gcscope analyze ' + names.join(' ') + ' --html report.html > report.json'),
        fits ? GCSCOPE.ui.copyBlock('gcscope analyze ' + names.join(' ') + sets + ' > report.json') : null));
    }
    // The job's worker is stopped (finish terminates it) and nothing else on the page is touched; a
    // new job, or "Analyze again", runs in a fresh worker with a fresh WebAssembly memory.
    function outOfMemory(message, partial) {
      body.appendChild(el('div', { class: 'job-oom' },
        el('p', { class: 'error', text: 'The analysis ran ' + message }),
        el('p', { class: 'muted', text: (partial ? 'The results below are partial. ' : '') + 'Its worker was stopped; other results on this page are unaffected.' }),
        el('button', { type: 'button', class: 'gs-small job-retry', text: 'Analyze again in a new worker', on: { click: () => startJob(files, options, hooks) } })));
    }
    worker.onerror = (e) => {
      if (engine && !engine.released) {
        e.preventDefault();
        engine.release('its analysis worker stopped (' + (e.message || 'out of memory?') + ')');
        return;
      }
      if (finished) return;
      e.preventDefault();
      finish('Failed', 'failed');
      const why = 'The analysis worker stopped (' + (e.message || 'out of memory?') + '). Other results on this page are unaffected.';
      body.appendChild(el('p', { class: 'error', text: why }));
      if (hooks.onError) hooks.onError(why);
    };
    const assumed = GCSCOPE.testHooks && GCSCOPE.testHooks.assumeInputBytes;
    worker.send({ type: 'analyze', files, options: options || {}, limits: assumed ? Object.assign({ assumeInputBytes: assumed }, LIMITS) : LIMITS });
    return card;
  }
  GCSCOPE.startJob = startJob;

  // ---- SQL over the jobs' tables (web/sql/: DuckDB-wasm, loaded when a panel is first opened) ----
  let sqlLoading = null;
  function loadSql() {
    const load = (src) => new Promise((resolve, reject) => {
      document.head.appendChild(el('script', { src: GCSCOPE.scriptURL(src), on: { load: resolve, error: () => reject(new Error('could not load ' + src)) } }));
    });
    if (!sqlLoading) {
      sqlLoading = load('sql/examples.js').then(() => load('sql/panel.js')).then(() => GCSCOPE.sql);
      sqlLoading.catch(() => { sqlLoading = null; });
    }
    return sqlLoading;
  }
  GCSCOPE.loadSql = loadSql;
  const sqlAll = el('button', { type: 'button', class: 'gs-small sql-open-all', text: 'SQL across jobs', hidden: true,
    title: 'Query the tables of every open job with SQL (DuckDB)', on: { click: () => loadSql().then((sql) => sql.open(null)) } });
  const jobTools = el('div', { class: 'jobs-tools' }, sqlAll);
  jobsBox.before(jobTools);
  // The timeline across jobs (web/lib/timeline.js), offered while two or more jobs are live.
  if (GCSCOPE.timeline && !GCSCOPE.staticReport) GCSCOPE.timeline.offer(jobTools, jobsBox);
  let sqlLinkOpened = false;
  // A live job: its SQL button, and the panel a link's fragment names (#sql=...&sqljob=...).
  function offerSql(card) {
    sqlAll.hidden = false;
    card.querySelector('.job-head').insertBefore(el('button', { type: 'button', class: 'gs-small job-sql', text: 'SQL',
      title: 'Query this job\'s tables with SQL (DuckDB)', on: { click: () => loadSql().then((sql) => sql.open(card)) } }),
    card.querySelector('.job-close'));
    if (!sqlLinkOpened && GCSCOPE.state && GCSCOPE.state.get('sql')) {
      loadSql().then((sql) => { if (!sqlLinkOpened && sql.openFromState()) sqlLinkOpened = true; });
    }
  }

  // ---- Rendering a document -----------------------------------------------------------------

  function errorsFor(doc, path) {
    return doc.errors.filter((e) => e.path === path || e.path.startsWith(path + '/'));
  }

  function errorText(e) {
    const where = [];
    if (e.line !== null && e.line !== undefined) where.push('line ' + e.line);
    if (e.offset !== null && e.offset !== undefined) where.push('byte ' + e.offset);
    return (e.severity === 'warning' ? 'Warning' : 'Error') + (where.length ? ' at ' + where.join(', ') : '') + ': ' + e.message;
  }

  function renderInputs(doc) {
    const rows = [];
    for (const input of doc.inputs) {
      rows.push({ ...input, depth: 0 });
      for (const m of input.members || []) rows.push({ ...m, depth: 1 });
    }
    const tbody = el('tbody');
    for (const r of rows) {
      const ident = r.identification || {};
      const details = Object.entries(ident).filter(([k]) => k !== 'reason')
        .map(([k, v]) => `${k}: ${v === null ? 'unknown' : v}`).join(', ');
      const recognized = r.format !== 'unrecognized';
      const tr = el('tr', { class: recognized ? '' : 'unrecognized' },
        el('td', { class: 'path' + (r.depth ? ' member' : ''), text: r.path }),
        el('td', {}, el('span', { class: 'badge ' + (recognized ? 'ok' : 'bad'), text: recognized ? GCSCOPE.formatTitle(r.format) : 'unrecognized' })),
        el('td', { class: 'num', text: fmt.bytes(r.bytes) + (r.compression && r.compression !== 'none' ? ` (${r.compression})` : '') }),
        el('td', { class: 'why' }, el('span', { text: ident.reason || '' }), details ? el('span', { class: 'muted', text: ' — ' + details }) : null));
      tbody.appendChild(tr);
      if (!r.depth) {
        const errs = errorsFor(doc, r.path).filter((e) => !(r.members || []).length || e.path === r.path);
        for (const e of errs) tbody.appendChild(el('tr', { class: 'input-error' }, el('td', { colspan: 4, class: e.severity === 'warning' ? 'warning' : 'error', text: errorText(e) })));
      } else {
        for (const e of doc.errors.filter((x) => x.path === r.path)) {
          tbody.appendChild(el('tr', { class: 'input-error' }, el('td', { colspan: 4, class: e.severity === 'warning' ? 'warning' : 'error', text: errorText(e) })));
        }
      }
    }
    return el('table', { class: 'inputs' },
      el('thead', {}, el('tr', {}, el('th', { text: 'Input' }), el('th', { text: 'Format' }), el('th', { text: 'Size' }), el('th', { text: 'Identification' }))),
      tbody);
  }

  // The report's JSON, pretty-printed, in a closed <details>: built when it is first opened, because
  // stringifying a big report takes noticeable time (and garbage) for a view most people never open.
  function renderRawJson(report) {
    const limit = 200000;
    const pre = el('pre', { class: 'json' });
    const details = el('details', { class: 'raw-json' }, el('summary', { text: 'Report JSON' }),
      el('button', { type: 'button', class: 'gs-small', text: 'Download JSON', on: { click: () => GCSCOPE.ui.download('gcscope-report.json', 'application/json', JSON.stringify(report, null, 2)) } }),
      pre);
    details.addEventListener('toggle', () => {
      if (!details.open || pre.textContent) return;
      const text = JSON.stringify(report, null, 2);
      pre.textContent = text.length > limit ? text.slice(0, limit) + '\n… (truncated; download for the whole report)' : text;
    });
    return details;
  }

  // What a view may ask the engine about its report: ctx.query(method, args) resolves to the result
  // or rejects with a GCSCOPE.QueryError whose message is for the user.
  function queryFor(engine, doc, report) {
    const index = doc.reports.indexOf(report);
    return (method, args) => {
      if (!engine) return Promise.reject(new QueryError('no analysis engine for this report'));
      return engine.query(method, Object.assign({ report: index }, args || {}));
    };
  }

  function renderReport(report, doc, files, engine) {
    const view = GCSCOPE.views[report.format];
    const panel = el('section', { class: 'report', dataset: { format: report.format } });
    panel.appendChild(el('h3', { class: 'report-title' }, GCSCOPE.formatTitle(report.format),
      el('span', { class: 'muted', text: ' — ' + (report.inputs || []).join(', ') })));
    const container = el('div', { class: 'report-body' });
    panel.appendChild(container);
    if (view) {
      try {
        view.render(container, report, { doc, files, el, fmt, ui: GCSCOPE.ui, charts: GCSCOPE.charts, query: queryFor(engine, doc, report), engine });
      } catch (err) {
        container.appendChild(el('p', { class: 'error', text: 'This view failed to render: ' + err.message + '. The report data is below.' }));
      }
    } else {
      const ident = report.identification || {};
      container.appendChild(el('p', { class: 'muted', text: 'Identified: ' + (ident.reason || report.format) + '. Detailed analysis of this format is not available yet; the report data is below.' }));
    }
    panel.appendChild(renderRawJson(report));
    rememberSections(panel, report.format);
    focusPanel(panel);
    return panel;
  }

  // Which sections a reader opened or closed is kept per format in the URL fragment
  // (#open.<format>=-findings,+diary: '-' closed, '+' opened, against each section's default), so a
  // reload or a shared link opens the same ones.
  const sectionSlug = (d) => ((d.querySelector('summary') || d).textContent || '').toLowerCase()
    .replace(/\(.*?\)/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  function rememberSections(panel, format) {
    if (!GCSCOPE.state) return;
    const key = 'open.' + format;
    const sections = Array.from(panel.querySelectorAll('details.gs-section'));
    const defaults = new Map(sections.map((d) => [d, d.open]));
    const apply = (value) => {
      for (const item of (value || '').split(',')) {
        const want = item[0] === '+' ? true : item[0] === '-' ? false : null;
        if (want === null) continue;
        for (const d of sections) if (sectionSlug(d) === item.slice(1)) d.open = want;
      }
    };
    apply(GCSCOPE.state.get(key));
    for (const d of sections) {
      d.addEventListener('toggle', () => {
        const changed = sections.filter((x) => x.open !== defaults.get(x)).map((x) => (x.open ? '+' : '-') + sectionSlug(x));
        GCSCOPE.state.set(key, Array.from(new Set(changed)).join(',') || null);
      });
    }
  }

  // ?view=NAME (an embedding dashboard's "open one panel"): the sections of a report whose title or
  // heading contains NAME stay open and come first into view; with ?embed=1 the others are hidden.
  function focusPanel(panel) {
    const want = GCSCOPE.params && GCSCOPE.params.get('view');
    if (!want) return;
    const needle = want.toLowerCase().replace(/[-_]+/g, ' ');
    const sections = Array.from(panel.querySelectorAll('details.gs-section'));
    const match = sections.filter((d) => (d.querySelector('summary') || d).textContent.toLowerCase().includes(needle));
    if (!match.length) return;
    const embedded = document.documentElement.classList.contains('embed');
    for (const d of sections) {
      const hit = match.includes(d) || match.some((m) => m.contains(d) || d.contains(m));
      d.open = hit;
      if (embedded && !hit) d.hidden = true;
    }
    requestAnimationFrame(() => match[0].scrollIntoView({ block: 'start' }));
  }

  function renderDocument(body, doc, files, engine) {
    for (const r of doc.reports) if (r.title) formatTitles.set(r.format, r.title);
    if (!GCSCOPE.staticReport) {
      body.appendChild(el('div', { class: 'job-exports' },
        el('button', { type: 'button', class: 'gs-small', text: 'Download JSON report', on: { click: () => GCSCOPE.ui.download('gcscope-report.json', 'application/json', JSON.stringify(doc, null, 2)) } }),
        el('button', { type: 'button', class: 'gs-small', text: 'Save as HTML report', title: 'One self-contained file: opens offline in any browser',
          on: { click: () => {
            // With the timeline panel open over this job, the report keeps the panel (web/lib/timeline.js).
            const timeline = engine && GCSCOPE.timeline ? GCSCOPE.timeline.snapshot(engine) : null;
            GCSCOPE.exportHtml(engine ? Object.assign({}, doc, { answers: engine.answers() }, timeline ? { timeline } : {}) : doc);
          } } })));
    }
    body.appendChild(renderInputs(doc));
    const general = doc.errors.filter((e) => !doc.inputs.some((i) => e.path === i.path || e.path.startsWith(i.path + '/')));
    for (const e of general) body.appendChild(el('p', { class: 'error', text: (e.path ? e.path + ': ' : '') + errorText(e) }));
    for (const report of doc.reports) body.appendChild(renderReport(report, doc, files, engine));
  }
  GCSCOPE.renderDocument = renderDocument;

  // ---- Wiring -------------------------------------------------------------------------------

  // A saved HTML report carries its document: render it and stop (no worker, no drop zone).
  const embeddedData = document.getElementById('gcscope-data');
  if (embeddedData) {
    GCSCOPE.staticReport = true;
    const doc = JSON.parse(embeddedData.textContent);
    const body = el('div', { class: 'job-body' });
    jobsBox.appendChild(el('article', { class: 'job' }, el('header', { class: 'job-head' },
      el('h2', { class: 'job-title', text: doc.inputs.map((i) => i.path).join(', ') }),
      el('span', { class: 'job-status done', text: 'Saved report' })), body));
    renderDocument(body, doc, [], savedEngine(doc.answers));
    // The timeline panel open when the report was saved, drawn from its answers (web/lib/timeline.js).
    if (doc.timeline && GCSCOPE.timeline) GCSCOPE.timeline.openSaved(doc.timeline);
    return;
  }

  warmSpareWorker();
  const drop = document.getElementById('drop');
  const fileInput = document.getElementById('file-input');
  const folderInput = document.getElementById('folder-input');
  // A file dropped anywhere but the zone must not make the browser navigate away from the results.
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => e.preventDefault());
  drop.addEventListener('dragenter', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    startJob(await filesFromDataTransfer(e.dataTransfer));
  });
  document.getElementById('pick-files').addEventListener('click', () => fileInput.click());
  document.getElementById('pick-folder').addEventListener('click', () => folderInput.click());
  fileInput.addEventListener('change', () => { startJob(filesFromInput(fileInput)); fileInput.value = ''; });
  folderInput.addEventListener('change', () => { startJob(filesFromInput(folderInput)); folderInput.value = ''; });

  // Paste anywhere (outside a text field): the text is analyzed like a dropped file, identified from its
  // content (a GC log excerpt, folded stacks, bpftrace output, a TuneMyGC payload).
  document.addEventListener('paste', (e) => {
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const dt = e.clipboardData;
    if (!dt) return;
    if (dt.files && dt.files.length) {
      e.preventDefault();
      startJob(Array.from(dt.files).map((f) => ({ path: f.name, blob: f })));
      return;
    }
    const text = dt.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    const name = 'pasted-' + new Date().toISOString().slice(11, 19).replace(/:/g, '') + '.txt';
    startJob([{ path: name, blob: new File([text], name, { type: 'text/plain' }) }]);
  });

  // Samples bundled with the site (samples/samples.json), one click away.
  const samplesBox = document.getElementById('samples');
  const sampleName = (s) => s.path.split('/').pop();  // the build copies samples flat into samples/
  async function fetchSample(name) {
    const resp = await fetch('samples/' + encodeURIComponent(name));
    if (!resp.ok) throw new Error(`samples/${name}: HTTP ${resp.status}`);
    return resp.blob();
  }
  fetch('samples/samples.json').then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.status))))
    .then((list) => {
      warmUpWhenIdle(list.samples.map(sampleName));
      for (const s of list.samples) {
        const name = sampleName(s);
        const b = el('button', { type: 'button', class: 'sample', title: s.title, dataset: { sample: name } }, el('span', { text: s.title }));
        b.addEventListener('click', async () => {
          let blob;
          try {
            blob = await fetchSample(name);
          } catch (e) {
            // Not a job: a sample missing from this build is the site's fault, not an input's.
            samplesBox.appendChild(el('p', { class: 'error sample-error', text: `The sample could not be loaded (${e.message}).` }));
            return;
          }
          startJob([{ path: name, blob: new File([blob], name) }]);
        });
        samplesBox.appendChild(b);
      }
    })
    .catch(() => { samplesBox.appendChild(el('span', { class: 'muted', text: 'No samples in this build.' })); });

  if (window.parent !== window) document.documentElement.classList.add('in-frame');
})();
