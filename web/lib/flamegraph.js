// GCSCOPE.flamegraph: the product's one flame graph (stackprof profiles, folded stacks, perf script).
// Canvas rendering with culling, so it stays interactive at 10^6 samples.
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
//   GCSCOPE.flamegraph.fromStacks(frames, listOfStacks, weights, unit) builds one from root..leaf
//   arrays of frame indices; fromFolded(text, unit) from `a;b;c 12` lines (stackcollapse/FlameGraph).
//
// ---- Use --------------------------------------------------------------------------------------
//   const fg = GCSCOPE.flamegraph.create(container, profile, {
//     mode: 'left-heavy' | 'time-order' | 'sandwich' | 'diff',   // initial view (default left-heavy)
//     compare: profileB,      // enables 'diff': widths from profileB, colour = change of share vs profile
//     frame: index,           // sandwich: the function whose callers/callees are shown
//     height: 420,            // visible px (the graph scrolls vertically inside)
//     onSelect(frameIndex),   // a cell was clicked (after zooming to it)
//     stateKey: 'sp.flame',   // deep link: mode, sandwich frame and zoom kept in the URL fragment
//   });                       //   (GCSCOPE.state) under this key, e.g. sandwich.12_0.25_0.5
//   fg.setMode(mode), fg.search(text) (matching cells stay coloured, the matched share is shown),
//   fg.sandwich(frameIndex), fg.resetZoom(), fg.destroy(); fg.element is the component's root;
//   fg.toSvg() is the current view (mode, zoom) as a standalone SVG document (the "SVG" button).
//   Interaction: click a cell = zoom to it (and select it), Esc / "Reset zoom" = whole profile,
//   hover = name, file:line, total/self weight and share.
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
    let maxDepth = 0, grand = 0;
    // Iterative DFS: (node, x, depth).
    const stack = [];
    let x = 0;
    for (let k = start[n]; k < start[n + 1]; k++) { stack.push(kids[k], x, 0); x += total[kids[k]]; }
    grand = x;
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
  function makeTrie() {
    const parent = [], frame = [], self = [], self2 = [];
    const index = new Map();
    return {
      parent, frame, self, self2,
      add(path, len, w, w2) {
        let cur = -1;
        for (let i = 0; i < len; i++) {
          const key = (cur + 1) * 4194304 + path[i];
          let node = index.get(key);
          if (node === undefined) {
            node = parent.length;
            parent.push(cur); frame.push(path[i]); self.push(0); self2.push(0);
            index.set(key, node);
          }
          cur = node;
        }
        if (cur >= 0) { self[cur] += w; self2[cur] += w2 || 0; }
      },
    };
  }

  // Sandwich: callees of f (paths from f's first occurrence down) and its callers (f up to the root).
  function sandwichTrees(p, f) {
    const parent = p.stacks.parent, frame = p.stacks.frame;
    const self = nodeSelf(p);
    const callees = makeTrie(), callers = makeTrie();
    const buf = new Int32Array(65536), fr = new Int32Array(65536), rev = new Int32Array(65536);
    let total = 0, selfTotal = 0;
    for (let n = 0; n < parent.length; n++) {
      if (!(self[n] > 0)) continue;
      const len = pathOf(parent, n, buf);
      let at = -1;
      for (let i = 0; i < len; i++) { fr[i] = frame[buf[i]]; if (at < 0 && fr[i] === f) at = i; }
      if (at < 0) continue;
      total += self[n];
      if (fr[len - 1] === f) selfTotal += self[n];
      callees.add(fr.subarray(at), len - at, self[n]);
      for (let i = 0; i <= at; i++) rev[i] = fr[at - i];
      callers.add(rev, at + 1, self[n]);
    }
    return { callees, callers, total, selfTotal };
  }

  // Differential: both profiles' stacks merged by frame name+file; widths from `b`, colour from the
  // change of each cell's share (b share - a share).
  function diffTree(a, b) {
    const frames = [], keyIndex = new Map();
    const mapFrames = (p) => p.frames.map((f) => {
      const k = (f.name || '') + '\u0000' + (f.file || '');
      let i = keyIndex.get(k);
      if (i === undefined) { i = frames.length; frames.push(f); keyIndex.set(k, i); }
      return i;
    });
    const trie = makeTrie();
    const buf = new Int32Array(65536), path = new Int32Array(65536);
    const feed = (p, fmap, isB) => {
      const self = nodeSelf(p);
      let total = 0;
      for (let n = 0; n < self.length; n++) total += self[n];
      for (let n = 0; n < self.length; n++) {
        if (!(self[n] > 0)) continue;
        const len = pathOf(p.stacks.parent, n, buf);
        for (let i = 0; i < len; i++) path[i] = fmap[p.stacks.frame[buf[i]]];
        const share = self[n] / (total || 1);
        if (isB) trie.add(path, len, self[n], 0); else trie.add(path, len, 0, share);
      }
      return total;
    };
    const totalA = feed(a, mapFrames(a), false);
    const totalB = feed(b, mapFrames(b), true);
    return { trie, frames, totalA, totalB };
  }

  // ---- Colours ------------------------------------------------------------------------------

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

  // ---- The component -------------------------------------------------------------------------

  function create(container, profile, opts = {}) {
    const state = {
      mode: opts.mode || 'left-heavy', sandwichFrame: opts.frame !== undefined ? opts.frame : -1,
      search: '', x0: 0, x1: 1, layouts: {},
    };
    const height = opts.height || 420;
    const unit = profile.unit || 'samples';
    const deepLink = opts.stateKey && GCSCOPE.state ? GCSCOPE.state : null;
    const record = () => {
      if (deepLink) deepLink.set(opts.stateKey, encodeState(state.mode, state.sandwichFrame, state.x0, state.x1), { push: true });
    };

    const modeButtons = {};
    const bar = el('div', { class: 'fg-bar' });
    const modes = [['left-heavy', 'Left heavy'], ['time-order', 'Time order'], ['sandwich', 'Sandwich']];
    if (opts.compare) modes.push(['diff', 'Differential']);
    for (const [m, label] of modes) {
      const b = el('button', { type: 'button', class: 'gs-small fg-mode', text: label, dataset: { mode: m }, on: { click: () => { setMode(m); record(); } } });
      modeButtons[m] = b;
      bar.appendChild(b);
    }
    const searchBox = el('input', { type: 'search', class: 'fg-search', placeholder: 'Search frames…', 'aria-label': 'Search frames' });
    searchBox.addEventListener('input', () => search(searchBox.value));
    const reset = el('button', { type: 'button', class: 'gs-small fg-reset', text: 'Reset zoom', on: { click: () => { resetZoom(); record(); } } });
    const svgButton = el('button', { type: 'button', class: 'gs-small fg-svg', text: 'SVG', title: 'Download this view of the flame graph as SVG',
      on: { click: () => GCSCOPE.ui.download((opts.fileName || 'flamegraph') + '.svg', 'image/svg+xml', toSvg()) } });
    const matchInfo = el('span', { class: 'fg-match muted' });
    bar.append(searchBox, reset, svgButton, matchInfo);
    const caption = el('div', { class: 'fg-caption muted' });

    const panes = el('div', { class: 'fg-panes' });
    // Styles inline: the component brings its own look wherever it is embedded.
    const root = el('div', { class: 'flamegraph', style: { position: 'relative' } }, bar, caption, panes);
    const tip = el('div', {
      class: 'fg-tip', hidden: true,
      style: { position: 'absolute', zIndex: '10', pointerEvents: 'none', background: '#fffef8', color: '#222', border: '1px solid #bbb',
        borderRadius: '4px', padding: '4px 8px', font: '12px system-ui, sans-serif', maxWidth: '420px', wordBreak: 'break-all', boxShadow: '0 2px 6px rgba(0,0,0,.2)' },
    });
    root.appendChild(tip);
    container.appendChild(root);

    // One scrollable canvas pane per graph (sandwich has two).
    const graphs = [];
    function makePane(label, flip) {
      const scroller = el('div', { class: 'fg-scroll', style: { height: height + 'px', overflowY: 'auto', position: 'relative' } });
      const spacer = el('div', { class: 'fg-spacer' });
      const canvas = el('canvas', { class: 'fg-canvas', style: { position: 'sticky', top: '0', left: '0', display: 'block', width: '100%' } });
      scroller.append(canvas, spacer);
      const pane = el('div', { class: 'fg-pane' }, label ? el('div', { class: 'fg-pane-label', text: label }) : null, scroller);
      panes.appendChild(pane);
      const g = { scroller, spacer, canvas, layout: null, flip, frames: profile.frames, colorOf: null, paneHeight: height };
      scroller.addEventListener('scroll', () => draw(g));
      canvas.addEventListener('mousemove', (e) => hover(g, e));
      canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
      canvas.addEventListener('click', (e) => click(g, e));
      graphs.push(g);
      return g;
    }

    function layoutFor(mode) {
      if (state.layouts[mode]) return state.layouts[mode];
      let l;
      if (mode === 'left-heavy') l = layoutTree({ parent: profile.stacks.parent, frame: profile.stacks.frame, self: nodeSelf(profile) });
      else if (mode === 'time-order') l = layoutTime(profile);
      state.layouts[mode] = l;
      return l;
    }

    function setMode(mode) {
      if (mode === 'diff' && !opts.compare) return;
      state.mode = mode;
      for (const [m, b] of Object.entries(modeButtons)) {
        b.classList.toggle('active', m === mode);
        b.style.fontWeight = m === mode ? 'bold' : '';
        b.setAttribute('aria-pressed', String(m === mode));
      }
      panes.textContent = '';
      graphs.length = 0;
      state.x0 = 0; state.x1 = 1;
      if (mode === 'sandwich') {
        let f = state.sandwichFrame;
        if (f < 0) f = heaviestSelfFrame();
        state.sandwichFrame = f;
        const s = sandwichTrees(profile, f);
        const name = profile.frames[f] ? profile.frames[f].name : '?';
        caption.textContent = `Sandwich of ${name}: in ${fmtW(s.total)} ${unit} (${pctOf(s.total, totalWeight())}), self ${fmtW(s.selfTotal)}. Callers above (read upwards), callees below.`;
        const up = makePane('Callers', true);
        up.layout = layoutTree({ parent: s.callers.parent, frame: s.callers.frame, self: s.callers.self });
        const down = makePane('Callees', false);
        down.layout = layoutTree({ parent: s.callees.parent, frame: s.callees.frame, self: s.callees.self });
      } else if (mode === 'diff') {
        const d = diffTree(profile, opts.compare);
        const g = makePane('', false);
        g.frames = d.frames;
        g.layout = layoutTree({ parent: d.trie.parent, frame: d.trie.frame, self: d.trie.self });
        // Each cell's share before (a) and after (b): totals of the trie's two weights.
        const shareA = treeWeights(d.trie.parent, Float64Array.from(d.trie.self2));
        const l = g.layout;
        g.colorOf = (i) => diffColor(l.w[i] / (d.totalB || 1) - shareA[l.node[i]]);
        g.describe = (i) => `share ${pctOf(l.w[i], d.totalB)} now, ${(shareA[l.node[i]] * 100).toFixed(1)} % before`;
        caption.textContent = `Differential: widths = the second profile (${fmtW(d.totalB)} ${opts.compare.unit || unit}); red = larger share than in the first (${fmtW(d.totalA)}), blue = smaller. Stacks only in the first profile have no width.`;
      } else {
        const g = makePane('', false);
        g.layout = layoutFor(mode);
        caption.textContent = mode === 'time-order'
          ? `Time order: samples left to right as recorded${profile.durations ? ' (widths = time between samples)' : ' (widths = sample weights)'}; total ${fmtW(g.layout.total)} ${profile.durations ? (opts.durationUnit || 'µs') : unit}.`
          : `Left heavy: identical stacks merged, heaviest first; total ${fmtW(g.layout.total)} ${unit}.`;
      }
      for (const g of graphs) sizePane(g);
      computeMatches();
      redraw();
    }

    function totalWeight() {
      let t = 0;
      for (const w of profile.samples.weight) t += w;
      return t;
    }
    function heaviestSelfFrame() {
      const self = new Float64Array(profile.frames.length);
      const ns = nodeSelf(profile);
      for (let n = 0; n < ns.length; n++) self[profile.stacks.frame[n]] += ns[n];
      let best = 0;
      for (let i = 1; i < self.length; i++) if (self[i] > self[best]) best = i;
      return best;
    }
    const fmtW = (v) => (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 1 }));
    const pctOf = (v, t) => (t > 0 ? (100 * v / t).toFixed(1) + ' %' : '—');

    function sizePane(g) {
      const rows = g.layout ? g.layout.maxDepth + 1 : 1;
      const full = rows * ROW + 4;
      g.fullHeight = full;
      g.paneHeight = Math.min(height, full);
      g.scroller.style.height = g.paneHeight + 'px';
      g.spacer.style.height = Math.max(0, full - g.paneHeight) + 'px';
    }

    function matches(f) {
      if (!state.search || !f) return false;
      return (f.name && f.name.toLowerCase().includes(state.search)) || (f.file && f.file.toLowerCase().includes(state.search));
    }

    function draw(g) {
      const l = g.layout;
      const canvas = g.canvas;
      const dpr = global.devicePixelRatio || 1;
      const cssW = g.scroller.clientWidth || 800;
      const cssH = g.paneHeight;
      if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
        canvas.width = Math.round(cssW * dpr);
        canvas.height = Math.round(cssH * dpr);
        canvas.style.height = cssH + 'px';
      }
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, cssW, cssH);
      if (!l || !l.total) {
        ctx.fillStyle = '#888';
        ctx.font = FONT;
        ctx.fillText('No samples to show.', 8, 14);
        return;
      }
      const span = (state.x1 - state.x0) * l.total;
      const vx0 = state.x0 * l.total;
      const scale = cssW / span;
      const scrollTop = g.scroller.scrollTop;
      const firstRow = Math.max(0, Math.floor(scrollTop / ROW));
      const lastRow = Math.min(l.maxDepth, Math.ceil((scrollTop + cssH) / ROW));
      ctx.font = FONT;
      ctx.textBaseline = 'middle';
      const searching = !!state.search;
      for (let r = firstRow; r <= lastRow; r++) {
        const row = g.flip ? l.maxDepth - r : r;
        const y = r * ROW - scrollTop;
        const a = l.rowStart[row], b = l.rowStart[row + 1];
        // First cell that may be visible: binary search on x + w > vx0.
        let lo = a, hi = b;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (l.x[mid] + l.w[mid] <= vx0) lo = mid + 1; else hi = mid;
        }
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
            while (a2 < b2) {
              const mid = (a2 + b2) >> 1;
              if (l.x[mid] < nextX) a2 = mid + 1; else b2 = mid;
            }
            i = a2 - 1;
            continue;
          }
          const f = g.frames[l.frame[i]];
          const hit = searching && g.match && g.match[l.frame[i]] === 1;
          ctx.fillStyle = searching && !hit ? '#e4e4e4' : g.colorOf ? g.colorOf(i) : frameColor(f);
          const x0 = Math.max(px, 0), x1 = Math.min(px + pw, cssW);
          ctx.fillRect(x0, y, Math.max(x1 - x0 - 0.5, 0.5), ROW - 1);
          if (x1 - x0 > 30 && f) {
            ctx.fillStyle = searching && !hit ? '#999' : '#222';
            const label = fitText(ctx, f.name || '', x1 - x0 - 6);
            if (label) ctx.fillText(label, x0 + 3, y + ROW / 2);
          }
        }
      }
    }

    const textCache = new Map();
    function fitText(ctx, s, w) {
      if (w < 12) return '';
      let m = textCache.get(s);
      if (m === undefined) { m = ctx.measureText(s).width; if (textCache.size < 20000) textCache.set(s, m); }
      if (m <= w) return s;
      const chars = Math.floor((s.length * w) / m) - 1;
      return chars > 2 ? s.slice(0, chars) + '…' : '';
    }

    function redraw() {
      for (const g of graphs) draw(g);
      // What is shown (mode, sandwich frame, zoom) in the deep-link encoding, for tests and tools.
      root.dataset.view = encodeState(state.mode, state.sandwichFrame, state.x0, state.x1);
    }

    function cellAt(g, e) {
      const l = g.layout;
      if (!l || !l.total) return -1;
      const rect = g.canvas.getBoundingClientRect();
      const mx = e.clientX - rect.left, my = e.clientY - rect.top + g.scroller.scrollTop;
      const r = Math.floor(my / ROW);
      const row = g.flip ? l.maxDepth - r : r;
      if (row < 0 || row > l.maxDepth) return -1;
      const xw = state.x0 * l.total + (mx / rect.width) * (state.x1 - state.x0) * l.total;
      let lo = l.rowStart[row], hi = l.rowStart[row + 1];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (l.x[mid] + l.w[mid] <= xw) lo = mid + 1; else hi = mid;
      }
      return lo < l.rowStart[row + 1] && l.x[lo] <= xw ? lo : -1;
    }

    function hover(g, e) {
      const i = cellAt(g, e);
      if (i < 0) { tip.hidden = true; return; }
      const l = g.layout;
      const f = g.frames[l.frame[i]] || {};
      const where = f.file ? f.file + (f.line !== null && f.line !== undefined ? ':' + f.line : '') : '';
      const selfW = l.info && l.info.self && l.node[i] >= 0 && state.mode === 'left-heavy' ? l.info.self[l.node[i]] : null;
      tip.textContent = '';
      tip.append(...[el('div', { class: 'fg-tip-name', text: f.name || '?' }),
        where ? el('div', { class: 'fg-tip-file', text: where }) : null,
        el('div', { text: `${fmtW(l.w[i])} ${state.mode === 'time-order' && profile.durations ? (opts.durationUnit || 'µs') : unit} (${pctOf(l.w[i], l.total)})` +
          (selfW !== null ? `, self ${fmtW(selfW)}` : '') }),
        g.describe ? el('div', { text: g.describe(i) }) : null].filter(Boolean));
      const rootRect = root.getBoundingClientRect();
      tip.style.left = Math.min(e.clientX - rootRect.left + 12, rootRect.width - 260) + 'px';
      tip.style.top = (e.clientY - rootRect.top + 14) + 'px';
      tip.hidden = false;
    }

    function click(g, e) {
      const i = cellAt(g, e);
      if (i < 0) return;
      const l = g.layout;
      state.x0 = l.x[i] / l.total;
      state.x1 = (l.x[i] + l.w[i]) / l.total;
      redraw();
      record();
      if (opts.onSelect) opts.onSelect(g.frames === profile.frames ? l.frame[i] : -1, g.frames[l.frame[i]]);
    }

    function resetZoom() {
      state.x0 = 0; state.x1 = 1;
      redraw();
    }

    function search(text) {
      state.search = String(text || '').toLowerCase();
      if (searchBox.value !== text) searchBox.value = text || '';
      computeMatches();
      updateMatchInfo();
      redraw();
    }

    function computeMatches() {
      for (const g of graphs) {
        if (!state.search) { g.match = null; continue; }
        const m = new Uint8Array(g.frames.length);
        for (let i = 0; i < g.frames.length; i++) m[i] = matches(g.frames[i]) ? 1 : 0;
        g.match = m;
      }
    }

    function updateMatchInfo() {
      if (!state.search) { matchInfo.textContent = ''; return; }
      // Share of the samples whose stack contains a match (each sample counted once).
      const parent = profile.stacks.parent, frame = profile.stacks.frame;
      const hit = new Uint8Array(parent.length);
      const fm = new Uint8Array(profile.frames.length);
      for (let i = 0; i < fm.length; i++) fm[i] = matches(profile.frames[i]) ? 1 : 0;
      for (let n = 0; n < parent.length; n++) hit[n] = fm[frame[n]] || (parent[n] >= 0 && hit[parent[n]]) ? 1 : 0;
      let sum = 0, all = 0;
      const st = profile.samples.stack, wt = profile.samples.weight;
      for (let i = 0; i < st.length; i++) { all += wt[i]; if (st[i] >= 0 && hit[st[i]]) sum += wt[i]; }
      matchInfo.textContent = `matches: ${pctOf(sum, all)} of ${unit}`;
    }

    const onKey = (e) => { if (e.key === 'Escape' && root.isConnected && (state.x0 > 0 || state.x1 < 1)) { resetZoom(); record(); } };
    document.addEventListener('keydown', onKey);
    let ro = null;
    if (global.ResizeObserver) { ro = new ResizeObserver(() => redraw()); ro.observe(root); }

    // The fragment's view (a reload or a shared link), and back/forward.
    const apply = (v) => {
      const st = decodeState(v, profile.frames.length);
      if (!st || (st.mode === 'diff' && !opts.compare)) { if (v === null) { state.sandwichFrame = -1; setMode(opts.mode || 'left-heavy'); } return; }
      if (st.mode === 'sandwich') state.sandwichFrame = st.frame;
      setMode(st.mode);
      state.x0 = st.x0; state.x1 = st.x1;
      redraw();
    };
    const saved = deepLink && !opts.compare ? decodeState(deepLink.get(opts.stateKey), profile.frames.length) : null;
    if (saved) {
      if (saved.mode === 'sandwich') state.sandwichFrame = saved.frame;
      state.mode = saved.mode;
    }
    setMode(state.mode);
    if (saved) { state.x0 = saved.x0; state.x1 = saved.x1; redraw(); }
    if (deepLink) deepLink.watch(opts.stateKey, root, apply);

    function toSvg(o = {}) {
      return graphsToSvg(graphs, { ...o, x0: state.x0, x1: state.x1, unit, fmtW, pctOf, title: o.title || profile.name || '', caption: caption.textContent });
    }

    return {
      element: root,
      setMode,
      search,
      resetZoom,
      sandwich(frameIndex) { state.sandwichFrame = frameIndex; setMode('sandwich'); record(); },
      get mode() { return state.mode; },
      get zoom() { return [state.x0, state.x1]; },
      toSvg,
      layout() { return graphs[0] ? graphs[0].layout : null; },
      destroy() { document.removeEventListener('keydown', onKey); if (ro) ro.disconnect(); root.remove(); },
    };
  }

  // ---- Adapters -------------------------------------------------------------------------------

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

  function fromFolded(text, unit) {
    const frames = [], byName = new Map(), stacks = [], weights = [];
    for (const line of String(text).split('\n')) {
      const sp = line.lastIndexOf(' ');
      if (sp <= 0) continue;
      const w = Number(line.slice(sp + 1));
      if (!(w >= 0)) continue;
      const path = line.slice(0, sp).split(';').map((name) => {
        let i = byName.get(name);
        if (i === undefined) { i = frames.length; frames.push({ name }); byName.set(name, i); }
        return i;
      });
      stacks.push(path);
      weights.push(w);
    }
    return fromStacks(frames, stacks, weights, unit);
  }

  GCSCOPE.flamegraph = { create, fromStacks, fromFolded, _internals: { layoutTree, layoutTime, sandwichTrees, diffTree, nodeSelf } };
})(typeof window !== 'undefined' ? window : globalThis);
