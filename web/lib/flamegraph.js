// GCSCOPE.flamegraph: the product's one flame graph (stackprof profiles, folded stacks, perf script,
// bpftrace, rbkit). Canvas rendering with culling, so it stays interactive at 10^6 samples. It
// draws what it is given and what the engine answers (wasm/profile/stack_queries.h): transforms,
// the sandwich, search shares and the differential tree are computed in C++, never here.
//
// ---- Input model (independent of any profiler) -------------------------------------------------
//   profile = {
//     frames:  [{name, file?, line?}],        // the function table; cells show name, hover shows file:line
//     stacks:  {parent: [...], frame: [...]}, // a stack tree: node i is frames[frame[i]] called from node
//                                             //   parent[i] (-1 = a root); parent[i] < i for every node
//     samples: {stack: [...], weight: [...]}, // in time order: the leaf node of each sample (-1 = empty
//                                             //   stack) and its weight (a count, bytes, ...)
//     durations?: [...],                      // optional, per sample: how long it stands for (the time-order
//                                             //   view's x axis; without it the weights are used)
//     unit: 'samples' | 'allocations' | 'µs' | ...,   // what a weight counts (tooltips, legends)
//     name?: string,
//   }
//   GCSCOPE.flamegraph.fromTree(answer) turns the engine's stacks.tree answer into one;
//   fromStacks(frames, listOfStacks, weights, unit) builds one from root..leaf arrays of frame indices.
//   downloads(query, transformsOf, base) gives the export buttons (speedscope, pprof, collapsed) of
//   the profile as transformed, for a view to place.
//   comparison(out, compareAnswer, {labels, unit, cls, name}) draws a profile compare: the
//   differential graph and the per-frame delta table.
//
// ---- Use --------------------------------------------------------------------------------------
//   const fg = GCSCOPE.flamegraph.create(container, profile, {
//     mode: 'left-heavy' | 'time-order' | 'sandwich',   // initial view (default left-heavy)
//     query: ctx.query,       // the job's engine: enables the sandwich, search shares and transforms
//                             //   (stacks.sandwich / stacks.match / stacks.tree); without it those say so
//     transforms: true,       // show the transform bar and breadcrumbs (needs query)
//     onTransforms(list),     // the transform list changed (the view's tables follow it)
//     diff: {frames: [{name, file, line}], tree: {parent, frame, self_a, self_b, total_a, total_b},
//            totals: {a, b}, labels: {a, b}},   // the engine's profile compare: a differential graph
//     frame: index,           // sandwich: the function whose callers/callees are shown
//     defaultFrame: index,    // the sandwich's function when none is selected
//     modes: ['left-heavy', 'sandwich'],   // the mode buttons shown (default all three)
//     treeLabel, treeCaption, // the left-heavy button's name and caption (e.g. a heap's icicle)
//     height: 420,            // visible px (the graph scrolls vertically inside)
//     onSelect(frameIndex),   // a cell was clicked or chosen with Enter (after zooming to it)
//     stateKey: 'sp.flame',   // deep link: mode, sandwich frame and zoom kept in the URL fragment
//   });                       //   (GCSCOPE.state) under this key, e.g. sandwich.12_0.25_0.5, and the
//                             //   transforms under KEY.tf (JSON)
//   fg.setMode(mode), fg.search(regex) (matching cells stay coloured; with the engine, the matched
//   share is shown), fg.sandwich(frameIndex), fg.resetZoom(), fg.setTransforms(list), fg.transforms,
//   fg.highlightFrame(index), fg.zoomToFrame(index) (false when no cell of it is drawn), fg.destroy(); fg.element is the root; fg.ready is a Promise of the
//   latest engine answer drawn; fg.toSvg() is the current view as a standalone SVG document.
//   Mouse: click a cell = zoom to it (and select it), hover = name, file:line, total/self and share.
//   Keyboard (focus on a graph): arrows move the selection (up/down = parent/first child,
//   left/right = siblings), Enter zooms to it, Esc or Backspace zooms back out, / searches, ? lists
//   the keys; the selection is announced to screen readers.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
  const ROW = 16;
  const FONT = '11px system-ui, sans-serif';

  function el(tag, props, ...children) { return GCSCOPE.ui.el(tag, props, ...children); }

  // ---- Building trees and layouts -------------------------------------------------------------

  // Per-node self weight and total (children after parents, so one reverse pass sums totals).
  function treeWeights(parent, selfW) {
    const n = parent.length;
    const total = new Float64Array(n);
    total.set(selfW);
    for (let i = n - 1; i >= 0; i--) if (parent[i] >= 0) total[parent[i]] += total[i];
    return total;
  }

  // Left-heavy layout of a tree {parent, frame, self}: children ordered by total, heaviest first.
  function layoutTree(tree, extra) {
    const { parent, frame, self } = tree;
    const n = parent.length;
    const total = treeWeights(parent, self);
    const childCount = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) childCount[(parent[i] >= 0 ? parent[i] : n)]++;
    const start = new Int32Array(n + 2);
    for (let i = 0; i <= n; i++) start[i + 1] = start[i] + childCount[i];
    const fill = start.slice(0, n + 1);
    const kids = new Int32Array(n);
    for (let i = 0; i < n; i++) kids[fill[parent[i] >= 0 ? parent[i] : n]++] = i;
    for (let p = 0; p <= n; p++) {
      const a = start[p], b = start[p + 1];
      if (b - a > 1) {
        const part = Array.from(kids.subarray(a, b)).sort((x, y) => total[y] - total[x]);
        kids.set(part, a);
      }
    }
    const cx = [], cw = [], cd = [], cf = [], cn = [];
    let maxDepth = 0;
    // Iterative DFS: (node, x, depth).
    const stack = [];
    let x = 0;
    for (let k = start[n]; k < start[n + 1]; k++) { stack.push(kids[k], x, 0); x += total[kids[k]]; }
    const grand = x;
    // Reverse so the heaviest root is laid out first (order of push is already x-ordered).
    while (stack.length) {
      const d = stack.pop(), px = stack.pop(), node = stack.pop();
      if (total[node] <= 0) continue;
      cx.push(px); cw.push(total[node]); cd.push(d); cf.push(frame[node]); cn.push(node);
      if (d > maxDepth) maxDepth = d;
      let cxo = px;
      for (let k = start[node]; k < start[node + 1]; k++) {
        const c = kids[k];
        stack.push(c, cxo, d + 1);
        cxo += total[c];
      }
    }
    return packCells(cx, cw, cd, cf, cn, grand, maxDepth, { total, self, extra });
  }

  function packCells(cx, cw, cd, cf, cn, grand, maxDepth, info) {
    const n = cx.length;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => (cd[a] - cd[b]) || (cx[a] - cx[b]));
    const x = new Float64Array(n), w = new Float64Array(n), depth = new Int32Array(n), frame = new Int32Array(n), node = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const o = order[i];
      x[i] = cx[o]; w[i] = cw[o]; depth[i] = cd[o]; frame[i] = cf[o]; node[i] = cn[o];
    }
    const rowStart = new Int32Array(maxDepth + 2);
    for (let i = 0, d = 0; d <= maxDepth + 1; d++) {
      while (i < n && depth[i] < d) i++;
      rowStart[d] = i;
    }
    rowStart[maxDepth + 1] = n;
    return { x, w, depth, frame, node, rowStart, total: grand, maxDepth, info };
  }

  // Node -> its root..leaf path of nodes, in `buf`; returns the length.
  function pathOf(parent, nodeId, buf) {
    let len = 0;
    for (let n = nodeId; n >= 0 && len < buf.length; n = parent[n]) buf[len++] = n;
    buf.subarray(0, len).reverse();
    return len;
  }

  // Growable typed columns of one row of cells (time order emits each row already sorted by x).
  class Row {
    constructor() { this.n = 0; this.x = new Float64Array(16); this.w = new Float64Array(16); this.f = new Int32Array(16); this.node = new Int32Array(16); }
    push(x, w, f, node) {
      if (this.n === this.x.length) {
        const grow = (a, T) => { const b = new T(a.length * 2); b.set(a); return b; };
        this.x = grow(this.x, Float64Array); this.w = grow(this.w, Float64Array); this.f = grow(this.f, Int32Array); this.node = grow(this.node, Int32Array);
      }
      this.x[this.n] = x; this.w[this.n] = w; this.f[this.n] = f; this.node[this.n] = node; this.n++;
    }
  }

  // Time order (a flame chart): consecutive samples sharing a prefix share cells.
  function layoutTime(p) {
    const parent = p.stacks.parent, frame = p.stacks.frame;
    const st = p.samples.stack, wt = p.durations || p.samples.weight;
    const openNode = [], openStart = [];
    const rows = [];
    const buf = new Int32Array(65536);
    let t = 0;
    const close = (fromDepth) => {
      for (let d = openNode.length - 1; d >= fromDepth; d--) {
        if (!rows[d]) rows[d] = new Row();
        if (t > openStart[d]) rows[d].push(openStart[d], t - openStart[d], frame[openNode[d]], openNode[d]);
      }
      openNode.length = fromDepth; openStart.length = fromDepth;
    };
    for (let i = 0; i < st.length; i++) {
      const w = wt[i] || 0;
      const leaf = st[i];
      const len = leaf >= 0 ? pathOf(parent, leaf, buf) : 0;
      let same = 0;
      while (same < len && same < openNode.length && openNode[same] === buf[same]) same++;
      if (same < openNode.length) close(same);
      for (let d = same; d < len; d++) { openNode.push(buf[d]); openStart.push(t); }
      t += w;
    }
    close(0);
    const maxDepth = Math.max(0, rows.length - 1);
    let n = 0;
    for (const r of rows) n += r ? r.n : 0;
    const x = new Float64Array(n), w = new Float64Array(n), depth = new Int32Array(n), frameOut = new Int32Array(n), node = new Int32Array(n);
    const rowStart = new Int32Array(maxDepth + 2);
    let k = 0;
    for (let d = 0; d <= maxDepth; d++) {
      rowStart[d] = k;
      const r = rows[d];
      if (!r) continue;
      x.set(r.x.subarray(0, r.n), k); w.set(r.w.subarray(0, r.n), k); frameOut.set(r.f.subarray(0, r.n), k); node.set(r.node.subarray(0, r.n), k);
      depth.fill(d, k, k + r.n);
      k += r.n;
    }
    rowStart[maxDepth + 1] = n;
    return { x, w, depth, frame: frameOut, node, rowStart, total: t, maxDepth, info: {} };
  }

  // Self weight per stack-tree node from the samples.
  function nodeSelf(p) {
    const self = new Float64Array(p.stacks.parent.length);
    const st = p.samples.stack, w = p.samples.weight;
    for (let i = 0; i < st.length; i++) if (st[i] >= 0) self[st[i]] += w[i];
    return self;
  }

  // A trie over frame keys, fed paths with weights: {parent, frame, self} plus a second weight.


  function hashString(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }
  function frameColor(f) {
    if (!f) return '#ccc';
    const name = f.name || '';
    if (name.startsWith('(garbage collection)') || name === '(marking)' || name === '(sweeping)') return 'hsl(200, 45%, 70%)';
    if (f.file === '<cfunc>') return `hsl(${30 + (hashString(name) % 25)}, 70%, ${62 + (hashString(name) % 10)}%)`;
    const h = hashString(name);
    return `hsl(${(h % 40) + 5}, ${70 + (h % 20)}%, ${58 + ((h >>> 8) % 14)}%)`;
  }
  function diffColor(delta) {
    // delta: change of share in [-1, 1]; 5 percentage points = full colour.
    const k = Math.max(-1, Math.min(1, delta / 0.05));
    if (Math.abs(k) < 0.02) return 'hsl(0, 0%, 82%)';
    return k > 0 ? `hsl(0, ${40 + 50 * k}%, ${80 - 25 * k}%)` : `hsl(220, ${40 - 50 * k}%, ${80 + 25 * k}%)`;
  }

  // ---- Deep-link state: "<mode>[.<sandwich frame>][_<x0>_<x1>]" (zoom as fractions of the total) ----

  function encodeState(mode, frame, x0, x1) {
    let v = mode + (mode === 'sandwich' && frame >= 0 ? '.' + frame : '');
    if (x0 > 0 || x1 < 1) v += '_' + +x0.toFixed(6) + '_' + +x1.toFixed(6);
    return v;
  }
  function decodeState(v, frameCount) {
    const m = /^(left-heavy|time-order|sandwich)(?:\.(\d+))?(?:_([\d.]+)_([\d.]+))?$/.exec(v || '');
    if (!m) return null;
    const frame = m[2] !== undefined && Number(m[2]) < frameCount ? Number(m[2]) : -1;
    let x0 = m[3] !== undefined ? Number(m[3]) : 0, x1 = m[4] !== undefined ? Number(m[4]) : 1;
    if (!(x0 >= 0 && x1 <= 1 && x0 < x1)) { x0 = 0; x1 = 1; }
    return { mode: m[1], frame, x0, x1 };
  }

  // ---- SVG export: rectangles and labels of the current view, every string as XML text ----------

  const svgEl = (...a) => GCSCOPE.ui.svg.el(...a);

  // graphs: [{label, layout, frames, flip, colorOf?}] → an SVG document as text.
  function graphsToSvg(graphs, o) {
    const width = o.width || 1200, minWidth = o.minWidth === undefined ? 0.1 : o.minWidth;
    const charW = 6.2;  // average width of an 11px sans-serif glyph: labels are cut to fit like on canvas
    const doc = GCSCOPE.ui.svg.create(width, 0);
    const body = svgEl(doc, 'g', { class: 'fg-body' });
    let y = 0;
    if (o.title) { body.appendChild(svgEl(doc, 'text', { x: 4, y: 14, 'font-size': 13, 'font-weight': 'bold' }, o.title)); y += 20; }
    if (o.caption) { body.appendChild(svgEl(doc, 'text', { x: 4, y: y + 12, 'font-size': 11, fill: '#555' }, o.caption)); y += 18; }
    for (const g of graphs) {
      const l = g.layout;
      if (g.label) { body.appendChild(svgEl(doc, 'text', { x: 4, y: y + 12, 'font-size': 11, 'font-weight': 'bold' }, g.label)); y += 16; }
      if (!l || !l.total) { body.appendChild(svgEl(doc, 'text', { x: 4, y: y + 12, 'font-size': 11 }, 'No samples to show.')); y += 16; continue; }
      const vx0 = o.x0 * l.total, span = (o.x1 - o.x0) * l.total, scale = width / span;
      for (let row = 0; row <= l.maxDepth; row++) {
        const r = g.flip ? l.maxDepth - row : row;
        const top = y + r * ROW;
        for (let i = l.rowStart[row]; i < l.rowStart[row + 1]; i++) {
          const px = (l.x[i] - vx0) * scale, pw = l.w[i] * scale;
          if (px + pw <= 0 || px >= width || pw < minWidth) continue;
          const x0 = Math.max(px, 0), x1 = Math.min(px + pw, width);
          const f = g.frames[l.frame[i]] || {};
          const cell = svgEl(doc, 'g', { class: 'fg-cell' });
          const where = f.file ? ' (' + f.file + (f.line !== null && f.line !== undefined ? ':' + f.line : '') + ')' : '';
          cell.appendChild(svgEl(doc, 'title', {}, `${f.name || '?'}${where}: ${o.fmtW(l.w[i])} ${o.unit} (${o.pctOf(l.w[i], l.total)})`));
          cell.appendChild(svgEl(doc, 'rect', { x: +x0.toFixed(2), y: top, width: +Math.max(x1 - x0 - 0.5, 0.5).toFixed(2), height: ROW - 1,
            fill: g.colorOf ? g.colorOf(i) : frameColor(f) }));
          const room = Math.floor((x1 - x0 - 6) / charW);
          if (x1 - x0 > 30 && room > 2) {
            const name = f.name || '';
            cell.appendChild(svgEl(doc, 'text', { x: +(x0 + 3).toFixed(2), y: top + ROW / 2 + 4 }, name.length <= room ? name : name.slice(0, room - 1) + '…'));
          }
          body.appendChild(cell);
        }
      }
      y += (l.maxDepth + 1) * ROW + 8;
    }
    GCSCOPE.ui.svg.size(doc.documentElement, width, y);
    doc.documentElement.appendChild(body);
    return GCSCOPE.ui.svg.text(doc);
  }


  // ---- Geometry of a layout: the neighbours of a cell ------------------------------------------

  // The cell of row `row` whose [x, x + w) holds x (binary search); -1 when none.
  function cellAtX(l, row, x) {
    if (row < 0 || row > l.maxDepth) return -1;
    let lo = l.rowStart[row], hi = l.rowStart[row + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l.x[mid] + l.w[mid] <= x) lo = mid + 1; else hi = mid;
    }
    return lo < l.rowStart[row + 1] && l.x[lo] <= x ? lo : -1;
  }
  // The caller's cell, the first callee's cell, the previous/next cell under the same caller.
  const nav = {
    parent: (l, i) => cellAtX(l, l.depth[i] - 1, l.x[i]),
    child: (l, i) => {
      const c = cellAtX(l, l.depth[i] + 1, l.x[i]);
      if (c >= 0) return c;
      const row = l.depth[i] + 1;
      if (row > l.maxDepth) return -1;
      // The first callee may start right of the caller's left edge (time order gaps).
      let lo = l.rowStart[row], hi = l.rowStart[row + 1];
      while (lo < hi) { const mid = (lo + hi) >> 1; if (l.x[mid] < l.x[i]) lo = mid + 1; else hi = mid; }
      return lo < l.rowStart[row + 1] && l.x[lo] < l.x[i] + l.w[i] ? lo : -1;
    },
    sibling: (l, i, dir) => {
      const j = i + dir, row = l.depth[i];
      if (j < l.rowStart[row] || j >= l.rowStart[row + 1]) return -1;
      return row === 0 || nav.parent(l, j) === nav.parent(l, i) ? j : -1;
    },
  };

  // ---- Transforms: labels for the breadcrumbs ---------------------------------------------------

  function transformLabel(t) {
    if (t.focus_function !== undefined) return 'focus: ' + t.focus_function;
    if (t.focus_subtree !== undefined) return 'subtree: ' + t.focus_subtree[t.focus_subtree.length - 1];
    if (t.merge_function !== undefined) return 'merged: ' + t.merge_function;
    if (t.drop_function !== undefined) return 'dropped: ' + t.drop_function;
    if (t.hide !== undefined) return 'hidden: /' + t.hide + '/';
    if (t.only_my_code) return 'only my code';
    if (t.collapse_gems) return 'gems collapsed';
    if (t.collapse_recursion) return 'recursion collapsed (' + t.collapse_recursion + ')' + (t.function ? ': ' + t.function : '');
    if (t.invert) return 'inverted';
    return JSON.stringify(t);
  }
  function decodeTransforms(v) {
    if (!v) return [];
    try {
      const list = JSON.parse(v);
      return Array.isArray(list) && list.every((t) => t && typeof t === 'object') ? list : [];
    } catch (e) {
      return [];
    }
  }

  const KEYS = [['← →', 'previous / next function with the same caller'], ['↑ ↓', 'caller / first callee'],
    ['Enter', 'zoom to the selected function'], ['Esc, Backspace', 'zoom back out'], ['/', 'search (regular expression)'], ['?', 'show or hide these keys']];

  // ---- The component -------------------------------------------------------------------------

  class FlameGraph {
    constructor(container, profile, opts) {
      this.opts = opts;
      this.base = profile;        // the profile as given (untransformed)
      this.profile = profile;     // what is drawn: the base or the engine's transformed tree
      this.unit = profile.unit || 'samples';
      this.height = opts.height || 420;
      this.deepLink = opts.stateKey && GCSCOPE.state ? GCSCOPE.state : null;
      this.st = { mode: opts.diff ? 'diff' : opts.mode || 'left-heavy', sandwichFrame: opts.frame !== undefined ? opts.frame : -1,
        search: '', x0: 0, x1: 1, zooms: [], transforms: [], sel: null, diffSide: 'b', matchFrames: null };
      this.layouts = {};
      this.graphs = [];
      this.generation = 0;
      this.ready = Promise.resolve();
      this.textCache = new Map();
      this.buildDom(container);
      this.restore();
    }

    // ---- DOM
    buildDom(container) {
      const o = this.opts;
      this.modeButtons = {};
      const bar = el('div', { class: 'fg-bar' });
      const all = [['left-heavy', o.treeLabel || 'Left heavy'], ['time-order', 'Time order'], ['sandwich', 'Sandwich']];
      const modes = o.diff ? [['diff', 'Differential']] : all.filter(([m]) => !o.modes || o.modes.includes(m));
      for (const [m, label] of modes) {
        const b = el('button', { type: 'button', class: 'gs-small fg-mode', text: label, dataset: { mode: m }, on: { click: () => { this.setMode(m); this.record(); } } });
        this.modeButtons[m] = b;
        bar.appendChild(b);
      }
      if (o.diff) {
        this.sideButton = el('button', { type: 'button', class: 'gs-small fg-diff-side', on: { click: () => this.toggleDiffSide() } });
        bar.appendChild(this.sideButton);
      }
      this.searchBox = el('input', { type: 'search', class: 'fg-search', placeholder: 'Search frames (regexp)…', 'aria-label': 'Search frames (regular expression)' });
      this.searchBox.addEventListener('input', () => this.search(this.searchBox.value));
      const reset = el('button', { type: 'button', class: 'gs-small fg-reset', text: 'Reset zoom', on: { click: () => { this.resetZoom(); this.record(); } } });
      const svgButton = el('button', { type: 'button', class: 'gs-small fg-svg', text: 'SVG', title: 'Download this view of the flame graph as SVG',
        on: { click: () => GCSCOPE.ui.download((o.fileName || 'flamegraph') + '.svg', 'image/svg+xml', this.toSvg()) } });
      const keysButton = el('button', { type: 'button', class: 'gs-small fg-keys', text: '?', title: 'Keyboard keys', 'aria-label': 'Keyboard keys',
        on: { click: () => this.toggleHelp() } });
      this.matchInfo = el('span', { class: 'fg-match muted' });
      bar.append(this.searchBox, reset, svgButton, keysButton, this.matchInfo);
      this.caption = el('div', { class: 'fg-caption muted' });
      this.help = el('dl', { class: 'fg-help', hidden: true }, ...KEYS.flatMap(([k, what]) => [el('dt', { text: k }), el('dd', { text: what })]));
      this.live = el('div', { class: 'fg-live', 'aria-live': 'polite', role: 'status',
        style: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } });
      this.panes = el('div', { class: 'fg-panes' });
      this.tbar = o.query && o.transforms ? this.buildTransformBar() : null;
      // Styles inline: the component brings its own look wherever it is embedded.
      this.root = el('div', { class: 'flamegraph', style: { position: 'relative' } }, bar, this.tbar, this.caption, this.help, this.live, this.panes);
      this.tip = el('div', {
        class: 'fg-tip', hidden: true,
        style: { position: 'absolute', zIndex: '10', pointerEvents: 'none', background: '#fffef8', color: '#222', border: '1px solid #bbb',
          borderRadius: '4px', padding: '4px 8px', font: '12px system-ui, sans-serif', maxWidth: '420px', wordBreak: 'break-all', boxShadow: '0 2px 6px rgba(0,0,0,.2)' },
      });
      this.root.appendChild(this.tip);
      this.root.addEventListener('keydown', (e) => this.onKey(e));
      container.appendChild(this.root);
      if (global.ResizeObserver) { this.ro = new ResizeObserver(() => this.redraw()); this.ro.observe(this.root); }
    }

    // The transform bar: actions on the selected function, presets, a hide box, breadcrumbs.
    buildTransformBar() {
      const fnAction = (label, cls, make) => el('button', { type: 'button', class: 'gs-small ' + cls, text: label, disabled: true,
        on: { click: () => { const t = make(); if (t) this.pushTransform(t); } } });
      const name = () => (this.selectedFrame() ? this.selectedFrame().name : null);
      this.selLabel = el('span', { class: 'fg-sel-name muted', text: 'select a function (click or arrows) to focus, merge or drop it' });
      this.fnButtons = [
        fnAction('Focus on function', 'fg-t-focus', () => ({ focus_function: name() })),
        fnAction('Focus on subtree', 'fg-t-subtree', () => { const p = this.selectedPath(); return p ? { focus_subtree: p } : null; }),
        fnAction('Merge function', 'fg-t-merge', () => ({ merge_function: name() })),
        fnAction('Drop samples with it', 'fg-t-drop', () => ({ drop_function: name() })),
      ];
      const preset = (label, cls, t, title) => el('button', { type: 'button', class: 'gs-small ' + cls, text: label, title, on: { click: () => this.pushTransform(t) } });
      const hideBox = el('input', { type: 'text', class: 'fg-hide-input', placeholder: 'regexp or path prefix', 'aria-label': 'Hide frames matching' });
      const hide = el('button', { type: 'button', class: 'gs-small fg-t-hide', text: 'Hide',
        on: { click: () => { if (hideBox.value) this.pushTransform({ hide: hideBox.value }); hideBox.value = ''; } } });
      this.crumbs = el('nav', { class: 'fg-crumbs', 'aria-label': 'Transforms applied' });
      this.tstatus = el('span', { class: 'fg-t-status muted' });
      return el('div', { class: 'fg-transforms' },
        el('div', { class: 'fg-t-row' }, this.selLabel, ' ', ...this.fnButtons),
        el('div', { class: 'fg-t-row' },
          preset('Only my code', 'fg-t-mine', { only_my_code: true }, 'hide gems, the Ruby standard library and <cfunc> frames; their time goes to the nearest visible caller'),
          preset('Collapse gems', 'fg-t-gems', { collapse_gems: true }, 'each gem (name and version from the path) as one frame'),
          preset('Collapse direct recursion', 'fg-t-rec', { collapse_recursion: 'direct' }),
          preset('Collapse all recursion', 'fg-t-rec-all', { collapse_recursion: 'all' }),
          preset('Invert', 'fg-t-invert', { invert: true }, 'callee first: every stack read from its leaf'),
          ' ', hideBox, hide),
        el('div', { class: 'fg-t-row' }, this.crumbs, ' ', this.tstatus));
    }

    renderCrumbs() {
      if (!this.crumbs) return;
      const items = [el('button', { type: 'button', class: 'gs-small fg-crumb fg-crumb-all', text: 'All samples',
        on: { click: () => this.setTransforms([], true) } })];
      this.st.transforms.forEach((t, i) => {
        items.push(el('span', { class: 'fg-crumb-sep', text: ' › ' }),
          el('span', { class: 'fg-crumb', dataset: { index: String(i) } }, transformLabel(t),
            el('button', { type: 'button', class: 'gs-small fg-crumb-remove', text: '×', title: 'Remove this transform', 'aria-label': 'Remove ' + transformLabel(t),
              on: { click: () => this.setTransforms(this.st.transforms.filter((_, k) => k !== i), true) } })));
      });
      this.crumbs.replaceChildren(...items);
    }

    // ---- State and deep links
    restore() {
      const dl = this.deepLink, key = this.opts.stateKey;
      const saved = dl && !this.opts.diff ? decodeState(dl.get(key), this.profile.frames.length) : null;
      if (saved) {
        if (saved.mode === 'sandwich') this.st.sandwichFrame = saved.frame;
        this.st.mode = saved.mode;
      }
      const tf = dl && this.tbar ? decodeTransforms(dl.get(key + '.tf')) : [];
      if (tf.length) this.setTransforms(tf, false);
      else { this.renderCrumbs(); this.setMode(this.st.mode); }
      if (saved) this.ready.then(() => { this.st.x0 = saved.x0; this.st.x1 = saved.x1; this.redraw(); });
      if (dl) {
        dl.watch(key, this.root, (v) => this.apply(v));
        if (this.tbar) dl.watch(key + '.tf', this.root, (v) => this.setTransforms(decodeTransforms(v), false));
      }
    }
    apply(v) {
      const st = decodeState(v, this.profile.frames.length);
      if (!st) { if (v === null) { this.st.sandwichFrame = -1; this.setMode(this.opts.mode || 'left-heavy'); } return; }
      if (st.mode === 'sandwich') this.st.sandwichFrame = st.frame;
      this.setMode(st.mode);
      this.ready.then(() => { this.st.x0 = st.x0; this.st.x1 = st.x1; this.redraw(); });
    }
    record() {
      if (this.deepLink && !this.opts.diff) this.deepLink.set(this.opts.stateKey, encodeState(this.st.mode, this.st.sandwichFrame, this.st.x0, this.st.x1), { push: true });
    }

    // ---- Transforms (answered by the engine: stacks.tree)
    pushTransform(t) { this.setTransforms(this.st.transforms.concat([t]), true); }
    setTransforms(list, record) {
      this.st.transforms = list.slice();
      this.renderCrumbs();
      if (record && this.deepLink) this.deepLink.set(this.opts.stateKey + '.tf', list.length ? JSON.stringify(list) : null, { push: true });
      if (this.opts.onTransforms) this.opts.onTransforms(this.st.transforms.slice());
      const gen = ++this.generation;
      if (!list.length) {
        this.useProfile(this.base);
        return this.ready;
      }
      if (this.tstatus) this.tstatus.textContent = 'applying…';
      this.ready = this.opts.query('stacks.tree', { transforms: list }).then((answer) => {
        if (gen !== this.generation) return;
        if (this.tstatus) this.tstatus.textContent = '';
        this.useProfile(fromTree(answer, this.base.name));
      }, (err) => {
        if (gen !== this.generation) return;
        if (this.tstatus) this.tstatus.textContent = 'The transform failed: ' + err.message;
      });
      return this.ready;
    }
    useProfile(p) {
      this.profile = p;
      this.layouts = {};
      this.st.sel = null;
      this.st.zooms = [];
      this.setMode(this.st.mode);
      if (this.st.search) this.search(this.st.search);
    }

    // ---- Modes
    setMode(mode) {
      if (mode === 'diff' && !this.opts.diff) return this.ready;
      if (mode !== 'diff' && this.opts.diff) return this.ready;
      const selected = this.selectedFrameIndex();
      this.st.mode = mode;
      for (const [m, b] of Object.entries(this.modeButtons)) {
        b.classList.toggle('active', m === mode);
        b.style.fontWeight = m === mode ? 'bold' : '';
        b.setAttribute('aria-pressed', String(m === mode));
      }
      this.panes.textContent = '';
      this.graphs.length = 0;
      this.st.x0 = 0; this.st.x1 = 1; this.st.zooms = []; this.st.sel = null;
      this.updateSelection();
      if (mode === 'sandwich') return this.showSandwich(selected);
      if (mode === 'diff') this.showDiff();
      else this.showProfile(mode);
      this.finishPanes();
      return this.ready;
    }
    finishPanes() {
      for (const g of this.graphs) this.sizePane(g);
      this.applyMatches();
      this.redraw();
    }
    showProfile(mode) {
      const g = this.makePane('', false);
      g.layout = this.layoutFor(mode);
      g.nodesAreProfile = true;
      const p = this.profile;
      this.caption.textContent = mode === 'time-order'
        ? `Time order: samples left to right as recorded${p.durations ? ' (widths = time between samples)' : ' (widths = sample weights)'}; total ${fmtW(g.layout.total)} ${p.durations ? (this.opts.durationUnit || 'µs') : this.unit}.`
        : `${this.opts.treeCaption || 'Left heavy: identical stacks merged, heaviest first'}; total ${fmtW(g.layout.total)} ${this.unit}.`;
    }
    layoutFor(mode) {
      if (!this.layouts[mode]) {
        const p = this.profile;
        this.layouts[mode] = mode === 'time-order' ? layoutTime(p) : layoutTree({ parent: p.stacks.parent, frame: p.stacks.frame, self: nodeSelf(p) });
      }
      return this.layouts[mode];
    }
    showSandwich(selected) {
      let f = this.st.sandwichFrame;
      if (f < 0) f = selected;
      if (f < 0 && this.opts.defaultFrame !== undefined) f = this.opts.defaultFrame;
      if (f < 0) { const l = this.layoutFor('left-heavy'); f = l.frame.length ? l.frame[0] : -1; }
      this.st.sandwichFrame = f;
      const name = this.profile.frames[f] ? this.profile.frames[f].name : '?';
      this.redraw();
      if (!this.opts.query) {
        this.caption.textContent = `Sandwich of ${name}: the callers and callees of a function are computed by the analysis engine, which this view has no access to (a saved report, or a format without stack queries).`;
        return this.ready;
      }
      this.caption.textContent = `Sandwich of ${name}: asking the engine…`;
      const gen = ++this.generation;
      this.ready = this.opts.query('stacks.sandwich', { frame: f, transforms: this.st.transforms }).then((s) => {
        if (gen !== this.generation || this.st.mode !== 'sandwich') return;
        this.panes.textContent = '';
        this.graphs.length = 0;
        this.caption.textContent = `Sandwich of ${name}: in ${fmtW(s.total)} ${this.unit} (${pctOf(s.total, this.totalWeight())}), self ${fmtW(s.self)}. Callers above (read upwards), callees below.`;
        this.makePane('Callers', true).layout = layoutTree(s.callers);
        this.makePane('Callees', false).layout = layoutTree(s.callees);
        this.finishPanes();
      }, (err) => {
        if (gen === this.generation) this.caption.textContent = `Sandwich of ${name}: ${err.message}`;
      });
      return this.ready;
    }
    // The engine's differential tree (wasm/profile/compare.h): widths from one side, colour from the
    // change of each stack's share between the sides.
    showDiff() {
      const d = this.opts.diff, side = this.st.diffSide;
      const g = this.makePane('', false);
      g.frames = d.frames;
      const t = d.tree;
      g.layout = layoutTree({ parent: t.parent, frame: t.frame, self: side === 'b' ? t.self_b : t.self_a });
      const l = g.layout, ta = d.totals.a || 1, tb = d.totals.b || 1;
      const share = (i) => [t.total_a[l.node[i]] / ta, t.total_b[l.node[i]] / tb];
      g.colorOf = (i) => { const [a, b] = share(i); return diffColor(b - a); };
      g.describe = (i) => { const [a, b] = share(i); return `share ${(a * 100).toFixed(1)} % before, ${(b * 100).toFixed(1)} % after`; };
      const labels = d.labels || { a: 'before', b: 'after' };
      if (this.sideButton) this.sideButton.textContent = side === 'b' ? 'Widths: after (show before)' : 'Widths: before (show after)';
      this.caption.textContent = `Differential: widths = ${side === 'b' ? labels.b : labels.a} (${fmtW(side === 'b' ? d.totals.b : d.totals.a)} ${this.unit}); ` +
        `red = a larger share in ${labels.b} than in ${labels.a}, blue = smaller. Stacks only in the other profile have no width.`;
    }
    toggleDiffSide() {
      this.st.diffSide = this.st.diffSide === 'b' ? 'a' : 'b';
      this.setMode('diff');
    }
    totalWeight() { let t = 0; for (const w of this.profile.samples.weight) t += w; return t; }

    // ---- Panes
    makePane(label, flip) {
      const scroller = el('div', { class: 'fg-scroll', style: { height: this.height + 'px', overflowY: 'auto', position: 'relative' } });
      const spacer = el('div', { class: 'fg-spacer' });
      const canvas = el('canvas', { class: 'fg-canvas', tabindex: '0', role: 'img',
        'aria-label': (label ? label + ': ' : '') + 'flame graph; arrow keys select functions, ? lists the keys',
        style: { position: 'sticky', top: '0', left: '0', display: 'block', width: '100%' } });
      scroller.append(canvas, spacer);
      const pane = el('div', { class: 'fg-pane' }, label ? el('div', { class: 'fg-pane-label', text: label }) : null, scroller);
      this.panes.appendChild(pane);
      const g = { scroller, spacer, canvas, label, layout: null, flip, frames: this.profile.frames, colorOf: null, paneHeight: this.height };
      scroller.addEventListener('scroll', () => this.draw(g));
      canvas.addEventListener('mousemove', (e) => this.hover(g, e));
      canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
      canvas.addEventListener('click', (e) => this.click(g, e));
      canvas.addEventListener('focus', () => { if (!this.st.sel || this.st.sel.g !== g) this.select(g, this.firstCell(g), true); });
      this.graphs.push(g);
      return g;
    }
    sizePane(g) {
      const rows = g.layout ? g.layout.maxDepth + 1 : 1;
      const full = rows * ROW + 4;
      g.fullHeight = full;
      g.paneHeight = Math.min(this.height, full);
      g.scroller.style.height = g.paneHeight + 'px';
      g.spacer.style.height = Math.max(0, full - g.paneHeight) + 'px';
    }
    firstCell(g) { return g.layout && g.layout.x.length ? g.layout.rowStart[0] : -1; }

    // ---- Drawing
    draw(g) {
      const l = g.layout, canvas = g.canvas;
      const dpr = global.devicePixelRatio || 1;
      const cssW = g.scroller.clientWidth || 800, cssH = g.paneHeight;
      if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
        canvas.width = Math.round(cssW * dpr);
        canvas.height = Math.round(cssH * dpr);
        canvas.style.height = cssH + 'px';
      }
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, cssW, cssH);
      ctx.font = FONT;
      if (!l || !l.total) {
        ctx.fillStyle = '#888';
        ctx.fillText('No samples to show.', 8, 14);
        return;
      }
      const vx0 = this.st.x0 * l.total, scale = cssW / ((this.st.x1 - this.st.x0) * l.total);
      const scrollTop = g.scroller.scrollTop;
      const firstRow = Math.max(0, Math.floor(scrollTop / ROW)), lastRow = Math.min(l.maxDepth, Math.ceil((scrollTop + cssH) / ROW));
      ctx.textBaseline = 'middle';
      for (let r = firstRow; r <= lastRow; r++) this.drawRow(g, ctx, g.flip ? l.maxDepth - r : r, r * ROW - scrollTop, vx0, scale, cssW);
      const sel = this.st.sel;
      if (sel && sel.g === g) {
        const r = g.flip ? l.maxDepth - l.depth[sel.i] : l.depth[sel.i];
        const px = (l.x[sel.i] - vx0) * scale;
        ctx.strokeStyle = '#000';
        ctx.lineWidth = 2;
        ctx.strokeRect(Math.max(px, 0) + 1, r * ROW - scrollTop + 1, Math.max(Math.min(l.w[sel.i] * scale, cssW) - 2, 2), ROW - 3);
      }
    }
    drawRow(g, ctx, row, y, vx0, scale, cssW) {
      const l = g.layout, a = l.rowStart[row], b = l.rowStart[row + 1];
      const searching = !!g.match;
      // First cell that may be visible: binary search on x + w > vx0.
      let lo = a, hi = b;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (l.x[mid] + l.w[mid] <= vx0) lo = mid + 1; else hi = mid; }
      for (let i = lo; i < b; i++) {
        const px = (l.x[i] - vx0) * scale;
        if (px > cssW) break;
        const pw = l.w[i] * scale;
        if (pw < 1) {
          // A run of sub-pixel cells: one grey pixel column, then jump (binary search) to the
          // first cell starting in the next pixel, so a draw costs O(pixels), not O(cells).
          const pix = Math.floor(px);
          ctx.fillStyle = '#d8d0c8';
          ctx.fillRect(pix, y, 1, ROW - 1);
          const nextX = vx0 + (pix + 1) / scale;
          let a2 = i + 1, b2 = b;
          while (a2 < b2) { const mid = (a2 + b2) >> 1; if (l.x[mid] < nextX) a2 = mid + 1; else b2 = mid; }
          i = a2 - 1;
          continue;
        }
        const f = g.frames[l.frame[i]];
        const hit = searching && g.match[l.frame[i]] === 1;
        ctx.fillStyle = searching && !hit ? '#e4e4e4' : g.colorOf ? g.colorOf(i) : frameColor(f);
        const x0 = Math.max(px, 0), x1 = Math.min(px + pw, cssW);
        ctx.fillRect(x0, y, Math.max(x1 - x0 - 0.5, 0.5), ROW - 1);
        if (x1 - x0 > 30 && f) {
          ctx.fillStyle = searching && !hit ? '#999' : '#222';
          const label = this.fitText(ctx, f.name || '', x1 - x0 - 6);
          if (label) ctx.fillText(label, x0 + 3, y + ROW / 2);
        }
      }
    }
    fitText(ctx, s, w) {
      if (w < 12) return '';
      let m = this.textCache.get(s);
      if (m === undefined) { m = ctx.measureText(s).width; if (this.textCache.size < 20000) this.textCache.set(s, m); }
      if (m <= w) return s;
      const chars = Math.floor((s.length * w) / m) - 1;
      return chars > 2 ? s.slice(0, chars) + '…' : '';
    }
    redraw() {
      for (const g of this.graphs) this.draw(g);
      // What is shown (mode, sandwich frame, zoom) in the deep-link encoding, for tests and tools.
      this.root.dataset.view = encodeState(this.st.mode, this.st.sandwichFrame, this.st.x0, this.st.x1);
      this.root.dataset.transforms = String(this.st.transforms.length);
    }

    // ---- Pointer
    cellAt(g, e) {
      const l = g.layout;
      if (!l || !l.total) return -1;
      const rect = g.canvas.getBoundingClientRect();
      const mx = e.clientX - rect.left, my = e.clientY - rect.top + g.scroller.scrollTop;
      const r = Math.floor(my / ROW);
      const row = g.flip ? l.maxDepth - r : r;
      return cellAtX(l, row, this.st.x0 * l.total + (mx / rect.width) * (this.st.x1 - this.st.x0) * l.total);
    }
    describeCell(g, i) {
      const l = g.layout;
      const f = g.frames[l.frame[i]] || {};
      const where = f.file ? f.file + (f.line !== null && f.line !== undefined ? ':' + f.line : '') : '';
      const timed = this.st.mode === 'time-order' && this.profile.durations;
      const selfW = g.nodesAreProfile && this.st.mode === 'left-heavy' && l.info.self ? l.info.self[l.node[i]] : null;
      return { name: f.name || '?', where,
        weight: `${fmtW(l.w[i])} ${timed ? (this.opts.durationUnit || 'µs') : this.unit} (${pctOf(l.w[i], l.total)})` + (selfW !== null ? `, self ${fmtW(selfW)}` : ''),
        extra: g.describe ? g.describe(i) : '' };
    }
    hover(g, e) {
      const i = this.cellAt(g, e);
      if (i < 0) { this.tip.hidden = true; return; }
      const d = this.describeCell(g, i);
      this.tip.replaceChildren(...[el('div', { class: 'fg-tip-name', text: d.name }), d.where ? el('div', { class: 'fg-tip-file', text: d.where }) : null,
        el('div', { text: d.weight }), d.extra ? el('div', { text: d.extra }) : null].filter(Boolean));
      const rootRect = this.root.getBoundingClientRect();
      this.tip.style.left = Math.min(e.clientX - rootRect.left + 12, rootRect.width - 260) + 'px';
      this.tip.style.top = (e.clientY - rootRect.top + 14) + 'px';
      this.tip.hidden = false;
    }
    click(g, e) {
      const i = this.cellAt(g, e);
      if (i < 0) return;
      this.select(g, i, true);
      this.zoomTo(g, i);
      this.chosen(g, i);
    }
    chosen(g, i) {
      if (this.opts.onSelect) this.opts.onSelect(g.frames === this.profile.frames ? g.layout.frame[i] : -1, g.frames[g.layout.frame[i]]);
    }

    // ---- Selection, zoom and keys
    select(g, i, announce = true) {
      if (!g || i < 0) return;
      this.st.sel = { g, i };
      const l = g.layout;
      // Keep the selected row in view.
      const r = g.flip ? l.maxDepth - l.depth[i] : l.depth[i];
      if (r * ROW < g.scroller.scrollTop) g.scroller.scrollTop = r * ROW;
      else if ((r + 1) * ROW > g.scroller.scrollTop + g.paneHeight) g.scroller.scrollTop = (r + 1) * ROW - g.paneHeight;
      this.redraw();
      this.updateSelection();
      if (announce) {
        const d = this.describeCell(g, i);
        this.live.textContent = `${g.label ? g.label + ': ' : ''}${d.name}${d.where ? ', ' + d.where : ''}: ${d.weight}, depth ${l.depth[i] + 1}` + (d.extra ? '; ' + d.extra : '');
      }
    }
    updateSelection() {
      if (!this.fnButtons) return;
      const f = this.selectedFrame();
      for (const b of this.fnButtons) b.disabled = !f;
      this.fnButtons[1].disabled = !this.selectedPath();
      this.selLabel.textContent = f ? 'Selected: ' + f.name : 'select a function (click or arrows) to focus, merge or drop it';
    }
    selectedFrameIndex() {
      const s = this.st.sel;
      return s && s.g.frames === this.profile.frames ? s.g.layout.frame[s.i] : -1;
    }
    selectedFrame() { const i = this.selectedFrameIndex(); return i >= 0 ? this.profile.frames[i] : null; }
    // Root-first frame names of the selected cell's stack (panes that draw the profile's own tree).
    selectedPath() {
      const s = this.st.sel;
      if (!s || !s.g.nodesAreProfile) return null;
      const names = [], parent = this.profile.stacks.parent, frame = this.profile.stacks.frame;
      for (let n = s.g.layout.node[s.i]; n >= 0; n = parent[n]) names.push(this.profile.frames[frame[n]].name);
      return names.reverse();
    }
    zoomTo(g, i) {
      const l = g.layout;
      this.st.zooms.push([this.st.x0, this.st.x1]);
      this.st.x0 = l.x[i] / l.total;
      this.st.x1 = (l.x[i] + l.w[i]) / l.total;
      this.redraw();
      this.record();
    }
    back() {
      if (!this.st.zooms.length && this.st.x0 === 0 && this.st.x1 === 1) return false;
      [this.st.x0, this.st.x1] = this.st.zooms.length ? this.st.zooms.pop() : [0, 1];
      this.redraw();
      this.record();
      return true;
    }
    resetZoom() {
      this.st.x0 = 0; this.st.x1 = 1; this.st.zooms = [];
      this.redraw();
    }
    toggleHelp() { this.help.hidden = !this.help.hidden; }
    onKey(e) {
      const t = e.target;
      if (t === this.searchBox) {
        if (e.key === 'Escape' || e.key === 'Enter') { e.preventDefault(); const g = this.graphs[0]; if (g) g.canvas.focus(); }
        return;
      }
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.key === '/') { e.preventDefault(); this.searchBox.focus(); return; }
      if (e.key === '?') { e.preventDefault(); this.toggleHelp(); return; }
      if (e.key === 'Escape' || e.key === 'Backspace') { if (this.back()) e.preventDefault(); return; }
      const g = this.graphs.find((x) => x.canvas === t) || (this.st.sel && this.st.sel.g);
      if (!g || !g.layout || !g.layout.total) return;
      const sel = this.st.sel && this.st.sel.g === g ? this.st.sel.i : -1;
      if (e.key === 'Enter') {
        if (sel >= 0) { e.preventDefault(); this.zoomTo(g, sel); this.chosen(g, sel); }
        return;
      }
      const l = g.layout;
      const moves = { ArrowUp: g.flip ? 'child' : 'parent', ArrowDown: g.flip ? 'parent' : 'child', ArrowLeft: -1, ArrowRight: 1 };
      const m = moves[e.key];
      if (m === undefined) return;
      e.preventDefault();
      const next = sel < 0 ? this.firstCell(g) : typeof m === 'number' ? nav.sibling(l, sel, m) : nav[m](l, sel);
      if (next < 0) return;
      this.select(g, next, true);
    }

    // ---- Search and highlight: cells whose function matches keep their colour; the engine gives
    // the share of the samples that hold one (stacks.match).
    search(text) {
      this.st.search = String(text || '');
      this.st.highlight = -1;
      if (this.searchBox.value !== this.st.search) this.searchBox.value = this.st.search;
      this.matchInfo.textContent = '';
      this.st.matchRe = null;
      if (this.st.search) {
        try { this.st.matchRe = new RegExp(this.st.search, 'i'); } catch (err) { this.matchInfo.textContent = 'bad regular expression: ' + err.message; }
      }
      this.applyMatches();
      this.redraw();
      if (!this.st.matchRe) return this.ready;
      if (!this.opts.query || this.opts.diff) { this.matchInfo.textContent = 'matching frames highlighted'; return this.ready; }
      const asked = this.st.search;
      return this.opts.query('stacks.match', { regex: asked, transforms: this.st.transforms }).then((m) => {
        if (asked === this.st.search) this.matchInfo.textContent = `matches: ${pctOf(m.weight, m.total)} of ${this.unit}`;
      }, (err) => { if (asked === this.st.search) this.matchInfo.textContent = err.message; });
    }
    // Zooms to the first cell of frame f in the first pane (selecting it); false when none is drawn.
    zoomToFrame(f) {
      const g = this.graphs[0];
      const i = g && g.layout && g.frames === this.profile.frames ? g.layout.frame.indexOf(f) : -1;
      if (i < 0) return false;
      this.select(g, i, false);
      this.zoomTo(g, i);
      return true;
    }
    highlightFrame(i) {
      this.search('');
      this.st.highlight = i;
      this.applyMatches();
      this.redraw();
    }
    applyMatches() {
      const re = this.st.matchRe, hl = this.st.highlight;
      for (const g of this.graphs) {
        if (!re && !(hl >= 0)) { g.match = null; continue; }
        const m = new Uint8Array(g.frames.length);
        for (let i = 0; i < g.frames.length; i++) {
          const f = g.frames[i];
          m[i] = re ? (re.test(f.name || '') || (f.file ? re.test(f.file) : false) ? 1 : 0) : i === hl ? 1 : 0;
        }
        g.match = m;
      }
    }

    toSvg(o = {}) {
      return graphsToSvg(this.graphs, { ...o, x0: this.st.x0, x1: this.st.x1, unit: this.unit, fmtW, pctOf, title: o.title || this.profile.name || '', caption: this.caption.textContent });
    }
    destroy() {
      if (this.ro) this.ro.disconnect();
      this.root.remove();
    }
  }

  const fmtW = (v) => (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 1 }));
  const pctOf = (v, t) => (t > 0 ? (100 * v / t).toFixed(1) + ' %' : '—');

  function create(container, profile, opts = {}) {
    const fg = new FlameGraph(container, profile, opts);
    return {
      element: fg.root,
      setMode: (mode) => fg.setMode(mode),
      search: (text) => fg.search(text),
      resetZoom: () => fg.resetZoom(),
      sandwich(frameIndex) { fg.st.sandwichFrame = frameIndex; const r = fg.setMode('sandwich'); fg.record(); return r; },
      setTransforms: (list) => fg.setTransforms(list, true),
      highlightFrame: (i) => fg.highlightFrame(i),
      zoomToFrame: (f) => fg.zoomToFrame(f),
      get transforms() { return fg.st.transforms.slice(); },
      get mode() { return fg.st.mode; },
      get zoom() { return [fg.st.x0, fg.st.x1]; },
      get ready() { return fg.ready; },
      toSvg: (o) => fg.toSvg(o),
      layout: () => (fg.graphs[0] ? fg.graphs[0].layout : null),
      destroy: () => fg.destroy(),
    };
  }

  // ---- Adapters -------------------------------------------------------------------------------

  // The engine's stacks.tree answer (columnar frames) as the component's profile.
  function fromTree(t, name) {
    const f = t.frames;
    return {
      frames: f.name.map((n, i) => ({ name: n, file: f.file[i], line: f.line[i], gem: f.gem ? f.gem[i] : '' })),
      stacks: t.stacks, samples: t.samples, durations: t.durations || null, unit: t.unit, name,
    };
  }


  function fromStacks(frames, stacks, weights, unit) {
    const parent = [], frame = [];
    const index = new Map();
    const sampleStack = [];
    for (const s of stacks) {
      let cur = -1;
      for (const f of s) {
        const key = (cur + 1) * 4194304 + f;
        let node = index.get(key);
        if (node === undefined) { node = parent.length; parent.push(cur); frame.push(f); index.set(key, node); }
        cur = node;
      }
      sampleStack.push(cur);
    }
    return { frames, stacks: { parent, frame }, samples: { stack: sampleStack, weight: weights.slice() }, unit: unit || 'samples' };
  }

  // Download buttons for a stack source, each file written by the engine from the profile as
  // transformed by transformsOf() (wasm/profile/stack_queries.h stacks.export / stacks.folded):
  // speedscope's JSON, pprof's gzipped profile.proto (sent as base64) and collapsed stacks, then a
  // status line for a refusal. `base` names the files.
  function downloads(query, transformsOf, base) {
    const status = el('span', { class: 'muted fg-export-status' });
    const ask = (label, kind, file, mime, method, args, decode) => el('button', {
      type: 'button', class: 'gs-small', text: label, dataset: { export: kind },
      on: { click: () => {
        status.textContent = '';
        query(method, Object.assign({ transforms: transformsOf() }, args)).then((answer) => GCSCOPE.ui.download(file, mime, decode ? decode(answer) : answer),
          (err) => { status.textContent = err.message; });
      } },
    });
    const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return [ask('Download speedscope', 'speedscope', base + '.speedscope.json', 'application/json', 'stacks.export', { to: 'speedscope' }), ' ',
      ask('Download pprof', 'pprof', base + '.pb.gz', 'application/gzip', 'stacks.export', { to: 'pprof' }, fromBase64), ' ',
      ask('Download collapsed stacks', 'collapsed', base + '.folded', 'text/plain', 'stacks.folded', {}), ' ', status];
  }

  // A profile compare (the engine's, wasm/profile/compare.h: {totals, frames, tree}) drawn into
  // `out`: the differential flame graph (when both sides have stacks) and the per-frame delta table,
  // a row's click finding its frame in the graph. o = {labels: {a, b}, unit, cls (the graph box's
  // class), name (file names)}.
  function comparison(out, c, o) {
    const fmt = GCSCOPE.ui.fmt;
    let diffFg = null;
    if (c.tree) {
      const box = el('div', { class: o.cls });
      out.appendChild(box);
      diffFg = create(box, { frames: c.frames, stacks: { parent: [], frame: [] }, samples: { stack: [], weight: [] }, unit: o.unit },
        { diff: { frames: c.frames, tree: c.tree, totals: c.totals, labels: o.labels }, height: 360, fileName: o.name + '-diff' });
    } else {
      out.appendChild(el('p', { class: 'muted', text: 'One of the profiles has no raw samples: no differential flame graph, only the per-frame table.' }));
    }
    const rows = c.frames.map((f, i) => Object.assign({ index: i, where: f.file + (f.line !== null ? ':' + f.line : '') }, f));
    const pts = (v) => (v > 0 ? '+' : '') + v.toFixed(2);
    out.appendChild(GCSCOPE.ui.table([
      { key: 'name', label: 'Frame' },
      { key: 'where', label: 'File' },
      { key: 'self_a', label: 'Self before', numeric: true, format: (v) => fmt.num(v) },
      { key: 'self_b', label: 'Self after', numeric: true, format: (v) => fmt.num(v) },
      { key: 'self_pct_a', label: 'Self % before', numeric: true, format: (v) => fmt.pct(v) },
      { key: 'self_pct_b', label: 'Self % after', numeric: true, format: (v) => fmt.pct(v) },
      { key: 'self_delta_pct', label: 'Δ self (pts)', numeric: true, format: pts },
      { key: 'total_a', label: 'Total before', numeric: true, format: (v) => fmt.num(v) },
      { key: 'total_b', label: 'Total after', numeric: true, format: (v) => fmt.num(v) },
      { key: 'total_pct_a', label: 'Total % before', numeric: true, format: (v) => fmt.pct(v) },
      { key: 'total_pct_b', label: 'Total % after', numeric: true, format: (v) => fmt.pct(v) },
      { key: 'total_delta_pct', label: 'Δ total (pts)', numeric: true, format: pts },
    ], rows, { csvName: o.name + '-compare.csv', pageSize: 100, caption: `${rows.length} frames; largest change of total share first` + (diffFg ? '; click one to find it in the flame graph' : ''),
      onRowClick: diffFg ? (r) => diffFg.highlightFrame(r.index) : null }));
  }

  GCSCOPE.flamegraph = { create, fromStacks, fromTree, downloads, comparison };
})(typeof window !== 'undefined' ? window : globalThis);
