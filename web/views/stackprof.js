// stackprof profiles: header (mode, samples, GC share, miss rate and what it means), flame graph
// (left heavy / time order / sandwich / differential against a second profile), stackprof's text
// report as a sortable, filterable table with file/name selection, the method view (callers,
// callees, per-line samples) and files table, and downloads (Graphviz DOT, collapsed stacks).
'use strict';
(function () {
  const { el, fmt } = GCSCOPE.ui;

  function unitOf(report) {
    return report.mode === 'object' ? 'allocations' : 'samples';
  }

  // The flame graph's input model from the report's columnar tables.
  function flameProfile(report) {
    const ft = report.frame_table;
    const raw = report.raw;
    if (!raw) return null;
    const frames = ft.name.map((name, i) => ({ name, file: ft.file[i], line: ft.line[i] }));
    const weights = raw.record_weight;
    // record_duration: µs per raw record (sum of its raw_timestamp_deltas), when they cover raw.
    const durations = raw.record_duration || null;
    return {
      frames,
      stacks: { parent: raw.stack_parent, frame: raw.stack_frame },
      samples: { stack: raw.record_stack, weight: weights },
      durations,
      unit: unitOf(report),
      name: (report.inputs || []).join(', '),
    };
  }

  // `a;b;c N` per raw record, root first (what `stackprof --stackcollapse` prints, in linear time).
  function collapsedStacks(report) {
    const raw = report.raw;
    const names = report.frame_table.name;
    const parts = [];
    const path = [];
    let chunk = '';
    for (let r = 0; r < raw.record_stack.length; r++) {
      path.length = 0;
      for (let n = raw.record_stack[r]; n >= 0; n = raw.stack_parent[n]) path.push(names[raw.stack_frame[n]]);
      path.reverse();
      chunk += path.join(';') + ' ' + raw.record_weight[r] + '\n';
      if (chunk.length > 1 << 20) { parts.push(chunk); chunk = ''; }
    }
    parts.push(chunk);
    return new Blob(parts, { type: 'text/plain' });
  }

  function pct(part, whole) { return whole > 0 ? (100 * part) / whole : null; }

  function header(report) {
    const items = [];
    const add = (label, value, hint, severity) => items.push({ label, value, hint, severity });
    add('Mode', `${report.mode}(${report.interval === null ? '' : report.interval})`,
      report.mode === 'cpu' ? 'cpu mode: samples on CPU time (ITIMER_PROF); interval in µs' : report.mode === 'object' ? 'object mode: one sample every N allocations' : report.mode === 'wall' ? 'wall mode: samples on wall-clock time; interval in µs' : 'custom mode');
    add('Samples', fmt.num(report.samples) + (report.mode === 'object' ? ' allocations' : ''));
    if (report.mode === 'object') {
      add('Miss rate', 'not meaningful in object mode',
        `missed_samples (${fmt.num(report.missed_samples)}) counts every allocation that was not sampled; stackprof prints it as a ~99% miss rate`);
    } else {
      add('Miss rate', report.miss_rate === null ? 'unknown' : fmt.pct(report.miss_rate), 'missed_samples / (missed + samples), as stackprof prints it',
        report.miss_rate > 5 ? 'warn' : null);
    }
    add('GC', report.gc_share === null ? 'unknown' : `${fmt.num(report.gc_samples)} (${fmt.pct(report.gc_share)})`, 'samples taken during GC (the fake (garbage collection) frames)',
      report.gc_share > 10 ? 'warn' : null);
    add('Frames', fmt.num(report.frames));
    add('Raw samples', report.has_raw ? fmt.num(report.raw_samples) + (report.has_timestamp_deltas ? ' (timed)' : '') : 'none',
      report.has_raw ? 'raw: true samples (flame graphs); timed = with raw_timestamp_deltas' : 'recorded without raw: true');
    add('Format', `stackprof ${report.version === null ? '?' : report.version}, ${report.encoding}` + (report.dumps > 1 ? `, sum of ${report.dumps}` : ''));
    const dl = GCSCOPE.ui.kpis(items);
    const box = el('div', { class: 'stackprof-head' }, dl);
    for (const n of report.notes || []) box.appendChild(el('p', { class: 'note muted', text: n }));
    if (report.metadata && Object.keys(report.metadata).length) {
      box.appendChild(el('details', { class: 'metadata' }, el('summary', { text: 'Metadata' }), el('pre', { text: JSON.stringify(report.metadata, null, 2) })));
    }
    return box;
  }

  // ---- Source files of the profiled app
  // Dumps hold absolute paths of the machine that ran the profile, so a dropped/picked file matches
  // a frame's file by path suffix: the candidate sharing the most trailing path components (at least
  // the file name) wins. `sources`: relative path (folder pick) or name -> lines, each keeping "\n".
  function splitLines(text) {
    const out = [];
    let pos = 0;
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      const end = nl < 0 ? text.length : nl + 1;
      out.push(text.slice(pos, end));
      pos = end;
    }
    return out;
  }

  function matchSource(sources, file) {
    if (!file || !sources.size) return null;
    const want = file.split('/').filter(Boolean);
    let best = null, bestScore = 0;
    for (const [rel, lines] of sources) {
      const have = rel.split('/').filter(Boolean);
      let k = 0;
      while (k < want.length && k < have.length && want[want.length - 1 - k] === have[have.length - 1 - k]) k++;
      if (k > bestScore) { best = { rel, lines }; bestScore = k; }
    }
    return best;
  }

  // The source lines `from`..`to` (1-based) with the frame's per-line samples beside them, as
  // stackprof's --method prints them when the file is on disk (text only: textContent).
  function sourceView(report, lineStats, src, from, to) {
    const rows = [];
    const v10 = report.version === 1 || report.version === 1.0;
    for (let n = Math.max(1, from); n <= Math.min(to, src.lines.length); n++) {
      const st = lineStats.get(n);
      const code = src.lines[n - 1].replace(/\r?\n$/, '');
      const cells = st
        ? [fmt.num(st.total), fmt.pct(pct(st.total, report.samples), 1), v10 || !st.self ? '' : fmt.num(st.self), v10 || !st.self ? '' : fmt.pct(pct(st.self, report.samples), 1)]
        : ['', '', '', ''];
      rows.push(el('tr', { class: st ? 'sp-src-hot' : null, dataset: { line: String(n), total: st ? String(st.total) : '', self: st ? String(st.self) : '' } },
        cells.map((c, i) => el('td', { class: i < 4 ? 'num' : null, text: c })),
        el('td', { class: 'num muted', text: String(n) }),
        el('td', { class: 'sp-src-code', style: { whiteSpace: 'pre', fontFamily: 'monospace' }, text: code })));
    }
    return el('table', { class: 'sp-source' },
      el('thead', {}, el('tr', {}, ['Total', '%', 'Self', '%', 'Line', 'Code'].map((h) => el('th', { text: h })))),
      el('tbody', {}, rows));
  }

  // Callers/callees/lines of one frame, as stackprof --method computes them.
  function methodView(report, idx, onPick, sources) {
    const ft = report.frame_table, ed = report.edges, ln = report.lines;
    const total = ft.total[idx], self = ft.self[idx];
    const box = el('div', { class: 'method-view' });
    const where = ft.file[idx] + (ft.line[idx] !== null ? ':' + ft.line[idx] : '');
    box.append(el('h4', { class: 'method-name', text: ft.name[idx] }), el('div', { class: 'muted', text: where }),
      el('p', { text: `samples: ${fmt.num(self)} self (${fmt.pct(pct(self, report.samples), 1)}) / ${fmt.num(total)} total (${fmt.pct(pct(total, report.samples), 1)})` }));
    const callers = [], callees = [];
    for (let i = 0; i < ed.from.length; i++) {
      if (ed.to[i] === idx) callers.push({ frame: ed.from[i], name: ft.name[ed.from[i]], weight: ed.weight[i], pct: pct(ed.weight[i], total) });
      if (ed.from[i] === idx) callees.push({ frame: ed.to[i], name: ft.name[ed.to[i]], weight: ed.weight[i], pct: pct(ed.weight[i], total - self) });
    }
    const cols = (label) => [
      { key: 'weight', label: 'Samples', numeric: true, format: (v) => fmt.num(v) },
      { key: 'pct', label: label, numeric: true, format: (v) => (v === null ? 'Inf' : fmt.pct(v, 1)) },
      { key: 'name', label: 'Frame' },
    ];
    if (callers.length) {
      box.appendChild(el('h5', { text: 'Callers' }));
      box.appendChild(GCSCOPE.ui.table(cols('% of total'), callers, { filter: false, sort: { key: 'weight', desc: true }, csvName: 'callers.csv', onRowClick: (r) => onPick(r.frame) }));
    }
    if (callees.length) {
      box.appendChild(el('h5', { text: `Callees (${fmt.num(total - self)} total)` }));
      box.appendChild(GCSCOPE.ui.table(cols('% of callee samples'), callees, { filter: false, sort: { key: 'weight', desc: true }, csvName: 'callees.csv', onRowClick: (r) => onPick(r.frame) }));
    }
    const lines = [];
    for (let i = 0; i < ln.frame.length; i++) {
      if (ln.frame[i] === idx) lines.push({ line: ln.line[i], total: ln.total[i], self: ln.self[i], tpct: pct(ln.total[i], report.samples), spct: pct(ln.self[i], report.samples) });
    }
    // Source with per-line samples: stackprof shows lines `line`..max(sampled line)+1 (line + 6 without per-line data).
    box.appendChild(el('h5', { text: 'Code' }));
    const src = matchSource(sources || new Map(), ft.file[idx]);
    const first = ft.line[idx] === null || ft.line[idx] === undefined ? 1 : ft.line[idx];
    const maxline = lines.length ? Math.max(...lines.map((l) => l.line)) : first + 5;
    if (src) {
      box.appendChild(el('div', { class: 'muted sp-source-match', text: `source: ${src.rel}` }));
      box.appendChild(sourceView(report, new Map(lines.map((l) => [l.line, l])), src, first, maxline + 1));
    } else {
      box.appendChild(el('p', { class: 'muted sp-source-unavailable', text: 'SOURCE UNAVAILABLE: add the profiled app\'s Ruby files (or its folder) above to see the code with per-line samples.' }));
    }
    if (lines.length) {
      box.appendChild(el('h5', { text: 'Samples per line' }));
      box.appendChild(el('p', { class: 'muted', text: 'Line totals count every occurrence on the stack (recursion counts several times), like stackprof.' }));
      box.appendChild(GCSCOPE.ui.table([
        { key: 'line', label: 'Line', numeric: true },
        { key: 'total', label: 'Total', numeric: true, format: (v) => fmt.num(v) },
        { key: 'tpct', label: '%', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'self', label: 'Self', numeric: true, format: (v) => fmt.num(v) },
        { key: 'spct', label: '%', numeric: true, format: (v) => fmt.pct(v, 1) },
      ], lines, { filter: false, sort: { key: 'line' }, csvName: 'lines.csv' }));
    }
    return box;
  }

  // Picker, folder picker and drop target for the app's source files; read as text, kept in `sources`.
  function sourceBar(report, sources, onChange) {
    const status = el('span', { class: 'muted sp-source-status', text: 'No source files: the method view shows SOURCE UNAVAILABLE, like stackprof without the files on disk.' });
    const files = el('input', { type: 'file', multiple: true, class: 'sp-source-input', hidden: true });
    const folder = el('input', { type: 'file', class: 'sp-source-folder', hidden: true });
    folder.webkitdirectory = true;
    const profiled = [...new Set(report.frame_table.file.filter((f) => f))];
    const add = async (list) => {
      for (const { path, blob } of list) {
        if (blob.size > 16 << 20) continue;  // not a source file
        sources.set(path, splitLines(await blob.text()));
      }
      const matched = profiled.filter((f) => matchSource(sources, f)).length;
      status.textContent = `${sources.size} source file${sources.size === 1 ? '' : 's'} loaded; ${matched} of ${profiled.length} profiled files matched by path suffix.`;
      onChange();
    };
    const fromInput = (input) => () => {
      const list = [...(input.files || [])].map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
      input.value = '';
      add(list);
    };
    files.addEventListener('change', fromInput(files));
    folder.addEventListener('change', fromInput(folder));
    // Dropped folders: walk their entries (relative paths kept for suffix matching).
    const walk = async (entry, prefix, out) => {
      if (entry.isFile) {
        out.push({ path: prefix + entry.name, blob: await new Promise((res, rej) => entry.file(res, rej)) });
      } else if (entry.isDirectory) {
        const reader = entry.createReader();
        for (;;) {
          const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
          if (!batch.length) break;
          for (const e of batch) await walk(e, prefix + entry.name + '/', out);
        }
      }
    };
    const bar = el('div', { class: 'stackprof-sources' },
      el('button', { type: 'button', class: 'gs-small', text: 'Add source files…', on: { click: () => files.click() } }), ' ',
      el('button', { type: 'button', class: 'gs-small', text: 'Add source folder…', on: { click: () => folder.click() } }), ' ',
      files, folder, status);
    bar.addEventListener('dragover', (e) => { e.preventDefault(); e.stopPropagation(); });
    bar.addEventListener('drop', async (e) => {
      e.preventDefault();
      e.stopPropagation();
      const list = [];
      const items = e.dataTransfer && e.dataTransfer.items ? [...e.dataTransfer.items] : [];
      const entries = items.map((it) => (it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
      if (entries.length && entries.every((x) => x)) {
        for (const entry of entries) await walk(entry, '', list);
      } else {
        for (const f of (e.dataTransfer ? e.dataTransfer.files : [])) list.push({ path: f.name, blob: f });
      }
      add(list);
    });
    bar.title = 'Drop Ruby source files or a folder here';
    return bar;
  }

  function render(container, report, ctx) {
    container.appendChild(header(report));
    if (!report.frame_table) return;
    const ft = report.frame_table;
    const samples = report.samples;

    // ---- Exports
    const exportsBar = el('div', { class: 'stackprof-exports' });
    exportsBar.appendChild(el('button', {
      type: 'button', class: 'gs-small', text: 'Download Graphviz (.dot)', dataset: { export: 'graphviz' },
      on: { click: () => GCSCOPE.ui.download('stackprof.dot', 'text/vnd.graphviz', report.graphviz) },
    }));
    if (report.raw) {
      exportsBar.appendChild(el('button', {
        type: 'button', class: 'gs-small', text: 'Download collapsed stacks', dataset: { export: 'collapsed' },
        on: { click: () => GCSCOPE.ui.download('stackprof.folded', 'text/plain', collapsedStacks(report)) },
      }));
    }
    container.appendChild(exportsBar);

    // ---- Flame graph
    const profile = flameProfile(report);
    let fg = null;
    const fgBox = el('div', { class: 'stackprof-flame' });
    container.appendChild(el('h4', { text: 'Flame graph' }));
    container.appendChild(fgBox);
    if (profile) {
      fg = GCSCOPE.flamegraph.create(fgBox, profile, { mode: 'left-heavy', durationUnit: 'µs', stateKey: 'sp.flame', fileName: 'stackprof-flamegraph', onSelect: (f) => { if (f >= 0) showMethod(f); } });
      const compareInput = el('input', { type: 'file', class: 'stackprof-compare-input', hidden: true });
      const compareStatus = el('span', { class: 'muted stackprof-compare-status' });
      const compareBtn = el('button', { type: 'button', class: 'gs-small', text: 'Compare with another profile…', on: { click: () => compareInput.click() } });
      compareInput.addEventListener('change', () => {
        const file = compareInput.files && compareInput.files[0];
        if (file) compareWith(file);
        compareInput.value = '';
      });
      fgBox.prepend(el('div', { class: 'stackprof-compare' }, compareBtn, compareInput, compareStatus));
      // The second profile goes through its own worker, like any other job, then a differential graph.
      const compareWith = (file) => {
        compareStatus.textContent = 'Analyzing ' + file.name + '…';
        const worker = GCSCOPE.newAnalysisWorker();
        worker.onmessage = (e) => {
          const m = e.data;
          if (m.type === 'progress') return;
          worker.terminate();
          const doc = m.type === 'result' ? JSON.parse(m.json) : null;  // the worker sends the report as JSON text
          const other = doc ? (doc.reports || []).find((r) => r.format === 'stackprof') : null;
          const otherProfile = other ? flameProfile(other) : null;
          if (!otherProfile) {
            compareStatus.textContent = file.name + ': not a stackprof profile with raw samples' + (doc && doc.errors.length ? ' (' + doc.errors[0].message + ')' : '');
            return;
          }
          compareStatus.textContent = `Comparing with ${file.name}: widths from ${file.name}, colours = change of share vs this profile.`;
          fg.destroy();
          fg = GCSCOPE.flamegraph.create(fgBox, profile, { mode: 'diff', compare: otherProfile, durationUnit: 'µs', onSelect: (f) => { if (f >= 0) showMethod(f); } });
        };
        worker.onerror = () => { compareStatus.textContent = 'The comparison failed.'; worker.terminate(); };
        worker.send({ type: 'analyze', files: [{ path: file.name, blob: file }], options: {} });
      };
    } else {
      fgBox.appendChild(el('p', { class: 'muted', text: 'This profile has no raw samples (StackProf.run without raw: true), so there is no flame graph. The tables below come from the aggregated frames.' }));
    }

    // ---- Method view
    const methodBox = el('div', { class: 'stackprof-method' });
    const sources = new Map();
    let currentMethod = -1;
    const showMethod = (idx, record = true) => {
      currentMethod = idx;
      // Deep link (GCSCOPE.state): the selected frame, so a reload or shared link shows it again.
      if (record && GCSCOPE.state) GCSCOPE.state.set('sp.frame', idx, { push: true });
      methodBox.textContent = '';
      methodBox.appendChild(methodView(report, idx, showMethod, sources));
      if (fg) {
        methodBox.appendChild(el('button', {
          type: 'button', class: 'gs-small', text: 'Show sandwich in the flame graph',
          on: { click: () => { fg.sandwich(idx); fgBox.scrollIntoView({ block: 'nearest' }); } },
        }));
      }
    };

    // ---- Text report with stackprof's select/reject filters
    container.appendChild(el('h4', { text: 'Frames (stackprof --text)' }));
    const filters = {
      selectFiles: el('input', { type: 'text', placeholder: 'file prefix', 'aria-label': 'Select files', class: 'sp-select-files' }),
      rejectFiles: el('input', { type: 'text', placeholder: 'file prefix', 'aria-label': 'Reject files', class: 'sp-reject-files' }),
      selectNames: el('input', { type: 'text', placeholder: 'name regexp', 'aria-label': 'Select names', class: 'sp-select-names' }),
      rejectNames: el('input', { type: 'text', placeholder: 'name regexp', 'aria-label': 'Reject names', class: 'sp-reject-names' }),
    };
    const filterMsg = el('span', { class: 'muted' });
    const filterBar = el('div', { class: 'stackprof-filters' },
      el('label', {}, 'select files ', filters.selectFiles), el('label', {}, ' reject files ', filters.rejectFiles),
      el('label', {}, ' select names ', filters.selectNames), el('label', {}, ' reject names ', filters.rejectNames), filterMsg);
    container.appendChild(filterBar);
    const tableBox = el('div', { class: 'stackprof-text' });
    container.appendChild(tableBox);
    const allRows = ft.text_order.map((i) => ({
      frame: i, total: ft.total[i], tpct: pct(ft.total[i], samples), self: ft.self[i], spct: pct(ft.self[i], samples),
      name: ft.name[i], file: ft.file[i], line: ft.line[i],
    }));
    const regex = (s) => { try { return s ? new RegExp(s) : null; } catch (e) { filterMsg.textContent = 'bad regexp: ' + e.message; return undefined; } };
    const renderTable = () => {
      filterMsg.textContent = '';
      const sf = filters.selectFiles.value, rf = filters.rejectFiles.value;
      const sn = regex(filters.selectNames.value), rn = regex(filters.rejectNames.value);
      if (sn === undefined || rn === undefined) return;
      const rows = allRows.filter((r) => (!sf || r.file.startsWith(sf)) && (!rf || !r.file.startsWith(rf)) &&
        (!sn || sn.test(r.name)) && (!rn || !rn.test(r.name)));
      tableBox.textContent = '';
      tableBox.appendChild(GCSCOPE.ui.table([
        { key: 'total', label: 'Total', numeric: true, format: (v) => fmt.num(v) },
        { key: 'tpct', label: '(pct)', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'self', label: 'Samples', numeric: true, format: (v) => fmt.num(v) },
        { key: 'spct', label: '(pct)', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'name', label: 'Frame' },
        { key: 'file', label: 'File' },
        { key: 'line', label: 'Line', numeric: true },
      ], rows, { csvName: 'stackprof-frames.csv', pageSize: 100, onRowClick: (r) => showMethod(r.frame), caption: `${rows.length} of ${allRows.length} frames; click one for callers/callees` }));
    };
    for (const input of Object.values(filters)) input.addEventListener('input', renderTable);
    renderTable();

    container.appendChild(el('h4', { text: 'Method' }));
    container.appendChild(sourceBar(report, sources, () => { if (currentMethod >= 0) showMethod(currentMethod, false); }));
    container.appendChild(methodBox);
    // ---- Deep-link state hook: the selected frame from the fragment (reload, shared link, back/forward).
    const frameFromState = (v) => (v !== null && /^\d+$/.test(v) && Number(v) < ft.name.length ? Number(v) : null);
    const savedFrame = GCSCOPE.state ? frameFromState(GCSCOPE.state.get('sp.frame')) : null;
    if (savedFrame !== null) showMethod(savedFrame, false);
    else if (allRows.length) showMethod(allRows[0].frame, false);
    else methodBox.appendChild(el('p', { class: 'muted', text: 'profile contains no samples' }));
    if (GCSCOPE.state) {
      GCSCOPE.state.watch('sp.frame', methodBox, (v) => {
        const f = frameFromState(v);
        if (f !== null) showMethod(f, false); else if (allRows.length) showMethod(allRows[0].frame, false);
      });
    }

    // ---- Files
    if (report.files && report.files.file.length) {
      container.appendChild(el('h4', { text: 'Files (stackprof --files)' }));
      container.appendChild(el('p', { class: 'muted', text: 'Totals add up every stack occurrence of each line, so they can exceed 100 % under recursion (as in stackprof).' }));
      const f = report.files;
      container.appendChild(GCSCOPE.ui.table([
        { key: 'total', label: 'Total', numeric: true, format: (v) => fmt.num(v) },
        { key: 'tpct', label: '%', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'self', label: 'Self', numeric: true, format: (v) => fmt.num(v) },
        { key: 'spct', label: '%', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'file', label: 'File' },
      ], f.file.map((name, i) => ({ file: name, total: f.total[i], tpct: pct(f.total[i], samples), self: f.self[i], spct: pct(f.self[i], samples) })),
      { csvName: 'stackprof-files.csv', sort: { key: 'self', desc: true } }));
    }
    void ctx;
  }

  GCSCOPE.registerView('stackprof', { title: 'stackprof profile', render });
  GCSCOPE.stackprofView = { flameProfile, collapsedStacks, matchSource };
})();
