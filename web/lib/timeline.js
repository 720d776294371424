// GCSCOPE.timeline: every open job on one time axis. Each report that answers "timeline.series"
// (core/timeline.h) gives its series over a range of its own clock; the page only places them: an
// input with wall-clock time at its instants, one without it (clock "own") with its start at the
// axis's start, each moved by the offset the reader types (seconds). Bands (JVM pauses, Ruby GC
// cycles) are drawn across the whole plot over the others' lines; every number shown is the engine's.
/* global uPlot */
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const METHOD = 'timeline.series';
  const ZOOM_KEYS = '+ / - zoom in and out, left and right arrows move, 0 shows the whole range';

  const liveCards = () => Array.from(document.querySelectorAll('#jobs .job[data-engine="live"]')).reverse();

  // The reports of the live jobs that answer the timeline: [{card, job, index, format, label}].
  function timelineSources() {
    const out = [];
    for (const card of liveCards()) {
      const doc = card.gcscopeDoc;
      if (!doc || !card.gcscopeEngine) continue;
      doc.reports.forEach((r, index) => {
        const methods = GCSCOPE.formatMethods ? GCSCOPE.formatMethods(r.format) : null;
        if (methods && !methods.includes(METHOD)) return;
        out.push({ card, job: card.dataset.job, index, format: r.format,
          label: `Job ${card.dataset.job}: ${(r.inputs || []).join(', ')} (${GCSCOPE.formatTitle(r.format)})` });
      });
    }
    return out;
  }

  // The offset that places a source's own clock on the axis: 0 for wall-clock time, the axis's
  // start minus the source's own start otherwise; plus the reader's offset.
  function shiftOf(src, origin) {
    const base = src.whole.clock === 'epoch' || src.whole.t0 === null ? 0 : origin - src.whole.t0;
    return base + (src.offset || 0);
  }

  // One row of the table under the chart: the source, its clock, its offset input and what the
  // engine counted in the visible range.
  function sourceRow(src, onOffset) {
    const { el } = GCSCOPE.ui;
    const id = `timeline-offset-${src.job}-${src.index}`;
    const input = el('input', { type: 'number', step: 'any', value: '0', id, class: 'timeline-offset', dataset: { job: src.job },
      'aria-label': `Offset of job ${src.job} in seconds`,
      on: { change: () => { src.offset = Number(input.value) || 0; onOffset(); } } });
    src.totalsCell = el('td', { class: 'timeline-totals' });
    return el('tr', { dataset: { job: src.job } },
      el('th', { scope: 'row', text: src.label }),
      el('td', { class: 'timeline-clock', text: src.whole.clock === 'epoch' ? 'wall-clock time' : src.whole.clock_name + ' (no wall-clock time)' }),
      el('td', {}, input),
      src.totalsCell);
  }

  // What the engine counted in the range, as text ("30 GC pauses, 53.7 ms in all, longest 5.53 ms").
  function totalsText(answer) {
    const { fmt } = GCSCOPE.ui;
    return (answer.series || []).map((s) => {
      const t = s.totals || {};
      if (s.kind === 'bands') return `${fmt.num(t.count)} ${s.name}` + (t.count ? `, ${fmt.num(t.total, 2)} ${s.unit} in all, longest ${fmt.num(t.max, 2)} ${s.unit}` : '');
      if (t.total !== undefined) return `${s.name}: ${fmt.num(t.total)} in all`;
      return `${s.name}: ${fmt.num(t.count)} values` + (t.count ? `, highest ${fmt.num(t.max)}` : '');
    }).join('; ');
  }

  // The plot's series: per source, each line, and each band set's longest item as points (so a
  // band-only input has values too). Fixed when the panel opens; later answers fill the same slots.
  function plotSeries(sources) {
    const palette = GCSCOPE.charts.PALETTE;
    const slots = [];
    sources.forEach((src, k) => {
      (src.whole.series || []).forEach((s, i) => {
        slots.push({ src, name: s.name, kind: s.kind, unit: s.unit, color: palette[(k * 3 + i) % palette.length],
          scale: `j${src.job}r${src.index}s${i}` });
      });
    });
    return slots;
  }

  // uPlot's aligned data: the union of every shifted x, each slot's values at its own x (null elsewhere).
  function alignedData(sources, slots, origin) {
    const xs = new Set();
    const byX = slots.map(() => new Map());
    slots.forEach((slot, k) => {
      const shift = shiftOf(slot.src, origin);
      const s = (slot.src.answer.series || []).find((x) => x.name === slot.name);
      if (!s) return;
      if (s.kind === 'bands') s.start.forEach((t, i) => { xs.add(t + shift); xs.add(s.end[i] + shift); byX[k].set(t + shift, s.max[i]); });
      else s.t.forEach((t, i) => { xs.add(t + shift); byX[k].set(t + shift, s.value[i]); });
    });
    const x = Array.from(xs).sort((a, b) => a - b);
    return [x].concat(byX.map((m) => x.map((v) => (m.has(v) ? m.get(v) : null))));
  }

  // Draws every band set across the plot's height, in its slot's colour.
  function drawBands(u, slots, origin) {
    const ctx = u.ctx;
    const { top, height } = u.bbox;
    ctx.save();
    for (const slot of slots) {
      if (slot.kind !== 'bands') continue;
      const s = (slot.src.answer.series || []).find((x) => x.name === slot.name);
      if (!s) continue;
      const shift = shiftOf(slot.src, origin);
      ctx.fillStyle = slot.color;
      ctx.globalAlpha = 0.25;
      for (let i = 0; i < s.start.length; i++) {
        const a = u.valToPos(s.start[i] + shift, 'x', true), b = u.valToPos(s.end[i] + shift, 'x', true);
        ctx.fillRect(a, top, Math.max(1, b - a), height);
      }
    }
    ctx.restore();
  }

  function build(box, sources) {
    const { el } = GCSCOPE.ui;
    const epoch = sources.some((s) => s.whole.clock === 'epoch');
    const starts = sources.filter((s) => s.whole.clock === 'epoch' && s.whole.t0 !== null).map((s) => s.whole.t0);
    const origin = starts.length ? Math.min(...starts) : 0;
    const slots = plotSeries(sources);
    const status = el('p', { class: 'timeline-status muted', role: 'status' });
    const tbody = el('tbody');
    const figure = el('figure', { class: 'gs-chart timeline-chart', 'aria-labelledby': 'timeline-title' });
    const body = el('div', { class: 'gs-chart-body', role: 'img', tabindex: '0',
      'aria-label': 'Timeline of the open jobs (chart; the table below lists what each job shows); ' + ZOOM_KEYS,
      'aria-describedby': 'timeline-table' });
    figure.append(body);
    let view = null;  // [min, max] of the shared axis, null for everything
    let plot = null, programmatic = false, generation = 0;
    let shownRange = null;  // the axis range drawn: the view, or every job's extent

    async function refresh() {
      const mine = ++generation;
      status.textContent = 'Asking the engines…';
      const width = Math.max(100, Math.round(body.getBoundingClientRect().width || 800));
      await Promise.all(sources.map(async (src) => {
        const shift = shiftOf(src, origin);
        const args = view ? { t0: view[0] - shift, t1: view[1] - shift, width } : { width };
        try {
          src.answer = await src.card.gcscopeEngine.query(METHOD, Object.assign({ report: src.index }, args));
          src.totalsCell.textContent = totalsText(src.answer);
        } catch (err) {
          src.answer = { series: [] };
          src.totalsCell.textContent = String((err && err.message) || err);
        }
      }));
      if (mine !== generation) return;
      const data = alignedData(sources, slots, origin);
      programmatic = true;
      plot.setData(data, !view);
      if (view) plot.setScale('x', { min: view[0], max: view[1] });
      programmatic = false;
      const xs = data[0];
      shownRange = view || (xs.length ? [xs[0], xs[xs.length - 1]] : null);
      figure.dataset.xRange = view ? `${view[0]},${view[1]}` : '';
      figure.dataset.shown = shownRange ? shownRange.join(',') : '';
      status.textContent = '';
      box.dataset.ready = 'true';
    }

    const opts = {
      width: Math.max(320, Math.round(box.getBoundingClientRect().width || 800)), height: 300,
      scales: { x: { time: epoch } },
      series: [{ label: epoch ? 'time' : 'seconds' }].concat(slots.map((s) => ({
        label: `Job ${s.src.job}: ${s.name}${s.unit ? ' (' + s.unit + ')' : ''}`, scale: s.scale, stroke: s.color, width: 1.5,
        spanGaps: true, points: { show: s.kind === 'bands', size: 5, fill: s.color },
        paths: s.kind === 'bands' ? () => null : undefined }))),
      axes: [{}, { scale: slots.length ? slots[0].scale : 'y', size: 60, label: slots.length ? slots[0].unit : '' }],
      cursor: { drag: { x: true, y: false } },
      hooks: {
        draw: [(u) => drawBands(u, slots, origin)],
        // A drag's zoom; the page's own setData and setScale (the range it shows already) are not.
        setScale: [(u, key) => {
          if (key !== 'x' || programmatic || !shownRange) return;
          const { min, max } = u.scales.x;
          const eps = (shownRange[1] - shownRange[0]) * 1e-9;
          if (Math.abs(min - shownRange[0]) <= eps && Math.abs(max - shownRange[1]) <= eps) return;
          view = [min, max];
          refresh();
        }],
      },
    };
    plot = new uPlot(opts, [[]].concat(slots.map(() => [])), body);
    figure.gcscopePlot = plot;
    body.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.altKey || e.metaKey || !shownRange) return;
      const [min, max] = shownRange, w = max - min, mid = (min + max) / 2;
      let next;
      if (e.key === '+' || e.key === '=') next = [mid - w / 4, mid + w / 4];
      else if (e.key === '-' || e.key === '_') next = [mid - w, mid + w];
      else if (e.key === 'ArrowLeft') next = [min - w / 4, max - w / 4];
      else if (e.key === 'ArrowRight') next = [min + w / 4, max + w / 4];
      else if (e.key === '0' || e.key === 'Home') next = null;
      else return;
      e.preventDefault();
      view = next && next[1] > next[0] ? next : null;
      refresh();
    });
    for (const src of sources) tbody.appendChild(sourceRow(src, refresh));
    const whole = el('button', { type: 'button', class: 'gs-small timeline-whole', text: 'Whole range',
      on: { click: () => { view = null; refresh(); } } });
    box.append(el('p', { class: 'muted', text: (epoch ? 'Inputs with wall-clock time are at their instants; ' : '') +
      'an input without it starts at the axis\'s start. Type an offset in seconds to move a job. Drag on the chart to zoom.' }),
    el('div', { class: 'timeline-actions' }, whole, status), figure,
    el('table', { class: 'timeline-jobs', id: 'timeline-table' }, el('caption', { text: 'Jobs on the timeline (figures of the range shown)' }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Job' }), el('th', { scope: 'col', text: 'Clock' }),
        el('th', { scope: 'col', text: 'Offset (s)' }), el('th', { scope: 'col', text: 'In the range shown' }))), tbody));
    return refresh();
  }

  // Opens the panel over the reports of every live job (again: rebuilt over the jobs open now).
  async function open() {
    const { el } = GCSCOPE.ui;
    const old = document.querySelector('.timeline-panel');
    if (old) old.remove();
    const box = el('section', { class: 'timeline-panel', 'aria-labelledby': 'timeline-title' });
    const close = el('button', { type: 'button', class: 'gs-small timeline-close', text: 'Close', on: { click: () => box.remove() } });
    box.append(el('header', { class: 'sql-head' }, el('h3', { id: 'timeline-title', text: 'Timeline of the open jobs' }), close));
    document.getElementById('jobs').before(box);
    const sources = timelineSources();
    await Promise.all(sources.map(async (src) => {
      try {
        src.whole = await src.card.gcscopeEngine.query(METHOD, { report: src.index, width: 1 });
      } catch (err) {
        src.whole = null;
      }
    }));
    const usable = sources.filter((s) => s.whole);
    if (!usable.length) {
      box.append(el('p', { class: 'muted', text: 'None of the open jobs has a timeline.' }));
      return box;
    }
    await build(box, usable);
    return box;
  }

  // The "Timeline" button of the page's job tools: shown while two or more jobs are live (a job's
  // card turns live, is released or closed: the observer sees each).
  function offer(tools, jobs) {
    const button = GCSCOPE.ui.el('button', { type: 'button', class: 'gs-small timeline-open', text: 'Timeline', hidden: true,
      title: 'Every open job on one time axis', on: { click: () => open() } });
    tools.appendChild(button);
    const update = () => { button.hidden = liveCards().length < 2; };
    new MutationObserver(update).observe(jobs, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-engine'] });
  }

  GCSCOPE.timeline = { open, offer, sources: timelineSources };
})(typeof window !== 'undefined' ? window : globalThis);
