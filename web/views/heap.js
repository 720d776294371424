// Ruby heap dump view (ObjectSpace.dump_all). With 2-3 dumps it opens on the diff (new objects still
// alive, by allocation site and class) and the last dump's summary is one click away. The summary:
// tables, an icicle of retained size along the dominator tree (the shared flame graph) and, for any object clicked
// (table row, icicle box, path step, referrer) or looked up by address, its path to a GC root, its
// dominator subtree, its dominators and referrers, asked from the engine (heap.* queries). Every
// figure comes from the report or the engine; every string from the dump is put in the page as text.
'use strict';
(function () {
  const { el, fmt, table, kpis, section } = GCSCOPE.ui;

  const ICICLE_NODES = 2000;   // nodes of the dominator subtree drawn when zoomed into an object
  const DETAIL_NODES = 60;     // nodes of the subtree table under a selected object
  const PAGE = 50;             // referrers / references per page

  // How an object is named: classes and modules by what they are ("Class Object"); the engine's
  // label, or the class for reports written before labels existed.
  const nameOf = (o) => o.label || o.class || '?';
  function objectLabel(o) {
    const parts = [nameOf(o), o.address || ''];
    if (o.file) parts.push(o.file + (o.line ? ':' + o.line : ''));
    return parts.filter(Boolean).join('  ');
  }

  // A link that selects an object (path steps, referrers, subtree rows).
  function objectLink(o, select) {
    if (!o.address) return el('span', { text: nameOf(o) });
    return el('a', { href: '#', class: 'heap-obj', dataset: { address: o.address }, text: objectLabel(o),
      on: { click: (e) => { e.preventDefault(); select(o.address); } } });
  }

  // Icicle of the dominator tree: the product's flame graph (web/lib/flamegraph.js) over the engine's
  // stack model of the report's bounded tree (dominator_stacks: frame i is dominator_tree node i,
  // node 0 the GC roots, weights retained bytes), so search, keyboard, the engine's transforms and
  // the exports are those of every stack source. Selecting an object outside the bounded tree draws
  // its own dominator subtree (heap.subtree's stacks) until the whole heap is asked for again.
  // onSelect(address) is called for a clicked box (null for the GC roots).
  function icicle(report, ctx, onSelect) {
    const FG = GCSCOPE.flamegraph;
    const base = { address: report.dominator_tree.address, label: report.dominator_tree.label || report.dominator_tree.class,
      parent: report.dominator_tree.parent, ancestors: null };
    const crumbs = el('div', { class: 'heap-crumbs' });
    const box = el('div', { class: 'heap-flame' });
    const view = { transforms: [] };
    const exportsBar = el('div', { class: 'heap-exports' }, ...FG.downloads(ctx.query, () => view.transforms, 'heap-retained'));
    const wrap = el('div', { class: 'heap-icicle-wrap' }, exportsBar, crumbs, box);
    let fg = null, tree = null, fromGraph = false, asked = 0;

    // The dominator chain of node i of the drawn tree, GC roots first.
    function renderCrumbs(i) {
      const chain = [];
      for (let k = i; k >= 0; k = tree.parent[k]) chain.unshift({ address: tree.address[k], text: tree.address[k] ? tree.label[k] + ' ' + tree.address[k] : '(GC roots)' });
      const up = (tree.ancestors || []).map((a) => ({ address: a.address, text: a.address ? a.label + ' ' + a.address : '(GC roots)' }));
      crumbs.replaceChildren(...up.concat(chain).flatMap((c, k) => [k ? ' › ' : '',
        el('a', { href: '#', text: c.text, on: { click: (e) => { e.preventDefault(); onSelect(c.address); } } })]));
    }
    function draw(t, profile, engine) {
      if (fg) fg.destroy();
      tree = t;
      fg = FG.create(box, profile, {
        mode: 'left-heavy', modes: ['left-heavy', 'sandwich'], treeLabel: 'Icicle', treeCaption: 'Icicle: retained size along the dominator tree, biggest first',
        height: 360, fileName: 'heap-icicle', stateKey: engine ? 'heap.flame' : undefined, query: engine ? ctx.query : undefined, transforms: engine,
        onTransforms: (list) => { view.transforms = list; },
        onSelect: (f) => {
          if (f < 0 || f >= tree.address.length) return;
          fromGraph = true;
          onSelect(tree.address[f]);
          fromGraph = false;
        },
      });
      exportsBar.hidden = !engine;
      renderCrumbs(0);
    }
    draw(base, FG.fromTree(report.dominator_stacks, 'heap'), true);
    wrap.toSvg = () => fg.toSvg();
    wrap.redraw = () => {};  // the flame graph redraws itself when its box is resized (shown)
    // Zoom to an object (null: the whole heap): within the drawn tree when it is there, else its
    // subtree from the engine.
    wrap.focusAddress = (address) => {
      const token = ++asked;
      if (!address) {
        if (tree !== base) draw(base, FG.fromTree(report.dominator_stacks, 'heap'), true);
        else fg.resetZoom();
        renderCrumbs(0);
        return;
      }
      const i = tree.address.indexOf(address);
      if (i >= 0) {
        if (!fromGraph) fg.zoomToFrame(i);
        renderCrumbs(i);
        return;
      }
      ctx.query('heap.subtree', { address, max_nodes: ICICLE_NODES }).then((a) => {
        if (token !== asked) return;
        draw({ address: a.address, label: a.label, parent: a.parent, ancestors: a.ancestors }, FG.fromTree(a.stacks, address), false);
      }, () => {});
    };
    return wrap;
  }

  // ---- The selected object ----------------------------------------------------------------

  // The report's own knowledge of an object, for a saved report whose engine cannot be asked.
  function fromReport(report, address) {
    const t = report.dominator_tree, p = report.path_tree;
    const entry = (report.top_retainers || []).find((x) => x.address === address);
    const i = t ? t.address.indexOf(address) : -1;
    let path = entry && entry.path_to_root ? { path_to_root: entry.path_to_root, root_category: entry.root_category } : null;
    if (!path && p && i >= 0 && t.path && t.path[i] >= 0) {
      const steps = [];
      let root = null;
      for (let row = t.path[i]; row >= 0 && steps.length < 1000; row = p.parent[row]) {
        steps.push({ address: p.address[row], label: (p.label || p.class)[row] });
        root = p.root[row];
      }
      path = { path_to_root: steps, root_category: root };
    }
    const object = entry || (i > 0 ? { address, label: (t.label || t.class)[i], retained_bytes: t.retained[i], bytes: t.self[i] } : null);
    const dominators = [];
    if (i > 0) for (let k = t.parent[i]; k > 0; k = t.parent[k]) dominators.push({ address: t.address[k], label: (t.label || t.class)[k] });
    return { object, path, dominators, parents: entry ? { total: entry.parent_count, rows: entry.parents } : null };
  }

  function pathList(path, select) {
    if (!path || !path.path_to_root || !path.path_to_root.length) {
      return el('p', { class: 'muted', text: path && path.reachable === false ? 'Not reachable from the GC roots: garbage not yet swept.' : 'No path to a root is known for this object.' });
    }
    const steps = path.path_to_root.slice().reverse();
    const skipped = path.omitted ? [el('li', { class: 'muted', text: `… ${fmt.num(path.omitted)} more step(s) …` })] : [];
    return el('ol', { class: 'heap-path' },
      el('li', { class: 'muted', text: 'GC root: ' + (path.root_category || '?') }), skipped,
      steps.map((o) => el('li', {}, objectLink(o, select), o.bytes !== undefined ? ' — ' + fmt.bytes(o.bytes) : '')));
  }

  // The dominator subtree as an indented table (the engine's preorder; depth from `parent`).
  function subtreeTable(sub, select) {
    const depth = [];
    const rows = [];
    for (let i = 0; i < sub.nodes; i++) {
      depth[i] = sub.parent[i] < 0 ? 0 : depth[sub.parent[i]] + 1;
      rows.push({ object: '\u00a0'.repeat(2 * depth[i]) + sub.label[i], address: sub.address[i], retained: sub.retained[i], self: sub.self[i],
        hidden: sub.hidden[i], location: sub.location[i] });
    }
    return table([
      { key: 'object', label: 'Object' }, { key: 'address', label: 'Address' },
      { key: 'retained', label: 'Retained', numeric: true, format: fmt.bytes }, { key: 'self', label: 'Self', numeric: true, format: fmt.bytes },
      { key: 'hidden', label: 'Smaller ones not listed', numeric: true }, { key: 'location', label: 'Allocated at' },
    ], rows, { filter: false, csvName: 'heap-dominator-subtree.csv', caption: `The ${fmt.num(sub.nodes)} biggest objects it dominates (freeing it frees them)`,
      onRowClick: (row) => select(row.address) });
  }

  // A paged list of objects (referrers, references) from the engine.
  function pagedObjects(ctx, method, address, title, select) {
    const box = el('div', { class: 'heap-' + method.split('.')[1] });
    const list = el('ul');
    const head = el('p');
    const more = el('button', { type: 'button', class: 'gs-small', text: 'Show more', hidden: true });
    let offset = 0;
    const load = () => ctx.query(method, { address, offset, limit: PAGE }).then((a) => {
      head.textContent = `${title}: ${fmt.num(a.total)}`;
      for (const o of a.rows) list.appendChild(el('li', {}, objectLink(o, select), o.retained_bytes !== null && o.retained_bytes !== undefined ? ' — retains ' + fmt.bytes(o.retained_bytes) : ''));
      offset += a.rows.length;
      more.hidden = offset >= a.total;
    }, (e) => { head.textContent = `${title}: ${e.message}`; });
    more.addEventListener('click', load);
    box.append(head, list, more);
    load();
    return box;
  }

  function objectFacts(o) {
    const parts = [];
    if (o.retained_bytes !== null && o.retained_bytes !== undefined) parts.push('retained ' + fmt.bytes(o.retained_bytes));
    else if (o.reachable === false) parts.push('not reachable from the GC roots');
    if (o.bytes !== undefined) parts.push('self ' + fmt.bytes(o.bytes));
    if (o.file) parts.push('allocated at ' + o.file + (o.line ? ':' + o.line : ''));
    if (o.held_by_root) parts.push('held by the root ' + o.held_by_root);
    if (o.dominated_count !== undefined) parts.push(`dominates ${fmt.num(o.dominated_count)} object(s) directly`);
    return parts.join(', ');
  }

  // Everything about one object, asked from the engine; what a saved report cannot answer comes
  // from the report itself.
  function showObject(detail, report, ctx, address, select) {
    detail.textContent = '';
    const head = el('h4', { text: address });
    const facts = el('p', { class: 'heap-facts' });
    const pathBox = el('div', { class: 'heap-path-box' });
    const subBox = el('div', { class: 'heap-subtree' });
    const domBox = el('div', { class: 'heap-dominators' });
    detail.append(head, facts, el('h5', { text: 'Path to a GC root (shortest)' }), pathBox,
      el('h5', { text: 'Dominator subtree' }), subBox, el('h5', { text: 'Dominators (who must be freed first)' }), domBox);
    const known = fromReport(report, address);
    const fallbackNote = (box, e) => box.appendChild(el('p', { class: 'muted', text: e.message }));
    ctx.query('heap.object', { address }).then((o) => {
      head.textContent = objectLabel(o);
      facts.textContent = objectFacts(o);
      detail.append(pagedObjects(ctx, 'heap.parents', address, 'Referenced by', select),
        pagedObjects(ctx, 'heap.references', address, 'References', select));
    }, (e) => {
      if (known.object) { head.textContent = objectLabel(known.object); facts.textContent = objectFacts(known.object); }
      if (known.parents) detail.appendChild(el('div', {}, el('p', { text: `Referenced by ${fmt.num(known.parents.total)} object(s)` }),
        el('ul', {}, known.parents.rows.map((p) => el('li', {}, objectLink(p, select))))));
      if (!known.object) fallbackNote(facts, e);
    });
    ctx.query('heap.path', { address }).then((p) => pathBox.appendChild(pathList(p, select)),
      () => pathBox.appendChild(pathList(known.path, select)));
    ctx.query('heap.subtree', { address, max_nodes: DETAIL_NODES }).then((sub) => {
      subBox.appendChild(subtreeTable(sub, select));
      const doms = sub.ancestors.slice(1).reverse();
      domBox.appendChild(doms.length ? el('ol', {}, doms.map((d) => el('li', {}, objectLink(d, select)))) : el('p', { class: 'muted', text: 'Only the GC roots.' }));
    }, (e) => {
      fallbackNote(subBox, e);
      domBox.appendChild(known.dominators.length ? el('ol', {}, known.dominators.map((d) => el('li', {}, objectLink(d, select)))) : el('p', { class: 'muted', text: 'Not known.' }));
    });
  }

  // ---- Sections ---------------------------------------------------------------------------

  function retentionSection(r, ctx) {
    const detail = el('div', { class: 'heap-detail' });
    let ic = null;
    function select(address, record = true) {
      // Deep link (GCSCOPE.state 'heap.obj'): the selected object, restored on reload/shared link.
      if (record && GCSCOPE.state) GCSCOPE.state.set('heap.obj', address || null, { push: true });
      if (ic) ic.focusAddress(address);
      if (!address) { detail.textContent = ''; return; }
      showObject(detail, r, ctx, address, select);
      if (record) detail.scrollIntoView({ block: 'nearest' });
    }
    ic = icicle(r, ctx, select);
    const find = el('input', { type: 'text', class: 'heap-find', placeholder: '0x7f…', size: 18, 'aria-label': 'object address' });
    const findForm = el('form', { class: 'heap-find-form', on: { submit: (e) => { e.preventDefault(); if (find.value.trim()) select(find.value.trim()); } } },
      el('label', {}, 'Any object by address: ', find), ' ', el('button', { type: 'submit', class: 'gs-small', text: 'Show' }));
    const box = section('Retained size by dominator (icicle)', ic, findForm, detail);
    if (GCSCOPE.state) {
      const restore = (v) => select(v || null, false);
      if (GCSCOPE.state.get('heap.obj')) restore(GCSCOPE.state.get('heap.obj'));
      GCSCOPE.state.watch('heap.obj', detail, restore);
    }
    return { box, select, icicle: ic };
  }

  function summaryKpis(r) {
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
    return kpis(items);
  }

  function dumpsTable(dumps) {
    return table([
      { key: 'path', label: 'Dump' },
      { key: 'objects', label: 'Objects', numeric: true },
      { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      { key: 'roots', label: 'ROOTs', numeric: true },
      { key: 'max_generation', label: 'Max generation', numeric: true },
      { key: 'recovered_lines', label: 'Recovered lines', numeric: true },
    ], dumps, { filter: false, csvName: 'heap-dumps.csv', caption: 'Dumps, oldest first' });
  }

  function diffSection(r) {
    const d = r.diff;
    return section(`New objects still alive (${d.dumps} dumps compared)`,
      kpis([{ label: 'new objects', value: fmt.num(d.new_objects) }, { label: 'new bytes', value: fmt.bytes(d.new_bytes) },
        { label: 'dumps', value: String(d.dumps) }, { label: 'identity', value: d.mode }]),
      el('p', { class: 'muted', text: d.rule }),
      table([
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'type', label: 'Type' },
        { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], d.by_location, { csvName: 'heap-diff-locations.csv', sort: { key: 'count', desc: true }, caption: 'By allocation site' }),
      table([
        { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], d.by_class, { csvName: 'heap-diff-classes.csv', sort: { key: 'count', desc: true }, caption: 'By class' }),
      dumpsTable(r.dumps || []));
  }

  function retainerTables(r, select) {
    return [
      section('Top retainers', table([
        { key: 'label', label: 'Object', format: (v, row) => nameOf(row) }, { key: 'address', label: 'Address' },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
        { key: 'bytes', label: 'Self', numeric: true, format: fmt.bytes },
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true },
        { key: 'parent_count', label: 'Referrers', numeric: true, format: (v, row) => fmt.num(v) + (row.held_by_root ? ' + root ' + row.held_by_root : '') },
      ], (r.top_retainers || []).map((t) => Object.assign({}, t, { label: nameOf(t) })), { csvName: 'heap-top-retainers.csv', sort: { key: 'retained_bytes', desc: true },
        onRowClick: (row) => select(row.address) })),
      section('Retained by class', table([
        { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
      ], r.retained_by_class, { csvName: 'heap-retained-classes.csv', sort: { key: 'retained_bytes', desc: true } })),
      section('Retained by allocation site', table([
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'count', label: 'Objects', numeric: true },
        { key: 'retained_bytes', label: 'Retained', numeric: true, format: fmt.bytes },
      ], r.retained_by_location, { csvName: 'heap-retained-locations.csv', sort: { key: 'retained_bytes', desc: true } })),
    ];
  }

  function summaryTables(r) {
    const typeRows = Object.entries(r.by_type || {}).map(([type, v]) => ({ type, count: v.count, bytes: v.bytes }));
    return [
      section('By type', table([
        { key: 'type', label: 'Type' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], typeRows, { csvName: 'heap-types.csv', sort: { key: 'bytes', desc: true } })),
      section('By class', table([
        { key: 'class', label: 'Class' }, { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], r.by_class || [], { csvName: 'heap-classes.csv', sort: { key: 'bytes', desc: true } })),
      section('By allocation site', table([
        { key: 'file', label: 'File' }, { key: 'line', label: 'Line', numeric: true }, { key: 'count', label: 'Objects', numeric: true },
        { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], r.by_location || [], { csvName: 'heap-locations.csv', sort: { key: 'bytes', desc: true } })),
      section('By GC generation', table([
        { key: 'generation', label: 'Generation (GC count at allocation)', numeric: true, format: (v) => (v === null ? 'untracked' : String(v)) },
        { key: 'count', label: 'Objects', numeric: true }, { key: 'bytes', label: 'Memsize', numeric: true, format: fmt.bytes },
      ], r.by_generation || [], { filter: false, csvName: 'heap-generations.csv', sort: { key: 'generation' } })),
      section('Duplicate strings', table([
        { key: 'value', label: 'Value' }, { key: 'count', label: 'Copies', numeric: true }, { key: 'bytesize', label: 'Bytesize', numeric: true },
        { key: 'wasted_bytes', label: 'Wasted (copies − 1) × bytesize', numeric: true, format: fmt.bytes },
      ], r.duplicate_strings || [], { csvName: 'heap-duplicate-strings.csv', sort: { key: 'wasted_bytes', desc: true } })),
    ];
  }

  // One dump's summary (the last one's, with several): figures, retention, tables.
  function renderSummary(container, r, ctx) {
    container.appendChild(summaryKpis(r));
    if (r.notes && r.notes.length) container.appendChild(el('ul', { class: 'heap-notes' }, r.notes.map((n) => el('li', { text: n }))));
    if (!r.diff && (r.dumps || []).length > 1) container.appendChild(section('Dumps (' + r.dumps.length + ')', dumpsTable(r.dumps)));
    let retention = null;
    if (r.dominators && r.dominators.available) {
      retention = retentionSection(r, ctx);
      container.appendChild(retention.box);
      for (const s of retainerTables(r, (a) => retention.select(a))) container.appendChild(s);
    } else if (r.dominators) {
      container.appendChild(el('p', { class: 'muted', text: 'No dominator tree: ' + r.dominators.reason }));
    }
    for (const s of summaryTables(r)) container.appendChild(s);
    return retention;
  }

  function render(container, report, ctx) {
    const r = report;
    if (!r.diff) { renderSummary(container, r, ctx); return; }
    // Several dumps: the diff is the answer; the last dump's summary is one click away.
    container.appendChild(diffSection(r));
    const last = el('details', { class: 'gs-section heap-last-dump' },
      el('summary', { text: `The last dump (${r.diff.last || ''}): summary, what retains memory, tables` }));
    container.appendChild(last);
    const retention = renderSummary(last, r, ctx);
    last.addEventListener('toggle', () => { if (last.open && retention) retention.icicle.redraw(); });
    if (GCSCOPE.state && GCSCOPE.state.get('heap.obj')) last.open = true;
  }

  GCSCOPE.registerView('ruby-heap-dump', { render });
})();
