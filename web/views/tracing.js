// The tracing view (bpftrace text/JSON, BCC tools, folded stacks, perf script): per-probe latency
// table, histograms with p50/p90/p99 markers, rates, stacks (flame graph + top stacks), tracer
// overhead estimate, comparison with another capture of the same drop, and the capture-recipe
// builder. Everything is built with GCSCOPE.ui.el (text only).
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});

  const FORMATS = ['bpftrace-text', 'bpftrace-json', 'bcc-output', 'folded-stacks', 'perf-script'];

  // 64-bit values arrive as strings: keep them as text, never through Number().
  const isNum = (v) => typeof v === 'number' && isFinite(v);

  function nsText(v, fmt) {
    if (v === null || v === undefined) return '—';
    if (typeof v === 'string') return v + ' ns';
    if (!isNum(v)) return String(v);
    return fmt.seconds(v / 1e9);
  }

  function boundText(pair, asNs, fmt) {
    if (!Array.isArray(pair)) return pair === null || pair === undefined ? '—' : (asNs ? nsText(pair, fmt) : fmt.num(pair));
    const [lo, hi] = pair;
    const one = (v) => (asNs ? nsText(v, fmt) : fmt.num(v));
    if (lo !== null && hi !== null && String(lo) === String(hi)) return one(lo);
    if (lo === null) return '< ' + one(typeof hi === 'number' ? hi + 1 : hi);
    if (hi === null) return '≥ ' + one(lo);
    return one(lo) + ' – ' + one(hi);
  }

  // The selected probe (GCSCOPE.state 'tr.probe'), asked from the engine: its figures, its events
  // per interval, and its values binned (tracing.histogram: exact counts for an event stream, over
  // any range the user zooms to; a printed hist() keeps its own buckets).
  function probeDetail(box, report, ctx, probe, asNs) {
    const { el, fmt } = ctx.ui;
    box.replaceChildren(el('p', { class: 'muted', text: 'Asking the engine about ' + probe + '…' }));
    ctx.query('tracing.probe', { probe }).then((d) => {
      box.replaceChildren();
      const r = d.row || {};
      box.appendChild(el('p', { class: 'tracing-selected', text: `Selected probe ${probe}: ${fmt.num(r.calls)} calls, mean ${asNs ? nsText(r.mean, fmt) : fmt.num(r.mean)}, ` +
        `p99 ${r.p99 === undefined ? '—' : boundText(r.p99, asNs, fmt)}` + (r.sources ? ' (from ' + r.sources.join(', ') + ')' : '') }));
      const rate = d.events && d.events.rate;
      if (rate && ctx.charts && typeof uPlot !== 'undefined') {
        ctx.charts.line(box, { title: `${probe}: events per ${rate.bin_s} s`, x: rate.count.map((_, i) => i * rate.bin_s),
          series: [{ label: 'events', values: rate.count }], xLabel: 's since its first event', yLabel: 'events' });
      }
      if (d.events) binnedHistogram(box, ctx, probe, asNs);
      for (const h of d.events ? [] : d.histograms) drawHist(box, h, ctx, h.name + (h.key !== null ? '[' + h.key + ']' : ''));
    }, (e) => box.replaceChildren(el('p', { class: 'muted', text: e.message })));
  }

  function binnedHistogram(box, ctx, probe, asNs) {
    const { el, fmt } = ctx.ui;
    const lo = el('input', { type: 'text', size: 12, class: 'tracing-bins-lo', 'aria-label': 'lowest value' });
    const hi = el('input', { type: 'text', size: 12, class: 'tracing-bins-hi', 'aria-label': 'highest value' });
    const bins = el('input', { type: 'number', min: '1', max: '1000', value: '40', class: 'tracing-bins-n', 'aria-label': 'number of bins' });
    const chart = el('div', { class: 'tracing-bins-chart' });
    const note = el('p', { class: 'muted tracing-bins-note' });
    const ask = (args) => ctx.query('tracing.histogram', Object.assign({ probe, bins: Number(bins.value) || 40 }, args)).then((h) => {
      lo.value = String(h.lo);
      hi.value = String(h.hi);
      chart.replaceChildren();
      const title = `${probe}: ${fmt.num(h.total)} values in bins of ${asNs ? nsText(h.width, fmt) : fmt.num(h.width)}`;
      if (ctx.charts && typeof uPlot !== 'undefined') {
        ctx.charts.histogram(chart, { title, buckets: h.bins, bucketLabel: (b) => boundText([b.lo, b.hi], asNs, fmt), xLabel: 'value',
          onZoom: (first, last) => ask({ lo: first.lo, hi: last.hi }) });
      } else {
        chart.appendChild(el('p', { class: 'muted', text: title }));
      }
      note.textContent = `Exact counts from the events; ${fmt.num(h.below)} below and ${fmt.num(h.above)} above this range. Drag over bins to zoom in.`;
    }, (e) => { note.textContent = e.message; });
    const form = el('form', { class: 'tracing-bins-form', on: { submit: (e) => { e.preventDefault(); ask({ lo: lo.value.trim(), hi: hi.value.trim() }); } } },
      el('label', {}, 'from ', lo), ' ', el('label', {}, 'to ', hi), ' ', el('label', {}, 'bins ', bins), ' ',
      el('button', { type: 'submit', class: 'gs-small', text: 'Bin again' }), ' ',
      el('button', { type: 'button', class: 'gs-small', text: 'Whole range', on: { click: () => ask({}) } }));
    box.append(form, chart, note);
    ask({});
  }

  // Units of the latency figures: nanoseconds (ruby-static-tracing) or plain numbers, shared by the
  // sections that show them.
  function unitsControl(ctx) {
    const { el } = ctx.ui;
    const box = el('input', { type: 'checkbox', checked: true });
    const listeners = [];
    box.addEventListener('change', () => listeners.forEach((f) => f()));
    return {
      node: el('label', { class: 'muted tracing-units' }, box, ' values are nanoseconds (ruby-static-tracing latency: arg1 = duration in ns)'),
      asNs: () => box.checked,
      onChange: (f) => listeners.push(f),
    };
  }

  function latencySection(report, ctx, units) {
    const { el, fmt, table } = ctx.ui;
    const rows = report.latency || [];
    if (!rows.length) return null;
    const box = el('div', { class: 'tracing-latency' });
    const holder = el('div');
    const detail = el('div', { class: 'tracing-probe-detail' });
    let current = null;
    // Deep-link state hook ('tr.probe'): the selected probe's detail under the table.
    const pick = (probe, record = true) => {
      const r = rows.find((x) => x.probe === probe);
      if (record && GCSCOPE.state) GCSCOPE.state.set('tr.probe', r ? r.probe : null, { push: true });
      current = r ? r.probe : null;
      if (r) probeDetail(detail, report, ctx, r.probe, units.asNs());
      else detail.replaceChildren();
      if (r && record) detail.scrollIntoView({ block: 'nearest' });
    };
    const draw = () => {
      const asNs = units.asNs();
      const v = (x) => (asNs ? nsText(x, fmt) : fmt.num(x));
      const cols = [
        { key: 'probe', label: 'probe' },
        { key: 'calls', label: 'calls', numeric: true },
        { key: 'total', label: 'total', numeric: true, format: v },
        { key: 'mean', label: 'mean', numeric: true, format: v },
        { key: 'min', label: 'min', numeric: true, format: v },
        { key: 'max', label: 'max', numeric: true, format: v },
        { key: 'p50', label: 'p50', format: (x) => boundText(x, asNs, fmt) },
        { key: 'p90', label: 'p90', format: (x) => boundText(x, asNs, fmt) },
        { key: 'p99', label: 'p99', format: (x) => boundText(x, asNs, fmt) },
        { key: 'exact', label: 'percentiles', format: (x, r) => (r.p50 === undefined ? '—' : x ? 'exact (events)' : 'bucket bounds (hist)') },
        { key: 'sources', label: 'from', format: (x) => (x || []).join(', ') },
      ];
      holder.textContent = '';
      holder.appendChild(table(cols, rows, { csvName: 'latency.csv', sort: { key: 'calls', desc: true }, caption: 'Per-probe latency; click a probe for its detail',
        onRowClick: (r) => pick(r.probe) }));
    };
    units.onChange(() => { draw(); if (current) pick(current, false); });
    draw();
    box.append(holder, detail);
    if (GCSCOPE.state) {
      if (GCSCOPE.state.get('tr.probe') !== null) pick(GCSCOPE.state.get('tr.probe'), false);
      GCSCOPE.state.watch('tr.probe', detail, (v) => pick(v, false));
    }
    box.appendChild(el('p', { class: 'muted', text: 'Percentiles from hist()/lhist() can only be bucket ranges (lo – hi); exact values need a printf event stream (see the recipes below).' }));
    box.pick = pick;
    return box;
  }

  // The first screen: the probes that take longest (the engine's ranking: by p99, a bucket's lower
  // bound when the capture has only histograms, then by mean).
  function slowestSection(report, ctx, units, latency) {
    const { el, fmt, table } = ctx.ui;
    const ranked = report.slowest_probes || [];
    if (!ranked.length) return null;
    const byProbe = new Map((report.latency || []).map((r) => [r.probe, r]));
    const holder = el('div', { class: 'tracing-slowest' });
    const draw = () => {
      const asNs = units.asNs();
      const v = (x) => (asNs ? nsText(x, fmt) : fmt.num(x));
      const rows = ranked.map((s, i) => Object.assign({ rank: i + 1 }, byProbe.get(s.probe) || {}, { by: s.by, value: s.value }));
      holder.replaceChildren(table([
        { key: 'rank', label: '#', numeric: true },
        { key: 'probe', label: 'probe' },
        { key: 'value', label: 'slowest by', format: (x, r) => r.by + ' ' + (Array.isArray(x) ? boundText(x, asNs, fmt) : v(x)) },
        { key: 'calls', label: 'calls', numeric: true },
        { key: 'mean', label: 'mean', numeric: true, format: v },
        { key: 'max', label: 'max', numeric: true, format: v },
      ], rows, { filter: false, csvName: 'slowest-probes.csv', caption: 'Slowest probes first; click one for its detail',
        onRowClick: (r) => { if (latency) latency.pick(r.probe); } }));
    };
    units.onChange(draw);
    draw();
    return holder;
  }

  // 4194304 -> "4M" (bpftrace's own labels: powers of 1024), other numbers as they are.
  function compact(n, fmt) {
    if (typeof n !== 'number') return String(n);
    const units = ['', 'K', 'M', 'G', 'T', 'P', 'E'];
    let v = n;
    let i = 0;
    while (v !== 0 && v % 1024 === 0 && i < 6) { v /= 1024; i++; }
    return i ? v + units[i] : fmt.num(n);
  }
  function bucketLabel(b, fmt) {
    if (b.lo === null) return '< ' + (typeof b.hi === 'number' ? compact(b.hi + 1, fmt) : b.hi);
    if (b.hi === null) return '≥ ' + compact(b.lo, fmt);
    if (String(b.lo) === String(b.hi)) return compact(b.lo, fmt);
    if (typeof b.hi === 'number' && (b.hi + 1) % 1024 === 0) return '[' + compact(b.lo, fmt) + ', ' + compact(b.hi + 1, fmt) + ')';
    return compact(b.lo, fmt) + '–' + compact(b.hi, fmt);
  }

  // Index of the bucket a percentile falls in: equal bounds for histogram maps, the containing
  // bucket for exact values.
  function markerIndex(h, pair) {
    if (!Array.isArray(pair)) return null;
    const b = h.buckets;
    for (let i = 0; i < b.length; i++) if (String(b[i].lo) === String(pair[0]) && String(b[i].hi) === String(pair[1])) return i;
    const v = Number(pair[0]);
    for (let i = 0; i < b.length; i++) {
      const lo = b[i].lo === null ? -Infinity : Number(b[i].lo);
      const hi = b[i].hi === null ? Infinity : Number(b[i].hi);
      if (v >= lo && v <= hi) return i;
    }
    return null;
  }

  // One histogram of the report (or of a tracing.probe answer): bars, percentile markers, a note.
  function drawHist(item, h, ctx, title) {
    const { el, fmt } = ctx.ui;
    const pct = ['p50', 'p90', 'p99'].map((p) => p + ' ' + (h[p] ? boundText(h[p], false, fmt) : '—')).join(' · ');
    const note = !h.valid ? 'buckets overlap or go backwards: no percentiles' : h.exact ? 'exact percentiles: ' + pct : 'percentile buckets: ' + pct;
    if (ctx.charts && typeof uPlot !== 'undefined') {
      try {
        ctx.charts.histogram(item, {
          title,
          buckets: h.buckets,
          bucketLabel: (b) => bucketLabel(b, fmt),
          xLabel: 'bucket',
          markers: h.valid ? ['p50', 'p90', 'p99'].map((p) => ({ label: p, value: markerIndex(h, h[p]) })) : [],
        });
      } catch (e) {
        item.appendChild(el('p', { class: 'muted', text: title }));
      }
    } else {
      item.appendChild(el('p', { class: 'muted', text: title }));
    }
    item.appendChild(el('p', { class: 'muted tracing-pct', text: note + (h.headerless ? ' · rows had no "@name:" header' : '') }));
  }

  function histogramSection(report, ctx) {
    const { el, fmt } = ctx.ui;
    const hs = report.histograms || [];
    if (!hs.length) return null;
    const box = el('div', { class: 'tracing-hists' });
    const limit = 24;
    // Deep-link state hook ('tr.hist'): the selected histogram (its index in the report) is outlined.
    const items = [];
    const selectHist = (v, record = true) => {
      const k = v !== null && v !== undefined && /^\d+$/.test(String(v)) && Number(v) < items.length ? Number(v) : null;
      if (record && GCSCOPE.state) GCSCOPE.state.set('tr.hist', k, { push: true });
      items.forEach((it, i) => { it.classList.toggle('selected', i === k); it.style.outline = i === k ? '2px solid #2563eb' : ''; });
      if (k !== null && !record && items[k].isConnected) items[k].scrollIntoView({ block: 'nearest' });
    };
    hs.slice(0, limit).forEach((h, hi) => {
      const title = (h.name || '(no header)') + (h.key !== null && h.key !== undefined ? '[' + h.key + ']' : '') +
        (h.snapshot ? ' #' + (h.snapshot + 1) : '') + ' — ' + fmt.num(h.total) + ' values';
      const item = el('div', { class: 'tracing-hist', dataset: { name: h.name || '', key: h.key === null ? '' : String(h.key), index: String(hi) } });
      items.push(item);
      box.appendChild(item);
      item.appendChild(el('button', { type: 'button', class: 'gs-small tracing-hist-select', text: 'Select', title: 'Select this histogram (kept in the link)',
        on: { click: () => selectHist(hi) } }));
      drawHist(item, h, ctx, title);
    });
    if (hs.length > limit) box.appendChild(el('p', { class: 'muted', text: `${hs.length - limit} more histograms are in the report JSON.` }));
    if (GCSCOPE.state) {
      if (GCSCOPE.state.get('tr.hist') !== null) selectHist(GCSCOPE.state.get('tr.hist'), false);
      GCSCOPE.state.watch('tr.hist', box, (v) => selectHist(v, false));
    }
    return box;
  }

  function ratesSection(report, ctx) {
    const { el } = ctx.ui;
    const r = report.rates || {};
    const box = el('div');
    let any = false;
    for (const s of r.snapshots || []) {
      any = true;
      const x = s.totals.map((_, i) => i + 1);
      ctx.charts.line(box, { title: `${s.name}: total per printout`, x, series: [{ label: s.name, values: s.totals, points: true }], xLabel: 'printout', yLabel: 'total' });
      box.appendChild(el('p', { class: 'muted', text: s.note }));
    }
    if (r.events && r.events.count && r.events.count.length > 1) {
      any = true;
      const x = r.events.count.map((_, i) => i * r.events.bin_s);
      ctx.charts.line(box, { title: 'Events per interval', x, series: [{ label: `events per ${r.events.bin_s} s`, values: r.events.count }], xLabel: 's since first event', yLabel: 'events' });
    }
    return any ? box : null;
  }

  function stacksSection(report, ctx) {
    const { el, fmt, table } = ctx.ui;
    const s = report.stacks;
    if (!s || !s.unique) return null;
    const box = el('div', { class: 'tracing-stacks' });
    box.appendChild(el('p', { class: 'muted', text: `${fmt.num(s.unique)} distinct stacks, total weight ${fmt.num(s.total_weight)} (${s.weight_unit})` +
      (s.truncated ? `, ${s.truncated} cut by the string limit` : '') }));
    // The product's one flame graph component (web/lib/flamegraph.js): its first screen is drawn
    // from the report's columnar stacks (exactly its fromStacks() input); transforms, the sandwich,
    // search shares and the downloads are the engine's stacks.* answers, as for every stack source
    // (the engine's frame indices are the report's).
    const FG = GCSCOPE.flamegraph;
    if (FG && typeof FG.create === 'function' && typeof FG.fromStacks === 'function') {
      try {
        const view = { transforms: [] };
        box.appendChild(el('div', { class: 'tracing-exports' }, ...FG.downloads(ctx.query, () => view.transforms, 'stacks')));
        const fgBox = el('div', { class: 'tracing-flame' });
        box.appendChild(fgBox);
        const profile = FG.fromStacks(s.frames.map((name) => ({ name })), s.stacks, s.weights.map(Number), s.weight_unit);
        profile.name = (report.inputs || []).join(', ');
        FG.create(fgBox, profile, {
          mode: 'left-heavy', stateKey: 'tr.flame', fileName: 'tracing-flamegraph', query: ctx.query, transforms: true,
          onTransforms: (list) => { view.transforms = list; },
        });
      } catch (e) {
        box.appendChild(el('p', { class: 'muted', text: 'flame graph unavailable: ' + e.message }));
      }
    }
    const truncated = new Set(s.truncated_stacks || []);
    const order = s.weights.map((w, i) => i).sort((a, b) => s.weights[b] - s.weights[a]).slice(0, 500);
    const total = Number(s.total_weight) || 1;
    const rows = order.map((i) => {
      const frames = s.stacks[i].map((k) => s.frames[k]);
      return { weight: s.weights[i], pct: (100 * s.weights[i]) / total, depth: frames.length, leaf: frames[frames.length - 1], cut: truncated.has(i) ? 'cut' : '', stack: frames.join(' ; ') };
    });
    box.appendChild(table([
      { key: 'weight', label: 'weight', numeric: true },
      { key: 'pct', label: '%', numeric: true, format: (v) => v.toFixed(2) },
      { key: 'depth', label: 'depth', numeric: true },
      { key: 'leaf', label: 'leaf frame' },
      { key: 'cut', label: 'truncated' },
      { key: 'stack', label: 'stack (root ; … ; leaf)', format: (v) => (v.length > 400 ? v.slice(0, 200) + ' … ' + v.slice(-160) : v) },
    ], rows, { csvName: 'stacks.csv', caption: 'Top stacks', pageSize: 50 }));
    return box;
  }

  function overheadSection(report, ctx) {
    const { el, fmt } = ctx.ui;
    const o = report.overhead;
    if (!o || !o.fires) return null;
    const box = el('div', { class: 'tracing-overhead' });
    const dur = el('input', { type: 'number', min: '0', step: 'any', value: o.duration_s ? String(o.duration_s) : '', placeholder: 'seconds', 'aria-label': 'capture duration in seconds' });
    const cost = el('input', { type: 'number', min: '0', step: 'any', value: String(o.cost_per_fire_us.bpftrace_attached), 'aria-label': 'cost per fire in microseconds' });
    const out = el('p', { class: 'tracing-overhead-result' });
    const draw = () => {
      const d = Number(dur.value);
      const c = Number(cost.value);
      if (!(d > 0)) { out.textContent = 'Enter the capture duration to estimate the overhead.'; return; }
      const rate = o.fires / d;
      out.textContent = `${fmt.num(o.fires)} fires in ${fmt.seconds(d)} = ${fmt.num(rate, 1)} fires/s × ${c} µs = ${fmt.pct((rate * c * 1e-6) * 100)} of one core's wall time`;
    };
    dur.addEventListener('input', draw);
    cost.addEventListener('input', draw);
    draw();
    box.append(
      el('div', { class: 'tracing-overhead-inputs' }, el('label', {}, 'duration (s) ', dur), ' ', el('label', {}, 'cost per fire (µs) ', cost)),
      out,
      el('p', { class: 'muted', text: `Measured cost of one traced call: about ${o.cost_per_fire_us.tracing_enabled_nothing_attached} µs with tracing on and nothing attached, ` +
        `about ${o.cost_per_fire_us.bpftrace_attached} µs with bpftrace attached, versus about ${o.cost_per_fire_us.untraced} µs untraced. ` +
        'The gem\'s own latency figure does not include this cost. Fires counted from ' + o.fires_source + '.' }));
    return box;
  }

  // The comparison of two captures is the engine's (compare.side of this capture, A, then
  // compare.with on B's engine, which may be another job's): the same as `gcscope compare A B`.
  // Per probe and per stack here; per frame and the JSON download as every capture comparison
  // (ui.showComparison).
  function drawFigures(out, c, ctx) {
    const { el, fmt, table, signedPercent } = ctx.ui;
    const v = (x) => (x === null || x === undefined ? '—' : typeof x === 'number' ? fmt.num(x) : String(x));
    const pair = (x) => (x === null ? '—' : Array.isArray(x) ? boundText(x, false, fmt) : v(x));
    const pdelta = (d) => (d.delta !== null ? v(d.delta) : d.delta_bounds ? '[' + v(d.delta_bounds[0]) + ', ' + v(d.delta_bounds[1]) + ']' : '—');
    if (c.probes.length) {
      const rows = c.probes.map((p) => ({ probe: p.probe, in: p.in, calls_a: p.calls.a, calls_b: p.calls.b, calls_d: p.calls.delta, calls_pct: p.calls.delta_percent,
        mean_a: p.mean.a, mean_b: p.mean.b, mean_pct: p.mean.delta_percent, p50_a: p.p50.a, p50_b: p.p50.b, p50_d: pdelta(p.p50), p99_a: p.p99.a, p99_b: p.p99.b, p99_d: pdelta(p.p99) }));
      out.appendChild(table([
        { key: 'probe', label: 'probe' }, { key: 'in', label: 'in' },
        { key: 'calls_a', label: 'calls A', numeric: true, format: v }, { key: 'calls_b', label: 'calls B', numeric: true, format: v },
        { key: 'calls_d', label: 'Δ calls', numeric: true, format: v }, { key: 'calls_pct', label: 'Δ%', numeric: true, format: (x) => signedPercent(x) },
        { key: 'mean_a', label: 'mean A', numeric: true, format: v }, { key: 'mean_b', label: 'mean B', numeric: true, format: v }, { key: 'mean_pct', label: 'Δ% mean', numeric: true, format: (x) => signedPercent(x) },
        { key: 'p50_a', label: 'p50 A', format: pair }, { key: 'p50_b', label: 'p50 B', format: pair }, { key: 'p50_d', label: 'Δ p50 (bounds)' },
        { key: 'p99_a', label: 'p99 A', format: pair }, { key: 'p99_b', label: 'p99 B', format: pair }, { key: 'p99_d', label: 'Δ p99 (bounds)' },
      ], rows, { csvName: 'compare-probes.csv', caption: 'Per-probe deltas (B − A)', filter: false }));
      out.appendChild(el('p', { class: 'muted', text: 'Percentiles from histograms are buckets: their difference is shown as [lowest, highest] possible.' }));
    }
    const s = c.stacks;
    if (s.a.unique || s.b.unique) {
      out.appendChild(el('p', { class: 'muted tracing-compare-stacks-summary', text: `stacks: A ${fmt.num(s.a.unique)} (${v(s.a.total_weight)} ${s.a.weight_unit}), B ${fmt.num(s.b.unique)} (${v(s.b.total_weight)} ${s.b.weight_unit}); ${fmt.num(s.common)} in both, ${fmt.num(s.only_a)} only in A, ${fmt.num(s.only_b)} only in B` }));
      out.appendChild(table([
        { key: 'delta', label: 'Δ weight', numeric: true, format: v }, { key: 'a', label: 'A', numeric: true, format: v }, { key: 'b', label: 'B', numeric: true, format: v },
        { key: 'share_delta', label: 'Δ share (pts)', numeric: true, format: (x) => (x > 0 ? '+' : '') + x.toFixed(2) },
        { key: 'stack', label: 'stack (root ; … ; leaf)', format: (x) => (x.length > 400 ? x.slice(0, 200) + ' … ' + x.slice(-160) : x) },
      ], s.rows, { csvName: 'compare-stacks.csv', caption: 'Per-stack weight deltas (B − A)' + (s.rows_omitted ? `, ${s.rows_omitted} smaller ones omitted` : ''), pageSize: 50 }));
    }
  }

  function compareSection(report, ctx) {
    return ctx.ui.comparePicker({
      self: report, ctx, accept: (r) => FORMATS.includes(r.format), cls: 'tracing-compare',
      ariaLabel: 'tracing capture to compare with', prompt: 'Compare this capture (A) with (B): ',
      emptyText: 'No other tracing capture on the page: analyze another one (as its own job, or dropped together) to compare.',
      draw: (out, pick) => ctx.ui.showComparison(out, ctx, pick, 'tracing', (box, c) => drawFigures(box, c, ctx)), showAtOnce: true,
    });
  }

  function probesSection(report, ctx) {
    const { table } = ctx.ui;
    const probes = report.probes || [];
    if (!probes.length) return null;
    if (report.listing) {
      return table([
        { key: 'probe', label: 'probe' },
        { key: 'type', label: 'type' },
        { key: 'binary', label: 'binary' },
        { key: 'pid', label: 'pid', numeric: true, format: (v) => (v === undefined ? '' : String(v)) },
        { key: 'locations', label: 'locations', numeric: true },
        { key: 'arguments', label: 'arguments', numeric: true },
      ], probes, { csvName: 'probes.csv', pageSize: 50 });
    }
    return table([
      { key: 'provider', label: 'provider' },
      { key: 'name', label: 'probe' },
      { key: 'class_guess', label: 'Ruby class (guess)', title: 'ruby-static-tracing names a provider after its class: my_controller -> MyController' },
      { key: 'raw', label: 'as bpftrace printed it' },
    ], probes, { csvName: 'probes.csv', pageSize: 50 });
  }

  function mapsSection(report, ctx) {
    const { el, table, fmt } = ctx.ui;
    const maps = (report.maps || []).filter((m) => m.kind !== 'hist');
    if (!maps.length) return null;
    const box = el('div');
    maps.slice(0, 40).forEach((m) => {
      const rows = m.entries.map((e) => ({ key: e.key === null ? '(scalar)' : e.key, value: typeof e.value === 'object' && e.value !== null ? JSON.stringify(e.value) : e.value }));
      box.appendChild(table([{ key: 'key', label: 'key' }, { key: 'value', label: 'value', numeric: true, format: (v) => (typeof v === 'string' ? v : fmt.num(v)) }], rows,
        { csvName: (m.name || 'map') + '.csv', caption: `${m.name}${m.snapshot ? ' #' + (m.snapshot + 1) : ''} (${m.kind})`, sort: { key: 'value', desc: true }, pageSize: 50 }));
    });
    return box;
  }

  function tablesSection(report, ctx) {
    const { el, table } = ctx.ui;
    const tables = report.tables || [];
    if (!tables.length) return null;
    const box = el('div');
    tables.slice(0, 20).forEach((t) => {
      if (!t.rows || !t.rows.length) return;
      const keys = Object.keys(t.rows[0]).filter((k) => k !== 'line');
      box.appendChild(table(keys.map((k) => ({ key: k, label: k, numeric: typeof t.rows[0][k] === 'number' })), t.rows,
        { csvName: (t.tool || 'table') + '.csv', caption: `${t.tool}${t.label ? ' at ' + t.label : ''}: ${t.row_count} rows`, pageSize: 50 }));
    });
    return box;
  }

  function recipeSection(report, ctx) {
    const { el, copyBlock } = ctx.ui;
    const R = GCSCOPE.recipes;
    if (!R) return null;
    // A listing names every probe a binary has: the user picks; a capture's probes seed the form.
    const named = (report.probes || []).map((p) => p.provider + ':' + p.name).filter((v, i, a) => a.indexOf(v) === i);
    const seed = report.listing ? '' : named.join('\n');
    const probes = el('textarea', { rows: 3, class: 'tracing-recipe-probes', placeholder: 'my_controller:index\nMyController#show\nruby:method__entry', 'aria-label': 'providers and tracepoints' });
    probes.value = seed;
    const pid = el('input', { type: 'text', class: 'tracing-recipe-pid', placeholder: 'PID', size: 8, 'aria-label': 'process id' });
    const version = el('select', { class: 'tracing-recipe-version', 'aria-label': 'bpftrace version' },
      ['0.14', '0.17', '0.20', '0.23', '0.24', '0.26'].map((v) => el('option', { value: v, text: 'bpftrace ' + v, selected: v === '0.17' })));
    const out = el('div', { class: 'tracing-recipes' });
    const draw = () => {
      const r = R.build({ probes: probes.value, pid: pid.value, bpftrace: version.value });
      out.textContent = '';
      for (const w of r.warnings) out.appendChild(el('p', { class: 'muted', text: w }));
      for (const s of r.steps) {
        out.appendChild(el('div', { class: 'tracing-recipe', dataset: { id: s.id } }, el('strong', { text: s.title }), copyBlock(s.command), s.note ? el('p', { class: 'muted', text: s.note }) : null));
      }
      if (r.steps.length) out.appendChild(el('button', { type: 'button', class: 'gs-small', text: 'Download as script', on: { click: () => GCSCOPE.ui.download('capture.sh', 'text/x-shellscript', R.script(r)) } }));
    };
    for (const i of [probes, pid, version]) i.addEventListener('input', draw);
    version.addEventListener('change', draw);
    const pick = report.listing ? listedProbePicker(report, ctx, (p) => {
      probes.value = p.provider + ':' + p.name;
      if (p.pid !== undefined) pid.value = String(p.pid);
      draw();
    }) : null;
    draw();
    return el('div', {}, pick, el('div', { class: 'tracing-recipe-form' }, el('label', {}, 'providers / tracepoints ', probes), ' ', el('label', {}, 'pid ', pid), ' ', version), out);
  }

  // A choice among a listing's probes that fills the recipe form.
  function listedProbePicker(report, ctx, onPick) {
    const { el } = ctx.ui;
    const list = report.probes;
    const select = el('select', { class: 'tracing-recipe-pick' },
      [el('option', { value: '', text: 'pick a listed probe…' })].concat(list.map((p, i) => el('option', { value: String(i), text: p.probe }))));
    select.addEventListener('change', () => { if (select.value !== '') onPick(list[Number(select.value)]); });
    return el('p', {}, el('label', {}, 'Trace a listed probe ', select));
  }

  function render(container, report, ctx) {
    const { el, fmt, kpis, section } = ctx.ui;
    const o = report.overhead || {};
    const s = report.stacks || {};
    const tiles = [
      { label: 'tool', value: report.tool + (report.tool_version ? ' ' + report.tool_version : '') },
      { label: report.listing ? 'probes listed' : 'probes named', value: fmt.num((report.probes || []).length) },
      { label: 'events', value: fmt.num(report.events), hint: 'what the probes printed; the tool\'s own records are counted apart' },
      { label: 'maps', value: fmt.num((report.maps || []).length) },
      { label: 'histograms', value: fmt.num((report.histograms || []).length) },
    ];
    if (report.lost_events) tiles.push({ label: 'lost events', value: fmt.num(report.lost_events), severity: 'warn', hint: 'events the kernel buffer dropped (bpftrace lost_events)' });
    if (s.unique) tiles.push({ label: 'distinct stacks', value: fmt.num(s.unique) });
    if (s.truncated) tiles.push({ label: 'cut stacks', value: fmt.num(s.truncated), severity: 'warn', hint: 'stack strings cut by bpftrace\'s string limit' });
    if (isNum(o.overhead_pct)) tiles.push({ label: 'tracer overhead (est.)', value: fmt.pct(o.overhead_pct), severity: o.overhead_pct > 5 ? 'warn' : undefined });
    container.appendChild(kpis(tiles));
    for (const h of report.hints || []) container.appendChild(el('p', { class: 'tracing-hint', dataset: { id: h.id }, text: h.text }));
    const units = unitsControl(ctx);
    const latency = latencySection(report, ctx, units);
    if (latency) container.appendChild(units.node);
    const parts = [
      ['Slowest probes', slowestSection(report, ctx, units, latency)],
      ['Per-probe latency', latency],
      ['Probes', probesSection(report, ctx)],
      ['Compare with another capture', compareSection(report, ctx)],
      ['Histograms', histogramSection(report, ctx)],
      ['Rates over time', ratesSection(report, ctx)],
      ['Stacks', stacksSection(report, ctx)],
      ['Tracer overhead estimate', overheadSection(report, ctx)],
      ['Maps', mapsSection(report, ctx)],
      ['Tool tables', tablesSection(report, ctx)],
      ['Capture recipes', recipeSection(report, ctx)],
    ];
    for (const [title, node] of parts) if (node) container.appendChild(section(title, node));
  }

  if (GCSCOPE.registerView) for (const id of FORMATS) GCSCOPE.registerView(id, { render });
})(typeof window !== 'undefined' ? window : globalThis);
