// GCSCOPE.charts: thin wrappers over uPlot (bundled from npm into vendor/ at build time) so views
// share one look, one zoom behaviour and one way to export a chart as PNG.
/* global uPlot */
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'];

  function sizeOf(container, height) {
    const w = Math.max(320, Math.floor(container.getBoundingClientRect().width || container.clientWidth || 800));
    return { width: w, height: height || 260 };
  }

  function keepWidth(container, plot, height) {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const s = sizeOf(container, height);
      if (Math.abs(s.width - plot.width) > 4) plot.setSize(s);
    });
    ro.observe(container);
  }

  // A chart frame: title, the plot, and a PNG export button.
  function frame(container, title) {
    const { el } = GCSCOPE.ui;
    const box = el('div', { class: 'gs-chart' });
    const head = el('div', { class: 'gs-chart-head' }, el('span', { class: 'gs-chart-title', text: title || '' }));
    const body = el('div', { class: 'gs-chart-body' });
    box.append(head, body);
    container.appendChild(box);
    return { box, head, body };
  }

  function addPngButton(f, plot, name) {
    const { el, download } = GCSCOPE.ui;
    f.head.appendChild(el('button', {
      type: 'button', class: 'gs-small', text: 'PNG', title: 'Download this chart as PNG',
      on: { click: () => { const c = plot.root.querySelector('canvas'); if (c) c.toBlob((b) => download(name || 'chart.png', 'image/png', b)); } },
    }));
  }

  // line(container, {title, x: [...], series: [{label, values, color?, points?, dash?, scale?}],
  //                  xLabel, yLabel, height, xTime?, onZoom(min, max)})
  // Drag to zoom on x; double-click resets. onZoom gets the visible x range (null, null on reset).
  function line(container, opts) {
    const f = frame(container, opts.title);
    const data = [opts.x].concat(opts.series.map((s) => s.values));
    const series = [{ label: opts.xLabel || 'x' }].concat(opts.series.map((s, i) => ({
      label: s.label,
      stroke: s.color || PALETTE[i % PALETTE.length],
      width: s.width || 1.5,
      dash: s.dash,
      scale: s.scale || 'y',
      points: { show: !!s.points, size: 4 },
      paths: s.points === 'only' ? () => null : undefined,
      spanGaps: s.spanGaps !== false,
    })));
    const axes = [
      { label: opts.xLabel, values: opts.xFormat ? (u, vals) => vals.map(opts.xFormat) : undefined },
      { label: opts.yLabel, values: opts.yFormat ? (u, vals) => vals.map(opts.yFormat) : undefined, size: 60 },
    ];
    const scales = { x: { time: !!opts.xTime } };
    if (opts.series.some((s) => s.scale === 'y2')) {
      axes.push({ side: 1, scale: 'y2', label: opts.y2Label, grid: { show: false }, size: 60 });
      scales.y2 = {};
    }
    const plot = new uPlot({
      ...sizeOf(f.body, opts.height),
      series, axes, scales,
      cursor: { drag: { x: true, y: false }, sync: opts.syncKey ? { key: opts.syncKey } : undefined },
      hooks: {
        setScale: [(u, key) => {
          if (key !== 'x' || !opts.onZoom) return;
          const full = u.data[0].length ? u.data[0][0] === u.scales.x.min && u.data[0][u.data[0].length - 1] === u.scales.x.max : true;
          opts.onZoom(full ? null : u.scales.x.min, full ? null : u.scales.x.max);
        }],
      },
    }, data, f.body);
    keepWidth(f.body, plot, opts.height);
    addPngButton(f, plot, (opts.title || 'chart').replace(/[^a-z0-9]+/gi, '-') + '.png');
    return plot;
  }

  // histogram(container, {title, buckets: [{lo, hi, count}], markers: [{label, value}], xLabel, log2?})
  // Bars at bucket positions (index on x, labelled by bucket bounds); markers draw vertical lines at
  // the bucket holding a percentile.
  function histogram(container, opts) {
    const f = frame(container, opts.title);
    const b = opts.buckets || [];
    const xs = b.map((_, i) => i);
    const counts = b.map((x) => x.count);
    const label = opts.bucketLabel || ((x) => (x.lo === null || x.lo === undefined ? '…' : String(x.lo)) + '–' + (x.hi === null || x.hi === undefined ? '…' : String(x.hi)));
    const bars = uPlot.paths && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.8, 60] }) : undefined;
    const markers = opts.markers || [];
    const plot = new uPlot({
      ...sizeOf(f.body, opts.height || 220),
      series: [{ label: 'bucket', value: (u, v) => (v === null || b[v] === undefined ? '' : label(b[v])) },
        { label: opts.countLabel || 'count', fill: 'rgba(37,99,235,0.35)', stroke: PALETTE[0], paths: bars, points: { show: false } }],
      axes: [{ label: opts.xLabel, values: (u, vals) => vals.map((v) => (b[v] ? label(b[v]) : '')), rotate: -30, size: 60 },
        { label: opts.yLabel || 'count', size: 60 }],
      scales: { x: { time: false, range: [-0.6, Math.max(0.6, b.length - 0.4)] } },
      hooks: {
        draw: [(u) => {
          const ctx = u.ctx;
          markers.forEach((m, i) => {
            if (m.value === null || m.value === undefined) return;
            const x = u.valToPos(m.value, 'x', true);
            ctx.save();
            ctx.strokeStyle = PALETTE[(i + 1) % PALETTE.length];
            ctx.setLineDash([4, 3]);
            ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
            ctx.fillStyle = ctx.strokeStyle;
            ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
            ctx.fillText(m.label, x + 3, u.bbox.top + 12 * devicePixelRatio * (i + 1));
            ctx.restore();
          });
        }],
      },
    }, [xs, counts], f.body);
    keepWidth(f.body, plot, opts.height || 220);
    addPngButton(f, plot, (opts.title || 'histogram').replace(/[^a-z0-9]+/gi, '-') + '.png');
    return plot;
  }

  GCSCOPE.charts = { line, histogram, PALETTE };
})(typeof window !== 'undefined' ? window : globalThis);
