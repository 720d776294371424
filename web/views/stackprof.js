// stackprof profiles: header (mode, samples, GC share, miss rate and what it means), flame graph
// (left heavy / time order / sandwich, with the engine's transforms), stackprof's text report as a
// sortable, filterable table with file/name selection, the method view (callers, callees, per-line
// samples), the files table, the comparison with another profile (per-frame deltas and a
// differential flame graph) and downloads (Graphviz DOT, collapsed stacks). The first screen comes
// from the report; everything asked afterwards (another frame's method view, filters, transforms,
// downloads, the comparison) is answered by the job's engine (ctx.query, wasm/stackprof/
// stackprof_analyzer.cpp and wasm/profile/stack_queries.h).
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
        ? [fmt.num(st.total), fmt.pct(st.total_pct, 1), v10 || !st.self ? '' : fmt.num(st.self), v10 || !st.self ? '' : fmt.pct(st.self_pct, 1)]
        : ['', '', '', ''];
      rows.push(el('tr', { class: st ? 'sp-src-hot' : null, dataset: { line: String(n), total: st ? String(st.total) : '', self: st ? String(st.self) : '' } },
        cells.map((c) => el('td', { class: 'num', text: c })),
        el('td', { class: 'num muted', text: String(n) }),
        el('td', { class: 'sp-src-code', style: { whiteSpace: 'pre', fontFamily: 'monospace' }, text: code })));
    }
    return el('table', { class: 'sp-source' },
      el('thead', {}, el('tr', {}, ['Total', '%', 'Self', '%', 'Line', 'Code'].map((h) => el('th', { text: h })))),
      el('tbody', {}, rows));
  }

  const pctText = (v) => (v === null ? 'Inf' : fmt.pct(v, 1));
  const callColumns = (label) => [
    { key: 'weight', label: 'Samples', numeric: true, format: (v) => fmt.num(v) },
    { key: 'pct', label: label, numeric: true, format: pctText },
    { key: 'name', label: 'Frame' },
  ];

  // The method view: the engine's stackprof.method answer (stackprof --method's figures) for one
  // frame, with the dropped source file's lines beside the per-line samples.
  function methodView(report, m, onPick, sources) {
    const box = el('div', { class: 'method-view' });
    box.append(el('h4', { class: 'method-name', text: m.name }), el('div', { class: 'muted', text: m.file + (m.line !== null ? ':' + m.line : '') }),
      el('p', { text: `samples: ${fmt.num(m.self)} self (${pctText(m.self_pct)}) / ${fmt.num(m.total)} total (${pctText(m.total_pct)})` }));
    const pick = (r) => { if (r.frame !== null) onPick(r.frame); };
    if (m.callers.length) {
      box.appendChild(el('h5', { text: 'Callers' }));
      box.appendChild(GCSCOPE.ui.table(callColumns('% of total'), m.callers, { filter: false, sort: { key: 'weight', desc: true }, csvName: 'callers.csv', onRowClick: pick }));
    }
    if (m.callees && m.callees.length) {
      box.appendChild(el('h5', { text: `Callees (${fmt.num(m.callees_total)} total)` }));
      box.appendChild(GCSCOPE.ui.table(callColumns('% of callee samples'), m.callees, { filter: false, sort: { key: 'weight', desc: true }, csvName: 'callees.csv', onRowClick: pick }));
    }
    // Source with per-line samples: the lines stackprof --method shows (m.code = [first, last]).
    box.appendChild(el('h5', { text: 'Code' }));
    const src = matchSource(sources || new Map(), m.file);
    if (src) {
      box.appendChild(el('div', { class: 'muted sp-source-match', text: `source: ${src.rel}` }));
      box.appendChild(sourceView(report, new Map(m.lines.map((l) => [l.line, l])), src, m.code[0], m.code[1]));
    } else {
      box.appendChild(el('p', { class: 'muted sp-source-unavailable', text: 'SOURCE UNAVAILABLE: add the profiled app\'s Ruby files (or its folder) above to see the code with per-line samples.' }));
    }
    if (m.lines.length) {
      box.appendChild(el('h5', { text: 'Samples per line' }));
      box.appendChild(el('p', { class: 'muted', text: 'Line totals count every occurrence on the stack (recursion counts several times), like stackprof.' }));
      box.appendChild(GCSCOPE.ui.table([
        { key: 'line', label: 'Line', numeric: true },
        { key: 'total', label: 'Total', numeric: true, format: (v) => fmt.num(v) },
        { key: 'total_pct', label: '%', numeric: true, format: pctText },
        { key: 'self', label: 'Self', numeric: true, format: (v) => fmt.num(v) },
        { key: 'self_pct', label: '%', numeric: true, format: pctText },
      ], m.lines, { filter: false, sort: { key: 'line' }, csvName: 'lines.csv' }));
    }
    return box;
  }

  // The method view of a transformed profile: the engine's stacks.calls answer (direct callers and
  // callees counted from the transformed samples; stackprof's per-line counts do not survive a
  // transform).
  function callsView(c, onPick) {
    const box = el('div', { class: 'method-view' });
    box.append(el('h4', { class: 'method-name', text: c.name }), el('div', { class: 'muted', text: c.file + (c.line !== null ? ':' + c.line : '') }),
      el('p', { text: `in the transformed profile: ${fmt.num(c.self)} self (${pctText(c.self_pct)}) / ${fmt.num(c.total)} total (${pctText(c.total_pct)})` }));
    for (const [key, label] of [['callers', 'Callers'], ['callees', 'Callees']]) {
      if (!c[key].length) continue;
      box.appendChild(el('h5', { text: label }));
      box.appendChild(GCSCOPE.ui.table(callColumns(key === 'callers' ? '% of total' : '% of total'), c[key],
        { filter: false, sort: { key: 'weight', desc: true }, csvName: key + '.csv', onRowClick: (r) => onPick(r.frame) }));
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

  function exportsBar(report, ctx, view) {
    const bar = el('div', { class: 'stackprof-exports' });
    bar.appendChild(el('button', {
      type: 'button', class: 'gs-small', text: 'Download Graphviz (.dot)', dataset: { export: 'graphviz' },
      on: { click: () => GCSCOPE.ui.download('stackprof.dot', 'text/vnd.graphviz', report.graphviz) },
    }));
    if (!report.raw) return bar;
    bar.append(' ', ...GCSCOPE.flamegraph.downloads(ctx.query, () => view.transforms, 'stackprof'));
    return bar;
  }

  // Compare with another stackprof job on the page (its engine compares, wasm/profile/compare.h):
  // the per-frame delta table and the differential flame graph.
  function compareSection(report, ctx) {
    const status = el('span', { class: 'muted stackprof-compare-status' });
    const out = el('div', { class: 'stackprof-compare-result' });
    let asked = 0;  // the latest show(): an earlier comparison answering late is dropped
    const show = (pick, label) => {
      const mine = ++asked;
      status.textContent = `Comparing with ${label}…`;
      out.replaceChildren();
      GCSCOPE.ui.compareWithEngine(ctx, pick).then((c) => {
        if (mine !== asked) return;
        status.textContent = `Comparing with ${label}: before = this profile (${fmt.num(c.totals.a)} ${unitOf(report)}), after = ${label} (${fmt.num(c.totals.b)}).`;
        drawComparison(out, c, { a: 'this profile', b: label }, report);
      }, (err) => { if (mine === asked) status.textContent = `Cannot compare with ${label}: ${err.message}`; });
    };
    const picker = GCSCOPE.ui.comparePicker({
      self: report, ctx, accept: (r) => r.format === 'stackprof' && r.frame_table, cls: 'stackprof-compare-pick',
      ariaLabel: 'stackprof profile to compare with', prompt: 'Compare with: ',
      emptyText: 'No other stackprof profile on the page: analyze another dump (as its own job), or pick a file below.',
      draw: (box, pick) => show(pick, pick.label),
    });
    // A file picked here is analyzed as a job of its own, then compared.
    const input = el('input', { type: 'file', class: 'stackprof-compare-input', hidden: true });
    input.addEventListener('change', () => {
      const file = input.files && input.files[0];
      input.value = '';
      if (!file) return;
      status.textContent = 'Analyzing ' + file.name + '…';
      const card = GCSCOPE.startJob([{ path: file.name, blob: file }], {}, {
        onResult: (doc) => {
          const index = doc.reports.findIndex((r) => r.format === 'stackprof');
          if (index < 0) { status.textContent = file.name + ': not a stackprof profile' + (doc.errors.length ? ' (' + doc.errors[0].message + ')' : ''); return; }
          show({ engine: card.gcscopeEngine, index, report: doc.reports[index] }, file.name);
        },
        onError: (why) => { status.textContent = file.name + ': ' + why; },
      });
    });
    const button = el('button', { type: 'button', class: 'gs-small', text: 'Compare with a profile file…', on: { click: () => input.click() } });
    return el('div', { class: 'stackprof-compare' }, picker, el('div', {}, button, input, ' ', status), out);
  }

  function drawComparison(out, c, labels, report) {
    GCSCOPE.flamegraph.comparison(out, c, { labels, unit: unitOf(report), cls: 'stackprof-diff-flame', name: 'stackprof' });
  }

  function render(container, report, ctx) {
    container.appendChild(header(report));
    if (!report.frame_table) return;
    const ft = report.frame_table;
    const samples = report.samples;
    // What the flame graph's transform stack is; the table, the method view and the exports follow it.
    const view = { transforms: [] };
    container.appendChild(exportsBar(report, ctx, view));

    // ---- Flame graph
    const profile = flameProfile(report);
    let fg = null;
    const fgBox = el('div', { class: 'stackprof-flame' });
    container.appendChild(el('h4', { text: 'Flame graph' }));
    container.appendChild(fgBox);
    if (profile) {
      fg = GCSCOPE.flamegraph.create(fgBox, profile, {
        mode: 'left-heavy', durationUnit: 'µs', stateKey: 'sp.flame', fileName: 'stackprof-flamegraph', query: ctx.query, transforms: true,
        defaultFrame: ft.text_order.length ? ft.text_order[0] : undefined,
        onSelect: (f) => { if (f >= 0) showMethod(f); },
        // A transform list from the fragment arrives while this view is being built: the table and
        // method view below read view.transforms when they are first drawn.
        onTransforms: (list) => { view.transforms = list; if (view.built) { renderTable(); if (currentMethod >= 0) showMethod(currentMethod, false); } },
      });
    } else {
      fgBox.appendChild(el('p', { class: 'muted', text: 'This profile has no raw samples (StackProf.run without raw: true), so there is no flame graph. The tables below come from the aggregated frames.' }));
    }

    // ---- Method view: the first screen's is in the report (method_top); others are asked.
    const methodBox = el('div', { class: 'stackprof-method' });
    const sources = new Map();
    let currentMethod = -1, asked = 0;
    const sandwichButton = (idx) => (fg ? el('button', {
      type: 'button', class: 'gs-small', text: 'Show sandwich in the flame graph',
      on: { click: () => { fg.sandwich(idx); fgBox.scrollIntoView({ block: 'nearest' }); } },
    }) : null);
    const showMethod = (idx, record = true) => {
      currentMethod = idx;
      // Deep link (GCSCOPE.state): the selected frame, so a reload or shared link shows it again.
      if (record && GCSCOPE.state) GCSCOPE.state.set('sp.frame', idx, { push: true });
      const mine = ++asked;
      const put = (node) => { if (mine === asked) methodBox.replaceChildren(node, sandwichButton(idx) || ''); };
      if (view.transforms.length) {
        ctx.query('stacks.calls', { frame: idx, transforms: view.transforms }).then((c) => put(callsView(c, showMethod)),
          (err) => put(el('p', { class: 'error', text: err.message })));
      } else if (report.method_top && report.method_top.frame === idx) {
        put(methodView(report, report.method_top, showMethod, sources));
      } else {
        ctx.query('stackprof.method', { frame: idx }).then((m) => put(methodView(report, m, showMethod, sources)),
          (err) => put(el('p', { class: 'error sp-method-error', text: err.message })));
      }
    };

    // ---- Text report with stackprof's select/reject filters (the engine applies them: stackprof.text)
    container.appendChild(el('h4', { text: 'Frames (stackprof --text)' }));
    const filters = {
      selectFiles: el('input', { type: 'text', placeholder: 'file prefix', 'aria-label': 'Select files', class: 'sp-select-files' }),
      rejectFiles: el('input', { type: 'text', placeholder: 'file prefix', 'aria-label': 'Reject files', class: 'sp-reject-files' }),
      selectNames: el('input', { type: 'text', placeholder: 'name regexp', 'aria-label': 'Select names', class: 'sp-select-names' }),
      rejectNames: el('input', { type: 'text', placeholder: 'name regexp', 'aria-label': 'Reject names', class: 'sp-reject-names' }),
    };
    const filterMsg = el('span', { class: 'muted sp-filter-msg' });
    const filterBar = el('div', { class: 'stackprof-filters' },
      el('label', {}, 'select files ', filters.selectFiles), el('label', {}, ' reject files ', filters.rejectFiles),
      el('label', {}, ' select names ', filters.selectNames), el('label', {}, ' reject names ', filters.rejectNames), filterMsg);
    container.appendChild(filterBar);
    const tableBox = el('div', { class: 'stackprof-text' });
    container.appendChild(tableBox);
    const reportRows = ft.text_order.map((i) => ({
      frame: i, total: ft.total[i], total_pct: pct(ft.total[i], samples), self: ft.self[i], self_pct: pct(ft.self[i], samples),
      name: ft.name[i], file: ft.file[i], line: ft.line[i],
    }));
    const drawTable = (rows, caption) => {
      tableBox.replaceChildren(GCSCOPE.ui.table([
        { key: 'total', label: 'Total', numeric: true, format: (v) => fmt.num(v) },
        { key: 'total_pct', label: '(pct)', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'self', label: 'Samples', numeric: true, format: (v) => fmt.num(v) },
        { key: 'self_pct', label: '(pct)', numeric: true, format: (v) => fmt.pct(v, 1) },
        { key: 'name', label: 'Frame' },
        { key: 'file', label: 'File' },
        { key: 'line', label: 'Line', numeric: true },
      ], rows, { csvName: 'stackprof-frames.csv', pageSize: 100, onRowClick: (r) => showMethod(r.frame), caption }));
    };
    let tableAsk = 0;
    const renderTable = () => {
      filterMsg.textContent = '';
      const f = { select_files: filters.selectFiles.value, reject_files: filters.rejectFiles.value,
        select_names: filters.selectNames.value, reject_names: filters.rejectNames.value };
      const filtered = Object.values(f).some((v) => v);
      const mine = ++tableAsk;
      const answered = (rows, caption) => { if (mine === tableAsk) drawTable(rows, caption); };
      const failed = (err) => { if (mine === tableAsk) filterMsg.textContent = err.message; };
      if (view.transforms.length) {
        filterMsg.textContent = filtered ? 'the filters apply to the untransformed profile; remove the transforms to use them' : '';
        ctx.query('stacks.frames', { transforms: view.transforms }).then((a) =>
          answered(a.rows, `${a.count} frames of the transformed profile (${fmt.num(a.total)} ${a.unit}); click one for callers/callees`), failed);
      } else if (filtered) {
        ctx.query('stackprof.text', Object.assign({ limit: 100000 }, f)).then((a) =>
          answered(a.rows, `${a.count} of ${reportRows.length} frames; click one for callers/callees`), failed);
      } else {
        answered(reportRows, `${reportRows.length} of ${reportRows.length} frames; click one for callers/callees`);
      }
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
    else if (reportRows.length) showMethod(reportRows[0].frame, false);
    else methodBox.appendChild(el('p', { class: 'muted', text: 'profile contains no samples' }));
    if (GCSCOPE.state) {
      GCSCOPE.state.watch('sp.frame', methodBox, (v) => {
        const f = frameFromState(v);
        if (f !== null) showMethod(f, false); else if (reportRows.length) showMethod(reportRows[0].frame, false);
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

    // ---- Compare
    container.appendChild(el('h4', { text: 'Compare' }));
    container.appendChild(compareSection(report, ctx));
    view.built = true;
  }

  GCSCOPE.registerView('stackprof', { render });
  GCSCOPE.stackprofView = { flameProfile, matchSource };
})();
