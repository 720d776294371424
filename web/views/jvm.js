// JVM GC log view: the findings first (ranked by severity, each opens its log line), then KPIs, heap
// over time with pauses marked, pause durations and their histogram, causes, phases, the diary and
// the event table. The first
// screen is the report's (its whole-log summary, its decimated series, the first page of events);
// zooming, resetting, paging and sorting ask the engine (ctx.query: jvm.summary, jvm.series,
// jvm.events), and the compare panel asks the engines of both jobs (compare.side, compare.with).
// Every number shown comes from the engine.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE;
  const { el, fmt } = GCSCOPE.ui;

  // The KPI tiles of a summary (the report itself for the whole log, or a jvm.summary answer).
  function kpiItems(s) {
    const tp = s.throughput_percent, p = s.pauses, sp = s.safepoints || {};
    const alloc = s.rates ? s.rates.allocation_mb_s : null;
    return [
      { label: 'Throughput', value: tp === null ? '—' : fmt.pct(tp), severity: tp === null ? '' : tp < 90 ? 'error' : tp < 95 ? 'warning' : 'ok', hint: '100 % − time paused / runtime' },
      { label: 'p99 pause', value: fmt.seconds(p.p99_s) },
      { label: 'Max pause', value: fmt.seconds(p.max_s) },
      { label: 'Pauses', value: fmt.num(p.count) },
      { label: 'Paused total', value: fmt.seconds(p.total_s) },
      { label: 'Footprint (max heap)', value: fmt.kb(s.heap.max_size_kb), hint: 'largest committed heap' },
      { label: 'Max after GC', value: fmt.kb(s.heap.max_after_gc_kb) },
      { label: 'Allocation rate', value: alloc === null || alloc === undefined ? '—' : fmt.num(alloc, 1) + ' MB/s' },
      { label: 'Runtime', value: fmt.seconds(s.runtime_s) },
      { label: 'Safepoints', value: sp.count ? fmt.num(sp.count) + ' / ' + fmt.seconds(sp.total_s) : '—' },
    ];
  }

  // Rows of a {name: {count, total_s, max_s?}} table.
  const rowsOf = (obj) => Object.entries(obj || {}).map(([name, v]) => ({ name, count: v.count, total: v.total_s, max: v.max_s }));

  // The heap chart's arrays (uPlot: x then one array per series) from a jvm.series answer.
  // `pools`: the chart's pools, in its series order; a pool the answer left out (a hidden series is
  // not asked for) is drawn as no values.
  function heapData(series, pools) {
    const e = series.events, MB = (v) => (v === null ? null : v / 1024);
    const keys = (pools || series.pools || []).flatMap((p) => [p + '_before_kb', p + '_after_kb']);
    return [e.t, e.heap_before_kb.map(MB), e.heap_after_kb.map(MB), e.heap_committed_kb.map(MB),
      e.pause_s.map((v) => (v === null ? null : v * 1e3)), ...keys.map((k) => (e[k] ? e[k].map(MB) : e.t.map(() => null)))];
  }
  const pauseData = (series) => [series.pauses.t, series.pauses.duration_s.map((v) => v * 1e3)];

  // Reads line `n` (1-based) of a Blob without loading it whole.
  async function readLine(blob, n) {
    const reader = blob.stream().getReader();
    const decoder = new TextDecoder();
    let line = 1, current = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return line === n ? current : null;
      let start = 0;
      for (let i = 0; i < value.length; i++) {
        if (value[i] !== 10) continue;
        if (line === n) { reader.cancel(); return current + decoder.decode(value.subarray(start, i)); }
        line++;
        start = i + 1;
        current = '';
      }
      if (line === n) current += decoder.decode(value.subarray(start), { stream: true });
    }
  }

  function renderNotes(container, report) {
    // Rotating set: how the members were ordered and which JVM run is shown.
    const rot = report.rotation;
    if (rot && rot.order && rot.order.length > 1) {
      const base = (p) => String(p).split('/').pop();
      container.appendChild(el('p', { class: rot.restarts ? 'warning jvm-rotation' : 'muted jvm-rotation',
        text: 'Rotating set of ' + rot.order.length + ' files, ' + rot.note + '. Analyzed: ' + rot.selected.map(base).join(', ') + '.' }));
    }
  }

  function renderFindings(container, report, fileFor) {
    const lineView = el('pre', { class: 'jvm-line gs-copy', hidden: true });
    const findings = report.findings || [];
    const findingList = el('ul', { class: 'jvm-findings', style: { listStyle: 'none', paddingLeft: '0' } }, findings.map((f) => {
      const li = el('li', { class: 'finding sev-' + f.severity, dataset: { id: f.id } },
        el('span', { class: 'badge', text: f.severity }), ' ', el('strong', { text: f.id }), ' — ', el('span', { text: f.message }));
      if (f.first_line > 0) {
        const link = el('a', { href: '#', class: 'jvm-line-link', text: ' line ' + f.first_line });
        link.addEventListener('click', async (e) => {
          e.preventDefault();
          const file = fileFor(f.member || 0);
          lineView.hidden = false;
          if (!file) { lineView.textContent = 'Line ' + f.first_line + ' (the file is not available in this page)'; return; }
          const text = await readLine(file.blob, f.first_line);
          lineView.textContent = f.first_line + ': ' + (text === null ? '(beyond the end of the file)' : text);
        });
        li.appendChild(link);
      }
      return li;
    }));
    container.append(GCSCOPE.ui.section('Findings (' + findings.length + ')',
      findings.length ? findingList : el('p', { class: 'muted', text: 'Nothing to point out.' }), lineView));
  }

  function renderDiary(container, report) {
    const d = report.diary || {};
    const flagRows = Object.entries(d.flags || {}).map(([name, v]) => ({ name, value: v === null ? 'unknown' : String(v) }));
    container.append(GCSCOPE.ui.section('Diary',
      el('dl', { class: 'jvm-diary', style: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.2rem 1rem' } },
        el('dt', { text: 'Unified logging' }), el('dd', { text: d.unified === null ? 'unknown' : String(d.unified) }),
        el('dt', { text: 'JVM version' }), el('dd', { text: d.jvm_version || '—' }),
        el('dt', { text: 'Collector(s)' }), el('dd', { text: (d.collectors || []).join(', ') || '—' }),
        el('dt', { text: 'Max heap' }), el('dd', { text: fmt.kb(d.max_heap_kb) }),
        el('dt', { text: 'Command line' }), el('dd', { text: d.command_line || '—' })),
      GCSCOPE.ui.table([{ key: 'name', label: 'Flag' }, { key: 'value', label: 'Value' }], flagRows, { csvName: 'jvm-diary.csv' })));
  }

  // The summary part of the screen: KPI tiles, percentiles, the pause histogram, the causes, pause
  // kinds and phases tables. `s` is the report (whole log) or a jvm.summary answer (a range).
  function summaryPanel(charts) {
    const kpiBox = el('div', { class: 'jvm-kpis' });
    const histBox = el('div', { class: 'jvm-pause-hist' });
    const causesBox = el('div', { class: 'jvm-causes' });
    const pauseKindsBox = el('div', { class: 'jvm-pause-kinds' });
    const phasesBox = el('div', { class: 'jvm-phases' });
    const phasesSection = GCSCOPE.ui.section('Phases', phasesBox);
    // A box's table is made once and refilled for each range: its filter, order and page stay.
    const tableIn = (box, columns, rows, opts) => {
      if (box.firstChild && box.firstChild.refresh) box.firstChild.refresh(rows);
      else box.replaceChildren(GCSCOPE.ui.table(columns, rows, opts));
    };
    const timesTable = (box, nameLabel, rows, csvName) => tableIn(box, [
      { key: 'name', label: nameLabel },
      { key: 'count', label: 'Count', numeric: true },
      { key: 'total', label: 'Total', numeric: true, format: fmt.seconds },
      { key: 'max', label: 'Max', numeric: true, format: fmt.seconds },
    ], rows, { csvName, sort: { key: 'total', desc: true } });
    let hist = null;
    return {
      kpiBox, histBox,
      sections: [GCSCOPE.ui.section('Causes', causesBox), GCSCOPE.ui.section('Pauses by kind', pauseKindsBox), phasesSection],
      show(s, whole) {
        const p = s.pauses;
        kpiBox.replaceChildren(GCSCOPE.ui.kpis(kpiItems(s)), el('p', { class: 'muted jvm-percentiles', text:
          `p50 ${fmt.seconds(p.p50_s)} · p90 ${fmt.seconds(p.p90_s)} · p99 ${fmt.seconds(p.p99_s)} · p99.9 ${fmt.seconds(p.p999_s)} · mean ${fmt.seconds(p.mean_s)}` }));
        const buckets = (s.pause_histogram || []).map((b) => ({ lo: b.lo_ms, hi: b.hi_ms, count: b.count }));
        if (charts && p.count && buckets.length) {
          const at = (v) => { const k = buckets.findIndex((b) => v * 1e3 <= b.hi); return k < 0 ? buckets.length - 1 : k; };
          const markers = [{ label: 'p50', value: at(p.p50_s) }, { label: 'p99', value: at(p.p99_s) }];
          if (hist) hist.setBuckets(buckets, markers);
          else hist = charts.histogram(histBox, { title: 'Pause duration histogram (ms)', buckets, xLabel: 'ms', yLabel: 'pauses', markers });
        } else if (hist) {
          histBox.replaceChildren();
          hist = null;
        }
        tableIn(causesBox, [
          { key: 'name', label: 'Cause' },
          { key: 'count', label: 'Pauses', numeric: true },
          { key: 'total', label: 'Paused', numeric: true, format: fmt.seconds },
        ], rowsOf(s.causes), { csvName: 'jvm-causes.csv', sort: { key: 'count', desc: true } });
        timesTable(pauseKindsBox, 'Pause', rowsOf(s.pause_kinds), 'jvm-pauses.csv');
        phasesSection.querySelector('summary').textContent = whole ? 'Phases (whole log)' : 'Phases (range)';
        timesTable(phasesBox, 'Phase', rowsOf(s.phases), 'jvm-phases.csv');
      },
    };
  }

  // The event table: pages of jvm.events over the current range (the report's first page first).
  function eventTable(report, ctx, range) {
    const pools = (report.events_page && report.events_page.pools) || [];
    const uptime = (v) => (v === null ? '—' : v.toFixed(3));
    const columns = [
      { key: 't', label: 'Uptime (s)', numeric: true, format: uptime },
      { key: 'gc_id', label: 'GC id', numeric: true },
      { key: 'type', label: 'Type' },
      { key: 'cause', label: 'Cause' },
      { key: 'kind', label: 'Kind' },
      { key: 'duration_s', label: 'Duration', numeric: true, format: fmt.seconds },
      { key: 'paused_s', label: 'Paused', numeric: true, format: fmt.seconds },
      { key: 'heap_before_kb', label: 'Heap before', numeric: true, format: fmt.kb },
      { key: 'heap_after_kb', label: 'Heap after', numeric: true, format: fmt.kb },
      { key: 'heap_committed_kb', label: 'Committed', numeric: true, format: fmt.kb },
      ...pools.map((p) => ({ key: p + '_after_kb', label: p[0].toUpperCase() + p.slice(1) + ' after', numeric: true, format: fmt.kb })),
      { key: 'line', label: 'Line', numeric: true },
    ];
    return GCSCOPE.ui.pagedTable(columns, {
      csvName: 'jvm-events.csv', pageSize: 50, noun: 'events', stateKey: 'events',
      first: report.events_page,
      fetch: (q) => {
        const r = range();
        return ctx.query('jvm.events', Object.assign({ offset: q.offset, limit: q.limit, sort: q.sort || 't', desc: q.desc, filter: q.filter },
          r ? { t0: r[0], t1: r[1] } : {}));
      },
    });
  }

  function render(container, report, ctx) {
    if (!report.pauses) {
      container.appendChild(el('p', { class: 'muted', text: 'No analysis in this report.' }));
      return;
    }
    const files = (ctx && ctx.files) || [];
    const memberPath = (m) => (report.members && report.members[m] ? report.members[m].path : (report.inputs || [])[m]);
    const fileFor = (m) => files.find((f) => f.path === memberPath(m)) || (files.length === 1 ? files[0] : null);
    const charts = GCSCOPE.charts;
    renderNotes(container, report);
    // The verdict first (the engine ranks the findings by severity), then KPIs, charts, tables.
    renderFindings(container, report, fileFor);

    // ---- range bar + KPIs, charts, tables ----
    const rangeLabel = el('span', { class: 'jvm-range', text: 'Whole log' });
    const resetBtn = el('button', { type: 'button', class: 'gs-small', text: 'Reset zoom', hidden: true });
    const status = el('span', { class: 'muted jvm-status' });
    const panel = summaryPanel(charts);
    const heapBox = el('div', { class: 'jvm-heap-chart' });
    const pauseBox = el('div', { class: 'jvm-pause-chart' });
    container.append(el('div', { class: 'jvm-rangebar' }, el('strong', { text: 'Range: ' }), rangeLabel, ' ', resetBtn, ' ', status),
      panel.kpiBox, heapBox, pauseBox, panel.histBox, ...panel.sections);

    let zoom = null;  // [t0, t1], or null for the whole log
    let asked = 0;    // the latest question: answers to earlier ones are dropped
    let drawing = false;  // the view itself is changing the charts: their scale changes are not zooms
    const series = report.series;
    let heapPlot = null, pausePlot = null;
    const onZoom = (min, max) => {
      if (drawing) return;
      const next = min === null ? null : [min, max];
      if ((next === null && zoom === null) || (next && zoom && next[0] === zoom[0] && next[1] === zoom[1])) return;  // the synced chart
      zoom = next;
      // Deep link: the range goes into the fragment, so a reload or a shared link returns to it.
      if (GCSCOPE.state && !GCSCOPE.staticReport) GCSCOPE.state.set('range', zoom ? `${zoom[0].toFixed(3)},${zoom[1].toFixed(3)}` : null, { push: true });
      update();
    };
    // The heap chart's pools (series 4 + 2k and 5 + 2k); a range asks only for those whose series
    // are shown, and again when one is shown that the answer drawn lacks.
    const chartPools = (series && series.pools) || [];
    let drawnPools = chartPools;
    const shownPools = () => chartPools.filter((p, k) => heapPlot && (heapPlot.series[5 + 2 * k].show || heapPlot.series[6 + 2 * k].show));
    const onSeries = (index, shown) => {
      const pool = index >= 4 ? chartPools[(index - 4) >> 1] : null;
      if (pool && shown && zoom && !drawnPools.includes(pool)) update();
    };
    if (charts && series && series.events.t.length) {
      const poolLabels = chartPools.flatMap((p) => [p + ' before GC', p + ' after GC']);
      const data = heapData(series, chartPools);
      heapPlot = charts.line(heapBox, {
        title: 'Heap over time (MB) — pauses in ms on the right axis; a long range shows the lowest and highest figures of each pixel column; drag to zoom; click a legend entry to show or hide it',
        x: data[0], xLabel: 'uptime (s)', yLabel: 'MB', y2Label: 'pause (ms)', syncKey: 'jvm',
        series: [
          { label: 'before GC', values: data[1], points: 'only' },
          { label: 'after GC', values: data[2], points: true },
          { label: 'committed', values: data[3], dash: [4, 3] },
          { label: 'pause (ms)', values: data[4], points: 'only', scale: 'y2' },
          ...poolLabels.map((label, k) => ({ label, values: data[5 + k], points: label.endsWith(' before GC') ? 'only' : true })),
        ],
        onZoom, onSeries,
      });
      // Generation/region series start hidden (the legend toggles them).
      for (let i = heapPlot.series.length - poolLabels.length; i < heapPlot.series.length; i++) heapPlot.setSeries(i, { show: false });
    }
    if (charts && series && series.pauses.t.length) {
      const data = pauseData(series);
      pausePlot = charts.line(pauseBox, {
        title: 'Pause durations (ms) — a long range shows the shortest and longest pause of each pixel column',
        x: data[0], xLabel: 'uptime (s)', yLabel: 'ms', syncKey: 'jvm',
        series: [{ label: 'pause', values: data[1], points: 'only' }], onZoom,
      });
    }
    const plots = () => [heapPlot, pausePlot].filter(Boolean);
    // The charts show `s` (a jvm.series answer); for a range, on the scale of that range.
    const drawSeries = (s, range) => {
      drawing = true;
      try {
        if (heapPlot) heapPlot.setData(heapData(s, chartPools), !range);
        drawnPools = s.pools || [];
        if (pausePlot) pausePlot.setData(pauseData(s), !range);
        if (range) for (const p of plots()) p.setScale('x', { min: range[0], max: range[1] });
      } finally {
        drawing = false;
      }
    };
    resetBtn.addEventListener('click', () => onZoom(null, null));

    renderDiary(container, report);
    const table = eventTable(report, ctx, () => zoom);
    container.append(GCSCOPE.ui.section('Events', el('div', { class: 'jvm-events' }, table)));
    if (report.unparsed && report.unparsed.count) {
      container.append(GCSCOPE.ui.section('Lines not understood (' + report.unparsed.count + ')',
        GCSCOPE.ui.table([{ key: 'line', label: 'Line', numeric: true }, { key: 'text', label: 'Text' }], report.unparsed.samples, { filter: false })));
    }

    // The whole log from the report; a range from the engine.
    async function update() {
      const range = zoom, my = ++asked;
      rangeLabel.textContent = range ? `${range[0].toFixed(3)} s – ${range[1].toFixed(3)} s` : 'Whole log';
      resetBtn.hidden = !range;
      status.textContent = '';
      if (!range) {
        panel.show(report, true);
        if (series) drawSeries(series, null);
        table.reset(true);
        rangeLabel.dataset.shown = '';
        return;
      }
      const width = Math.max(100, Math.round(heapBox.clientWidth || pauseBox.clientWidth || 1000));
      try {
        const [summary, s] = await Promise.all([ctx.query('jvm.summary', { t0: range[0], t1: range[1] }),
          series ? ctx.query('jvm.series', { t0: range[0], t1: range[1], width, pools: shownPools() }) : null]);
        if (my !== asked) return;
        panel.show(summary, false);
        if (s) drawSeries(s, range);
        table.reset(false);
        rangeLabel.dataset.shown = `${range[0]},${range[1]}`;  // what the KPIs and charts show (tools, benchmarks)
      } catch (err) {
        if (my !== asked) return;
        status.textContent = err.message;
        table.reset(false);  // the table pages over the range asked for, whatever answered
      }
    }
    panel.show(report, true);
    // A range in the fragment (#range=a,b) from a shared link or a reload: zoom to it.
    const parse = (v) => { const m = v && /^(-?[\d.]+),(-?[\d.]+)$/.exec(v); return m && Number(m[1]) < Number(m[2]) ? [Number(m[1]), Number(m[2])] : null; };
    const saved = GCSCOPE.state && parse(GCSCOPE.state.get('range'));
    // The charts report their first scale after this task: a range is set on them (their zoom hook
    // then asks for it), or asked for directly when there is no chart.
    if (saved && plots().length) for (const p of plots()) p.setScale('x', { min: saved[0], max: saved[1] });
    else if (saved) onZoom(saved[0], saved[1]);
    // Deep-link state hook: back/forward to another range (or the whole log).
    if (GCSCOPE.state) GCSCOPE.state.watch('range', panel.kpiBox, (v) => { const r = parse(v); onZoom(r ? r[0] : null, r ? r[1] : null); });
    renderCompare(container, report, ctx);
  }

  // ---- Compare: this report against another JVM report on the page ----
  // Two logs dropped in one job are one report (a rotating set), so the other side is picked from
  // the JVM reports of the page: this document's other reports and every finished job card's. The
  // comparison is the engine's (compare.side of this report's engine, compare.with on the other's:
  // the same function as gcscope compare); the overlays draw both reports' first screens.

  function renderCompare(container, report, ctx) {
    const ui = GCSCOPE.ui;
    container.append(ui.section('Compare', ui.comparePicker({
      self: report, ctx, accept: (r) => r.format === 'jvm-gc-log' && Boolean(r.pauses), cls: 'jvm-compare',
      ariaLabel: 'JVM report to compare with', prompt: 'Compare with: ',
      emptyText: 'No other JVM report on the page: analyze another GC log (as its own job) to compare.',
      draw: (out, pick) => drawCompare(out, report, pick, ui.reportLabel(report, 'this report'), ctx),
    })));
  }

  async function drawCompare(out, a, pick, labelA, ctx) {
    const b = pick.report, labelB = pick.label;
    const note = el('p', { class: 'muted', text: 'Comparing…' });
    out.appendChild(note);
    let c;
    try {
      c = await GCSCOPE.ui.compareWithEngine(ctx, pick);
    } catch (err) {
      if (pick.current()) note.textContent = 'Cannot compare: ' + err.message;
      return;
    }
    if (!pick.current()) return;  // a later pick asked since
    note.remove();
    const num = (v) => (v === null ? '—' : Math.abs(v) >= 1000 ? v.toFixed(0) : String(Math.round(v * 1e4) / 1e4));
    out.appendChild(GCSCOPE.ui.table([
      { key: 'key', label: 'KPI' },
      { key: 'a', label: 'A: ' + labelA, numeric: true, format: num },
      { key: 'b', label: 'B: ' + labelB, numeric: true, format: num },
      { key: 'delta', label: 'Δ (B − A)', numeric: true, format: num },
      { key: 'delta_percent', label: 'Δ %', numeric: true, format: (v) => GCSCOPE.ui.signedPercent(v, ' %') },
    ], c.kpis, { caption: c.kpis.length + ' KPIs', csvName: 'jvm-compare.csv', filter: false }));
    const charts = GCSCOPE.charts;
    if (!charts) return;
    // Overlaid pause histograms: each report's counts per power-of-two bucket of milliseconds.
    const counts = (r) => new Map((r.pause_histogram || []).map((h) => [Math.round(Math.log2(h.hi_ms)), h.count]));
    const ha = counts(a), hb = counts(b);
    const ks = Array.from(new Set([...ha.keys(), ...hb.keys()])).sort((x, y) => x - y);
    if (ks.length) {
      const xs = [];
      for (let k = ks[0]; k <= ks[ks.length - 1]; k++) xs.push(k);
      const histBox = el('div', { class: 'jvm-compare-hist' });
      out.appendChild(histBox);
      charts.line(histBox, {
        title: 'Pause histogram (count per duration bucket, ms)', x: xs, xLabel: 'pause ≤ (ms)', yLabel: 'pauses',
        xFormat: (k) => (Number.isInteger(k) ? String(Math.pow(2, k) >= 1 ? Math.pow(2, k) : Math.pow(2, k).toPrecision(2)) : ''),
        series: [
          { label: 'A: ' + labelA, values: xs.map((k) => ha.get(k) || 0), points: true },
          { label: 'B: ' + labelB, values: xs.map((k) => hb.get(k) || 0), points: true },
        ],
      });
    }
    // Overlaid heap after GC, each over its own time since its first event (the reports' series).
    const curve = (r) => {
      const e = r.series ? r.series.events : { t: [], heap_after_kb: [] }, pts = [];
      for (let i = 0; i < e.t.length; i++) if (e.heap_after_kb[i] !== null) pts.push([e.t[i] - e.t[0], e.heap_after_kb[i] / 1024]);
      return pts;
    };
    const ca = curve(a), cb = curve(b);
    if (ca.length || cb.length) {
      const merged = ca.map((p) => [p[0], p[1], null]).concat(cb.map((p) => [p[0], null, p[1]])).sort((x, y) => x[0] - y[0]);
      const heapBox = el('div', { class: 'jvm-compare-heap' });
      out.appendChild(heapBox);
      charts.line(heapBox, {
        title: 'Heap after GC (MB) over time since each log\'s first event', x: merged.map((p) => p[0]),
        xLabel: 'seconds since first event', yLabel: 'MB',
        series: [
          { label: 'A: ' + labelA, values: merged.map((p) => p[1]), points: true },
          { label: 'B: ' + labelB, values: merged.map((p) => p[2]), points: true },
        ],
      });
    }
  }

  GCSCOPE.registerView('jvm-gc-log', { render });
})(typeof window !== 'undefined' ? window : globalThis);
