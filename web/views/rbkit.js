// View of an rbkit capture (format "rbkit-capture"): the object/GC timeline, gc_stats, CPU samples
// and the object_space_dump snapshots. Everything from the capture (class names, file paths, the
// handshake's process name) is untrusted and only ever reaches the page as text.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});

  const num = (v) => (v === null || v === undefined ? 0 : Number(v));
  const sum = (a) => (a || []).reduce((s, v) => s + num(v), 0);

  // GC cycles as bands on a time chart: start → end of marking (dark), end of marking → end of
  // sweep (light). Added after creation: uPlot reads its hooks object at draw time.
  function addGcBands(plot, gc) {
    if (!plot || !gc || !gc.start_ms || !gc.start_ms.length) return;
    const starts = gc.start_ms, marks = gc.mark_end_ms, ends = gc.end_ms;
    const open = gc.trailing_open_start_ms;
    plot.hooks.drawClear = (plot.hooks.drawClear || []).concat([(u) => {
      const ctx = u.ctx;
      const top = u.bbox.top, h = u.bbox.height;
      const band = (a, b, color) => {
        const x0 = u.valToPos(a / 1000, 'x', true), x1 = u.valToPos(b / 1000, 'x', true);
        if (!isFinite(x0) || !isFinite(x1)) return;
        ctx.fillStyle = color;
        ctx.fillRect(x0, top, Math.max(1, x1 - x0), h);
      };
      ctx.save();
      for (let i = 0; i < starts.length; i++) {
        const m = marks[i] === null || marks[i] === undefined ? starts[i] : marks[i];
        band(starts[i], m, 'rgba(220,38,38,0.22)');
        band(m, ends[i], 'rgba(217,119,6,0.14)');
      }
      if (open !== null && open !== undefined) band(open, u.scales.x.max * 1000, 'rgba(220,38,38,0.08)');
      ctx.restore();
    }]);
    plot.redraw(false);  // just re-commit: redraw() would re-range x from a scale not yet computed
  }

  function warnings(report) {
    const out = [];
    const cg = report.counter_gaps || {};
    if (cg.missing) {
      const ranges = (cg.missing_ranges || []).slice(0, 10).map((r) => (r[0] === r[1] ? String(r[0]) : r[0] + '–' + r[1])).join(', ');
      out.push(`${cg.missing} event_collection message(s) missing (message_counter gaps: ${ranges}${(cg.missing_ranges || []).length > 10 ? ', …' : ''}). Events in them are lost; object counts and the live curve undercount.`);
    }
    if (cg.duplicates) out.push(`${cg.duplicates} repeated message_counter value(s) (${(cg.duplicate_counters || []).slice(0, 10).join(', ')}): ${cg.policy}.`);
    if (cg.backwards) out.push(`message_counter went backwards ${cg.backwards} time(s): a restarted server or a second publisher.`);
    for (const s of report.snapshots || []) {
      if (s.complete === false) {
        out.push(`Snapshot ${s.correlation_id} is INCOMPLETE: ${s.distinct_ids} of ${s.complete_message_count} announced objects arrived` +
          (s.cut_short ? ' (a chunk was cut short)' : '') + '. Do not read it as the whole heap.');
      }
    }
    if (report.truncated_at !== null && report.truncated_at !== undefined) out.push(`The capture is truncated: the message at byte ${report.truncated_at} is cut off (what it delivered before is kept).`);
    if (report.rejected_messages || report.rejected_events) {
      const reasons = Object.entries(report.rejection_reasons || {}).map(([k, v]) => `${k} (${v})`).join('; ');
      out.push(`${num(report.rejected_messages)} message(s) and ${num(report.rejected_events)} event(s) rejected: ${reasons}.`);
    }
    const ev = report.events || {};
    if (ev.unknown) out.push(`${ev.unknown} event(s) of unknown type skipped (types ${Object.keys(ev.unknown_types || {}).join(', ')}).`);
    if (report.resync && report.resync.count) out.push(`The reader resynchronised ${report.resync.count} time(s) after damaged data, skipping ${report.resync.skipped_bytes} bytes.`);
    if (report.timestamps_in_seconds) out.push(`${report.timestamps_in_seconds} timestamp(s) were in seconds instead of milliseconds and were scaled.`);
    return out;
  }

  // The leak reading of the live curve (the engine's `leak`: its rule, its numbers).
  function leakVerdict(report, ctx) {
    const { el, fmt } = ctx.ui;
    const k = report.leak;
    if (!k) return null;
    const classes = (k.classes || []).map((c) => `${c.class} (${fmt.num(c.live_at_end)})`).join(', ');
    let text;
    if (k.verdict === 'growing') {
      text = `Live objects keep growing: over the second half of the capture they rose by ${fmt.num(k.growth)} (${k.growth_pct}% of their mean ` +
        `${fmt.num(k.mean_live)}, about ${fmt.num(k.per_minute)} a minute), and the floor between GCs rose from ${fmt.num(k.floor_third_quarter)} to ` +
        `${fmt.num(k.floor_last_quarter)}: a leak, or a cache still filling.` + (classes ? ' Most left alive: ' + classes + '.' : '');
    } else if (k.verdict === 'stable') {
      text = `No sign of a leak: over the second half of the capture live objects stayed around ${fmt.num(k.mean_live)} ` +
        `(trend ${k.growth >= 0 ? '+' : ''}${fmt.num(k.growth)}, ${k.growth_pct}% of the mean).` + (classes ? ' Most left alive at the end: ' + classes + '.' : '');
    } else {
      text = 'Too little to tell whether memory leaks: ' + (k.why || k.verdict) + '.';
    }
    return el('div', { class: 'rbkit-leak', dataset: { verdict: k.verdict } },
      el('p', { class: 'rbkit-leak-verdict' + (k.verdict === 'growing' ? ' warning' : ''), text }),
      el('p', { class: 'muted', text: 'Rule: ' + k.rule + '.' }));
  }

  // The zoomed range's figures, from the engine (rbkit.range): exact per-second counts.
  function rangeFigures(box, ctx, t0, t1) {
    const { el, fmt, table, kpis } = ctx.ui;
    if (t0 === null || t0 === undefined) { box.replaceChildren(); return; }
    box.replaceChildren(el('p', { class: 'muted', text: 'Asking the engine about the selected range…' }));
    ctx.query('rbkit.range', { t0, t1 }).then((r) => {
      const o = r.objects;
      box.replaceChildren(el('h5', { text: `Selected range: ${new Date(t0 * 1000).toISOString()} – ${new Date(t1 * 1000).toISOString()}` }),
        kpis([
          { label: 'created', value: fmt.num(o.created) }, { label: 'destroyed', value: fmt.num(o.destroyed) },
          { label: 'net', value: (o.net > 0 ? '+' : '') + fmt.num(o.net) },
          { label: 'live (start → end)', value: `${fmt.num(o.live_at_start)} → ${fmt.num(o.live_at_end)}` },
          { label: 'GC cycles started', value: fmt.num(r.gc.cycles) }, { label: 'GC time (start → end of sweep)', value: fmt.num(r.gc.total_ms, 1) + ' ms' },
          { label: 'CPU samples', value: fmt.num(r.cpu_samples) },
        ]),
        table([{ key: 'class', label: 'Class' }, { key: 'created', label: 'Created', numeric: true }, { key: 'destroyed', label: 'Destroyed', numeric: true }],
          r.by_class, { csvName: 'rbkit-range-classes.csv', caption: 'Classes in the range, most active first', sort: { key: 'created', desc: true } }));
    }, (e) => box.replaceChildren(el('p', { class: 'muted', text: 'The selected range cannot be asked: ' + e.message })));
  }

  function renderTimeline(container, report, ctx) {
    const { el } = ctx;
    const tl = report.timeline || {};
    if (!tl.t || !tl.t.length) {
      container.appendChild(el('p', { class: 'muted', text: 'No obj_created / obj_destroyed events: memory profiling was off in this capture.' }));
      return;
    }
    const per = tl.bin_s > 1 ? `per ${tl.bin_s} s` : 'per second';
    container.appendChild(el('p', { class: 'muted', text: `Time bins ${per}${tl.dense ? '' : ' (only seconds with events)'}. ` +
      'Shaded bands: GC cycles (dark: start → end of marking, light: → end of sweep). The live curve counts objects created during the capture and not yet destroyed. ' +
      'Drag over a chart to see the figures of that range.' }));
    const rangeBox = el('div', { class: 'rbkit-range' });
    const live = ctx.charts.line(container, {
      onZoom: (t0, t1) => rangeFigures(rangeBox, ctx, t0, t1),
      title: `Objects created / destroyed ${per}, live objects`,
      x: tl.t, xTime: true, xLabel: 'time', yLabel: 'objects ' + per, y2Label: 'live objects', syncKey: 'rbkit', stateKey: 'rbkit.range',
      series: [
        { label: 'created', values: tl.created },
        { label: 'destroyed', values: tl.destroyed },
        { label: 'live (created in capture)', values: tl.live, scale: 'y2', width: 2 },
      ],
    });
    addGcBands(live, report.gc_cycles);
    container.appendChild(rangeBox);
    const byClass = (key, title) => {
      const series = [];
      (tl.classes || []).forEach((name, i) => {
        const values = tl[key][i];
        if (sum(values) > 0) series.push({ label: name, values });
      });
      if (!series.length) return;
      const plot = ctx.charts.line(container, { title, x: tl.t, xTime: true, xLabel: 'time', yLabel: 'objects ' + per, series, syncKey: 'rbkit', stateKey: 'rbkit.range' });
      addGcBands(plot, report.gc_cycles);
    };
    byClass('created_by_class', `Objects created ${per}, by class`);
    byClass('destroyed_by_class', `Objects destroyed ${per}, by class`);
  }

  function renderGc(container, report, ctx) {
    const { el, fmt, table } = ctx.ui;
    const gc = report.gc_cycles || {};
    container.appendChild(el('p', {
      text: `${fmt.num(gc.count)} complete GC cycle(s) (gc_start → gc_end_m → gc_end_s). Events: ${fmt.num(gc.gc_start)} gc_start, ` +
        `${fmt.num(gc.gc_end_m)} gc_end_m, ${fmt.num(gc.gc_end_s)} gc_end_s; ${fmt.num(gc.end_s_without_start)} end(s) of sweep without a start ` +
        `(a GC that began before tracing), ${fmt.num(gc.starts_never_closed)} start(s) never closed` +
        (gc.trailing_open ? '; the capture ends inside a GC cycle.' : '.'),
    }));
    if (gc.start_ms && gc.start_ms.length) {
      const rows = gc.start_ms.map((s, i) => ({
        start: new Date(s).toISOString(),
        mark_ms: gc.mark_end_ms[i] === null ? null : gc.mark_end_ms[i] - s,
        sweep_ms: gc.mark_end_ms[i] === null ? null : gc.end_ms[i] - gc.mark_end_ms[i],
        total_ms: gc.duration_ms[i],
      }));
      container.appendChild(table([
        { key: 'start', label: 'Start (UTC)' },
        { key: 'mark_ms', label: 'Marking (ms)', numeric: true },
        { key: 'sweep_ms', label: 'Sweeping (ms)', numeric: true },
        { key: 'total_ms', label: 'Start → end of sweep (ms)', numeric: true },
      ], rows, { csvName: 'rbkit-gc-cycles.csv', caption: 'GC cycles' }));
    }
  }

  function renderGcStats(container, report, ctx) {
    const { el, fmt, table } = ctx.ui;
    const gs = report.gc_stats || {};
    if (!gs.count) {
      container.appendChild(el('p', { class: 'muted', text: 'No gc_stats messages in this capture (rbkit sends them every 5 s while memory profiling is on; a server whose command thread died sends none).' }));
      return;
    }
    const x = gs.t_ms.map((t) => t / 1000);
    const numeric = (gs.keys || []).filter((k) => (gs.series[k] || []).some((v) => typeof v === 'number'));
    const pick = (re) => numeric.filter((k) => re.test(k) && !/limit/.test(k));
    const slots = pick(/live_slot|free_slot|final_slot|old_object/);
    if (slots.length && x.length > 1) {
      ctx.charts.line(container, { title: 'gc_stats: heap slots', x, xTime: true, xLabel: 'time', yLabel: 'slots', syncKey: 'rbkit', stateKey: 'rbkit.range',
        series: slots.map((k) => ({ label: k, values: gs.series[k], points: true })) });
    }
    const rows = (gs.keys || []).map((k) => {
      const vals = (gs.series[k] || []).filter((v) => typeof v === 'number');
      return { key: k, first: gs.series[k][0], last: gs.series[k][gs.series[k].length - 1],
        min: vals.length ? Math.min(...vals) : null, max: vals.length ? Math.max(...vals) : null,
        non_numeric: (gs.non_numeric_values || {})[k] || 0 };
    });
    container.appendChild(table([
      { key: 'key', label: 'GC.stat key' },
      { key: 'first', label: 'First', numeric: true, format: (v) => (typeof v === 'string' ? JSON.stringify(v) : fmt.num(v)) },
      { key: 'last', label: 'Last', numeric: true, format: (v) => (typeof v === 'string' ? JSON.stringify(v) : fmt.num(v)) },
      { key: 'min', label: 'Min', numeric: true },
      { key: 'max', label: 'Max', numeric: true },
      { key: 'non_numeric', label: 'Non-numeric samples', numeric: true },
    ], rows, { csvName: 'rbkit-gc-stats.csv', caption: `${gs.count} gc_stats sample(s)` }));
  }

  function renderCpu(container, report, ctx) {
    const { el, table } = ctx.ui;
    const cpu = report.cpu_samples || {};
    if (!cpu.count) {
      container.appendChild(el('p', { class: 'muted', text: 'No cpu_sample events (CPU profiling was off).' }));
      return;
    }
    // Samples per second.
    const perSec = new Map();
    for (const t of cpu.t_ms) { const s = Math.floor(t / 1000); perSec.set(s, (perSec.get(s) || 0) + 1); }
    const secs = [...perSec.keys()].sort((a, b) => a - b);
    if (secs.length > 1) {
      ctx.charts.line(container, { title: 'CPU samples per second', x: secs, xTime: true, xLabel: 'time', yLabel: 'samples',
        series: [{ label: 'samples', values: secs.map((s) => perSec.get(s)), points: true }], syncKey: 'rbkit', stateKey: 'rbkit.range' });
    }
    const leaves = cpu.top_leaf_labels || { label: [], count: [] };
    container.appendChild(table([
      { key: 0, label: 'Leaf frame (label)' }, { key: 1, label: 'Samples', numeric: true },
    ], leaves.label.map((l, i) => [l, leaves.count[i]]), { csvName: 'rbkit-cpu-leaves.csv', caption: `${cpu.count} CPU sample(s): where they were taken` }));
    const f = cpu.frames || { label: [] };
    const stacks = (cpu.stacks && cpu.stacks.frames) || [];
    // The product's flame graph over the engine's stack model of the samples (cpu_samples.tree, root
    // first): transforms, the sandwich, search shares and the downloads are the engine's stacks.*
    // answers, as for every stack source.
    const FG = GCSCOPE.flamegraph;
    if (cpu.tree && cpu.tree.stacks.parent.length && FG) {
      const wrap = el('div', { class: 'rbkit-flamegraph' });
      container.appendChild(wrap);
      try {
        const view = { transforms: [] };
        wrap.appendChild(el('div', { class: 'rbkit-exports' }, ...FG.downloads(ctx.query, () => view.transforms, 'rbkit-cpu')));
        const box = el('div', { class: 'rbkit-flame' });
        wrap.appendChild(box);
        FG.create(box, FG.fromTree(cpu.tree, (report.inputs || []).join(', ')), {
          height: 300, mode: 'left-heavy', stateKey: 'rbkit.flame', fileName: 'rbkit-flamegraph', query: ctx.query, transforms: true,
          onTransforms: (list) => { view.transforms = list; },
        });
      } catch (err) {
        wrap.appendChild(el('p', { class: 'error', text: 'The flame graph failed: ' + err.message }));
      }
    }
    const rows = stacks.map((st, i) => [st.map((k) => f.label[k]).join(' → '), cpu.stacks.count[i]]);
    container.appendChild(table([
      { key: 0, label: 'Stack (root → leaf)' }, { key: 1, label: 'Samples', numeric: true },
    ], rows, { csvName: 'rbkit-cpu-stacks.csv', caption: 'Sampled stacks', sort: { key: 1, desc: true } }));
  }

  function renderSnapshot(container, s, report, ctx) {
    const { el, fmt, table, section } = ctx.ui;
    const title = `Snapshot ${s.correlation_id === null ? '(no correlation_id: pre-2.0 server)' : s.correlation_id}`;
    const box = ctx.ui.section(title);
    box.dataset.snapshot = String(s.correlation_id);
    const h = s.heap || {};  // the snapshot's objects, summarized once by the shared heap model
    const status = s.complete === false ? `INCOMPLETE: ${fmt.num(s.distinct_ids)} of ${fmt.num(s.complete_message_count)} objects arrived`
      : s.complete === true ? `complete: ${fmt.num(s.distinct_ids)} of ${fmt.num(s.complete_message_count)} objects`
        : 'completeness unknown (this server did not announce a total)';
    box.appendChild(el('p', { class: s.complete === false ? 'error snapshot-status' : 'snapshot-status', text: status }));
    box.appendChild(ctx.ui.kpis([
      { label: 'objects (records)', value: fmt.num(s.objects) },
      { label: 'distinct ids', value: fmt.num(s.distinct_ids) },
      { label: 'bytes (where size known)', value: fmt.bytes(h.bytes) },
      { label: 'objects without size', value: fmt.num(s.objects_without_size) },
      { label: 'references', value: fmt.num(h.total_references) },
      { label: 'chunks', value: fmt.num(s.messages) },
    ]));
    box.appendChild(el('p', { class: 'muted snapshot-note', text: report.snapshot_note }));
    box.appendChild(table([
      { key: 0, label: 'Class' }, { key: 1, label: 'Objects', numeric: true }, { key: 2, label: 'Bytes', numeric: true, format: (v) => fmt.bytes(v) },
    ], (h.by_class || []).map((r) => [r.class, r.count, r.bytes]), { csvName: `rbkit-snapshot-${s.correlation_id}-classes.csv`, caption: `By class (${fmt.num(h.classes)} classes)`, sort: { key: 1, desc: true } }));
    const site = s.by_site;
    if (site.class.length) {
      box.appendChild(table([
        { key: 0, label: 'Class' }, { key: 1, label: 'File' }, { key: 2, label: 'Line', numeric: true },
        { key: 3, label: 'Objects', numeric: true }, { key: 4, label: 'Bytes', numeric: true, format: (v) => fmt.bytes(v) },
      ], site.class.map((n, i) => [n, site.file[i], site.line[i], site.count[i], site.bytes[i]]),
      { csvName: `rbkit-snapshot-${s.correlation_id}-sites.csv`, caption: `By allocation site (${fmt.num(h.objects_with_allocation_site)} objects allocated while tracing was on)`, sort: { key: 3, desc: true } }));
    } else {
      box.appendChild(el('p', { class: 'muted', text: 'No allocation sites: objects carry file:line only when they were allocated while rbkit traced allocations.' }));
    }
    const m = s.most_referenced;
    if (m.id.length) {
      box.appendChild(table([
        { key: 0, label: 'Object id' }, { key: 1, label: 'Class' }, { key: 2, label: 'Referenced by', numeric: true },
      ], m.id.map((id, i) => [id, m.class[i], m.referrers[i]]), { csvName: `rbkit-snapshot-${s.correlation_id}-referenced.csv`, caption: `Most referenced objects (${fmt.num(h.dangling_references)} references point outside the snapshot)`, filter: false }));
    }
    const l = s.largest;
    if (l.id.length) {
      box.appendChild(table([
        { key: 0, label: 'Object id' }, { key: 1, label: 'Class' }, { key: 2, label: 'Size', numeric: true, format: (v) => fmt.bytes(v) },
        { key: 3, label: 'References', numeric: true }, { key: 4, label: 'Allocated at' },
      ], l.id.map((id, i) => [id, l.class[i], l.size[i], l.references[i], l.file[i] === null ? '' : l.file[i] + ':' + l.line[i]]),
      { csvName: `rbkit-snapshot-${s.correlation_id}-largest.csv`, caption: 'Largest objects', filter: false }));
    }
    // The same snapshot in the dump_all heap view (shared heap model), rendered when opened.
    const heapView = GCSCOPE.views && GCSCOPE.views['ruby-heap-dump'];
    if (s.heap && heapView) {
      const shared = section('Heap model view (as for ObjectSpace.dump_all)');
      shared.open = false;
      shared.classList.add('rbkit-heap-model');
      let rendered = false;
      shared.addEventListener('toggle', () => {
        if (!shared.open || rendered) return;
        rendered = true;
        const body = el('div');
        shared.appendChild(body);
        try {
          heapView.render(body, Object.assign({ format: 'ruby-heap-dump', roots: 0 }, s.heap), ctx);
        } catch (err) {
          body.appendChild(el('p', { class: 'error', text: 'The heap view failed: ' + err.message }));
        }
      });
      box.appendChild(shared);
    }
    container.appendChild(box);
  }

  // Compare with another rbkit capture on the page: the engine compares (compare.side of this capture,
  // A, then compare.with on B's engine; rbkit/compare.h, the same as `gcscope compare A B`): objects
  // created and GC cycles per second of each capture's span, per class, and the per-frame deltas of
  // the cpu samples (ui.showComparison). This lays out its answer.
  function compareSection(report, ctx) {
    return ctx.ui.comparePicker({
      self: report, ctx, accept: (r) => r.format === 'rbkit-capture', cls: 'rbkit-compare',
      ariaLabel: 'rbkit capture to compare with', prompt: 'Compare this capture (A) with (B): ',
      emptyText: 'No other rbkit capture on the page: analyze another one (as its own job, or dropped together) to compare.',
      draw: (out, pick) => ctx.ui.showComparison(out, ctx, pick, 'rbkit', (box, c) => drawFigures(box, c, ctx)),
    });
  }

  // The comparison's objects and GC figures, and its per-class table.
  function drawFigures(out, c, ctx) {
    const { fmt, table, signedPercent } = ctx.ui;
    const r = c.rbkit;
    const v = (x) => fmt.num(x);
    const row = (label, d) => ({ figure: label, a: d.a, b: d.b, delta: d.delta === undefined ? null : d.delta, delta_percent: d.delta_percent === undefined ? null : d.delta_percent });
    out.appendChild(table([
      { key: 'figure', label: 'figure' }, { key: 'a', label: 'A', numeric: true, format: v }, { key: 'b', label: 'B', numeric: true, format: v },
      { key: 'delta', label: 'Δ (B − A)', numeric: true, format: v }, { key: 'delta_percent', label: 'Δ%', numeric: true, format: (x) => signedPercent(x) },
    ], [
      row('span (s)', r.span_s), row('objects created', r.objects_created), row('objects created per s', r.objects_per_s),
      row('GC cycles', r.gc_cycles), row('GC cycles per s', r.gc_per_s), row('GC time (ms)', r.gc_total_ms), row('longest GC (ms)', r.gc_max_ms),
    ], { csvName: 'rbkit-compare.csv', caption: 'Objects and GC (rates per second of each capture\'s span)', filter: false }));
    if (r.classes.length) {
      out.appendChild(table([
        { key: 'class', label: 'class' }, { key: 'created_a', label: 'created A', numeric: true, format: v }, { key: 'created_b', label: 'created B', numeric: true, format: v },
        { key: 'per_s_a', label: 'per s A', numeric: true, format: v }, { key: 'per_s_b', label: 'per s B', numeric: true, format: v },
        { key: 'per_s_delta', label: 'Δ per s', numeric: true, format: v },
      ], r.classes, { csvName: 'rbkit-compare-classes.csv', caption: 'Objects created per class' + (r.classes_omitted ? `, ${r.classes_omitted} smaller changes omitted` : '') }));
    }
  }

  GCSCOPE.registerView('rbkit-capture', {
    render(container, report, ctx) {
      const { el, fmt, table, kpis, section } = ctx.ui;
      const hs = report.handshake;
      const gc = report.gc_cycles || {};
      const ev = report.events || {};
      container.appendChild(kpis([
        { label: 'protocol', value: report.protocol_version === null ? 'unknown' : String(report.protocol_version), hint: report.protocol_evidence },
        { label: 'messages', value: fmt.num(report.messages) },
        { label: 'objects created', value: fmt.num(report.objects_created) },
        { label: 'objects destroyed', value: fmt.num(report.objects_destroyed) },
        { label: 'live at end (created in capture)', value: fmt.num((report.objects || {}).live_created_in_capture_at_end) },
        { label: 'GC cycles', value: fmt.num(gc.count) },
        { label: 'snapshots', value: fmt.num((report.snapshots || []).length) },
        { label: 'missing collections', value: fmt.num((report.counter_gaps || {}).missing), severity: (report.counter_gaps || {}).missing ? 'warn' : '' },
      ]));
      const warn = warnings(report);
      if (warn.length) container.appendChild(el('ul', { class: 'warnings rbkit-warnings' }, warn.map((w) => el('li', { class: 'warning', text: w }))));
      const notes = (report.notes || []).filter((n) => !/INCOMPLETE|missing/.test(n));
      if (notes.length) container.appendChild(el('ul', { class: 'notes rbkit-notes' }, notes.map((n) => el('li', { class: 'muted', text: n }))));

      // First: live objects over time and what they say about leaks.
      const tlBox = section('Live objects over time');
      tlBox.classList.add('rbkit-timeline');
      const verdict = leakVerdict(report, ctx);
      if (verdict) tlBox.appendChild(verdict);
      container.appendChild(tlBox);
      renderTimeline(tlBox, report, ctx);

      const cls = report.classes || { class: [] };
      if (cls.class.length) {
        container.appendChild(section('Classes (obj_created / obj_destroyed)', table([
          { key: 0, label: 'Class' }, { key: 1, label: 'Created', numeric: true },
          { key: 2, label: 'Destroyed (of those created)', numeric: true }, { key: 3, label: 'Live at end', numeric: true },
        ], cls.class.map((n, i) => [n, cls.created[i], cls.destroyed[i], cls.live_at_end[i]]), { csvName: 'rbkit-classes.csv', sort: { key: 1, desc: true } })));
      }

      const gcBox = section('GC cycles');
      container.appendChild(gcBox);
      renderGc(gcBox, report, ctx);
      const gsBox = section('gc_stats');
      container.appendChild(gsBox);
      renderGcStats(gsBox, report, ctx);
      const cpuBox = section('CPU samples');
      container.appendChild(cpuBox);
      renderCpu(cpuBox, report, ctx);
      container.appendChild(section('Compare', compareSection(report, ctx)));
      const evRows = Object.entries(ev.by_type || {}).map(([k, v]) => [k, v, (ev.top_level || {})[k] || 0]);
      container.appendChild(section('Events', table([{ key: 0, label: 'Event type' }, { key: 1, label: 'Count', numeric: true }, { key: 2, label: 'Top-level', numeric: true }],
        evRows, { filter: false, csvName: 'rbkit-events.csv', sort: { key: 1, desc: true } })));

      const snapBox = section('Heap snapshots (object_space_dump)');
      container.appendChild(snapBox);
      if (!(report.snapshots || []).length) snapBox.appendChild(el('p', { class: 'muted', text: 'No object_space_dump snapshot in this capture.' }));
      for (const s of report.snapshots || []) renderSnapshot(snapBox, s, report, ctx);
      // The server's handshake (version, process, options): there when wanted, closed.
      if (hs) {
        const hsBox = section('Handshake', table([{ key: 0, label: 'Field' }, { key: 1, label: 'Value' }],
          Object.entries(hs).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]), { filter: false, csvName: 'rbkit-handshake.csv' }));
        hsBox.open = false;
        hsBox.classList.add('rbkit-handshake');
        container.appendChild(hsBox);
      }
    },
  });
})(typeof window !== 'undefined' ? window : globalThis);
