// Ruby GC tuner view (format "tunemygc-payload"): the verdict, confidence, the advice per strategy with
// its evidence and copyable blocks (shell / Dockerfile / Heroku / systemd), existing settings side by
// side with ours, timelines with GC cycles as bands and units of work as spans, the per-unit table,
// object types at BOOTED vs TERMINATED, per-heap sizes (3.3+) and the RUBY_GC_* table of the version.
// All text goes through GCSCOPE.ui.el (textContent): nothing from the payload is parsed as HTML.
'use strict';
(function () {
  const STATUS_TEXT = {
    200: 'advice', 400: 'bad payload', 404: 'token', 412: 'already tuned', 426: 'agent too old', 501: 'unsupported version',
  };
  const STRATEGIES = [
    ['speed', 'Speed', 'fewer GCs, a bigger heap from the start'],
    ['memory', 'Memory', 'a heap that stays close to what is live'],
    ['rss_budget', 'RSS budget', 'the largest heap that fits a memory budget'],
  ];
  const EXPORTS = [['shell', 'Shell (export)'], ['dockerfile', 'Dockerfile (ENV)'], ['heroku', 'Heroku (config:set)'], ['systemd', 'systemd (Environment=)']];

  function evidenceText(ev) {
    if (!ev || typeof ev !== 'object') return '';
    return Object.entries(ev)
      .filter(([, v]) => v !== null && typeof v !== 'object')
      .map(([k, v]) => `${k}: ${typeof v === 'number' ? v.toLocaleString('en-US') : v}`).join(', ');
  }

  function verdictBox(el, report) {
    const v = report.verdict || {};
    const cls = v.status === 200 ? 'ok' : v.status === 412 ? 'warn' : 'bad';
    const box = el('div', { class: 'rubygc-verdict rubygc-' + cls, role: 'region', 'aria-label': 'Verdict', dataset: { status: String(v.status) } },
      el('strong', { class: 'rubygc-status', text: `${v.status} ${STATUS_TEXT[v.status] || ''}` }),
      el('span', { class: 'rubygc-message', text: ' ' + (v.message || '') }));
    for (const w of v.warnings || []) box.appendChild(el('div', { class: 'warning rubygc-warning', text: `${w.status}: ${w.message}` }));
    const d = v.details || {};
    const facts = Object.entries(d).filter(([k, x]) => x !== null && typeof x !== 'object' && k !== 'message');
    if (facts.length) box.appendChild(el('div', { class: 'muted', text: facts.map(([k, x]) => `${k}: ${x}`).join(' · ') }));
    return box;
  }

  // Copyable env blocks of one strategy, one tab per form.
  function exportBlocks(el, ui, exports, strategy) {
    const wrap = el('div', { class: 'rubygc-exports' });
    const tabs = el('div', { class: 'rubygc-tabs', attrs: { role: 'tablist' } });
    const body = el('div');
    // Deep-link state hook ('gc.<strategy>' = the form shown): a reload or shared link keeps the tab.
    const stateKey = 'gc.' + strategy;
    const show = (key, record = false) => {
      if (!EXPORTS.some(([k]) => k === key) || !exports[key]) key = 'shell';
      if (record && GCSCOPE.state) GCSCOPE.state.set(stateKey, key === 'shell' ? null : key, { push: true });
      body.textContent = '';
      body.appendChild(ui.copyBlock(exports[key]));
      tabs.querySelectorAll('button').forEach((b) => {
        b.classList.toggle('active', b.dataset.form === key);
        b.setAttribute('aria-selected', String(b.dataset.form === key));
      });
    };
    for (const [key, label] of EXPORTS) {
      if (!exports[key]) continue;
      tabs.appendChild(el('button', { type: 'button', class: 'gs-small', role: 'tab', dataset: { form: key }, text: label, on: { click: () => show(key, true) } }));
    }
    wrap.append(tabs, body);
    show((GCSCOPE.state && GCSCOPE.state.get(stateKey)) || 'shell');
    if (GCSCOPE.state) GCSCOPE.state.watch(stateKey, wrap, (v) => show(v || 'shell'));
    return wrap;
  }

  function advice(el, ui, report, ctx) {
    const box = el('div', { class: 'rubygc-advice' });
    const recs = report.recommendations || [];
    for (const [key, title, what] of STRATEGIES) {
      const mine = recs.filter((r) => r.strategy === key);
      const sec = el('div', { class: 'rubygc-strategy', dataset: { strategy: key } }, el('h4', { text: `${title} — ${what}` }));
      if (key === 'rss_budget') sec.appendChild(budgetForm(el, report, ctx));
      if (!mine.length) {
        sec.appendChild(el('p', { class: 'muted', text: key === 'rss_budget' && report.rss_budget && report.rss_budget.reason
          ? report.rss_budget.reason : 'No change recommended for this strategy: the run gives no evidence that a setting would help.' }));
        box.appendChild(sec);
        continue;
      }
      sec.appendChild(ui.table([
        { key: 'variable', label: 'Variable' },
        { key: 'value', label: 'Ours', numeric: true, format: (v) => v },
        { key: 'current', label: 'Current', format: (v) => (v === null || v === undefined ? '(unset)' : v) },
        { key: 'default', label: 'Ruby default', format: (v) => v },
        { key: 'reason', label: 'Why' },
        { key: 'evidence', label: 'Evidence', format: (v) => evidenceText(v) },
      ], mine.map((r) => ({ ...r, reason: r.unchanged ? r.reason + ' (already set: no change)' : r.reason })),
      { filter: false, csvName: `ruby-gc-${key}.csv` }));
      const exp = (report.exports || {})[key];
      if (exp) sec.appendChild(exportBlocks(el, ui, exp, key));
      box.appendChild(sec);
    }
    const dropped = report.dropped_recommendations || [];
    if (dropped.length) {
      box.appendChild(el('p', { class: 'muted', text: 'Not shown because this Ruby would ignore them: ' +
        dropped.map((d) => `${d.variable}${d.value ? '=' + d.value : ''} (${d.why})`).join('; ') }));
    }
    box.appendChild(el('p', { class: 'muted', text: 'Apply one strategy at a time and compare GC time, p95 latency and RSS before and after (A/B on part of the traffic if you can).' }));
    return box;
  }

  function budgetForm(el, report, ctx) {
    const input = el('input', { type: 'number', min: '16', step: '16', placeholder: 'MB', class: 'rubygc-budget', 'aria-label': 'RSS budget in MB',
      value: report.rss_budget && report.rss_budget.budget_mb ? String(report.rss_budget.budget_mb) : '' });
    const go = el('button', { type: 'button', class: 'gs-small', text: 'Analyze again with this budget' });
    go.addEventListener('click', () => {
      const mb = Number(input.value);
      if (!(mb > 0) || !ctx.files || !ctx.files.length || !GCSCOPE.startJob) return;
      GCSCOPE.startJob(ctx.files, { rss_budget_mb: mb });
    });
    const info = report.rss_budget || {};
    return el('div', { class: 'rubygc-budget-form' }, el('label', {}, 'RSS budget ', input, ' MB '), go,
      info.available ? el('span', { class: 'muted', text: ` — ${info.non_heap_rss_mb} MB of RSS is outside the object heap; ${info.fits ? 'fits' : 'does not fit: see findings'}` }) : null);
  }

  // uPlot keeps the hooks object it was given: add a draw hook that paints GC cycles as bands and
  // units of work as spans under the plot.
  function addBands(plot, report) {
    const cyc = report.gc_cycles || {};
    const uw = (report.units_of_work || {}).columns || {};
    const starts = cyc.start_s || [], ends = cyc.end_s || [], major = cyc.major || [];
    const us = uw.start_s || [], ud = uw.duration_ms || [];
    const draw = (u) => {
      const ctx = u.ctx;
      const top = u.bbox.top, h = u.bbox.height;
      ctx.save();
      for (let i = 0; i < starts.length; i++) {
        const x0 = u.valToPos(starts[i], 'x', true);
        const x1 = u.valToPos(ends[i] === null || ends[i] === undefined ? starts[i] : ends[i], 'x', true);
        ctx.fillStyle = major[i] ? 'rgba(220,38,38,0.18)' : 'rgba(37,99,235,0.12)';
        ctx.fillRect(x0, top, Math.max(1, x1 - x0), h);
      }
      ctx.fillStyle = 'rgba(22,163,74,0.55)';
      const y = top + h - 4 * devicePixelRatio;
      for (let i = 0; i < us.length; i++) {
        const x0 = u.valToPos(us[i], 'x', true);
        const x1 = u.valToPos(us[i] + ud[i] / 1000, 'x', true);
        ctx.fillRect(x0, y, Math.max(1, x1 - x0), 3 * devicePixelRatio);
      }
      ctx.restore();
    };
    if (plot && plot.hooks) {
      plot.hooks.draw = (plot.hooks.draw || []).concat([draw]);
      plot.redraw(false);
    }
  }

  // The figures of a zoomed range, asked of the engine (query rubygc.range): units of work starting in
  // it, their GCs and GC time, heap and RSS extremes.
  function rangeBox(el, ui, ctx) {
    const box = el('div', { class: 'rubygc-range', attrs: { 'aria-live': 'polite' } });
    let last = '';
    const show = (t0, t1) => {
      const key = t0 === null ? '' : `${t0},${t1}`;
      if (key === last) return;
      last = key;
      box.replaceChildren();
      if (t0 === null || !ctx.query) return;
      ctx.query('rubygc.range', { t0, t1 }).then((r) => {
        if (last !== key) return;
        const u = r.units;
        const mb = Object.entries(u.majors_by || {}).map(([k, v]) => `${k} ${v}`).join(', ');
        box.replaceChildren(el('h4', { text: `Selected range ${t0.toFixed(3)} s – ${t1.toFixed(3)} s` }), ui.kpis([
          { label: 'units of work', value: ui.fmt.num(u.count) },
          { label: 'unit p50 / p95', value: `${u.duration_ms_p50} / ${u.duration_ms_p95} ms` },
          { label: 'GCs in units', value: `${ui.fmt.num(u.gcs)} (${u.minor} minor, ${u.major} major)`, hint: mb ? 'majors by ' + mb : '' },
          { label: 'GC time share', value: u.gc_time_share_pct === null ? '—' : ui.fmt.pct(u.gc_time_share_pct, 1) },
          { label: 'GC count rise', value: ui.fmt.num(r.gc_count_rise) },
          { label: 'heap slots', value: r.heap_available_slots ? `${ui.fmt.num(r.heap_available_slots.min)} – ${ui.fmt.num(r.heap_available_slots.max)}` : '—' },
          { label: 'samples', value: ui.fmt.num(r.samples) },
        ]));
      }).catch((e) => { if (last === key) box.replaceChildren(el('p', { class: 'muted', text: 'Range figures unavailable: ' + e.message })); });
    };
    return { box, show };
  }

  function timelines(el, charts, report, ctx) {
    const tl = report.timeline || {};
    const box = el('div', { class: 'rubygc-timelines' });
    if (!tl.t || !tl.t.length || !charts) return box;
    box.appendChild(el('p', { class: 'muted', text: 'Bands: GC cycles from start to the end of their (lazy) sweep, blue minor, red major. Green spans at the bottom: units of work. Drag to zoom (the range\'s figures show below), double-click to reset.' }));
    const range = rangeBox(el, ctx.ui, ctx);
    const onZoom = (min, max) => range.show(min, max);
    const syncKey = 'rubygc-' + Math.random().toString(36).slice(2);
    const series = [];
    if (tl.heap_available_slots) series.push({ label: 'available slots', values: tl.heap_available_slots });
    if (tl.heap_live_slots) series.push({ label: 'live slots', values: tl.heap_live_slots });
    if (tl.heap_free_slots) series.push({ label: 'free slots', values: tl.heap_free_slots });
    if (tl.old_objects) series.push({ label: 'old objects', values: tl.old_objects, dash: [4, 3] });
    const p1 = charts.line(box, { title: 'Heap slots', x: tl.t, series, xLabel: 's', yLabel: 'slots', syncKey, stateKey: 'gc.range', onZoom });
    addBands(p1, report);
    if ((tl.rss_bytes || []).some((v) => v > 0)) {
      const mb = (a) => a.map((v) => v / 1048576);
      const p2 = charts.line(box, { title: 'RSS', x: tl.t, xLabel: 's', yLabel: 'MB', syncKey, stateKey: 'gc.range', onZoom, series: [
        { label: 'RSS MB', values: mb(tl.rss_bytes) }, { label: 'peak RSS MB', values: mb(tl.peak_rss_bytes), dash: [4, 3] }] });
      addBands(p2, report);
    }
    if (tl.minor_gc_count) {
      const p3 = charts.line(box, { title: 'GC count', x: tl.t, xLabel: 's', yLabel: 'GCs', syncKey, stateKey: 'gc.range', onZoom, series: [
        { label: 'minor', values: tl.minor_gc_count }, { label: 'major', values: tl.major_gc_count }] });
      addBands(p3, report);
    }
    if (tl.malloc_increase_bytes) {
      const mb = (a) => (a || []).map((v) => v / 1048576);
      const s = [{ label: 'malloc increase MB', values: mb(tl.malloc_increase_bytes) },
        { label: 'malloc limit MB', values: mb(tl.malloc_increase_bytes_limit), dash: [4, 3] }];
      if (tl.oldmalloc_increase_bytes) {
        s.push({ label: 'oldmalloc increase MB', values: mb(tl.oldmalloc_increase_bytes) });
        s.push({ label: 'oldmalloc limit MB', values: mb(tl.oldmalloc_increase_bytes_limit), dash: [4, 3] });
      }
      const p4 = charts.line(box, { title: 'malloc increase vs limit', x: tl.t, xLabel: 's', yLabel: 'MB', syncKey, stateKey: 'gc.range', onZoom, series: s });
      addBands(p4, report);
    }
    box.appendChild(range.box);
    return box;
  }

  function unitsTable(ui, report) {
    const c = (report.units_of_work || {}).columns || {};
    const n = (c.start_s || []).length;
    const rows = [];
    for (let i = 0; i < n; i++) {
      rows.push({ i: i + 1, start: c.start_s[i], duration: c.duration_ms[i], alloc: c.allocations[i], gcs: c.gcs[i],
        minor: c.minor[i], major: c.major[i], gc_ms: c.gc_time_ms[i], label: c.label[i], thread: c.thread[i] });
    }
    return ui.table([
      { key: 'i', label: '#', numeric: true },
      { key: 'start', label: 'start (s)', numeric: true },
      { key: 'duration', label: 'duration (ms)', numeric: true },
      { key: 'alloc', label: 'allocations', numeric: true },
      { key: 'gcs', label: 'GCs', numeric: true },
      { key: 'minor', label: 'minor', numeric: true },
      { key: 'major', label: 'major', numeric: true },
      { key: 'gc_ms', label: 'GC ms', numeric: true },
      { key: 'label', label: 'unit (controller#action)' },
      { key: 'thread', label: 'thread' },
    ], rows, { csvName: 'units-of-work.csv', caption: 'Units of work' });
  }

  function objectTypes(el, ui, report) {
    const ot = report.object_types || {};
    const a = ot.booted || {}, b = ot.terminated || {};
    const keys = Array.from(new Set(Object.keys(a).concat(Object.keys(b)))).sort();
    if (!keys.length) return el('p', { class: 'muted', text: 'No object-type distribution in BOOTED/TERMINATED.' });
    return ui.table([
      { key: 'type', label: 'type' },
      { key: 'booted', label: 'BOOTED', numeric: true },
      { key: 'terminated', label: 'TERMINATED', numeric: true },
      { key: 'delta', label: 'change', numeric: true },
    ], keys.map((k) => ({ type: k, booted: a[k] ?? null, terminated: b[k] ?? null,
      delta: a[k] !== undefined && b[k] !== undefined ? b[k] - a[k] : null })),
    { csvName: 'object-types.csv', sort: { key: 'terminated', desc: true } });
  }

  // Before/after: the engine compares (compare.side of the other run, compare.with on this one, through
  // ui.showComparison), the same C++ as `gcscope compare BEFORE AFTER`; this only lays out its answer.
  function compareSection(el, ui, report, ctx) {
    return ui.comparePicker({
      self: report, ctx, accept: (r) => r.format === 'tunemygc-payload' && Boolean(r.metrics || r.fleet), cls: 'rubygc-compare',
      ariaLabel: 'the run before', prompt: 'Compare this run (after) with the run before: ',
      emptyText: 'No other TuneMyGC payload on the page: analyze the run before (as its own job) to compare.',
      draw: (out, pick) => ui.showComparison(out, ctx, pick, 'rubygc', (box, c) => box.appendChild(compareTables(el, ui, c)), { pickedBefore: true }),
    });
  }

  function compareTables(el, ui, c) {
    const box = el('div', { class: 'rubygc-compare-result' });
    box.appendChild(el('p', { class: 'muted', text: `Before: ${c.a.processes} process(es), ${ui.fmt.num(c.a.units)} units of work; after: ${c.b.processes} process(es), ${ui.fmt.num(c.b.units)} units. Several processes: per-process figures are their median, rates are pooled over all units.` }));
    box.appendChild(ui.table([
      { key: 'label', label: 'Metric' },
      { key: 'a', label: 'Before', numeric: true },
      { key: 'b', label: 'After', numeric: true },
      { key: 'delta', label: 'Change', numeric: true },
      { key: 'delta_pct', label: 'Change %', numeric: true },
      { key: 'verdict', label: 'Verdict' },
      { key: 'text', label: 'In words' },
    ], c.metrics, { filter: false, csvName: 'ruby-gc-before-after.csv', caption: 'Before → after (lower is better)' }));
    const changed = c.settings_changed || [];
    box.appendChild(changed.length ? ui.table([
      { key: 'variable', label: 'RUBY_GC_* setting' },
      { key: 'before', label: 'Before', format: (v) => (v === null || v === undefined ? '(unset)' : v) },
      { key: 'after', label: 'After', format: (v) => (v === null || v === undefined ? '(unset)' : v) },
    ], changed, { filter: false, csvName: 'ruby-gc-settings-changed.csv', caption: 'Settings that changed between the runs' })
      : el('p', { class: 'muted', text: 'The two runs used the same RUBY_GC_* settings.' }));
    for (const n of c.notes || []) box.appendChild(el('p', { class: 'warning', text: n }));
    return box;
  }

  // Several payloads: the per-process table, each group's merged advice with its spread, and one
  // process's own report on demand (query rubygc.process).
  function renderFleet(container, report, ctx) {
    const { el, ui } = ctx;
    const f = report.fleet;
    container.appendChild(verdictBox(el, report));
    for (const n of f.notes || []) container.appendChild(el('p', { class: 'warning rubygc-fleet-note', text: n }));
    const detail = el('div', { class: 'rubygc-process-detail' });
    const open = (i) => {
      detail.replaceChildren(el('p', { class: 'muted', text: 'Loading process ' + i + '…' }));
      ctx.query('rubygc.process', { process: i }).then((r) => {
        const body = el('div');
        detail.replaceChildren(el('h4', { text: `Process ${i}: ${r.header ? r.header.hostname + ' pid ' + r.header.pid : ''}` }), body);
        render(body, r, Object.assign({}, ctx, { query: (m, a) => ctx.query(m, Object.assign({ process: i }, a || {})), process: i }));
      }).catch((e) => detail.replaceChildren(el('p', { class: 'error', text: e.message })));
    };
    const rows = f.processes.map((p) => ({ ...p, group: p.group + 1, outlier: (p.outlier || []).join('; ') }));
    const table = ui.table([
      { key: 'process', label: '#', numeric: true },
      { key: 'group', label: 'group', numeric: true },
      { key: 'hostname', label: 'host' }, { key: 'ppid', label: 'ppid', numeric: true }, { key: 'pid', label: 'pid', numeric: true },
      { key: 'status', label: 'status', numeric: true },
      { key: 'units', label: 'units of work', numeric: true },
      { key: 'boot_gcs', label: 'GCs during boot', numeric: true },
      { key: 'gcs_while_working', label: 'GCs while working', numeric: true },
      { key: 'gcs_per_unit', label: 'GCs per unit', numeric: true },
      { key: 'peak_slots', label: 'peak heap slots', numeric: true },
      { key: 'peak_rss_mb', label: 'peak RSS MB', numeric: true },
      { key: 'leak_suspected', label: 'leak', format: (v) => (v ? 'yes' : v === false ? 'no' : '—') },
      { key: 'outlier', label: 'outlier' },
    ], rows, { csvName: 'ruby-gc-fleet.csv', caption: f.processes.length + ' processes (click a row for its own report)', filter: false });
    table.classList.add('rubygc-fleet-table');
    table.addEventListener('click', (e) => {
      const tr = e.target.closest('tbody tr');
      if (!tr) return;
      const i = Number(tr.querySelector('td').textContent);
      if (Number.isInteger(i)) open(i);
    });
    container.appendChild(ui.section('Processes', table));
    f.groups.forEach((g, gi) => container.appendChild(ui.section(`Group ${gi + 1}: ${g.label}`, fleetGroup(el, ui, g))));
    container.appendChild(ui.section('Before and after: compare with another run', compareSection(el, ui, report, ctx)));
    container.appendChild(ui.section('One process', detail));
  }

  function fleetGroup(el, ui, g) {
    const box = el('div', { class: 'rubygc-fleet-group', dataset: { group: String(g.processes[0]) } });
    box.appendChild(el('p', { class: 'muted', text: `processes ${g.processes.join(', ')}; with advice: ${g.with_advice.length ? g.with_advice.join(', ') : 'none'}` }));
    if (g.why_no_advice) box.appendChild(el('p', { class: 'muted', text: g.why_no_advice }));
    for (const [key, title, what] of STRATEGIES) {
      const spread = (g.merged[key] || {}).spread || {};
      const vars = Object.keys(spread);
      if (!vars.length) continue;
      const sec = el('div', { class: 'rubygc-strategy rubygc-merged', dataset: { strategy: key } }, el('h4', { text: `${title} — ${what}, merged over the processes` }));
      sec.appendChild(ui.table([
        { key: 'variable', label: 'Variable' }, { key: 'value', label: 'Merged', numeric: true, format: (v) => v },
        { key: 'min', label: 'Lowest', numeric: true, format: (v) => v }, { key: 'max', label: 'Highest', numeric: true, format: (v) => v },
        { key: 'by', label: 'Advised by' }, { key: 'rule', label: 'How merged' },
      ], vars.map((v) => ({ variable: v, ...spread[v], by: `${spread[v].advised_by.length} of ${spread[v].of}` })), { filter: false, csvName: `ruby-gc-fleet-${key}.csv` }));
      if ((g.exports || {})[key]) sec.appendChild(exportBlocks(el, ui, g.exports[key], 'fleet-' + key));
      box.appendChild(sec);
    }
    if ((g.not_merged || []).length) {
      box.appendChild(el('p', { class: 'muted', text: 'Not merged (advised by too few processes): ' +
        g.not_merged.map((n) => `${n.variable} (${n.strategy}, ${n.advised_by.length} of ${n.of})`).join('; ') }));
    }
    return box;
  }

  function render(container, report, ctx) {
    if (report.fleet) { renderFleet(container, report, ctx); return; }
    const { el, ui } = ctx;
    const charts = ctx.charts;
    const m = report.metrics || {};
    const conf = report.confidence || {};
    const h = report.header || {};
    container.appendChild(verdictBox(el, report));
    if (h.ruby_version) {
      container.appendChild(el('p', { class: 'muted rubygc-header', text: `Ruby ${h.ruby_version}${h.rails_version && h.rails_version !== '0.0' ? ', Rails ' + h.rails_version : ''} · agent ${h.agent_version} · ${h.hostname || '?'} pid ${h.pid} · layout ${report.layout || '?'} · ${h.arity}-element header` }));
    }
    if (!report.metrics) return;  // a refused payload: the verdict says why
    container.appendChild(ui.kpis([
      { label: 'units of work', value: ui.fmt.num(m.units), severity: m.units < 200 ? 'warning' : 'ok', hint: 'the agent README suggests at least 200' },
      { label: 'GCs during boot', value: ui.fmt.num(m.gc_at_boot) },
      { label: 'GCs while working', value: ui.fmt.num(m.gcs_during_processing) },
      { label: 'units with a GC', value: ui.fmt.pct(m.units_with_gc_pct, 1) },
      { label: 'GC time share', value: m.gc_time_share_pct === null ? '—' : ui.fmt.pct(m.gc_time_share_pct, 1) },
      { label: 'allocations per unit p95', value: ui.fmt.num(m.alloc_per_unit_p95) },
      { label: 'peak RSS', value: m.peak_rss_mb ? m.peak_rss_mb + ' MB' : 'unknown' },
      { label: 'leak suspected', value: report.leak_suspected ? 'yes' : 'no', severity: report.leak_suspected ? 'error' : 'ok' },
      { label: 'confidence', value: conf.level || '?', severity: conf.level === 'high' ? 'ok' : 'warning',
        hint: (conf.reasons || []).join('; ') },
    ]));
    container.appendChild(el('p', { class: 'muted rubygc-confidence', text: `Confidence ${conf.level}: ${conf.units} units of work, ${conf.gcs_during_processing} GCs while working, ${conf.gc_cycles_seen} GC cycle samples, ${conf.samples} samples (agent cap ${conf.sample_cap}${conf.sample_cap_reached ? ' reached: the end of the run is missing' : ' not reached'}).` }));

    const findings = report.findings || [];
    if (findings.length) {
      container.appendChild(ui.section('Findings', el('ul', { class: 'rubygc-findings' },
        findings.map((f) => el('li', { class: f.severity === 'warn' ? 'warning' : '', dataset: { id: f.id } },
          el('span', { text: f.message }), evidenceText(f.evidence) ? el('span', { class: 'muted', text: ' — ' + evidenceText(f.evidence) }) : null)))));
    }
    const conflicts = report.conflicts || [];
    if (conflicts.length) {
      container.appendChild(ui.section('Existing settings vs ours (412)', ui.table([
        { key: 'variable', label: 'Variable' }, { key: 'existing', label: 'Existing' },
        { key: 'ours', label: 'Ours', format: (v) => (v === null || v === undefined ? '(none: data does not support it)' : v) },
        { key: 'default', label: 'Ruby default' }, { key: 'factor', label: 'Factor', numeric: true }, { key: 'why', label: 'Why' },
      ], conflicts, { filter: false, csvName: 'ruby-gc-conflicts.csv' })));
    }
    const lint = report.lint || [];
    if (lint.length) {
      container.appendChild(ui.section('Existing RUBY_GC_* settings checked with this Ruby\'s parsing rules', ui.table([
        { key: 'variable', label: 'Variable' }, { key: 'value', label: 'Value' }, { key: 'status', label: 'Status' },
        { key: 'message', label: 'What Ruby does' },
      ], lint, { filter: false, csvName: 'ruby-gc-lint.csv' })));
    }
    container.appendChild(ui.section('Advice', advice(el, ui, report, ctx)));
    container.appendChild(ui.section('Timelines', timelines(el, charts, report, ctx)));
    container.appendChild(ui.section('Before and after: compare with another run', compareSection(el, ui, report, ctx)));
    container.appendChild(ui.section('Units of work', unitsTable(ui, report)));
    container.appendChild(ui.section('Object types: BOOTED vs TERMINATED', objectTypes(el, ui, report)));
    const sh = report.stat_heap;
    if (sh && sh.end) {
      const rows = Object.entries(sh.end).map(([i, hp]) => ({ heap: i, slot_size: hp.slot_size,
        boot: sh.booted && sh.booted[i] ? sh.booted[i].heap_eden_slots : null, end: hp.heap_eden_slots }));
      container.appendChild(ui.section('Heaps (GC.stat_heap, Ruby 3.3+)', ui.table([
        { key: 'heap', label: 'heap' }, { key: 'slot_size', label: 'slot size (B)', numeric: true },
        { key: 'boot', label: 'eden slots at BOOTED', numeric: true }, { key: 'end', label: 'eden slots at the end', numeric: true },
      ], rows, { filter: false, csvName: 'stat-heap.csv' })));
    }
    const vars = report.gc_variables || [];
    if (vars.length) {
      const d = ui.section(`RUBY_GC_* variables Ruby ${report.ruby_series} reads`, ui.table([
        { key: 'variable', label: 'Variable' }, { key: 'default', label: 'Default' }, { key: 'kind', label: 'Kind' },
        { key: 'must_be_greater_than', label: '> bound', numeric: true }, { key: 'existing', label: 'Set to' },
        { key: 'what', label: 'What it does' }, { key: 'source', label: 'Source' },
      ], vars, { filter: false, csvName: 'ruby-gc-variables.csv' }));
      d.open = false;
      container.appendChild(d);
    }
  }

  GCSCOPE.registerView('tunemygc-payload', { render });
})();
