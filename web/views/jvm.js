// JVM GC log view: KPIs, heap over time with pauses marked, pause durations and their histogram,
// causes, phases, findings (each opens its log line), the diary and a sortable event table.
// Zooming the heap or pause chart to a time range recomputes every number from the report's
// columnar series for that range.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE;
  const { el, fmt } = GCSCOPE.ui;

  // Nearest-rank percentile over a sorted array (same rule as the C++ aggregator).
  function percentile(sorted, q) {
    if (!sorted.length) return 0;
    const rank = Math.ceil(q * sorted.length);
    return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
  }

  // Every figure of the KPI header and the tables, for events/pauses with t in [t0, t1] (null: all).
  function compute(report, t0, t1) {
    const s = report.series;
    const ev = s.events, pz = s.pauses, sp = s.safepoints;
    const inRange = (t) => t0 === null || (t !== null && t >= t0 && t <= t1);
    const durs = [];
    let total = 0;
    const byName = new Map();
    for (let i = 0; i < pz.t.length; i++) {
      if (!inRange(pz.t[i])) continue;
      const d = pz.duration_s[i];
      durs.push(d);
      total += d;
      const name = s.names[pz.name[i]];
      const row = byName.get(name) || { name, count: 0, total: 0, max: 0 };
      row.count++; row.total += d; row.max = Math.max(row.max, d);
      byName.set(name, row);
    }
    durs.sort((a, b) => a - b);
    const idx = [];
    for (let i = 0; i < ev.t.length; i++) if (inRange(ev.t[i])) idx.push(i);
    let maxCommitted = null, maxAfter = null, maxBefore = null, allocatedKb = 0, prevAfter = null, prevMember = -1;
    const causes = new Map();
    const types = new Map();
    for (const i of idx) {
      const c = ev.heap_committed_kb[i], a = ev.heap_after_kb[i], b = ev.heap_before_kb[i];
      if (c !== null && (maxCommitted === null || c > maxCommitted)) maxCommitted = c;
      if (a !== null && (maxAfter === null || a > maxAfter)) maxAfter = a;
      if (b !== null && (maxBefore === null || b > maxBefore)) maxBefore = b;
      if (ev.member[i] !== prevMember) { prevAfter = null; prevMember = ev.member[i]; }
      if (a !== null && b !== null) {
        if (prevAfter !== null && b > prevAfter) allocatedKb += b - prevAfter;
        prevAfter = a;
      }
      const type = s.types[ev.type[i]];
      types.set(type, (types.get(type) || 0) + 1);
      if (ev.cause[i] >= 0) {
        const name = s.causes[ev.cause[i]];
        const row = causes.get(name) || { name, count: 0, total: 0 };
        row.count++; row.total += ev.pause_s[i];
        causes.set(name, row);
      }
    }
    let spCount = 0, spTotal = 0, spMax = 0;
    for (let i = 0; i < sp.t.length; i++) {
      if (!inRange(sp.t[i]) || sp.duration_s[i] === null) continue;
      spCount++; spTotal += sp.duration_s[i]; spMax = Math.max(spMax, sp.duration_s[i]);
    }
    const runtime = t0 === null ? report.runtime_s : t1 - t0;
    const paused = runtime ? Math.min(100, (total / runtime) * 100) : null;
    return {
      eventIndex: idx,
      pauses: {
        count: durs.length, total, max: durs.length ? durs[durs.length - 1] : 0, mean: durs.length ? total / durs.length : 0,
        p50: percentile(durs, 0.5), p90: percentile(durs, 0.9), p99: percentile(durs, 0.99), p999: percentile(durs, 0.999),
        sorted: durs,
      },
      runtime, percentPaused: paused, throughput: paused === null ? null : 100 - paused,
      heap: { maxCommitted, maxAfter, maxBefore },
      allocationMbS: runtime ? allocatedKb / 1024 / runtime : null,
      causes: [...causes.values()], pauseKinds: [...byName.values()], types,
      safepoints: { count: spCount, total: spTotal, max: spMax },
    };
  }

  function kpiItems(report, c) {
    const tp = c.throughput;
    return [
      { label: 'Throughput', value: tp === null ? '—' : fmt.pct(tp), severity: tp === null ? '' : tp < 90 ? 'error' : tp < 95 ? 'warning' : 'ok', hint: '100 % − time paused / runtime' },
      { label: 'p99 pause', value: fmt.seconds(c.pauses.p99) },
      { label: 'Max pause', value: fmt.seconds(c.pauses.max) },
      { label: 'Pauses', value: fmt.num(c.pauses.count) },
      { label: 'Paused total', value: fmt.seconds(c.pauses.total) },
      { label: 'Footprint (max heap)', value: fmt.kb(c.heap.maxCommitted), hint: 'largest committed heap' },
      { label: 'Max after GC', value: fmt.kb(c.heap.maxAfter) },
      { label: 'Allocation rate', value: c.allocationMbS === null ? '—' : fmt.num(c.allocationMbS, 1) + ' MB/s' },
      { label: 'Runtime', value: fmt.seconds(c.runtime) },
      { label: 'Safepoints', value: c.safepoints.count ? fmt.num(c.safepoints.count) + ' / ' + fmt.seconds(c.safepoints.total) : '—' },
    ];
  }

  // Log-spaced buckets of pause durations (powers of two of a millisecond).
  function pauseBuckets(sorted) {
    if (!sorted.length) return [];
    const lo = Math.floor(Math.log2(Math.max(sorted[0] * 1e3, 1e-3)));
    const hi = Math.ceil(Math.log2(Math.max(sorted[sorted.length - 1] * 1e3, 1e-3)));
    const buckets = [];
    for (let e = lo; e <= Math.max(hi, lo + 1); e++) buckets.push({ lo: 2 ** (e - 1), hi: 2 ** e, count: 0 });
    for (const d of sorted) {
      const ms = d * 1e3;
      let k = buckets.findIndex((b) => ms <= b.hi);
      if (k < 0) k = buckets.length - 1;
      buckets[k].count++;
    }
    return buckets;
  }

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

  function render(container, report, ctx) {
    if (!report.series) {
      container.appendChild(el('p', { class: 'muted', text: 'No analysis in this report.' }));
      return;
    }
    const s = report.series;
    const files = (ctx && ctx.files) || [];
    const memberPath = (m) => (report.members && report.members[m] ? report.members[m].path : (report.inputs || [])[m]);
    const fileFor = (m) => files.find((f) => f.path === memberPath(m)) || (files.length === 1 ? files[0] : null);

    if (report.legacy_not_parsed) {
      container.appendChild(el('p', { class: 'warning', text: 'This log is pre-unified (JDK 8 or older): it was identified, but legacy parsing is not available in this build yet.' }));
    }

    // ---- range bar + KPIs ----
    const rangeLabel = el('span', { class: 'jvm-range', text: 'Whole log' });
    const resetBtn = el('button', { type: 'button', class: 'gs-small', text: 'Reset zoom', hidden: true });
    const kpiBox = el('div', { class: 'jvm-kpis' });
    container.append(el('div', { class: 'jvm-rangebar' }, el('strong', { text: 'Range: ' }), rangeLabel, ' ', resetBtn), kpiBox);

    // ---- charts ----
    const heapBox = el('div', { class: 'jvm-heap-chart' });
    const pauseBox = el('div', { class: 'jvm-pause-chart' });
    const histBox = el('div', { class: 'jvm-pause-hist' });
    container.append(heapBox, pauseBox, histBox);

    const ev = s.events;
    const heapX = [], before = [], after = [], committed = [], pauseMark = [];
    for (let i = 0; i < ev.t.length; i++) {
      if (ev.t[i] === null || (ev.heap_after_kb[i] === null && ev.heap_before_kb[i] === null)) continue;
      heapX.push(ev.t[i]);
      before.push(ev.heap_before_kb[i] === null ? null : ev.heap_before_kb[i] / 1024);
      after.push(ev.heap_after_kb[i] === null ? null : ev.heap_after_kb[i] / 1024);
      committed.push(ev.heap_committed_kb[i] === null ? null : ev.heap_committed_kb[i] / 1024);
      pauseMark.push(ev.pause_s[i] > 0 ? ev.pause_s[i] * 1e3 : null);
    }
    const pz = s.pauses;
    const pauseX = [], pauseY = [];
    for (let i = 0; i < pz.t.length; i++) if (pz.t[i] !== null) { pauseX.push(pz.t[i]); pauseY.push(pz.duration_s[i] * 1e3); }

    let zoom = [null, null];
    let hist = null;
    const onZoom = (min, max) => {
      zoom = min === null ? [null, null] : [min, max];
      // Deep link: the range goes into the fragment, so a reload or a shared link returns to it.
      if (GCSCOPE.state && !GCSCOPE.staticReport) GCSCOPE.state.set('range', min === null ? null : `${min.toFixed(3)},${max.toFixed(3)}`);
      update();
    };
    const charts = GCSCOPE.charts;
    let heapPlot = null, pausePlot = null;
    if (charts && heapX.length) {
      heapPlot = charts.line(heapBox, {
        title: 'Heap over time (MB) — pauses in ms on the right axis; drag to zoom',
        x: heapX, xLabel: 'uptime (s)', yLabel: 'MB', y2Label: 'pause (ms)', syncKey: 'jvm',
        series: [
          { label: 'before GC', values: before, points: 'only' },
          { label: 'after GC', values: after, points: true },
          { label: 'committed', values: committed, dash: [4, 3] },
          { label: 'pause (ms)', values: pauseMark, points: 'only', scale: 'y2' },
        ],
        onZoom,
      });
    }
    if (charts && pauseX.length) {
      pausePlot = charts.line(pauseBox, {
        title: 'Pause durations (ms)', x: pauseX, xLabel: 'uptime (s)', yLabel: 'ms', syncKey: 'jvm',
        series: [{ label: 'pause', values: pauseY, points: 'only' }], onZoom,
      });
    }
    resetBtn.addEventListener('click', () => {
      for (const p of [heapPlot, pausePlot]) if (p) p.setScale('x', { min: p.data[0][0], max: p.data[0][p.data[0].length - 1] });
      onZoom(null, null);
    });

    // ---- tables (recomputed) ----
    const causesBox = el('div', { class: 'jvm-causes' });
    const pauseKindsBox = el('div', { class: 'jvm-pause-kinds' });
    container.append(GCSCOPE.ui.section('Causes', causesBox), GCSCOPE.ui.section('Pauses by kind', pauseKindsBox));

    // ---- phases (whole log) ----
    const phaseRows = Object.entries(report.phases || {}).map(([name, p]) => ({ name, count: p.count, total: p.total_s, max: p.max_s }));
    container.append(GCSCOPE.ui.section('Phases (whole log)', GCSCOPE.ui.table([
      { key: 'name', label: 'Phase' },
      { key: 'count', label: 'Count', numeric: true },
      { key: 'total', label: 'Total', numeric: true, format: fmt.seconds },
      { key: 'max', label: 'Max', numeric: true, format: fmt.seconds },
    ], phaseRows, { csvName: 'jvm-phases.csv', sort: { key: 'total', desc: true } })));

    // ---- findings ----
    const lineView = el('pre', { class: 'jvm-line gs-copy', hidden: true });
    const findings = report.findings || [];
    const findingList = el('ul', { class: 'jvm-findings', style: { listStyle: 'none', paddingLeft: '0' } }, findings.map((f) => {
      const li = el('li', { class: 'finding sev-' + f.severity, dataset: { id: f.id } },
        el('span', { class: 'badge', text: f.severity }), ' ', el('strong', { text: f.id }), ' — ', el('span', { text: f.message }));
      if (f.first_line > 0) {
        const link = el('a', { href: '#', class: 'jvm-line-link', text: ' line ' + f.first_line });
        link.addEventListener('click', async (e) => {
          e.preventDefault();
          const file = fileFor(0);
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

    // ---- diary ----
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

    // ---- events (recomputed) ----
    const eventsBox = el('div', { class: 'jvm-events' });
    container.append(GCSCOPE.ui.section('Events', eventsBox));

    if (report.unparsed && report.unparsed.count) {
      container.append(GCSCOPE.ui.section('Lines not understood (' + report.unparsed.count + ')',
        GCSCOPE.ui.table([{ key: 'line', label: 'Line', numeric: true }, { key: 'text', label: 'Text' }], report.unparsed.samples, { filter: false })));
    }

    function update() {
      const [t0, t1] = zoom;
      const c = compute(report, t0, t1);
      rangeLabel.textContent = t0 === null ? 'Whole log' : `${t0.toFixed(3)} s – ${t1.toFixed(3)} s`;
      resetBtn.hidden = t0 === null;
      kpiBox.textContent = '';
      kpiBox.appendChild(GCSCOPE.ui.kpis(kpiItems(report, c)));
      const pct = el('p', { class: 'muted jvm-percentiles', text:
        `p50 ${fmt.seconds(c.pauses.p50)} · p90 ${fmt.seconds(c.pauses.p90)} · p99 ${fmt.seconds(c.pauses.p99)} · p99.9 ${fmt.seconds(c.pauses.p999)} · mean ${fmt.seconds(c.pauses.mean)}` });
      kpiBox.appendChild(pct);

      histBox.textContent = '';
      if (charts && c.pauses.sorted.length) {
        const buckets = pauseBuckets(c.pauses.sorted);
        const at = (v) => { const k = buckets.findIndex((b) => v * 1e3 <= b.hi); return k < 0 ? buckets.length - 1 : k; };
        hist = charts.histogram(histBox, {
          title: 'Pause duration histogram (ms)', buckets, xLabel: 'ms', yLabel: 'pauses',
          markers: [{ label: 'p50', value: at(c.pauses.p50) }, { label: 'p99', value: at(c.pauses.p99) }],
        });
      }

      causesBox.textContent = '';
      causesBox.appendChild(GCSCOPE.ui.table([
        { key: 'name', label: 'Cause' },
        { key: 'count', label: 'Count', numeric: true },
        { key: 'total', label: 'Paused', numeric: true, format: fmt.seconds },
      ], c.causes, { csvName: 'jvm-causes.csv', sort: { key: 'count', desc: true } }));
      pauseKindsBox.textContent = '';
      pauseKindsBox.appendChild(GCSCOPE.ui.table([
        { key: 'name', label: 'Pause' },
        { key: 'count', label: 'Count', numeric: true },
        { key: 'total', label: 'Total', numeric: true, format: fmt.seconds },
        { key: 'max', label: 'Max', numeric: true, format: fmt.seconds },
      ], c.pauseKinds, { csvName: 'jvm-pauses.csv', sort: { key: 'total', desc: true } }));

      eventsBox.textContent = '';
      const rows = c.eventIndex.map((i) => ({
        t: ev.t[i], type: s.types[ev.type[i]], cause: ev.cause[i] >= 0 ? s.causes[ev.cause[i]] : '',
        stw: ev.stw[i] ? 'pause' : 'concurrent', duration: ev.duration_s[i], paused: ev.pause_s[i],
        before: ev.heap_before_kb[i], after: ev.heap_after_kb[i], committed: ev.heap_committed_kb[i],
        gc_id: ev.gc_id[i], line: ev.line[i],
      }));
      eventsBox.appendChild(GCSCOPE.ui.table([
        { key: 't', label: 'Uptime (s)', numeric: true, format: (v) => (v === null ? '—' : v.toFixed(3)) },
        { key: 'gc_id', label: 'GC id', numeric: true },
        { key: 'type', label: 'Type' },
        { key: 'cause', label: 'Cause' },
        { key: 'stw', label: 'Kind' },
        { key: 'duration', label: 'Duration', numeric: true, format: fmt.seconds },
        { key: 'paused', label: 'Paused', numeric: true, format: fmt.seconds },
        { key: 'before', label: 'Heap before', numeric: true, format: fmt.kb },
        { key: 'after', label: 'Heap after', numeric: true, format: fmt.kb },
        { key: 'committed', label: 'Committed', numeric: true, format: fmt.kb },
        { key: 'line', label: 'Line', numeric: true },
      ], rows, { csvName: 'jvm-events.csv', caption: rows.length + ' events' }));
    }
    update();
    // A range in the fragment (#range=a,b) from a shared link or a reload: zoom to it.
    const saved = GCSCOPE.state && GCSCOPE.state.get('range');
    const m = saved && /^(-?[\d.]+),(-?[\d.]+)$/.exec(saved);
    if (m && Number(m[1]) < Number(m[2])) {
      const [a, b] = [Number(m[1]), Number(m[2])];
      for (const p of [heapPlot, pausePlot]) if (p) p.setScale('x', { min: a, max: b });
      if (!heapPlot && !pausePlot) onZoom(a, b);
    }
  }

  GCSCOPE.registerView('jvm-gc-log', { title: 'JVM GC log', render, compute });
})(typeof window !== 'undefined' ? window : globalThis);
