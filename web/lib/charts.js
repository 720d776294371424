// GCSCOPE.charts: thin wrappers over uPlot (bundled from npm into vendor/ at build time) so views
// share one look, one zoom behaviour and one way to export a chart: PNG (the canvas) and SVG (drawn
// again as vectors from the chart's data and current scales: axes, series, bars and markers).
/* global uPlot */
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'];

  // The page's theme (style.css custom properties, light or dark): axes, grid and the SVG export read
  // them when they draw, so a theme switch only has to redraw (GCSCOPE.charts.retheme). Each is read
  // once per theme: getComputedStyle right after the page changed forces a style recalculation,
  // and uPlot asks for a stroke at every draw.
  const themeColors = new Map();
  function themeColor(name, fallback) {
    if (typeof getComputedStyle !== 'function' || typeof document === 'undefined') return fallback;
    if (!themeColors.has(name)) themeColors.set(name, getComputedStyle(document.documentElement).getPropertyValue(name).trim());
    return themeColors.get(name) || fallback;
  }
  const axisStroke = () => themeColor('--chart-axis', '#374151');
  const gridStroke = () => themeColor('--chart-grid', 'rgba(0,0,0,0.08)');
  const themedAxis = (axis) => Object.assign({ stroke: axisStroke, ticks: { stroke: gridStroke } },
    axis, { grid: Object.assign({ stroke: gridStroke }, axis.grid || {}) });
  const livePlots = new Set();
  // Plots whose figure left the page are destroyed: uPlot's window listeners would otherwise keep
  // them (and their data) alive as long as the page, e.g. through every update of a followed log.
  function release() {
    for (const p of livePlots) {
      if (p.box.isConnected) continue;
      livePlots.delete(p);
      p.plot.destroy();
    }
    return livePlots.size;
  }
  function track(plot, box) {
    livePlots.add({ plot, box });
    return plot;
  }
  function retheme() {
    themeColors.clear();
    release();
    for (const p of livePlots) p.plot.redraw(false, true);
  }

  // A chart's width is its container's. Measuring forces a layout of the whole page whenever the DOM
  // changed since the last one, and a view adds each chart's DOM before it makes the next, so a view of
  // many charts would spend its time in layouts. So the width measured first is reused by every chart made in the
  // same task (the charts of one view share a width); keepWidth's ResizeObserver corrects any chart
  // whose box turns out wider or narrower, right after.
  let taskWidth = 0;
  function measuredWidth(container) {
    if (!taskWidth) {
      taskWidth = Math.floor(container.getBoundingClientRect().width || container.clientWidth || 0);
      setTimeout(() => { taskWidth = 0; }, 0);
    }
    return taskWidth;
  }
  function sizeOf(container, height) {
    const w = Math.max(320, measuredWidth(container) || 800);
    return { width: w, height: height || 260 };
  }

  function keepWidth(container, plot, height) {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const s = { width: Math.max(320, Math.floor(container.getBoundingClientRect().width || container.clientWidth || 800)), height: height || 260 };
      if (Math.abs(s.width - plot.width) > 4) plot.setSize(s);
    });
    ro.observe(container);
  }

  // A chart frame: title, the plot, and a PNG export button.
  // A chart is a figure named by its title; its canvas is an image whose text alternative is the title
  // plus, when the view gives one (opts.describedBy), the table holding the same numbers.
  let chartIds = 0;
  function frame(container, title, describedBy) {
    const { el } = GCSCOPE.ui;
    const id = 'gs-chart-' + (++chartIds);
    const box = el('figure', { class: 'gs-chart', 'aria-labelledby': id + '-title' });
    const head = el('div', { class: 'gs-chart-head' }, el('span', { class: 'gs-chart-title', id: id + '-title', text: title || '' }));
    const body = el('div', { class: 'gs-chart-body', role: 'img', 'aria-label': (title || 'chart') + ' (chart)',
      'aria-describedby': describedBy || undefined });
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

  // ---- SVG export ----------------------------------------------------------------------------
  // uPlot draws on a canvas, so the SVG is drawn again from what the chart holds: its data, its scales
  // (valToPos, so a zoomed chart exports the zoomed range), the tick values uPlot chose for its axes,
  // and the wrapper's own description of each series (colour, dash, points/bars) and markers. Every
  // string (title, labels, tick texts) goes in as XML text via the DOM, never as markup.
  const svgEl = (...a) => GCSCOPE.ui.svg.el(...a);
  const r2 = (v) => Math.round(v * 100) / 100;

  // spec: {title, kind: 'line'|'histogram', series: [{label, color, dash, points, width}], markers,
  //        xLabel, yLabel, y2Label}
  function plotToSvg(plot, spec) {
    const W = plot.width, H = plot.height;
    const ratio = plot.ctx && plot.ctx.canvas && plot.ctx.canvas.width ? plot.ctx.canvas.width / W : (global.devicePixelRatio || 1);
    const L = plot.bbox.left / ratio, T = plot.bbox.top / ratio, PW = plot.bbox.width / ratio, PH = plot.bbox.height / ratio;
    const head = spec.title ? 22 : 0;
    const legendH = 18;
    const totalH = head + legendH + H;
    const doc = GCSCOPE.ui.svg.create(W, totalH);
    const svg = doc.documentElement;
    svg.appendChild(svgEl(doc, 'rect', { x: 0, y: 0, width: W, height: totalH, fill: themeColor('--chart-bg', '#fff') }));
    if (spec.title) svg.appendChild(svgEl(doc, 'text', { class: 'title', x: 4, y: 15, 'font-size': 13, 'font-weight': 'bold' }, spec.title));
    // Legend: one swatch + label per series.
    const legend = svgEl(doc, 'g', { class: 'legend' });
    let lx = 4;
    // Series switched off in the legend are not in the export: it is the chart as shown.
    const shown = (si) => !plot.series[si + 1] || plot.series[si + 1].show !== false;
    spec.series.forEach((s, si) => {
      if (!shown(si)) return;
      legend.appendChild(svgEl(doc, 'rect', { x: lx, y: head + 4, width: 10, height: 10, fill: s.color }));
      legend.appendChild(svgEl(doc, 'text', { x: lx + 14, y: head + 13 }, s.label));
      lx += 24 + 6.2 * String(s.label || '').length;
    });
    svg.appendChild(legend);
    const g = svgEl(doc, 'g', { transform: `translate(0 ${head + legendH})` });
    svg.appendChild(g);
    const clipId = 'plot-area';
    const defs = svgEl(doc, 'defs');
    const clip = svgEl(doc, 'clipPath', { id: clipId });
    clip.appendChild(svgEl(doc, 'rect', { x: r2(L), y: r2(T), width: r2(PW), height: r2(PH) }));
    defs.appendChild(clip);
    g.appendChild(defs);
    g.appendChild(svgEl(doc, 'rect', { class: 'frame', x: r2(L), y: r2(T), width: r2(PW), height: r2(PH), fill: 'none', stroke: '#ccc' }));

    // Axes: uPlot's own tick positions and texts for the current scales.
    const axes = svgEl(doc, 'g', { class: 'axes', fill: axisStroke() });
    plot.axes.forEach((ax, i) => {
      const splits = ax._splits || [], values = ax._values || [];
      const key = ax.scale || (i === 0 ? 'x' : 'y');
      const side = ax.side === undefined ? (i === 0 ? 2 : 3) : ax.side;
      const label = i === 0 ? spec.xLabel : key === 'y2' ? spec.y2Label : spec.yLabel;
      splits.forEach((v, k) => {
        const text = values[k];
        if (v === null || v === undefined || text === null || text === undefined || text === '') return;
        const pos = plot.valToPos(v, key);
        if (!isFinite(pos)) return;
        if (side === 2) {
          const x = L + pos;
          axes.appendChild(svgEl(doc, 'line', { x1: r2(x), y1: r2(T + PH), x2: r2(x), y2: r2(T + PH + 4), stroke: '#999' }));
          axes.appendChild(svgEl(doc, 'text', { x: r2(x), y: r2(T + PH + 15), 'text-anchor': 'middle' }, text));
        } else {
          const y = T + pos;
          const x = side === 1 ? L + PW : L;
          axes.appendChild(svgEl(doc, 'line', { x1: r2(x), y1: r2(y), x2: r2(side === 1 ? x + 4 : x - 4), y2: r2(y), stroke: '#999' }));
          axes.appendChild(svgEl(doc, 'text', { x: r2(side === 1 ? x + 6 : x - 6), y: r2(y + 4), 'text-anchor': side === 1 ? 'start' : 'end' }, text));
        }
      });
      if (label) {
        if (side === 2) axes.appendChild(svgEl(doc, 'text', { class: 'axis-label', x: r2(L + PW / 2), y: r2(H - 4), 'text-anchor': 'middle' }, label));
        else {
          const x = side === 1 ? W - 6 : 12;
          axes.appendChild(svgEl(doc, 'text', { class: 'axis-label', x, y: r2(T + PH / 2), 'text-anchor': 'middle', transform: `rotate(-90 ${x} ${r2(T + PH / 2)})` }, label));
        }
      }
    });
    g.appendChild(axes);

    // Series.
    const xs = plot.data[0];
    const plotArea = svgEl(doc, 'g', { 'clip-path': `url(#${clipId})` });
    g.appendChild(plotArea);
    spec.series.forEach((s, si) => {
      if (!shown(si)) return;
      const key = (plot.series[si + 1] && plot.series[si + 1].scale) || 'y';
      const ys = plot.data[si + 1] || [];
      const sg = svgEl(doc, 'g', { class: 'series', 'data-label': s.label });
      sg.appendChild(svgEl(doc, 'title', {}, s.label));
      if (spec.kind === 'histogram') {
        const step = xs.length > 1 ? Math.abs(plot.valToPos(xs[1], 'x') - plot.valToPos(xs[0], 'x')) : PW / 2;
        const bw = Math.min(step * 0.8, 60);
        const y0 = plot.valToPos(0, key);
        for (let j = 0; j < xs.length; j++) {
          if (ys[j] === null || ys[j] === undefined) continue;
          const cx = L + plot.valToPos(xs[j], 'x'), yv = plot.valToPos(ys[j], key);
          sg.appendChild(svgEl(doc, 'rect', { class: 'bar', x: r2(cx - bw / 2), y: r2(T + Math.min(yv, y0)), width: r2(bw), height: r2(Math.abs(y0 - yv)),
            fill: 'rgba(37,99,235,0.35)', stroke: s.color }));
        }
      } else {
        const pts = [];
        let d = '';
        let pen = false;
        for (let j = 0; j < xs.length; j++) {
          const v = ys[j];
          if (v === null || v === undefined) { if (s.spanGaps === false) pen = false; continue; }
          const x = r2(L + plot.valToPos(xs[j], 'x')), y = r2(T + plot.valToPos(v, key));
          if (!isFinite(x) || !isFinite(y)) continue;
          d += (pen ? 'L' : 'M') + x + ' ' + y;
          pen = true;
          if (s.points) pts.push([x, y]);
        }
        if (s.points !== 'only' && d) {
          sg.appendChild(svgEl(doc, 'path', { d, fill: 'none', stroke: s.color, 'stroke-width': s.width || 1.5,
            'stroke-dasharray': s.dash ? s.dash.join(' ') : undefined }));
        }
        for (const [x, y] of pts) sg.appendChild(svgEl(doc, 'rect', { class: 'point', x: r2(x - POINT_SIZE / 2), y: r2(y - POINT_SIZE / 2), width: POINT_SIZE, height: POINT_SIZE, fill: s.color }));
      }
      plotArea.appendChild(sg);
    });

    // Markers (histogram percentiles): dashed vertical lines with their labels.
    (spec.markers || []).forEach((m, i) => {
      if (m.value === null || m.value === undefined) return;
      const x = r2(L + plot.valToPos(m.value, 'x'));
      const color = PALETTE[(i + 1) % PALETTE.length];
      const mg = svgEl(doc, 'g', { class: 'marker', 'data-label': m.label });
      mg.appendChild(svgEl(doc, 'line', { x1: x, y1: r2(T), x2: x, y2: r2(T + PH), stroke: color, 'stroke-dasharray': '4 3' }));
      mg.appendChild(svgEl(doc, 'text', { x: r2(x + 3), y: r2(T + 12 * (i + 1)), fill: color }, m.label));
      g.appendChild(mg);
    });
    return GCSCOPE.ui.svg.text(doc);
  }

  function addSvgButton(f, plot, name, spec) {
    const { el, download } = GCSCOPE.ui;
    plot.gcscopeSvg = () => plotToSvg(plot, spec);
    f.head.appendChild(el('button', {
      type: 'button', class: 'gs-small gs-svg', text: 'SVG', title: 'Download this chart as SVG',
      on: { click: () => download(name, 'image/svg+xml', plot.gcscopeSvg()) },
    }));
  }

  // Points are drawn as small filled squares, all of a series in one path. uPlot's own points are
  // circles, one arc each, slow to rasterize on a canvas without GPU (Chromium with --disable-gpu,
  // many VMs and CI machines) for the JVM view's thousands of pause points; squares of the same size
  // cost a fraction of that and read the same at this size.
  const POINT_SIZE = 4;
  function squarePoints(u, seriesIdx, idx0, idx1) {
    const s = u.series[seriesIdx];
    const xs = u.data[0], ys = u.data[seriesIdx];
    const half = (POINT_SIZE * (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1)) / 2;
    const fill = new Path2D();
    for (let i = idx0; i <= idx1; i++) {
      const v = ys[i];
      if (v === null || v === undefined) continue;
      const x = Math.round(u.valToPos(xs[i], 'x', true)), y = Math.round(u.valToPos(v, s.scale, true));
      fill.rect(x - half, y - half, 2 * half, 2 * half);
    }
    const clip = new Path2D();
    clip.rect(u.bbox.left - half, u.bbox.top - half, u.bbox.width + 2 * half, u.bbox.height + 2 * half);
    return { fill, clip };
  }

  // Zoom by keyboard on a focused line chart: + and - halve and double the visible x range around its
  // middle, the left and right arrows move it by a quarter, 0 shows the whole range again. The range
  // stays within the one first drawn (or the data now drawn, when wider); a change goes through
  // setScale, so it is the same zoom as a drag (onZoom, the URL fragment, the synced charts' view).
  const ZOOM_KEYS = '+ / - zoom in and out, left and right arrows move, 0 shows the whole range';
  function zoomByKeys(f, plot, whole) {
    f.body.tabIndex = 0;
    f.body.setAttribute('aria-label', f.body.getAttribute('aria-label') + '; ' + ZOOM_KEYS);
    f.body.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.altKey || e.metaKey) return;
      const xs = plot.data[0];
      if (!xs.length || !whole) return;
      const lo = Math.min(whole[0], xs[0]), hi = Math.max(whole[1], xs[xs.length - 1]);
      const min = plot.scales.x.min, max = plot.scales.x.max, w = max - min, mid = (min + max) / 2;
      let next = null;
      if (e.key === '+' || e.key === '=') next = [mid - w / 4, mid + w / 4];
      else if (e.key === '-' || e.key === '_') next = [mid - w, mid + w];
      else if (e.key === 'ArrowLeft') next = [min - w / 4, max - w / 4];
      else if (e.key === 'ArrowRight') next = [min + w / 4, max + w / 4];
      else if (e.key === '0' || e.key === 'Home') next = [lo, hi];
      if (!next) return;
      e.preventDefault();
      const span = Math.min(next[1] - next[0], hi - lo);
      if (!(span > 0)) return;
      // Within [lo, hi]: a move stops at an end, a zoom out ends at the whole range.
      const a = Math.max(lo, Math.min(next[0], hi - span));
      plot.setScale('x', { min: a, max: a + span });
    });
  }

  // line(container, {title, x: [...], series: [{label, values, color?, points?, dash?, scale?}],
  //                  xLabel, yLabel, height, xTime?, onZoom(min, max), onSeries(index, shown), stateKey?})
  // Drag to zoom on x; double-click resets. onZoom gets the visible x range (null, null on reset);
  // onSeries a series shown or hidden (its legend entry clicked, or setSeries), index as in `series`.
  // stateKey: the zoomed range is kept in the URL fragment (GCSCOPE.state) under that key as "min,max",
  // restored when the chart is made (a reload, a shared link) and on back/forward; charts of one view
  // that zoom together share one key.
  function line(container, opts) {
    const f = frame(container, opts.title, opts.describedBy);
    const data = [opts.x].concat(opts.series.map((s) => s.values));
    const series = [{ label: opts.xLabel || 'x' }].concat(opts.series.map((s, i) => ({
      label: s.label,
      stroke: s.color || PALETTE[i % PALETTE.length],
      width: s.width || 1.5,
      dash: s.dash,
      scale: s.scale || 'y',
      points: { show: !!s.points, size: POINT_SIZE, width: 0, fill: s.color || PALETTE[i % PALETTE.length], paths: squarePoints },
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
    const deepLink = opts.stateKey && GCSCOPE.state ? GCSCOPE.state : null;
    let live = false;  // the range is recorded only once the chart is drawn (not its initial scale)
    const parseRange = (v) => {
      const m = v && /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(v);
      return m && Number(m[1]) < Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
    };
    const applyRange = (u, v) => {
      const r = parseRange(v);
      const xs = u.data[0];
      if (r) u.setScale('x', { min: r[0], max: r[1] });
      else if (xs.length) u.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
    };
    const whole = opts.x.length ? [opts.x[0], opts.x[opts.x.length - 1]] : null;  // the range first drawn
    const plot = new uPlot({
      ...sizeOf(f.body, opts.height),
      series, axes: axes.map(themedAxis), scales,
      cursor: { drag: { x: true, y: false }, sync: opts.syncKey ? { key: opts.syncKey } : undefined },
      hooks: {
        ready: [(u) => {
          if (deepLink && parseRange(deepLink.get(opts.stateKey))) applyRange(u, deepLink.get(opts.stateKey));
          live = true;
        }],
        setSeries: [(u, i) => { if (opts.onSeries && i > 0) opts.onSeries(i - 1, u.series[i].show); }],
        setScale: [(u, key) => {
          if (key !== 'x') return;
          const full = u.data[0].length ? (u.data[0][0] === u.scales.x.min && u.data[0][u.data[0].length - 1] === u.scales.x.max) ||
            (whole && u.scales.x.min <= whole[0] && u.scales.x.max >= whole[1]) : true;
          const range = full ? '' : `${+u.scales.x.min.toFixed(3)},${+u.scales.x.max.toFixed(3)}`;
          f.box.dataset.xRange = range;  // what is shown, for tests and tools
          if (deepLink && live) deepLink.set(opts.stateKey, range || null, { push: true });
          if (opts.onZoom) opts.onZoom(full ? null : u.scales.x.min, full ? null : u.scales.x.max);
        }],
      },
    }, data, f.body);
    if (deepLink) deepLink.watch(opts.stateKey, f.box, (v) => applyRange(plot, v));
    f.box.gcscopePlot = plot;  // what is drawn, for tests and tools
    zoomByKeys(f, plot, whole);
    track(plot, f.box);
    keepWidth(f.body, plot, opts.height);
    const base = (opts.title || 'chart').replace(/[^a-z0-9]+/gi, '-');
    addPngButton(f, plot, base + '.png');
    addSvgButton(f, plot, base + '.svg', {
      kind: 'line', title: opts.title, xLabel: opts.xLabel, yLabel: opts.yLabel, y2Label: opts.y2Label,
      series: opts.series.map((s, i) => ({ label: s.label, color: series[i + 1].stroke, dash: s.dash, points: s.points, width: s.width, spanGaps: s.spanGaps })),
    });
    return plot;
  }

  // histogram(container, {title, buckets: [{lo, hi, count}], markers: [{label, value}], xLabel, log2?,
  //                       onZoom(firstBucket, lastBucket)?})
  // Bars at bucket positions (index on x, labelled by bucket bounds); markers draw vertical lines at
  // the bucket holding a percentile. With onZoom, dragging over bars calls it with the first and last
  // bucket under the drag (the caller asks for finer buckets of that range).
  function histogram(container, opts) {
    const f = frame(container, opts.title, opts.describedBy);
    const b = (opts.buckets || []).slice();
    const xs = b.map((_, i) => i);
    const counts = b.map((x) => x.count);
    const label = opts.bucketLabel || ((x) => (x.lo === null || x.lo === undefined ? '…' : String(x.lo)) + '–' + (x.hi === null || x.hi === undefined ? '…' : String(x.hi)));
    const bars = uPlot.paths && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.8, 60] }) : undefined;
    const markers = (opts.markers || []).slice();
    const plot = new uPlot({
      ...sizeOf(f.body, opts.height || 220),
      series: [{ label: 'bucket', value: (u, v) => (v === null || b[v] === undefined ? '' : label(b[v])) },
        { label: opts.countLabel || 'count', fill: 'rgba(37,99,235,0.35)', stroke: PALETTE[0], paths: bars, points: { show: false } }],
      axes: [{ label: opts.xLabel, values: (u, vals) => vals.map((v) => (b[v] ? label(b[v]) : '')), rotate: -30, size: 60 },
        { label: opts.yLabel || 'count', size: 60 }].map(themedAxis),
      scales: { x: { time: false, range: () => [-0.6, Math.max(0.6, b.length - 0.4)] } },
      cursor: opts.onZoom ? { drag: { x: true, y: false, setScale: false } } : undefined,
      hooks: {
        setSelect: opts.onZoom ? [(u) => {
          if (u.select.width < 2) return;
          const first = Math.max(0, Math.round(u.posToVal(u.select.left, 'x')));
          const last = Math.min(b.length - 1, Math.round(u.posToVal(u.select.left + u.select.width, 'x')));
          u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
          if (last >= first) opts.onZoom(b[first], b[last]);
        }] : [],
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
    track(plot, f.box);
    f.box.gcscopePlot = plot;  // what is drawn, for tests and tools
    keepWidth(f.body, plot, opts.height || 220);
    const base = (opts.title || 'histogram').replace(/[^a-z0-9]+/gi, '-');
    addPngButton(f, plot, base + '.png');
    addSvgButton(f, plot, base + '.svg', {
      kind: 'histogram', title: opts.title, xLabel: opts.xLabel, yLabel: opts.yLabel || 'count', markers,
      series: [{ label: opts.countLabel || 'count', color: PALETTE[0] }],
    });
    // Other buckets and markers on the same chart (a range of the same data): no new canvas, DOM or
    // observer, so a view that redraws its histogram often stays cheap.
    plot.setBuckets = (buckets, newMarkers) => {
      b.splice(0, b.length, ...buckets);
      markers.splice(0, markers.length, ...(newMarkers || []));
      plot.setData([b.map((_, i) => i), b.map((x) => x.count)]);
    };
    return plot;
  }

  GCSCOPE.charts = { line, histogram, toSvg: plotToSvg, PALETTE, retheme, release, livePlots: () => livePlots.size, themeColor };
})(typeof window !== 'undefined' ? window : globalThis);
