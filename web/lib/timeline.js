// GCSCOPE.timeline: every open job on one time axis. Each report that answers "timeline.series"
// (core/timeline.h) gives its series over a range of its own clock; the page only places them: an
// input with wall-clock time at its instants, one without it (clock "own") with its start at the
// axis's start, each moved by the offset the reader types (seconds). Bands (JVM pauses, Ruby GC
// cycles) are drawn across the whole plot over the others' lines; every number shown is the engine's.
//
// The fragment keeps the view (GCSCOPE.state; docs/PAGE.md, Deep links): `tl` the jobs on the
// timeline (the panel opens again once they are all live), `tl.range` the zoomed axis range,
// `tl.off` the offsets typed (`job.report:seconds`, comma-separated). Opening and closing the panel,
// an offset typed and a zoom (once the zooming stops) are each a history entry; back/forward show the
// entry's view again. A saved HTML report of a job on the timeline carries the panel's answers
// (snapshot()) and draws it from them (openSaved()).
/* global uPlot */
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const METHOD = 'timeline.series';
  const ZOOM_KEYS = '+ / - zoom in and out, left and right arrows move, 0 shows the whole range';

  // Ranges whose answers a source keeps for a saved report (the whole range and the latest zooms).
  const KEPT_RANGES = 16;
  const state = () => (GCSCOPE.state && !GCSCOPE.staticReport ? GCSCOPE.state : null);
  const sourceKey = (src) => `${src.job}.${src.index}`;
  const rangeKey = (args) => (args.t0 === undefined ? 'all' : `${args.t0},${args.t1}`);
  let current = null;  // the open panel: {sources, view()}, for snapshot()
  // A zoom becomes a history entry once no other zoom follows it for this long (keys held down,
  // a wheel of + presses): one entry for the range the reader stopped at.
  const ZOOM_SETTLE_MS = 300;
  let zoomWrite = 0;  // the timer of the zoom waiting to be written
  // Back/forward leaves the entry the waiting zoom belonged to: it is not written over the other.
  global.addEventListener('popstate', () => clearTimeout(zoomWrite));

  // "t0,t1" of the fragment: the range, or null when it is not two increasing numbers.
  function parseRange(v) {
    const parts = (v || '').split(',');
    if (parts.length !== 2) return null;
    const [a, b] = parts.map((x) => (x.trim() === '' ? NaN : Number(x)));
    return Number.isFinite(a) && Number.isFinite(b) && b > a ? [a, b] : null;
  }
  // "1.0:-5,2.0:3.5" of the fragment: offset by source key.
  function parseOffsets(v) {
    const out = new Map();
    for (const item of (v || '').split(',')) {
      const m = /^(\d+\.\d+):(.+)$/.exec(item);
      const x = m ? parseOffset(m[2]) : null;
      if (x !== null) out.set(m[1], x);
    }
    return out;
  }
  // A typed offset in seconds: a finite decimal number (an empty field is 0), else null.
  function parseOffset(text) {
    const t = String(text).trim();
    if (t === '') return 0;
    const x = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : NaN;
    return Number.isFinite(x) ? x : null;
  }
  function writeOffsets(sources) {
    const st = state();
    if (st) st.set('tl.off', sources.filter((s) => s.offset).map((s) => `${sourceKey(s)}:${s.offset}`).join(',') || null, { push: true });
  }

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
  // A typed offset that is not a number is refused with a message; the last valid one stays.
  function sourceRow(src, onOffset) {
    const { el } = GCSCOPE.ui;
    const id = `timeline-offset-${src.job}-${src.index}`;
    const error = el('span', { class: 'timeline-offset-error error', id: id + '-error', role: 'alert', hidden: true });
    const input = el('input', { type: 'text', inputmode: 'decimal', value: String(src.offset || 0), id, class: 'timeline-offset',
      dataset: { job: src.job }, 'aria-label': `Offset of job ${src.job} in seconds`, 'aria-describedby': error.id,
      on: { change: () => {
        const v = parseOffset(input.value);
        if (v === null) {
          error.textContent = `"${input.value}" is not a number of seconds: the offset stays ${src.offset || 0} s`;
          error.hidden = false;
          input.setAttribute('aria-invalid', 'true');
          input.value = String(src.offset || 0);
          return;
        }
        error.hidden = true;
        input.removeAttribute('aria-invalid');
        if (v === (src.offset || 0)) return;
        src.offset = v;
        onOffset();
      } } });
    src.totalsCell = el('td', { class: 'timeline-totals' });
    return el('tr', { dataset: { job: src.job } },
      el('th', { scope: 'row', text: src.label }),
      el('td', { class: 'timeline-clock', text: src.whole.clock === 'epoch' ? 'wall-clock time' : src.whole.clock_name + ' (no wall-clock time)' }),
      el('td', {}, input, error),
      src.totalsCell);
  }

  // Back/forward to other offsets: each source's offset and field as the fragment has them.
  function applyOffsets(sources, value) {
    const offsets = parseOffsets(value);
    for (const src of sources) {
      src.offset = offsets.get(sourceKey(src)) || 0;
      const input = document.getElementById(`timeline-offset-${src.job}-${src.index}`);
      if (!input) continue;
      // A step through history shows that entry's offset, with no error left from a typed one.
      input.value = String(src.offset);
      input.removeAttribute('aria-invalid');
      const error = document.getElementById(input.id + '-error');
      if (error) error.hidden = true;
    }
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

  // `initialView`: the axis range to show first (from the fragment or a saved report), null for all.
  function build(box, sources, initialView) {
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
    let view = initialView || null;  // [min, max] of the shared axis, null for everything
    let plot = null, programmatic = false, generation = 0;
    let shownRange = null;  // the axis range drawn: the view, or every job's extent

    // The reader's new view (a zoom, a move, the whole range): drawn, and written to the fragment
    // once the zooming stops. Only such a change writes the range: a redraw for other reasons (an
    // offset, back/forward applying the fragment's range) leaves it as it is.
    function setView(next) {
      view = next;
      const st = state();
      if (st) {
        const shown = view ? `${view[0]},${view[1]}` : null;
        clearTimeout(zoomWrite);
        zoomWrite = setTimeout(() => { if (box.isConnected) st.set('tl.range', shown, { push: true }); }, ZOOM_SETTLE_MS);
      }
      return refresh();
    }

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
          const kept = src.recorded || (src.recorded = new Map());
          kept.delete(rangeKey(args));
          kept.set(rangeKey(args), src.answer);
          if (kept.size > KEPT_RANGES) kept.delete(Array.from(kept.keys()).find((k) => k !== 'all'));
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
          setView([min, max]);
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
      setView(next && next[1] > next[0] ? next : null);
    });
    for (const src of sources) tbody.appendChild(sourceRow(src, () => { writeOffsets(sources); refresh(); }));
    const st = state();
    if (st) {
      // A panel closed in the same step (back to an entry with other jobs) stays closed.
      st.watch('tl.range', box, (v) => {
        if (!box.isConnected) return;
        clearTimeout(zoomWrite);
        view = parseRange(v);
        refresh();
      });
      st.watch('tl.off', box, (v) => {
        if (!box.isConnected) return;
        applyOffsets(sources, v);
        refresh();
      });
    }
    current = { sources, view: () => view };
    const whole = el('button', { type: 'button', class: 'gs-small timeline-whole', text: 'Whole range',
      on: { click: () => { setView(null); } } });
    box.append(el('p', { class: 'muted', text: (epoch ? 'Inputs with wall-clock time are at their instants; ' : '') +
      'an input without it starts at the axis\'s start. Type an offset in seconds to move a job. Drag on the chart to zoom.' }),
    el('div', { class: 'timeline-actions' }, whole, status), figure,
    el('table', { class: 'timeline-jobs', id: 'timeline-table' }, el('caption', { text: 'Jobs on the timeline (figures of the range shown)' }),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Job' }), el('th', { scope: 'col', text: 'Clock' }),
        el('th', { scope: 'col', text: 'Offset (s)' }), el('th', { scope: 'col', text: 'In the range shown' }))), tbody));
    return refresh();
  }

  // Closes the open panel, if any (not a saved report's: nothing changes its page).
  function closePanel() {
    const old = document.querySelector('.timeline-panel');
    if (old) old.remove();
    current = null;
    clearTimeout(zoomWrite);
  }

  // The panel's frame, before the jobs' table: {box}. Closing it forgets the fragment's view (a
  // history entry: back opens it again on that view).
  function panel(title) {
    const { el } = GCSCOPE.ui;
    closePanel();
    const box = el('section', { class: 'timeline-panel', 'aria-labelledby': 'timeline-title' });
    const close = el('button', { type: 'button', class: 'gs-small timeline-close', text: 'Close', on: { click: () => {
      closePanel();
      const st = state();
      if (st) for (const key of ['tl', 'tl.range', 'tl.off']) st.set(key, null, { push: true });
    } } });
    box.append(el('header', { class: 'sql-head' }, el('h3', { id: 'timeline-title', text: title }), close));
    document.getElementById('jobs').before(box);
    return box;
  }

  // Opens the panel over the reports of every live job (again: rebuilt over the jobs open now).
  // fromLink: with the view and offsets the fragment keeps; otherwise a new view, written there.
  async function open({ fromLink = false } = {}) {
    const { el } = GCSCOPE.ui;
    const box = panel('Timeline of the open jobs');
    const sources = timelineSources();
    const st = state();
    const offsets = fromLink && st ? parseOffsets(st.get('tl.off')) : new Map();
    for (const src of sources) src.offset = offsets.get(sourceKey(src)) || 0;
    if (st) {
      // One history entry: the first write that changes the fragment makes it, the others join it.
      st.set('tl', Array.from(new Set(sources.map((s) => s.job))).join(',') || null, { push: !fromLink });
      if (!fromLink) for (const key of ['tl.range', 'tl.off']) st.set(key, null, { push: true });
    }
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
    try {
      await build(box, usable, fromLink && st ? parseRange(st.get('tl.range')) : null);
    } catch (err) {
      box.append(el('p', { class: 'error', role: 'alert', text: 'The timeline cannot be drawn: ' + err.message }));
    }
    return box;
  }

  // What a saved report of a job on the timeline (the one `engine` answers for) keeps of the panel:
  // every source's clock, offset and the answers of the ranges it was shown; null when the panel is
  // closed or the job is not on it.
  function snapshot(engine) {
    if (!current || !current.sources.some((s) => s.card.gcscopeEngine === engine)) return null;
    return {
      view: current.view(),
      sources: current.sources.map((s) => ({ job: s.job, index: s.index, format: s.format, label: s.label, whole: s.whole,
        offset: s.offset || 0, answers: Object.fromEntries(s.recorded || []) })),
    };
  }

  // Whether a saved report's timeline has the shape snapshot() writes.
  const savedShape = (saved) => saved && Array.isArray(saved.sources) && saved.sources.every((s) => s && s.whole &&
    Array.isArray(s.whole.series) && (!s.answers || typeof s.answers === 'object'));

  // A saved report's timeline: the saved sources, each answering the ranges it kept (at any width).
  // A report whose timeline cannot be read says so in the panel; the rest of the report stands.
  async function openSaved(saved) {
    const box = panel('Timeline of the jobs when the report was saved');
    const { el } = GCSCOPE.ui;
    if (!savedShape(saved)) {
      box.append(el('p', { class: 'error', role: 'alert', text: 'This report\'s timeline cannot be read: it is not what gcscope saves.' }));
      return box;
    }
    const sources = saved.sources.map((s) => ({ job: s.job, index: s.index, format: s.format, label: s.label,
      whole: s.whole, offset: s.offset || 0,
      card: { gcscopeEngine: { query(method, args) {
        const key = rangeKey(args || {});
        if (method === METHOD && s.answers && Object.prototype.hasOwnProperty.call(s.answers, key)) return Promise.resolve(s.answers[key]);
        return Promise.reject(new Error('a saved report holds only the ranges shown when it was saved: open the inputs in gcscope to ask more'));
      } } } }));
    if (!sources.length) return box;
    try {
      await build(box, sources, saved.view || null);
    } catch (err) {
      box.append(el('p', { class: 'error', role: 'alert', text: 'This report\'s timeline cannot be drawn: ' + err.message }));
    }
    return box;
  }

  // The "Timeline" button of the page's job tools: shown while two or more jobs are live (a job's
  // card turns live, is released or closed: the observer sees each).
  function offer(tools, jobs) {
    const button = GCSCOPE.ui.el('button', { type: 'button', class: 'gs-small timeline-open', text: 'Timeline', hidden: true,
      title: 'Every open job on one time axis', on: { click: () => open() } });
    tools.appendChild(button);
    // A link's fragment naming the jobs on the timeline opens it once they are all live.
    const st = state();
    let linkPending = Boolean(st && st.get('tl'));
    const update = () => {
      const live = liveCards();
      button.hidden = live.length < 2;
      if (!linkPending) return;
      const ready = new Set(live.filter((c) => c.gcscopeDoc && c.gcscopeEngine).map((c) => c.dataset.job));
      const wanted = st.get('tl').split(',');
      if (!wanted.every((j) => ready.has(j))) return;
      linkPending = false;
      open({ fromLink: true });
    };
    new MutationObserver(update).observe(jobs, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-engine'] });
    // Back/forward to an entry with the panel open (on the view it kept) or closed.
    if (st) st.watch('tl', button, (v) => {
      if (!v) {
        linkPending = false;
        closePanel();
        return;
      }
      linkPending = true;
      update();
    });
  }

  GCSCOPE.timeline = { open, offer, openSaved, snapshot, sources: timelineSources };
})(typeof window !== 'undefined' ? window : globalThis);
