// Ruby heap dump view (ObjectSpace.dump_all): summaries as sortable/filterable tables, an icicle of
// retained size along the dominator tree (canvas), path to a GC root for a selected object, and the
// diff of 2-3 dumps. Every string from the dump (class names, file names, values) is put in the page
// as text only.
'use strict';
(function () {
  const { el, fmt, table, kpis, section } = GCSCOPE.ui;

  const ROW_H = 18;
  const MAX_ROWS = 40;

  function objectLabel(o) {
    const parts = [o.class || '?', o.address || ''];
    if (o.name) parts.push('«' + o.name + '»');
    if (o.file) parts.push(o.file + (o.line ? ':' + o.line : ''));
    return parts.filter(Boolean).join('  ');
  }

  // The path of icicle node i from the report's path forest, object first (like path_to_root).
  function forestPath(report, i) {
    const t = report.dominator_tree, p = report.path_tree;
    if (!t || !p || !t.path || i < 0 || t.path[i] < 0) return null;
    const steps = [];
    let root = null;
    for (let row = t.path[i]; row >= 0 && steps.length < 1000; row = p.parent[row]) {
      steps.push({ address: p.address[row], class: p.class[row] });
      root = p.root[row];
    }
    return { path_to_root: steps, root_category: root };
  }

  // The path from a GC root down to the object (the report lists it object-first).
  function pathView(entry) {
    if (!entry || !entry.path_to_root || !entry.path_to_root.length) {
      return el('p', { class: 'muted', text: 'No path to a root is stored for this object (paths are kept for the top retainers).' });
    }
    const steps = entry.path_to_root.slice().reverse();
    return el('ol', { class: 'heap-path' },
      el('li', { class: 'muted', text: 'GC root: ' + (entry.root_category || '?') }),
      steps.map((o) => el('li', { text: objectLabel(o) + (o.bytes !== undefined ? ' — ' + fmt.bytes(o.bytes) : '') })));
  }

  function parentsView(entry) {
    if (!entry || !entry.parents) return null;
    return el('div', {},
      el('p', { text: `Referenced by ${fmt.num(entry.parent_count)} object(s)` + (entry.parents.length < entry.parent_count ? ` (first ${entry.parents.length} shown)` : '') + ':' }),
      el('ul', {}, entry.parents.map((p) => el('li', { text: objectLabel(p) }))));
  }

  // Icicle of the bounded dominator tree: columnar {address, class, retained, self, parent, location}.
  function icicle(report, onSelect) {
    const t = report.dominator_tree;
    const n = t.nodes;
    const children = Array.from({ length: n }, () => []);
    for (let i = 1; i < n; i++) if (t.parent[i] >= 0) children[t.parent[i]].push(i);
    let focus = 0;
    let boxes = [];
    const canvas = el('canvas', { class: 'heap-icicle', height: ROW_H * 12, style: { display: 'block', maxWidth: '100%', cursor: 'pointer' }, attrs: { 'aria-label': 'Icicle of retained size by dominator' } });
    const tip = el('div', { class: 'heap-tip muted', text: 'Hover a box for details; click to zoom into it and show its path.' });
    const crumbs = el('div', { class: 'heap-crumbs' });
    const reset = el('button', { type: 'button', class: 'gs-small', text: 'Reset zoom', on: { click: () => { focus = 0; draw(); onSelect(null); } } });

    function label(i) { return i === 0 ? '(GC roots)' : t.class[i] + ' ' + t.address[i]; }
    function draw() {
      const width = Math.max(300, (canvas.parentNode && canvas.parentNode.clientWidth) || 900);
      boxes = [];
      let depth = 0;
      const stack = [[focus, 0, width, 0]];
      while (stack.length) {
        const [i, x, w, d] = stack.pop();
        if (w < 0.5 || d >= MAX_ROWS) continue;
        boxes.push({ i, x, w, d });
        depth = Math.max(depth, d + 1);
        let cx = x;
        const total = t.retained[i] || 1;
        for (const c of children[i]) {
          const cw = (w * t.retained[c]) / total;
          stack.push([c, cx, cw, d + 1]);
          cx += cw;
        }
      }
      canvas.width = width;
      canvas.height = Math.max(1, depth) * ROW_H;
      const g = canvas.getContext('2d');
      g.font = '11px sans-serif';
      g.textBaseline = 'middle';
      for (const b of boxes) {
        const hue = (Array.from(t.class[b.i]).reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7));
        g.fillStyle = b.i === 0 ? '#bbb' : `hsl(${hue}, 55%, 72%)`;
        g.fillRect(b.x, b.d * ROW_H, Math.max(b.w - 1, 0.5), ROW_H - 1);
        if (b.w > 40) {
          g.fillStyle = '#111';
          const text = `${label(b.i)} (${fmt.bytes(t.retained[b.i])})`;
          let s = text;
          while (s.length > 3 && g.measureText(s).width > b.w - 6) s = s.slice(0, Math.max(3, Math.floor(s.length * 0.8)));
          g.fillText(s === text ? s : s + '…', b.x + 3, b.d * ROW_H + ROW_H / 2);
        }
      }
      crumbs.textContent = '';
      const chain = [];
      for (let i = focus; i >= 0; i = t.parent[i]) { chain.unshift(i); if (i === 0) break; }
      chain.forEach((i, k) => {
        if (k) crumbs.appendChild(document.createTextNode(' › '));
        crumbs.appendChild(el('a', { href: '#', text: label(i), on: { click: (e) => { e.preventDefault(); focus = i; draw(); onSelect(i ? t.address[i] : null); } } }));
      });
    }
    function hit(ev) {
      const r = canvas.getBoundingClientRect();
      const x = (ev.clientX - r.left) * (canvas.width / r.width), y = (ev.clientY - r.top) * (canvas.height / r.height);
      const d = Math.floor(y / ROW_H);
      return boxes.find((b) => b.d === d && x >= b.x && x < b.x + b.w);
    }
    canvas.addEventListener('mousemove', (ev) => {
      const b = hit(ev);
      if (!b) return;
      const i = b.i;
      tip.textContent = `${label(i)} — retained ${fmt.bytes(t.retained[i])}, self ${fmt.bytes(t.self[i])}` + (t.location[i] ? ' — ' + t.location[i] : '');
    });
    canvas.addEventListener('click', (ev) => {
      const b = hit(ev);
      if (!b) return;
      focus = b.i;
      draw();
      onSelect(b.i ? t.address[b.i] : null);
    });
    // Exports of the current zoom: the canvas as PNG, and the same boxes again as SVG (text as XML text).
    function toSvg() {
      const svg = GCSCOPE.ui.svg;
      const doc = svg.create(canvas.width, canvas.height);
      for (const b of boxes) {
        const hue = (Array.from(t.class[b.i]).reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 7));
        const cell = svg.el(doc, 'g', { class: 'heap-box' });
        cell.appendChild(svg.el(doc, 'title', {}, `${label(b.i)} — retained ${fmt.bytes(t.retained[b.i])}, self ${fmt.bytes(t.self[b.i])}`));
        cell.appendChild(svg.el(doc, 'rect', { x: +b.x.toFixed(2), y: b.d * ROW_H, width: +Math.max(b.w - 1, 0.5).toFixed(2), height: ROW_H - 1,
          fill: b.i === 0 ? '#bbb' : `hsl(${hue}, 55%, 72%)` }));
        const room = Math.floor((b.w - 6) / 6.2);
        if (b.w > 40 && room > 2) {
          const text = `${label(b.i)} (${fmt.bytes(t.retained[b.i])})`;
          cell.appendChild(svg.el(doc, 'text', { x: +(b.x + 3).toFixed(2), y: b.d * ROW_H + ROW_H / 2 + 4 }, text.length <= room ? text : text.slice(0, room - 1) + '…'));
        }
        doc.documentElement.appendChild(cell);
      }
      return svg.text(doc);
    }
    const png = el('button', { type: 'button', class: 'gs-small heap-png', text: 'PNG', title: 'Download this view of the icicle as PNG',
      on: { click: () => canvas.toBlob((b) => GCSCOPE.ui.download('heap-icicle.png', 'image/png', b)) } });
    const svgButton = el('button', { type: 'button', class: 'gs-small heap-svg', text: 'SVG', title: 'Download this view of the icicle as SVG',
      on: { click: () => GCSCOPE.ui.download('heap-icicle.svg', 'image/svg+xml', toSvg()) } });
    const wrap = el('div', { class: 'heap-icicle-wrap' }, el('div', {}, reset, ' ', png, ' ', svgButton, ' ', crumbs), canvas, tip);
    wrap.toSvg = toSvg;
    requestAnimationFrame(draw);
    wrap.redraw = draw;
    // Deep-link state hook: zoom to the box of an address (or the whole tree for null).
    wrap.focusAddress = (address) => {
      const i = address ? t.address.indexOf(address) : 0;
      focus = i > 0 ? i : 0;
      if (canvas.isConnected) draw();
    };
    return wrap;
  }

  function render(container, report, ctx) {
    const r = report;
    const items = [
      { label: 'objects', value: fmt.num(r.objects) },
      { label: 'memsize', value: fmt.bytes(r.bytes) },
      { label: 'ROOT records', value: fmt.num(r.roots) },
    ];
    if (r.reachable) items.push({ label: 'reachable', value: fmt.bytes(r.reachable.bytes) });
    if (r.unreachable) items.push({ label: 'unreachable (garbage not yet swept)', value: `${fmt.num(r.unreachable.objects)} / ${fmt.bytes(r.unreachable.bytes)}` });
    if (r.free_slots) items.push({ label: 'free slots (NONE)', value: fmt.num(r.free_slots) });
    items.push({ label: 'recovered lines', value: fmt.num(r.recovered_lines), severity: r.recovered_lines ? 'warn' : undefined,
      hint: 'Lines Ruby wrote with unescaped file/class names, read anyway' });
    if (r.unparseable_lines) items.push({ label: 'unreadable lines', value: fmt.num(r.unparseable_lines), severity: 'bad' });
    if (r.ruby_version) items.push({ label: 'Ruby', value: r.ruby_version.version });
    container.appendChild(kpis(items));
    if (r.notes && r.notes.length) container.appendChild(el('ul', { class: 'heap-notes' }, r.notes.map((n) => el('li', { text: n }))));

    const dumps = r.dumps || [];
    if (dumps.length > 1) {
      const box = section('Dumps (' + dumps.length + ')', table([
        { key: 'path', label: 'Dump' },
        { key: 'objects', label: 'Objects', numeric: true },
        { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
        { key: 'roots', label: 'ROOTs', numeric: true },
        { key: 'max_generation', label: 'Max generation', numeric: true },
        { key: 'recovered_lines', label: 'Recovered lines', numeric: true },
      ], dumps, { filter: false, csvName: 'heap-dumps.csv' }));
      if (!r.diff && ctx && ctx.files && GCSCOPE.startJob) {
        box.appendChild(el('button', { type: 'button', class: 'heap-diff-button', text: 'Diff these dumps (objects allocated after the first, alive in the last)',
          on: { click: () => GCSCOPE.startJob(ctx.files, { heap_diff: true }) } }));
      }
      container.appendChild(box);
    }

    if (r.diff) {
      const d = r.diff;
      container.appendChild(section('Diff: new objects still alive',
        kpis([{ label: 'new objects', value: fmt.num(d.new_objects) }, { label: 'new bytes', value: fmt.bytes(d.new_bytes) },
          { label: 'dumps', value: String(d.dumps) }, { label: 'identity', value: d.mode }]),
        el('p', { class: 'muted', text: d.rule }),
        table([
          { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'type', label: 'Type' },
          { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
        ], d.by_location, { csvName: 'heap-diff-locations.csv', sort: { key: 'count', desc: true }, caption: 'By allocation site' }),
        table([
          { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
        ], d.by_class, { csvName: 'heap-diff-classes.csv', sort: { key: 'count', desc: true }, caption: 'By class' })));
    }

    // Retention.
    const byAddress = new Map((r.top_retainers || []).map((t) => [t.address, t]));
    const detail = el('div', { class: 'heap-detail' });
    function select(address, record = true) {
      // Deep link (GCSCOPE.state 'heap.obj'): the selected object, restored on reload/shared link.
      if (record && GCSCOPE.state) GCSCOPE.state.set('heap.obj', address || null, { push: true });
      detail.textContent = '';
      if (!address) return;
      const entry = byAddress.get(address);
      const tree = r.dominator_tree;
      let i = tree ? tree.address.indexOf(address) : -1;
      detail.appendChild(el('h4', { text: entry ? objectLabel(entry) : (i >= 0 ? tree.class[i] + ' ' + address : address) }));
      if (i >= 0) detail.appendChild(el('p', { text: `retained ${fmt.bytes(tree.retained[i])}, self ${fmt.bytes(tree.self[i])}` + (tree.location[i] ? ', allocated at ' + tree.location[i] : '') }));
      detail.appendChild(el('h5', { text: 'Path to a GC root (shortest)' }));
      detail.appendChild(pathView(entry && entry.path_to_root ? entry : forestPath(r, i)));
      if (entry) detail.appendChild(parentsView(entry));
      if (i > 0) {
        const chain = [];
        for (let k = tree.parent[i]; k > 0; k = tree.parent[k]) chain.push(tree.class[k] + ' ' + tree.address[k]);
        detail.appendChild(el('h5', { text: 'Dominators (who must be freed first)' }));
        detail.appendChild(chain.length ? el('ol', {}, chain.map((c) => el('li', { text: c }))) : el('p', { class: 'muted', text: 'Only the GC roots.' }));
      }
    }
    if (r.dominators && r.dominators.available) {
      const ic = icicle(r, select);
      container.appendChild(section('Retained size by dominator (icicle)', ic, detail));
      // ---- Deep-link state hook: the selected object from the fragment (reload, back/forward).
      if (GCSCOPE.state) {
        const known = (a) => a && (byAddress.has(a) || (r.dominator_tree && r.dominator_tree.address.includes(a))) ? a : null;
        const restore = (v) => { const a = known(v); ic.focusAddress(a); select(a, false); };
        if (known(GCSCOPE.state.get('heap.obj'))) restore(GCSCOPE.state.get('heap.obj'));
        GCSCOPE.state.watch('heap.obj', detail, restore);
      }
      container.appendChild(section('Top retainers', table([
        { key: 'class', label: 'Class' }, { key: 'address', label: 'Address' },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
        { key: 'bytes', label: 'Self', numeric: true, format: fmt.bytes },
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true },
        { key: 'parent_count', label: 'Referrers', numeric: true, format: (v, row) => fmt.num(v) + (row.held_by_root ? ' + root ' + row.held_by_root : '') },
      ], r.top_retainers, { csvName: 'heap-top-retainers.csv', sort: { key: 'retained_bytes', desc: true },
        onRowClick: (row) => { select(row.address); detail.scrollIntoView({ block: 'nearest' }); } })));
      container.appendChild(section('Retained by class', table([
        { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
      ], r.retained_by_class, { csvName: 'heap-retained-classes.csv', sort: { key: 'retained_bytes', desc: true } })));
      container.appendChild(section('Retained by allocation site', table([
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'count', label: 'Objects', numeric: true },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
      ], r.retained_by_location, { csvName: 'heap-retained-locations.csv', sort: { key: 'retained_bytes', desc: true } })));
    } else if (r.dominators) {
      container.appendChild(el('p', { class: 'muted', text: 'No dominator tree: ' + r.dominators.reason }));
    }

    const typeRows = Object.entries(r.by_type || {}).map(([type, v]) => ({ type, count: v.count, bytes: v.bytes }));
    container.appendChild(section('By type', table([
      { key: 'type', label: 'Type' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
    ], typeRows, { csvName: 'heap-types.csv', sort: { key: 'bytes', desc: true } })));
    container.appendChild(section('By class', table([
      { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
    ], r.by_class || [], { csvName: 'heap-classes.csv', sort: { key: 'bytes', desc: true } })));
    container.appendChild(section('By allocation site', table([
      { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'count', label: 'Objects', numeric: true },
      { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
    ], r.by_location || [], { csvName: 'heap-locations.csv', sort: { key: 'bytes', desc: true } })));
    container.appendChild(section('By GC generation', table([
      { key: 'generation', label: 'Generation (GC count at allocation)', numeric: true, format: (v) => (v === null ? 'untracked' : String(v)) },
      { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
    ], r.by_generation || [], { filter: false, csvName: 'heap-generations.csv', sort: { key: 'generation' } })));
    container.appendChild(section('Duplicate strings', table([
      { key: 'value', label: 'Value' }, { key: 'count', label: 'Copies', numeric: true }, { key: 'bytesize', label: 'Bytesize', numeric: true },
      { key: 'wasted_bytes', label: 'Wasted (copies − 1) × bytesize', numeric: true, format: fmt.bytes },
    ], r.duplicate_strings || [], { csvName: 'heap-duplicate-strings.csv', sort: { key: 'wasted_bytes', desc: true } })));
  }

  GCSCOPE.registerView('ruby-heap-dump', { title: 'Ruby heap dump', render });
})();
