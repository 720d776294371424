// GCSCOPE.ui: the small DOM toolkit every view uses. Data is only ever put into the page as text
// (textContent, attribute values), never parsed as HTML, so a class name, frame name, file path or log
// line full of markup stays inert.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const views = (GCSCOPE.views = GCSCOPE.views || {});

  // Views register per format ID: render(container, report, ctx) builds the panel of one report
  // (the panel's title is the format's registered title, from the engine).
  GCSCOPE.registerView = function (format, view) {
    if (!format || !view || typeof view.render !== 'function') throw new Error('registerView needs (format, {render})');
    views[format] = view;
  };

  // el('div', {class: 'x', title: 't', attrs: {...}, on: {click: fn}, style: {...}}, child, ...)
  // Children: strings/numbers become text nodes; null/undefined/false are skipped; arrays are flattened.
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = String(v);
        else if (k === 'on') for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
        else if (k === 'style') Object.assign(node.style, v);
        else if (k === 'attrs') for (const [a, av] of Object.entries(v)) node.setAttribute(a, String(av));
        else if (k === 'dataset') Object.assign(node.dataset, v);
        else if (k in node && typeof v !== 'string') node[k] = v;
        else node.setAttribute(k, String(v));
      }
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(node, c);
      else if (c instanceof Node) node.appendChild(c);
      else node.appendChild(document.createTextNode(String(c)));
    }
  }

  // en-US number formats by fraction digits (undefined: up to 3, as toLocaleString's default). One
  // Intl.NumberFormat each, made once: toLocaleString with a locale builds a new one on every call,
  // which dominates drawing a table page.
  const numberFormats = new Map();
  function numberFormat(digits) {
    let f = numberFormats.get(digits);
    if (!f) {
      f = new Intl.NumberFormat('en-US', digits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits });
      numberFormats.set(digits, f);
    }
    return f;
  }

  const fmt = {
    bytes(n) {
      if (n === null || n === undefined || isNaN(n)) return '—';
      const units = ['B', 'KB', 'MB', 'GB', 'TB'];
      let i = 0;
      let v = Number(n);
      while (Math.abs(v) >= 1024 && i < units.length - 1) { v /= 1024; i++; }
      return (i === 0 ? String(v) : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)) + ' ' + units[i];
    },
    kb(n) { return n === null || n === undefined || n < 0 ? '—' : fmt.bytes(n * 1024); },
    num(n, digits) {
      if (n === null || n === undefined || (typeof n === 'number' && isNaN(n))) return '—';
      if (typeof n === 'string') return n;  // 64-bit values arrive as strings: show as is
      return numberFormat(digits).format(n);
    },
    pct(n, digits = 2) { return n === null || n === undefined || isNaN(n) ? '—' : Number(n).toFixed(digits) + ' %'; },
    // Seconds as a human duration: 0.000123 → "123 µs", 0.0123 → "12.3 ms", 12.3 → "12.30 s".
    seconds(s) {
      if (s === null || s === undefined || isNaN(s)) return '—';
      const a = Math.abs(s);
      if (a === 0) return '0';
      if (a < 1e-3) return (s * 1e6).toFixed(a < 1e-5 ? 2 : 0) + ' µs';
      if (a < 1) return (s * 1e3).toFixed(a < 0.01 ? 2 : 1) + ' ms';
      if (a < 600) return s.toFixed(2) + ' s';
      return (s / 60).toFixed(1) + ' min';
    },
  };

  function download(name, mime, data) {
    const blob = data instanceof Blob ? data : new Blob([data], { type: mime });
    const url = URL.createObjectURL(blob);
    const a = el('a', { href: url, download: name, style: { display: 'none' } });
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(url); a.remove(); }, 1000);
  }

  function csvCell(v) {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  // A cell's text longer than this is cut with an ellipsis (its title has it whole). Only such cells
  // clip: a clipping cell is a paint property of its own, and a page of short cells draws far faster
  // without them.
  const LONG_TEXT = 60;
  const cellClass = (c, text) => (c.numeric ? 'num' : '') + (text.length > LONG_TEXT ? ' gs-long' : '');

  // Draws rows into a tbody, reusing the rows already drawn: a redraw rewrites only the cells whose
  // content changed, and adds or removes rows only when the count changes — far less work for the
  // browser than new rows. content(row, column, columnIndex) is a cell's text or a Node.
  // onRowClick(row): rows are clickable, and reachable by keyboard (Enter or Space does what a click
  // does); the handler gets the row drawn there now.
  function rowWriter(tbody, columns, content, onRowClick) {
    const drawn = [];  // per drawn row: {tr, row, cells: [td]}
    const newRow = () => {
      const line = { tr: el('tr'), row: null, cells: columns.map(() => el('td')) };
      line.tr.append(...line.cells);
      if (onRowClick) {
        line.tr.classList.add('clickable');
        line.tr.tabIndex = 0;
        line.tr.addEventListener('click', () => onRowClick(line.row));
        line.tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onRowClick(line.row); } });
      }
      tbody.appendChild(line.tr);
      return line;
    };
    const setCell = (td, c, v) => {
      if (v instanceof Node) {
        td.replaceChildren(v);
        td.gsText = null;
        td.className = c.numeric ? 'num' : '';
        return;
      }
      const text = v === undefined || v === null ? '' : String(v);
      if (td.gsText === text) return;
      if (td.firstChild && td.firstChild === td.lastChild && td.firstChild.nodeType === Node.TEXT_NODE) td.firstChild.data = text;
      else td.textContent = text;
      td.gsText = text;
      const cls = cellClass(c, text);
      if (td.className !== cls) td.className = cls;
      if (text.length > LONG_TEXT || td.title) td.title = text.length > LONG_TEXT ? text : '';
    };
    return (rows) => {
      while (drawn.length > rows.length) drawn.pop().tr.remove();
      rows.forEach((r, i) => {
        const line = drawn[i] || (drawn[i] = newRow());
        line.row = r;
        columns.forEach((c, k) => setCell(line.cells[k], c, content(r, c, k)));
      });
    };
  }

  // A sortable, filterable table with CSV export.
  //   columns: [{key, label, numeric?, format?(value,row), title?}]
  //   rows: objects (by key) or arrays (by column index)
  //   opts: {filter: true, csvName: 'x.csv', pageSize: 200, onRowClick(row), sort: {key, desc}, caption}
  function table(columns, rows, opts = {}) {
    const get = (row, col, i) => (Array.isArray(row) ? row[i] : row[col.key]);
    let sortIndex = opts.sort ? columns.findIndex((c) => c.key === opts.sort.key) : -1;
    let sortDesc = opts.sort ? !!opts.sort.desc : false;
    let filterText = '';
    const pageSize = opts.pageSize || 100;
    let page = 0;
    const wrap = el('div', { class: 'gs-table' });
    const tools = el('div', { class: 'gs-table-tools' });
    const count = el('span', { class: 'gs-table-count' });
    if (opts.caption) tools.appendChild(el('span', { class: 'gs-table-caption', text: opts.caption }));
    if (opts.filter !== false) {
      const input = el('input', { type: 'search', placeholder: 'Filter…', 'aria-label': 'Filter rows' });
      input.addEventListener('input', () => { filterText = input.value.toLowerCase(); page = 0; render(); });
      tools.appendChild(input);
    }
    tools.appendChild(count);
    tools.appendChild(el('button', {
      type: 'button', class: 'gs-small', text: 'CSV',
      title: 'Download this table as CSV',
      on: { click: () => download(opts.csvName || 'table.csv', 'text/csv', toCsv()) },
    }));
    const tbl = el('table');
    const thead = el('thead');
    const headRow = el('tr');
    // Headers are buttons (keyboard and screen readers sort too); aria-sort says the order.
    columns.forEach((c, i) => {
      const button = el('button', { type: 'button', class: 'gs-sort', text: c.label || c.key, title: c.title || 'Sort by this column' });
      button.addEventListener('click', () => {
        if (sortIndex === i) sortDesc = !sortDesc;
        else { sortIndex = i; sortDesc = !!c.numeric; }
        page = 0;
        render();
      });
      headRow.appendChild(el('th', { scope: 'col', class: c.numeric ? 'num' : '' }, button));
    });
    thead.appendChild(headRow);
    const tbody = el('tbody');
    tbl.append(thead, tbody);
    // Long tables page instead of growing the page.
    const prev = el('button', { type: 'button', class: 'gs-small', text: '‹ Previous', on: { click: () => { page--; render(); } } });
    const next = el('button', { type: 'button', class: 'gs-small', text: 'Next ›', on: { click: () => { page++; render(); } } });
    const where = el('span', { class: 'gs-page-where', 'aria-live': 'polite' });
    const pager = el('div', { class: 'gs-pager' }, prev, where, next);
    wrap.append(tools, el('div', { class: 'gs-table-scroll', tabindex: '0', role: 'region', 'aria-label': opts.caption || opts.csvName || 'table' }, tbl), pager);

    function visibleRows() {
      let list = rows;
      if (filterText) {
        list = rows.filter((r) => columns.some((c, i) => {
          const v = get(r, c, i);
          return v !== null && v !== undefined && String(v).toLowerCase().includes(filterText);
        }));
      }
      if (sortIndex >= 0) {
        const c = columns[sortIndex];
        const dir = sortDesc ? -1 : 1;
        list = list.slice().sort((a, b) => {
          const va = get(a, c, sortIndex), vb = get(b, c, sortIndex);
          if (va === vb) return 0;
          if (va === null || va === undefined) return 1;
          if (vb === null || vb === undefined) return -1;
          if (c.numeric) return (Number(va) - Number(vb)) * dir;
          return String(va).localeCompare(String(vb)) * dir;
        });
      }
      return list;
    }
    function toCsv() {
      const lines = [columns.map((c) => csvCell(c.label || c.key)).join(',')];
      for (const r of visibleRows()) lines.push(columns.map((c, i) => csvCell(get(r, c, i))).join(','));
      return lines.join('\n') + '\n';
    }
    const draw = rowWriter(tbody, columns, (r, c, i) => {
      const v = get(r, c, i);
      return c.format ? c.format(v, r) : (c.numeric ? fmt.num(v) : v);
    }, opts.onRowClick);
    function render() {
      const list = visibleRows();
      const pages = Math.max(1, Math.ceil(list.length / pageSize));
      page = Math.min(Math.max(page, 0), pages - 1);
      const end = Math.min(list.length, (page + 1) * pageSize);
      draw(list.slice(page * pageSize, end));
      headRow.querySelectorAll('th').forEach((th, i) => {
        th.classList.toggle('sorted', i === sortIndex);
        th.dataset.dir = i === sortIndex ? (sortDesc ? 'desc' : 'asc') : '';
        th.setAttribute('aria-sort', i === sortIndex ? (sortDesc ? 'descending' : 'ascending') : 'none');
      });
      count.textContent = list.length === rows.length ? `${rows.length} rows` : `${list.length} of ${rows.length} rows`;
      pager.hidden = pages <= 1;
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      where.textContent = `rows ${list.length ? page * pageSize + 1 : 0}–${end} of ${list.length}`;
    }
    render();
    wrap.refresh = (newRows) => { if (newRows) rows = newRows; render(); };
    return wrap;
  }

  // A read-only text block with a Copy button (advice, recipes, commands).
  function copyBlock(text, label) {
    const pre = el('pre', { class: 'gs-copy', text });
    const btn = el('button', { type: 'button', class: 'gs-small', text: label || 'Copy' });
    btn.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(text); btn.textContent = 'Copied'; } catch (e) {
        const r = document.createRange(); r.selectNodeContents(pre); const s = getSelection(); s.removeAllRanges(); s.addRange(r);
        btn.textContent = 'Selected';
      }
      setTimeout(() => { btn.textContent = label || 'Copy'; }, 1500);
    });
    return el('div', { class: 'gs-copy-wrap' }, btn, pre);
  }

  // KPI tiles: [{label, value, hint?, severity?}]
  function kpis(items) {
    return el('div', { class: 'gs-kpis' }, items.map((k) => el('div', { class: 'gs-kpi' + (k.severity ? ' sev-' + k.severity : ''), title: k.hint || '' },
      el('div', { class: 'gs-kpi-value', text: k.value }), el('div', { class: 'gs-kpi-label', text: k.label }))));
  }

  // Collapsible section.
  function section(title, ...children) {
    return el('details', { class: 'gs-section', open: true }, el('summary', { text: title }), ...children);
  }

  // SVG documents for the export buttons (charts, flame graphs, the heap icicle): built through the
  // DOM, so every string goes in as XML text, never as markup.
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const svg = {
    // A new SVG document; its root carries the size, the viewBox and the export's font.
    create(width, height) {
      const doc = document.implementation.createDocument(SVG_NS, 'svg', null);
      const root = doc.documentElement;
      svg.size(root, width, height);
      root.setAttribute('font-family', 'system-ui, sans-serif');
      root.setAttribute('font-size', '11');
      return doc;
    },
    size(root, width, height) {
      root.setAttribute('width', width);
      root.setAttribute('height', height);
      root.setAttribute('viewBox', `0 0 ${width} ${height}`);
    },
    el(doc, tag, attrs, text) {
      const n = doc.createElementNS(SVG_NS, tag);
      for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) n.setAttribute(k, String(v));
      if (text !== undefined) n.textContent = String(text);
      return n;
    },
    text(doc) { return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(doc); },
  };

  // A report's short name: its input's file name, "(+N)" for a set.
  function reportLabel(r, fallback) {
    const inputs = (r && r.inputs) || [];
    if (!inputs.length) return fallback;
    const base = (p) => String(p).split('/').pop();
    return inputs.length === 1 ? base(inputs[0]) : base(inputs[0]) + ' (+' + (inputs.length - 1) + ')';
  }

  // The other reports on the page that `accept` takes (this document's, then every job card's), as
  // [{report, label, engine, index}] (engine: the job's live engine, null once released or in a
  // saved report; index: the report's position in its document), for views that compare analyses.
  function otherReports(self, ctx, accept) {
    const seen = new Set([self]);
    const out = [];
    const add = (r, where, engine, index, doc) => {
      if (!r || !accept(r) || seen.has(r)) return;
      seen.add(r);
      out.push({ report: r, label: reportLabel(r, where) + ' — ' + where, engine: engine || null, index, doc });
    };
    const own = ctx && ctx.doc;
    ((own && own.reports) || []).forEach((r, k) => add(r, 'this job', ctx.engine, k, own));
    if (typeof document !== 'undefined') {
      document.querySelectorAll('.job').forEach((card, i) => ((card.gcscopeDoc && card.gcscopeDoc.reports) || [])
        .forEach((r, k) => add(r, 'job ' + (i + 1), card.gcscopeEngine, k, card.gcscopeDoc)));
    }
    return out;
  }

  // How many reports of a job's document `accept` takes: a job of several (a set of captures) can be
  // compared as their sum.
  const setSize = (doc, accept) => ((doc && doc.reports) || []).filter((r) => accept(r)).length;

  // What the engine says it summed on each side of a comparison: `set` ({captures, not_summed: [why]})
  // where a side was summed from several reports, `not_summed` (why) where only the first was compared.
  function setSummary(c) {
    const lines = [];
    for (const [key, name] of [['a', 'A'], ['b', 'B']]) {
      const side = (c && c[key]) || {};
      if (side.set) {
        lines.push({ text: `${name}: ${side.set.captures} reports summed`, cls: 'gs-set-summed' });
        for (const why of side.set.not_summed || []) lines.push({ text: `${name}: ${why}`, cls: 'warning gs-set-not-summed' });
      } else if (side.not_summed) {
        lines.push({ text: `${name}: ${side.not_summed}`, cls: 'warning gs-set-not-summed' });
      } else {
        lines.push({ text: `${name}: one report`, cls: 'gs-set-single' });
      }
    }
    return lines;
  }

  // The engine's comparison of this report (side a) with a picked one (side b, from otherReports):
  // this report's engine gives its side, the picked report's engine compares (wasm/core/query.h,
  // compare.side / compare.with). With opts.pickedBefore the picked report is side a (the run
  // before) and this one b: the picked engine gives its side and this one compares. Rejects with a
  // message for the user when either engine is gone. With pick.set, each side is every report of its
  // job in the compare family, summed by the engine (compare.side/compare.with {set: true});
  // pick.onCompared(c), when given, sees the answer.
  async function compareWithEngine(ctx, pick, opts = {}) {
    if (!pick || !pick.engine) throw new Error('the other analysis is no longer in memory: analyze it again to compare');
    const setArg = pick.set ? { set: true } : {};
    const theirs = (method, args) => pick.engine.query(method, Object.assign({ report: pick.index }, args, setArg));
    const mine = (method, args) => ctx.query(method, Object.assign({}, args, setArg));
    const [giver, comparer] = opts.pickedBefore ? [theirs, mine] : [mine, theirs];
    const c = await comparer('compare.with', { other: await giver('compare.side', {}), other_is: 'a' });
    if (pick.onCompared) pick.onCompared(c);
    return c;
  }

  // A change in percent with its sign and one decimal ("+45.5%"; unit ' %' gives "-22.9 %"), "—" for
  // none (the engine gives none where the first side is 0).
  function signedPercent(x, unit = '%') {
    return x === null || x === undefined ? '—' : (x > 0 ? '+' : '') + x.toFixed(1) + unit;
  }

  // The engine's comparison of two captures (compareWithEngine) drawn into `out`: "Comparing…" until
  // it answers, then draw(out, c) lays out the figures of the capture's own kind, then what every
  // capture comparison shows after them: per frame, the engine's profile compare (the differential
  // flame graph and the delta table, A before, B after) when both captures hold stacks of one unit,
  // else the engine's reason why not (c.frames_omitted); last a button that downloads the whole
  // answer as JSON. `name` begins the classes (NAME-compare-wait, NAME-compare-frames,
  // NAME-diff-flame, NAME-compare-no-frames) and the files (NAME-compare.json, the graph's).
  // Resolves once drawn; a failure is shown in `out`. opts: compareWithEngine's.
  // Only the latest comparison asked (pick.current, from comparePicker) is drawn.
  function showComparison(out, ctx, pick, name, draw, opts) {
    out.appendChild(el('p', { class: `muted ${name}-compare-wait`, text: 'Comparing…' }));
    return compareWithEngine(ctx, pick, opts).then((c) => {
      if (!pick.current()) return;
      out.replaceChildren();
      draw(out, c);
      if (c.frames) {
        const box = el('div', { class: `${name}-compare-frames` });
        out.appendChild(box);
        GCSCOPE.flamegraph.comparison(box, c, { labels: { a: 'A', b: 'B' }, unit: c.unit, cls: `${name}-diff-flame`, name });
      } else if (c.frames_omitted) {
        out.appendChild(el('p', { class: `muted ${name}-compare-no-frames`, text: 'No per-frame deltas: ' + c.frames_omitted }));
      }
      out.appendChild(el('button', { type: 'button', class: 'gs-small', text: 'Download comparison JSON',
        on: { click: () => download(`${name}-compare.json`, 'application/json', JSON.stringify(c, null, 2)) } }));
    }).catch((e) => {
      if (pick.current()) out.replaceChildren(el('p', { class: 'error', text: 'The comparison failed: ' + e.message }));
    });
  }

  // "Compare with": a select of the other reports `accept` takes (refilled on focus, since jobs come
  // and go), a Compare button, and an output box that draw(out, pick) fills. When the picked report
  // is another job's and either job holds several reports `accept` takes, a checkbox compares the
  // two jobs' sums instead (pick.set; compareWithEngine), and the engine's account of what it summed
  // shows above the output.
  // opts: {self, ctx, accept, cls, ariaLabel, prompt, emptyText, draw, showAtOnce}
  function comparePicker(opts) {
    const box = el('div', { class: opts.cls });
    const select = el('select', { 'aria-label': opts.ariaLabel });
    const refresh = el('button', { type: 'button', class: 'gs-small', text: 'Compare' });
    const summed = el('input', { type: 'checkbox', class: 'gs-compare-set' });
    const setOption = el('label', { class: 'gs-compare-set-option', hidden: true }, summed, ' sum each job\'s reports (compare the two sets)');
    const setNote = el('ul', { class: 'gs-compare-set-note muted', hidden: true });
    const out = el('div', { class: opts.cls + '-out' });
    let candidates = [];
    let drawn = 0;  // the latest show(): an answer to an earlier one does not write the note
    const picked = () => candidates[Number(select.value) || 0];
    const offerSet = () => {
      const pick = picked();
      const own = opts.ctx && opts.ctx.doc;
      setOption.hidden = !pick || !pick.doc || pick.doc === own ||
        (setSize(own, opts.accept) < 2 && setSize(pick.doc, opts.accept) < 2);
    };
    // Refills the choices (jobs come and go) keeping the picked report picked while it is there.
    const fill = () => {
      const before = picked();
      candidates = otherReports(opts.self, opts.ctx, opts.accept);
      select.replaceChildren(...candidates.map((c, i) => el('option', { value: String(i), text: c.label })));
      select.disabled = !candidates.length;
      const kept = before ? candidates.findIndex((c) => c.report === before.report) : -1;
      if (kept >= 0) select.value = String(kept);
      offerSet();
    };
    const show = () => {
      fill();
      out.replaceChildren();
      setNote.replaceChildren();
      setNote.hidden = true;
      const pick = picked();
      if (!pick) { out.appendChild(el('p', { class: 'muted', text: opts.emptyText })); return; }
      const set = !setOption.hidden && summed.checked;
      const turn = ++drawn;
      // pick.current(): whether this is still the latest comparison asked (a late answer is dropped).
      opts.draw(out, Object.assign({ current: () => turn === drawn }, pick, !set ? {} : {
        set,
        onCompared: (c) => {
          if (turn !== drawn) return;
          setNote.replaceChildren(...setSummary(c).map((l) => el('li', { class: l.cls, text: l.text })));
          setNote.hidden = false;
        },
      }));
    };
    select.addEventListener('focus', fill);
    select.addEventListener('change', show);
    summed.addEventListener('change', show);
    refresh.addEventListener('click', show);
    fill();
    box.append(el('div', { class: opts.cls + '-tools' }, el('span', { text: opts.prompt }), select, ' ', refresh, ' ', setOption), setNote, out);
    if (opts.showAtOnce && candidates.length) show();
    return box;
  }

  // f() once the page has nothing else to do (a frame drawn, no input waiting), or within 200 ms.
  const whenIdle = typeof requestIdleCallback === 'function' ? (f) => requestIdleCallback(f, { timeout: 200 }) : (f) => setTimeout(f, 50);

  // The rows of one page drawn only where the scroll box shows them, OVERSCAN more on each side: a gap
  // row above the body (in the table's head) and one below (in its foot) hold the height of the rest,
  // so the box scrolls over the whole page while a page turn lays out about a box-height of rows, not
  // all of them. A page turn draws the rows in view for its first frame and the rows beyond them
  // once the page is idle. Until the box and a row have been measured (a ResizeObserver's callback,
  // after layout) the page is drawn whole.
  //   draw(rows, first): writes rows (a slice of the page starting at index first) into the body.
  function rowWindow(scroller, body, gapAbove, gapBelow, draw) {
    const OVERSCAN = 6;
    let rows = [], from = 0, to = 0, top = 0, rowHeight = 0, viewHeight = 0, pending = false;
    const setGap = (gap, n) => {
      gap.hidden = n === 0;
      gap.firstChild.style.height = n * rowHeight + 'px';
    };
    const visible = () => {
      if (!rowHeight || !viewHeight) return [0, rows.length];
      const a = Math.max(0, Math.floor(top / rowHeight));
      return [a, Math.min(rows.length, Math.ceil((top + viewHeight) / rowHeight))];
    };
    // The rows in view and `beyond` more on each side.
    function drawAround(beyond) {
      const [a, b] = visible();
      from = Math.max(0, a - beyond);
      to = Math.min(rows.length, b + beyond);
      draw(rows.slice(from, to), from);
      setGap(gapAbove, from);
      setGap(gapBelow, rows.length - to);
    }
    // Scrolled or resized: drawn again only when rows in view are not.
    function follow() {
      const [a, b] = visible();
      if (a < from || b > to) drawAround(OVERSCAN);
    }
    scroller.addEventListener('scroll', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; top = scroller.scrollTop; follow(); });
    }, { passive: true });
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver((entries) => {
        viewHeight = entries[entries.length - 1].contentRect.height;
        const row = body.firstElementChild;
        if (!rowHeight && row) rowHeight = row.getBoundingClientRect().height;
        if (rowHeight && viewHeight) follow();
      }).observe(scroller);
    }
    // A page shown: from its first row.
    return (pageRows) => {
      rows = pageRows;
      if (top !== 0) { scroller.scrollTop = 0; top = 0; }
      drawAround(0);
      whenIdle(() => { if (rows === pageRows) drawAround(OVERSCAN); });
    };
  }

  // Column minimum widths that only grow, from the longest text a column has shown: the columns keep
  // their places while a windowed page scrolls rows in and out, and from page to page.
  function growingWidths(headCells, columns, content) {
    const widest = columns.map(() => 0);
    return (rows) => {
      columns.forEach((c, k) => {
        let n = widest[k];
        for (const r of rows) {
          const v = content(r, c, k);
          if (typeof v === 'string' && v.length > n) n = Math.min(v.length, LONG_TEXT);
          else if (typeof v === 'number' && String(v).length > n) n = String(v).length;
        }
        if (n > widest[k]) { widest[k] = n; headCells[k].style.minWidth = `calc(${n}ch + 1rem)`; }
      });
    };
  }

  // Answers to one question (a sort, a filter, the caller's range) by page offset: the pages shown
  // last, and the page after the one shown, asked for as soon as that page is shown, so paging on
  // waits for drawing only. A new question forgets them all.
  //   fetch(offset) → Promise<answer>
  function pageAnswers(fetch) {
    const KEPT = 4;
    let pages = new Map();  // offset → {answer} once answered, {promise} while asked
    return {
      forget() { pages = new Map(); },
      put(offset, answer) { pages.set(offset, { answer, promise: null }); },
      // The answer at offset if it is here, else a promise of it (one question asked, however often).
      get(offset) {
        const page = pages.get(offset);
        if (page) return page.answer || page.promise;
        return this.ask(offset);
      },
      ask(offset) {
        const kept = pages;
        const page = { answer: null, promise: null };
        page.promise = fetch(offset).then((answer) => { page.answer = answer; return answer; },
          (err) => { if (kept.get(offset) === page) kept.delete(offset); throw err; });
        kept.set(offset, page);
        for (const old of kept.keys()) if (kept.size > KEPT) kept.delete(old);
        return page.promise;
      },
      // The page at offset, unless asked: the worker answers while the page just shown is drawn.
      askAhead(offset) {
        if (!pages.has(offset)) this.ask(offset).catch(() => {});
      },
    };
  }

  // A table over rows the engine holds (any number of them): one page at a time, asked again on
  // sorting (a header click), filtering (the search box) and paging (Previous/Next).
  //   columns: as table()'s; a column's key is the field the engine sorts by
  //   opts: {fetch({offset, limit, sort, desc, filter}) → Promise<{total, rows}>, first: the answer
  //          for the first page unsorted and unfiltered (shown without asking), pageSize, noun, csvName}
  // Returns the table's element; element.reset() shows the first page again (the caller's range
  // changed): `first` when nothing is sorted or filtered and the fetch needs no new answer, else a fetch.
  function pagedTable(columns, opts) {
    const limit = opts.pageSize || 100;
    const noun = opts.noun || 'rows';
    let sort = null, desc = false, filter = '', offset = 0, asked = 0, current = { total: 0, rows: [] };
    // opts.stateKey: the sort and the page live in the URL fragment as "column.a|d.offset" (an empty
    // column: the fetch's own order), so a reload, a shared link or the redraw of a followed log
    // shows the same page. A saved report answers recorded questions only: it opens on page one.
    const keep = opts.stateKey && GCSCOPE.state && !GCSCOPE.staticReport ? opts.stateKey : null;
    const saved = /^(\w*)\.([ad])\.(\d+)$/.exec((keep && GCSCOPE.state.get(keep)) || '');
    if (saved && (saved[1] === '' || columns.some((c) => c.key === saved[1]))) {
      sort = saved[1] || null;
      desc = saved[2] === 'd';
      offset = Number(saved[3]) - Number(saved[3]) % limit;
    }
    // A page turned is written lazily (a reader pages quickly); a sort or a filter at once.
    const remember = (lazy) => {
      if (keep) GCSCOPE.state.set(keep, sort === null && offset === 0 ? null : `${sort || ''}.${desc ? 'd' : 'a'}.${offset}`, { lazy });
    };
    const wrap = el('div', { class: 'gs-table gs-paged' });
    const caption = el('span', { class: 'gs-table-caption' });
    const count = el('span', { class: 'gs-table-count' });
    const status = el('span', { class: 'muted gs-table-status' });
    const input = el('input', { type: 'search', placeholder: 'Filter…', 'aria-label': 'Filter rows' });
    const prev = el('button', { type: 'button', class: 'gs-small gs-prev', text: 'Previous' });
    const next = el('button', { type: 'button', class: 'gs-small gs-next', text: 'Next' });
    const csv = el('button', { type: 'button', class: 'gs-small', text: 'CSV', title: 'Download this page as CSV' });
    const headRow = el('tr');
    const tbody = el('tbody');
    const gap = () => el('tr', { class: 'gs-gap', 'aria-hidden': 'true', hidden: true }, el('td', { colspan: String(columns.length) }));
    const gapAbove = gap(), gapBelow = gap();
    const headCells = [];
    columns.forEach((c) => {
      const button = el('button', { type: 'button', class: 'gs-sort', text: c.label || c.key, title: c.title || 'Sort by this column' });
      button.addEventListener('click', () => {
        if (sort === c.key) desc = !desc;
        else { sort = c.key; desc = !!c.numeric; }
        offset = 0;
        load();
      });
      headCells.push(el('th', { scope: 'col', class: c.numeric ? 'num' : '' }, button));
      headRow.appendChild(headCells[headCells.length - 1]);
    });
    let typing = null;
    input.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => { filter = input.value; offset = 0; load(); }, 150);
    });
    prev.addEventListener('click', () => { offset = Math.max(0, offset - limit); load(true); });
    next.addEventListener('click', () => { offset += limit; load(true); });
    csv.addEventListener('click', () => {
      const lines = [columns.map((c) => csvCell(c.label || c.key)).join(',')];
      for (const r of current.rows) lines.push(columns.map((c) => csvCell(r[c.key])).join(','));
      download(opts.csvName || 'table.csv', 'text/csv', lines.join('\n') + '\n');
    });
    const grid = el('table', {}, el('thead', {}, headRow, gapAbove), tbody, el('tfoot', {}, gapBelow));
    const scroller = el('div', { class: 'gs-table-scroll', tabindex: '0', role: 'region', 'aria-label': opts.csvName || noun }, grid);
    wrap.append(el('div', { class: 'gs-table-tools' }, caption, input, count, prev, next, csv, status), scroller);

    const content = (r, c) => {
      const v = r[c.key];
      return c.format ? c.format(v === undefined ? null : v, r) : (c.numeric ? fmt.num(v) : v);
    };
    const answers = pageAnswers((at) => opts.fetch({ offset: at, limit, sort, desc, filter }));
    const fill = rowWriter(tbody, columns, content);
    const widen = growingWidths(headCells, columns, content);
    // Screen readers hear each drawn row's place in the page (aria-rowindex; the header is row 1).
    const drawPage = rowWindow(scroller, tbody, gapAbove, gapBelow, (slice, first) => {
      widen(slice);
      fill(slice);
      Array.prototype.forEach.call(tbody.children, (tr, i) => tr.setAttribute('aria-rowindex', String(first + i + 2)));
    });

    function show(answer) {
      if (answer.rows.length > limit) answer = Object.assign({}, answer, { rows: answer.rows.slice(0, limit) });
      current = answer;
      grid.setAttribute('aria-rowcount', String(answer.rows.length + 1));
      drawPage(answer.rows);
      headRow.querySelectorAll('th').forEach((th, i) => {
        const on = columns[i].key === sort;
        th.classList.toggle('sorted', on);
        th.dataset.dir = on ? (desc ? 'desc' : 'asc') : '';
        th.setAttribute('aria-sort', on ? (desc ? 'descending' : 'ascending') : 'none');
      });
      caption.textContent = fmt.num(answer.total) + ' ' + noun;
      count.textContent = answer.total ? `${fmt.num(offset + 1)}–${fmt.num(offset + answer.rows.length)} of ${fmt.num(answer.total)}` : `0 ${noun}`;
      prev.disabled = offset === 0;
      next.disabled = offset + answer.rows.length >= answer.total;
    }
    // A page turn keeps the question's answers; anything else (sort, filter, reset) is a new question.
    async function load(turning) {
      const my = ++asked;
      status.textContent = '';
      remember(!!turning);
      if (!turning) answers.forget();
      try {
        const got = answers.get(offset);
        const answer = got instanceof Promise ? await got : got;
        if (my === asked) shown(answer);
      } catch (err) {
        if (my === asked) status.textContent = err.message;
      }
    }
    function shown(answer) {
      show(answer);
      if (offset + answer.rows.length < answer.total) answers.askAhead(offset + limit);
    }
    // The first answer, as pages: it may hold more rows than one.
    function showFirst() {
      answers.forget();
      for (let at = 0; at < opts.first.rows.length; at += limit) {
        answers.put(at, Object.assign({}, opts.first, { rows: opts.first.rows.slice(at, at + limit) }));
      }
      shown(answers.get(0));
    }
    wrap.reset = (useFirst) => {
      offset = 0;
      if (useFirst && opts.first && sort === null && !filter) {
        ++asked;
        showFirst();
      } else load();
    };
    if (opts.first && sort === null && offset === 0) showFirst();
    else load();
    return wrap;
  }

  GCSCOPE.ui = { el, fmt, table, pagedTable, download, copyBlock, kpis, section, reportLabel, otherReports, compareWithEngine, comparePicker, showComparison, signedPercent, svg };
})(typeof window !== 'undefined' ? window : globalThis);
