// Embedding and sharing: URL parameters (?embed=1, ?view=, ?url=, ?origins=), the postMessage API
// for dashboards that put gcscope in an iframe, and the self-contained HTML export (deep-link state
// in the fragment is web/lib/state.js). Runs after app.js (GCSCOPE.startJob exists).
'use strict';
(function () {
  const { el } = GCSCOPE.ui;
  const params = new URLSearchParams(location.search);
  GCSCOPE.params = params;
  const MAX_NAME = 1024;

  function notice(text, cls) {
    const box = document.getElementById('jobs');
    if (!box) return;
    box.prepend(el('article', { class: 'job notice' }, el('p', { class: cls || 'error', text })));
  }

  // ---- ?embed=1: compact layout; the whole frame is a drop target ---------------------------
  if (params.get('embed') === '1') {
    document.documentElement.classList.add('embed');
    window.addEventListener('drop', (e) => {
      if (!e.dataTransfer || !e.dataTransfer.files.length) return;
      GCSCOPE.startJob(Array.from(e.dataTransfer.files).map((f) => ({ path: f.name, blob: f })));
    });
  }

  // ---- postMessage API ------------------------------------------------------------------------
  // Host → frame:  'PING' or {type:'gcscope:ping'}            → 'PONG' / {type:'gcscope:pong', version}
  //                {type:'gcscope:open', id?, name, buffer: ArrayBuffer, format?}
  //                {type:'gcscope:query', id?, job?, method, args?}  (job: an open's id; default the last one)
  //                {type:'gcscope:query', id?, sql}  SQL over every open job's tables (docs/TABLES.md)
  // Frame → host:  {type:'gcscope:progress', id, done, total}, {type:'gcscope:result', id, report},
  //                {type:'gcscope:answer', id, result}, {type:'gcscope:error', id, message}
  // Only the parent window is listened to (narrowed by ?origins=a,b when given); an opener window
  // is accepted only when its origin is in ?origins=. Everything else is ignored; nothing is eval'd.
  const allowed = (params.get('origins') || '').split(',').map((s) => s.trim()).filter(Boolean);
  function trusted(e) {
    if (window.parent !== window && e.source === window.parent) return allowed.length === 0 || allowed.includes(e.origin);
    return allowed.includes(e.origin) && window.opener && e.source === window.opener;
  }
  function validateOpen(m) {
    if (typeof m.name !== 'string' || m.name.length === 0 || m.name.length > MAX_NAME) return 'name must be a non-empty string of at most ' + MAX_NAME + ' characters';
    if (!(m.buffer instanceof ArrayBuffer)) return 'buffer must be an ArrayBuffer (transfer it: postMessage(msg, origin, [msg.buffer]))';
    // Whether the engine knows the format is for the engine to say: the job fails with its message.
    if (m.format !== undefined && (typeof m.format !== 'string' || !m.format)) return 'format must be a format id (a non-empty string)';
    if (m.id !== undefined && typeof m.id !== 'string' && typeof m.id !== 'number') return 'id must be a string or a number';
    return null;
  }
  window.addEventListener('message', (e) => {
    if (!trusted(e)) return;
    const m = e.data;
    const target = e.origin === 'null' ? '*' : e.origin;
    const reply = (msg) => e.source.postMessage(msg, target);
    if (m === 'PING') { reply('PONG'); return; }
    if (!m || typeof m !== 'object' || typeof m.type !== 'string' || !m.type.startsWith('gcscope:')) return;
    if (m.type === 'gcscope:ping') { reply({ type: 'gcscope:pong', version: GCSCOPE.version || '' }); return; }
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
    if (m.type === 'gcscope:query') { answerQuery(m, id, reply); return; }
    if (m.type !== 'gcscope:open') return;
    const problem = validateOpen(m);
    if (problem) { reply({ type: 'gcscope:error', id, message: 'invalid gcscope:open message: ' + problem }); return; }
    const card = GCSCOPE.startJob([{ path: m.name, blob: new Blob([m.buffer]) }], m.format ? { format: m.format } : {}, {
      onProgress: (done, total) => reply({ type: 'gcscope:progress', id, done, total }),
      onResult: (doc) => reply({ type: 'gcscope:result', id, report: doc }),
      // stale: the page and its worker are of different builds (see worker.js); reloading the frame helps.
      onError: (message, how) => reply(Object.assign({ type: 'gcscope:error', id, message }, how && how.stale ? { stale: true } : {})),
    });
    if (card) { openedJobs.set(id === null ? '' : String(id), card); lastOpened = card; }
  });

  // gcscope:query: the same questions the views ask (wasm/core/query.h), answered by the engine session
  // of an opened job. `job` names the id of its gcscope:open; without it, the last one opened.
  const openedJobs = new Map();
  let lastOpened = null;
  function answerQuery(m, id, reply) {
    const fail = (message) => reply({ type: 'gcscope:error', id, message });
    if (m.sql !== undefined) {
      // {sql}: SQL over the tables of every open job (each job's under j<N>, see web/sql/panel.js):
      // {columns, rows (at most 10,000), total}.
      if (typeof m.sql !== 'string' || !m.sql.trim() || m.sql.length > 100000) { fail('invalid gcscope:query message: sql must be a query'); return; }
      GCSCOPE.loadSql().then((sql) => sql.query(m.sql)).then((result) => reply({ type: 'gcscope:answer', id, result }), (err) => fail(String((err && err.message) || err)));
      return;
    }
    if (typeof m.method !== 'string' || !m.method || m.method.length > 200) { fail('invalid gcscope:query message: method must be a method name'); return; }
    if (m.args !== undefined && (m.args === null || typeof m.args !== 'object' || Array.isArray(m.args))) { fail('invalid gcscope:query message: args must be an object'); return; }
    const card = m.job === undefined ? lastOpened : openedJobs.get(String(m.job));
    const engine = card && card.gcscopeEngine;
    if (!engine) { fail(card ? 'that job has no result to ask yet (wait for its gcscope:result)' : 'no opened job ' + (m.job === undefined ? 'yet' : JSON.stringify(m.job))); return; }
    engine.query(m.method, m.args || {}).then((result) => reply({ type: 'gcscope:answer', id, result }), (err) => fail(err.message));
  }

  // ---- ?url=: load a stored file by URL ---------------------------------------------------------
  const url = params.get('url');
  if (url) {
    let target = null;
    try { target = new URL(url, location.href); } catch (err) { notice('The url parameter is not a valid URL: ' + url); }
    if (target && target.origin !== location.origin) {
      notice(`Cannot load ${target.href}: this page only fetches files from its own origin (${location.origin}); ` +
        'its Content-Security-Policy forbids any other connection so that nothing can leave your machine. Serve the file from the same origin.');
    } else if (target) {
      fetch(target.href, { credentials: 'same-origin' })
        .then((r) => {
          if (!r.ok) throw new Error(`the server answered ${r.status}${r.statusText ? ' ' + r.statusText : ''}`);
          return r.blob();
        })
        .then((blob) => GCSCOPE.startJob([{ path: decodeURIComponent(target.pathname.split('/').pop() || 'download'), blob }]))
        .catch((err) => notice(`Cannot load ${target.href}: ${err.message}`));
    }
  }

  // ---- Deep-link state in the fragment: web/lib/state.js (GCSCOPE.state), loaded with the views so
  // that a saved HTML report has it too.

  // ---- Self-contained HTML report -----------------------------------------------------------
  // One file: the document as JSON plus the viewer code and styles inlined, no worker and no network
  // (its own CSP allows nothing external), so it opens offline and can be attached to a ticket.
  async function text(path) {
    const r = await fetch(path);
    if (!r.ok) throw new Error(path + ': ' + r.status);
    return r.text();
  }
  // The template (web/report-template.html) is shared with the CLI's --html, which fills the same
  // placeholders; whatever is inlined must not close its <script>/<style> element early.
  const noCloseTag = (s) => s.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const escapeHtml = (s) => s.replace(/[<&>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
  GCSCOPE.buildHtmlReport = function (doc, assets) {
    const fill = {
      TITLE: escapeHtml('gcscope report — ' + doc.inputs.map((i) => i.path).join(', ')),
      STYLE: noCloseTag(assets.uplotCss + '\n' + assets.css),
      DATE: new Date().toISOString().slice(0, 19).replace('T', ' ') + ' UTC',
      DATA: JSON.stringify(doc).replace(/</g, '\\u003c'),
      SCRIPTS: noCloseTag(assets.uplot) + '\n' + noCloseTag(assets.bundle),
    };
    return assets.template.replace(/\{\{(TITLE|STYLE|DATE|DATA|SCRIPTS)\}\}/g, (_, k) => fill[k]);
  };
  GCSCOPE.exportHtml = async function (doc) {
    try {
      // Under the page's build's name (see GCSCOPE.versioned): a page left open across a deployment
      // inlines its own build's viewer, which reads the document it made, while that build is cached.
      // When it is not, the server's files are of another build: the bundle names its build, and a
      // viewer of another build is not inlined.
      const v = GCSCOPE.versioned || ((f) => f);
      const gone = () => new Error(`this page's build (${GCSCOPE.build.slice(0, 12)}) is no longer available, as when gcscope is ` +
        'updated while a page is open: reload the page and analyze again to export');
      let files;
      try {
        files = await Promise.all([text(v('vendor/uPlot.min.css')), text(v('style.css')),
          text(v('vendor/uPlot.iife.min.js')), text(v('app.bundle.js')), text(v('report-template.html'))]);
      } catch (err) {
        throw GCSCOPE.build ? gone() : err;  // offline, a build that is not cached: nothing to fetch it from
      }
      const [uplotCss, css, uplot, bundle, template] = files;
      if (GCSCOPE.build && !bundle.includes(`GCSCOPE.build = "${GCSCOPE.build}";`)) throw gone();
      const html = GCSCOPE.buildHtmlReport(doc, { uplotCss, css, uplot, bundle, template });
      const base = (doc.inputs[0] && doc.inputs[0].path.split('/').pop()) || 'gcscope';
      GCSCOPE.ui.download(base + '.gcscope.html', 'text/html', html);
    } catch (err) {
      notice('Could not build the HTML report: ' + err.message);
    }
  };

  // ---- Offline: a service worker caches the site once visited (http(s) only, not in saved reports)
  if ('serviceWorker' in navigator && location.protocol.startsWith('http') && params.get('sw') !== '0') {
    // update(): every visit asks whether a new build was deployed (sw.js carries the build id), so a
    // new deployment takes over at once instead of at the browser's next periodic check.
    navigator.serviceWorker.register(GCSCOPE.scriptURL('sw.js')).then((reg) => reg.update()).catch(() => {});
  }
})();
