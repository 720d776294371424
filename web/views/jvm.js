// JVM GC log view: KPIs, heap over time with pauses marked, pause durations and their histogram,
// causes, phases, findings (each opens its log line), the diary and a sortable event table.
// Zooming the heap or pause chart to a time range recomputes every number from the report's
// columnar series for that range.
'use strict';
(function (global) {
  const GCSCOPE = global.GCSCOPE;
  const { el, fmt } = GCSCOPE.ui;

  // Nearest-rank index of quantile q among n values (same rule as the C++ aggregator).
  function rankOf(n, q) { return Math.min(Math.max(Math.ceil(q * n), 1), n) - 1; }

  // Puts the k-th smallest of a[lo, hi) at a[k], smaller ones left of it, larger right (quickselect):
  // percentiles of 10^6 pauses without sorting them.
  function nthElement(a, lo, hi, k) {
    hi--;
    while (hi > lo) {
      const mid = (lo + hi) >> 1;
      const x = a[lo], y = a[mid], z = a[hi];
      const pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
      let i = lo, j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) { const t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
      }
      if (k <= j) hi = j;
      else if (k >= i) lo = i;
      else return;
    }
  }

  // {p50, p90, p99, p999} of the values (reordered in place).
  function percentiles(a) {
    const n = a.length;
    const out = { p50: 0, p90: 0, p99: 0, p999: 0 };
    if (!n) return out;
    let lo = 0;
    for (const [key, q] of [['p50', 0.5], ['p90', 0.9], ['p99', 0.99], ['p999', 0.999]]) {
      const r = rankOf(n, q);
      if (r >= lo) { nthElement(a, lo, n, r); lo = r + 1; }
      out[key] = a[r];
    }
    return out;
  }

  // {p50, p90, p99, p999} of n pauses given as counts per histogram bin (bucketed pauses): the
  // nearest-rank bin's middle, kept within the range's exact [min, max]; off by at most half a bin
  // (1.6 % with 32 bins per power of two).
  function binPercentiles(bins, n, perOctave, min, max) {
    const out = { p50: 0, p90: 0, p99: 0, p999: 0 };
    if (!n) return out;
    const wanted = [['p50', 0.5], ['p90', 0.9], ['p99', 0.99], ['p999', 0.999]].map(([k, q]) => [k, rankOf(n, q)]);
    let below = 0, w = 0;
    for (let b = 0; b < bins.length && w < wanted.length; b++) {
      below += bins[b];
      while (w < wanted.length && wanted[w][1] < below) {
        out[wanted[w][0]] = Math.min(Math.max(binMiddle(b, perOctave), min), max);
        w++;
      }
    }
    return out;
  }

  // Packed integer column of the report (wasm/jvm/aggregator.cpp, PackedColumn): comma-separated
  // integers, an empty field for null; with `delta` each is the difference to the previous non-null
  // one, without it "v*n" stands for n copies of v. `scale` divides (microseconds → seconds).
  // Returns a typed array (Float64Array: null → NaN; Int32Array for index columns).
  function unpack(text, count, delta, scale, Type) {
    const out = new (Type || Float64Array)(count);
    const n = text ? text.length : 0;
    let i = 0, prev = 0;
    for (let k = 0; k < count; k++) {
      let neg = false, v = 0, digits = 0;
      if (i < n && text.charCodeAt(i) === 45) { neg = true; i++; }
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c < 48 || c > 57) break;
        v = v * 10 + (c - 48);
        digits++;
      }
      if (!digits) { i++; out[k] = NaN; continue; }
      if (neg) v = -v;
      if (delta) { v += prev; prev = v; }
      const value = scale ? v / scale : v;
      out[k] = value;
      if (i < n && text.charCodeAt(i) === 42) {  // "v*n": n copies of v (plain columns)
        let run = 0;
        for (i++; i < n; i++) {
          const c = text.charCodeAt(i);
          if (c < 48 || c > 57) break;
          run = run * 10 + (c - 48);
        }
        for (let r = 1; r < run && k + 1 < count; r++) out[++k] = value;
      }
      i++;  // the comma
    }
    return out;
  }

  // Bins of the bucketed pause histograms (wasm/jvm/pause_series.h): bin 0 is below 1 µs; bin
  // 1 + B·e + k covers [2^e (1 + k/B), 2^e (1 + (k+1)/B)) µs, B = bins per power of two. Middle of a
  // bin, in seconds.
  function binMiddle(bin, perOctave) {
    if (bin <= 0) return 0.5e-6;
    const e = Math.floor((bin - 1) / perOctave), k = (bin - 1) % perOctave;
    return (2 ** e * (1 + (k + 0.5) / perOctave)) / 1e6;
  }

  // A report's bucketed pauses (past the aggregator's exact cap), decoded once: per bucket of
  // consecutive pauses its first/last time, the time of its longest pause, count, total, min, max,
  // first line and member, plus the flattened per-bucket lists (histogram bins, per-kind and
  // per-cause tallies) with each bucket's start offset in them.
  function bucketedPauses(z) {
    const nb = z.buckets;
    const ints = (text, n, delta) => unpack(text, n, delta, 0, Float64Array);
    const list = (cols, idxKey) => {
      const n = ints(cols.n, nb, false);
      const start = new Int32Array(nb + 1);
      for (let i = 0; i < nb; i++) start[i + 1] = start[i] + n[i];
      const m = start[nb];
      return {
        start, idx: unpack(cols[idxKey], m, false, 0, Int32Array), count: ints(cols.count, m, false),
        total: unpack(cols.total_us, m, false, 1e6), max: unpack(cols.max_us, m, false, 1e6),
      };
    };
    const hn = ints(z.hist.n, nb, false);
    const hStart = new Int32Array(nb + 1);
    for (let i = 0; i < nb; i++) hStart[i + 1] = hStart[i] + hn[i];
    const hBin = unpack(z.hist.bin, hStart[nb], true, 0, Int32Array);
    let maxBin = 0;
    for (let j = 0; j < hBin.length; j++) if (hBin[j] > maxBin) maxBin = hBin[j];
    return {
      bucketed: true, buckets: nb, perBucket: z.per_bucket, perOctave: z.bins_per_octave,
      t: unpack(z.t_us, nb, true, 1e6), tLast: unpack(z.t_last_us, nb, true, 1e6), tMax: unpack(z.t_max_us, nb, true, 1e6),
      count: ints(z.n, nb, false), total: unpack(z.total_us, nb, false, 1e6),
      min: unpack(z.min_us, nb, false, 1e6), max: unpack(z.max_us, nb, false, 1e6),
      line: ints(z.line, nb, true), member: ints(z.member, nb, false),
      hist: { start: hStart, bin: hBin, count: ints(z.hist.count, hStart[nb], false), maxBin },
      kinds: list(z.kinds, 'name'), causes: list(z.causes, 'cause'),
    };
  }

  // The pauses of a report, decoded once: exact, {t (NaN when the log has no uptime), duration_s,
  // name, cause}; or bucketed (bucketedPauses).
  const pauseCache = new WeakMap();
  function pausesOf(report) {
    let p = pauseCache.get(report);
    if (p) return p;
    const z = report.series.pauses;
    if (z.encoding === 'buckets') {
      p = bucketedPauses(z);
    } else if (z.encoding === 'packed') {
      p = {
        t: unpack(z.t_us, z.count, true, 1e6), duration_s: unpack(z.duration_us, z.count, false, 1e6),
        name: unpack(z.name, z.count, false, 0, Int32Array), cause: unpack(z.cause, z.count, false, 0, Int32Array),
      };
    } else {
      p = { t: z.t.map((v) => (v === null ? NaN : v)), duration_s: z.duration_s, name: z.name, cause: z.cause || z.t.map(() => -1) };
    }
    pauseCache.set(report, p);
    return p;
  }

  // Every figure of the KPI header and the tables, for the range [t0, t1] (null: all): pauses are
  // exact (one entry each) while the log has at most 2^20 of them, else buckets of consecutive
  // pauses with histograms (approximate range percentiles); events and safepoints come in buckets
  // (one event per bucket while the log has few events; past that, buckets of consecutive events).
  // Buckets count in the range of their first event or pause.
  function compute(report, t0, t1) {
    const s = report.series;
    const ev = s.events, sp = s.safepoints;
    const pz = pausesOf(report);
    const inRange = (t) => t0 === null || (t !== null && t >= t0 && t <= t1);  // NaN: never in a range
    // Per pause kind and per cause, by index (no string work per pause: logs have 10^6 of them).
    const nk = s.names.length, nc = s.causes.length;
    const kCount = new Float64Array(nk), kTotal = new Float64Array(nk), kMax = new Float64Array(nk);
    const cCount = new Float64Array(nc), cTotal = new Float64Array(nc);
    let m = 0, total = 0, dmin = Infinity, dmax = 0, pct, durs = null, bins = null, approx = false;
    if (pz.bucketed) {
      // Buckets of consecutive pauses, counted in the range of their first pause: count, total,
      // min, max and the tables are exact sums over whole buckets; the percentiles of the whole log
      // are the report's exact ones, those of a range come from the buckets' histograms (≈).
      bins = new Float64Array(pz.hist.maxBin + 1);
      for (let i = 0; i < pz.buckets; i++) {
        if (!inRange(pz.t[i])) continue;
        m += pz.count[i];
        total += pz.total[i];
        if (pz.min[i] < dmin) dmin = pz.min[i];
        if (pz.max[i] > dmax) dmax = pz.max[i];
        for (let j = pz.hist.start[i]; j < pz.hist.start[i + 1]; j++) bins[pz.hist.bin[j]] += pz.hist.count[j];
        const ks = pz.kinds;
        for (let j = ks.start[i]; j < ks.start[i + 1]; j++) {
          const k = ks.idx[j];
          kCount[k] += ks.count[j]; kTotal[k] += ks.total[j]; if (ks.max[j] > kMax[k]) kMax[k] = ks.max[j];
        }
        const cs = pz.causes;
        for (let j = cs.start[i]; j < cs.start[i + 1]; j++) {
          const c = cs.idx[j];
          if (c >= 0) { cCount[c] += cs.count[j]; cTotal[c] += cs.total[j]; }
        }
      }
      if (t0 === null && report.pauses) {
        const g = report.pauses;
        pct = { p50: g.p50_s, p90: g.p90_s, p99: g.p99_s, p999: g.p999_s };
        total = g.total_s;  // the exact sum (the buckets' totals are each rounded to the µs)
      } else {
        pct = binPercentiles(bins, m, pz.perOctave, dmin, dmax);
        approx = m > 0;
      }
    } else {
      const all = new Float64Array(pz.t.length);
      for (let i = 0; i < pz.t.length; i++) {
        if (!inRange(pz.t[i])) continue;
        const d = pz.duration_s[i];
        all[m++] = d;
        total += d;
        const k = pz.name[i];
        kCount[k]++; kTotal[k] += d; if (d > kMax[k]) kMax[k] = d;
        const c = pz.cause[i];
        if (c >= 0) { cCount[c]++; cTotal[c] += d; }
      }
      durs = all.subarray(0, m);
      for (let i = 0; i < m; i++) { if (durs[i] < dmin) dmin = durs[i]; if (durs[i] > dmax) dmax = durs[i]; }
      pct = percentiles(durs);
    }
    const byName = new Map(), causes = new Map(), phases = new Map();
    const phaseRow = (name) => {
      let row = phases.get(name);
      if (!row) { row = { name, count: 0, total: 0, max: 0 }; phases.set(name, row); }
      return row;
    };
    for (let k = 0; k < nk; k++) {
      if (!kCount[k]) continue;
      const name = s.names[k];
      byName.set(name, { name, count: kCount[k], total: kTotal[k], max: kMax[k] });
      const ph = phaseRow(name);
      ph.count += kCount[k]; ph.total += kTotal[k]; ph.max = Math.max(ph.max, kMax[k]);
    }
    for (let c = 0; c < nc; c++) if (cCount[c]) causes.set(s.causes[c], { name: s.causes[c], count: cCount[c], total: cTotal[c] });

    const idx = [];
    for (let i = 0; i < ev.t.length; i++) if (inRange(ev.t[i])) idx.push(i);
    const afterMax = ev.heap_after_max_kb || ev.heap_after_kb;
    let maxCommitted = null, maxAfter = null, maxBefore = null, allocatedKb = 0, events = 0;
    const types = new Map();
    for (const i of idx) {
      const c = ev.heap_committed_kb[i], a = afterMax[i], b = ev.heap_before_kb[i];
      if (c !== null && (maxCommitted === null || c > maxCommitted)) maxCommitted = c;
      if (a !== null && (maxAfter === null || a > maxAfter)) maxAfter = a;
      if (b !== null && (maxBefore === null || b > maxBefore)) maxBefore = b;
      allocatedKb += ev.allocated_kb[i];
      const n = ev.count ? ev.count[i] : 1;
      events += n;
      const type = s.types[ev.type[i]];
      types.set(type, (types.get(type) || 0) + n);
    }
    // Phases of the events (concurrent phases, G1 sub-phases), per bucket.
    const ep = ev.phases;
    if (ep) {
      const inIdx = new Uint8Array(ev.t.length);
      for (const i of idx) inIdx[i] = 1;
      for (let k = 0; k < ep.bucket.length; k++) {
        if (!inIdx[ep.bucket[k]]) continue;
        const row = phaseRow(s.names[ep.name[k]]);
        row.count += ep.count[k]; row.total += ep.total_s[k]; row.max = Math.max(row.max, ep.max_s[k]);
      }
    }
    let spCount = 0, spTotal = 0, spMax = 0;
    for (let i = 0; i < sp.t.length; i++) {
      if (!inRange(sp.t[i])) continue;
      spCount += sp.count[i]; spTotal += sp.total_s[i]; spMax = Math.max(spMax, sp.max_s[i]);
    }
    const runtime = t0 === null ? report.runtime_s : t1 - t0;
    const paused = runtime ? Math.min(100, (total / runtime) * 100) : null;
    return {
      eventIndex: idx, events,
      pauses: {
        count: m, total, max: m ? dmax : 0, min: m ? dmin : 0, mean: m ? total / m : 0,
        p50: pct.p50, p90: pct.p90, p99: pct.p99, p999: pct.p999, values: durs,
        // Bucketed pauses: the merged histogram bins of the range (values is null then), and
        // whether the percentiles are approximate (a zoomed range).
        bins, perOctave: pz.bucketed ? pz.perOctave : 0, approx,
      },
      runtime, percentPaused: paused, throughput: paused === null ? null : 100 - paused,
      heap: { maxCommitted, maxAfter, maxBefore },
      allocationMbS: runtime ? allocatedKb / 1024 / runtime : null,
      causes: [...causes.values()], pauseKinds: [...byName.values()], phases: [...phases.values()], types,
      safepoints: { count: spCount, total: spTotal, max: spMax },
    };
  }

  function kpiItems(report, c) {
    const tp = c.throughput;
    return [
      { label: 'Throughput', value: tp === null ? '—' : fmt.pct(tp), severity: tp === null ? '' : tp < 90 ? 'error' : tp < 95 ? 'warning' : 'ok', hint: '100 % − time paused / runtime' },
      { label: 'p99 pause', value: (c.pauses.approx ? '≈ ' : '') + fmt.seconds(c.pauses.p99),
        hint: c.pauses.approx ? 'approximate: from the histograms of the pause groups in the range' : undefined },
      { label: 'Max pause', value: fmt.seconds(c.pauses.max) },
      { label: 'Pauses', value: fmt.num(c.pauses.count) },
      { label: 'Paused total', value: fmt.seconds(c.pauses.total) },
      { label: 'Footprint (max heap)', value: fmt.kb(c.heap.maxCommitted), hint: 'largest committed heap' },
      { label: 'Max after GC', value: fmt.kb(c.heap.maxAfter) },
      { label: 'Allocation rate', value: c.allocationMbS === null ? '—' : fmt.num(c.allocationMbS, 1) + ' MB/s' },
      { label: 'Runtime', value: fmt.seconds(c.runtime) },
      { label: 'Safepoints', value: c.safepoints.count ? fmt.num(c.safepoints.count) + ' / ' + fmt.seconds(c.safepoints.total) : '—' },
    ];
  }

  // Log-spaced buckets of pause durations (powers of two of a millisecond).
  function pauseBuckets(values, min, max) {
    if (!values.length) return [];
    const lo = Math.floor(Math.log2(Math.max(min * 1e3, 1e-3)));
    const hi = Math.ceil(Math.log2(Math.max(max * 1e3, 1e-3)));
    const buckets = [];
    for (let e = lo; e <= Math.max(hi, lo + 1); e++) buckets.push({ lo: 2 ** (e - 1), hi: 2 ** e, count: 0 });
    for (const d of values) {
      // The first bucket with ms <= hi = 2^e: e = ceil(log2(ms)).
      const e = Math.ceil(Math.log2(Math.max(d * 1e3, 1e-3)));
      buckets[Math.min(Math.max(e - lo, 0), buckets.length - 1)].count++;
    }
    return buckets;
  }

  // The same buckets from the histogram bins of bucketed pauses: each bin counts in the bucket of
  // its middle (kept within the range's [min, max]).
  function pauseBucketsFromBins(bins, perOctave, min, max) {
    let n = 0;
    for (let b = 0; b < bins.length; b++) n += bins[b];
    if (!n) return [];
    const lo = Math.floor(Math.log2(Math.max(min * 1e3, 1e-3)));
    const hi = Math.ceil(Math.log2(Math.max(max * 1e3, 1e-3)));
    const buckets = [];
    for (let e = lo; e <= Math.max(hi, lo + 1); e++) buckets.push({ lo: 2 ** (e - 1), hi: 2 ** e, count: 0 });
    for (let b = 0; b < bins.length; b++) {
      if (!bins[b]) continue;
      const d = Math.min(Math.max(binMiddle(b, perOctave), min), max);
      const e = Math.ceil(Math.log2(Math.max(d * 1e3, 1e-3)));
      buckets[Math.min(Math.max(e - lo, 0), buckets.length - 1)].count += bins[b];
    }
    return buckets;
  }

  // Reads line `n` (1-based) of a Blob without loading it whole.
  async function readLine(blob, n) {
    const reader = blob.stream().getReader();
    const decoder = new TextDecoder();
    let line = 1, current = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return line === n ? current : null;
      let start = 0;
      for (let i = 0; i < value.length; i++) {
        if (value[i] !== 10) continue;
        if (line === n) { reader.cancel(); return current + decoder.decode(value.subarray(start, i)); }
        line++;
        start = i + 1;
        current = '';
      }
      if (line === n) current += decoder.decode(value.subarray(start), { stream: true });
    }
  }

  function render(container, report, ctx) {
    if (!report.series) {
      container.appendChild(el('p', { class: 'muted', text: 'No analysis in this report.' }));
      return;
    }
    const s = report.series;
    const files = (ctx && ctx.files) || [];
    const memberPath = (m) => (report.members && report.members[m] ? report.members[m].path : (report.inputs || [])[m]);
    const fileFor = (m) => files.find((f) => f.path === memberPath(m)) || (files.length === 1 ? files[0] : null);

    if (report.legacy_not_parsed) {
      container.appendChild(el('p', { class: 'warning', text: 'This log is pre-unified (JDK 8 or older): it was identified, but legacy parsing is not available in this build yet.' }));
    }

    // Rotating set: how the members were ordered and which JVM run is shown.
    const rot = report.rotation;
    if (rot && rot.order && rot.order.length > 1) {
      const base = (p) => String(p).split('/').pop();
      container.appendChild(el('p', { class: rot.restarts ? 'warning jvm-rotation' : 'muted jvm-rotation',
        text: 'Rotating set of ' + rot.order.length + ' files, ' + rot.note + '. Analyzed: ' + rot.selected.map(base).join(', ') + '.' }));
    }

    // ---- range bar + KPIs ----
    const rangeLabel = el('span', { class: 'jvm-range', text: 'Whole log' });
    const resetBtn = el('button', { type: 'button', class: 'gs-small', text: 'Reset zoom', hidden: true });
    const kpiBox = el('div', { class: 'jvm-kpis' });
    container.append(el('div', { class: 'jvm-rangebar' }, el('strong', { text: 'Range: ' }), rangeLabel, ' ', resetBtn), kpiBox);

    // ---- charts ----
    const heapBox = el('div', { class: 'jvm-heap-chart' });
    const pauseBox = el('div', { class: 'jvm-pause-chart' });
    const histBox = el('div', { class: 'jvm-pause-hist' });
    container.append(heapBox, pauseBox, histBox);

    const ev = s.events;
    const exact = !ev.count;  // one event per bucket
    const perBucket = ev.events_per_bucket || 1;
    const MB = (v) => (v === null || v === undefined ? null : v / 1024);
    // Per-generation/region columns the log printed (young/eden/survivor/old/humongous/metaspace).
    const POOLS = ['young', 'eden', 'survivor', 'old', 'humongous', 'metaspace'].filter((p) => ev[p + '_after_kb']);
    const heapX = [], before = [], after = [], afterMax = [], committed = [], pauseMark = [];
    const poolCols = POOLS.flatMap((p) => [{ key: p + '_before_kb', label: p + ' before GC', values: [] }, { key: p + '_after_kb', label: p + ' after GC', values: [] }]);
    for (let i = 0; i < ev.t.length; i++) {
      if (ev.t[i] === null) continue;
      const anyPool = poolCols.some((c) => ev[c.key][i] !== null);
      if (ev.heap_after_kb[i] === null && ev.heap_before_kb[i] === null && !anyPool) continue;
      heapX.push(ev.t[i]);
      before.push(MB(ev.heap_before_kb[i]));
      after.push(MB(ev.heap_after_kb[i]));
      if (!exact) afterMax.push(MB(ev.heap_after_max_kb[i]));
      committed.push(MB(ev.heap_committed_kb[i]));
      pauseMark.push(ev.pause_s[i] > 0 ? ev.pause_s[i] * 1e3 : null);
      for (const c of poolCols) c.values.push(MB(ev[c.key][i]));
    }
    const pzAll = pausesOf(report);
    // The pause chart draws at most ~8000 points: past that, the longest pause of each run of
    // consecutive pauses (so every spike stays visible); the numbers use all pauses.
    const pauseX = [], pauseY = [];
    if (pzAll.bucketed) {
      // Bucketed pauses (at most 4,096 groups): each group's longest pause, at its own time.
      for (let i = 0; i < pzAll.buckets; i++) {
        const x = Number.isNaN(pzAll.tMax[i]) ? pzAll.t[i] : pzAll.tMax[i];
        if (!Number.isNaN(x)) { pauseX.push(x); pauseY.push(pzAll.max[i] * 1e3); }
      }
    } else {
      const n = pzAll.t.length, step = Math.max(1, Math.ceil(n / 8000));
      for (let i = 0; i < n; i += step) {
        let best = -1;
        for (let j = i; j < Math.min(n, i + step); j++) if (!Number.isNaN(pzAll.t[j]) && (best < 0 || pzAll.duration_s[j] > pzAll.duration_s[best])) best = j;
        if (best >= 0) { pauseX.push(pzAll.t[best]); pauseY.push(pzAll.duration_s[best] * 1e3); }
      }
    }
    {
      // uPlot needs x ascending.
      for (let i = 1; i < pauseX.length; i++) if (pauseX[i] < pauseX[i - 1]) { const o = pauseX.map((x, k) => k).sort((a, b) => pauseX[a] - pauseX[b]); const xs = o.map((k) => pauseX[k]), ys = o.map((k) => pauseY[k]); pauseX.splice(0, pauseX.length, ...xs); pauseY.splice(0, pauseY.length, ...ys); break; }
    }

    let zoom = [null, null];
    let hist = null;
    const onZoom = (min, max) => {
      zoom = min === null ? [null, null] : [min, max];
      // Deep link: the range goes into the fragment, so a reload or a shared link returns to it.
      if (GCSCOPE.state && !GCSCOPE.staticReport) GCSCOPE.state.set('range', min === null ? null : `${min.toFixed(3)},${max.toFixed(3)}`, { push: true });
      update();
    };
    const charts = GCSCOPE.charts;
    let heapPlot = null, pausePlot = null;
    if (charts && heapX.length) {
      heapPlot = charts.line(heapBox, {
        title: exact ? 'Heap over time (MB) — pauses in ms on the right axis; drag to zoom; click a legend entry to show or hide it'
          : `Heap over time (MB), ${perBucket} events per point: highest before GC, lowest and highest after GC; drag to zoom; click a legend entry to show or hide it`,
        x: heapX, xLabel: 'uptime (s)', yLabel: 'MB', y2Label: 'pause (ms)', syncKey: 'jvm',
        series: [
          { label: exact ? 'before GC' : 'before GC (max)', values: before, points: 'only' },
          { label: exact ? 'after GC' : 'after GC (min)', values: after, points: true },
          ...(exact ? [] : [{ label: 'after GC (max)', values: afterMax, points: true }]),
          { label: 'committed', values: committed, dash: [4, 3] },
          { label: exact ? 'pause (ms)' : 'paused per point (ms)', values: pauseMark, points: 'only', scale: 'y2' },
          ...poolCols.map((c) => ({ label: c.label, values: c.values, points: c.key.endsWith('_before_kb') ? 'only' : true })),
        ],
        onZoom,
      });
      // Generation/region series start hidden (the legend toggles them).
      const firstPool = heapPlot.series.length - poolCols.length;
      for (let i = firstPool; i < heapPlot.series.length; i++) heapPlot.setSeries(i, { show: false });
    }
    if (charts && pauseX.length) {
      pausePlot = charts.line(pauseBox, {
        title: pzAll.bucketed ? `Pause durations (ms): the longest of each group of up to ${pzAll.perBucket} consecutive pauses` : 'Pause durations (ms)',
        x: pauseX, xLabel: 'uptime (s)', yLabel: 'ms', syncKey: 'jvm',
        series: [{ label: pzAll.bucketed ? 'longest pause of the group' : 'pause', values: pauseY, points: 'only' }], onZoom,
      });
    }
    resetBtn.addEventListener('click', () => {
      for (const p of [heapPlot, pausePlot]) if (p) p.setScale('x', { min: p.data[0][0], max: p.data[0][p.data[0].length - 1] });
      onZoom(null, null);
    });

    // ---- tables (recomputed) ----
    const causesBox = el('div', { class: 'jvm-causes' });
    const pauseKindsBox = el('div', { class: 'jvm-pause-kinds' });
    container.append(GCSCOPE.ui.section('Causes', causesBox), GCSCOPE.ui.section('Pauses by kind', pauseKindsBox));

    // ---- phases (recomputed) ----
    const phasesBox = el('div', { class: 'jvm-phases' });
    const phasesSection = GCSCOPE.ui.section('Phases', phasesBox);
    container.append(phasesSection);

    // ---- findings ----
    const lineView = el('pre', { class: 'jvm-line gs-copy', hidden: true });
    const findings = report.findings || [];
    const findingList = el('ul', { class: 'jvm-findings', style: { listStyle: 'none', paddingLeft: '0' } }, findings.map((f) => {
      const li = el('li', { class: 'finding sev-' + f.severity, dataset: { id: f.id } },
        el('span', { class: 'badge', text: f.severity }), ' ', el('strong', { text: f.id }), ' — ', el('span', { text: f.message }));
      if (f.first_line > 0) {
        const link = el('a', { href: '#', class: 'jvm-line-link', text: ' line ' + f.first_line });
        link.addEventListener('click', async (e) => {
          e.preventDefault();
          const file = fileFor(0);
          lineView.hidden = false;
          if (!file) { lineView.textContent = 'Line ' + f.first_line + ' (the file is not available in this page)'; return; }
          const text = await readLine(file.blob, f.first_line);
          lineView.textContent = f.first_line + ': ' + (text === null ? '(beyond the end of the file)' : text);
        });
        li.appendChild(link);
      }
      return li;
    }));
    container.append(GCSCOPE.ui.section('Findings (' + findings.length + ')',
      findings.length ? findingList : el('p', { class: 'muted', text: 'Nothing to point out.' }), lineView));

    // ---- diary ----
    const d = report.diary || {};
    const flagRows = Object.entries(d.flags || {}).map(([name, v]) => ({ name, value: v === null ? 'unknown' : String(v) }));
    container.append(GCSCOPE.ui.section('Diary',
      el('dl', { class: 'jvm-diary', style: { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.2rem 1rem' } },
        el('dt', { text: 'Unified logging' }), el('dd', { text: d.unified === null ? 'unknown' : String(d.unified) }),
        el('dt', { text: 'JVM version' }), el('dd', { text: d.jvm_version || '—' }),
        el('dt', { text: 'Collector(s)' }), el('dd', { text: (d.collectors || []).join(', ') || '—' }),
        el('dt', { text: 'Max heap' }), el('dd', { text: fmt.kb(d.max_heap_kb) }),
        el('dt', { text: 'Command line' }), el('dd', { text: d.command_line || '—' })),
      GCSCOPE.ui.table([{ key: 'name', label: 'Flag' }, { key: 'value', label: 'Value' }], flagRows, { csvName: 'jvm-diary.csv' })));

    // ---- events (recomputed) ----
    const eventsBox = el('div', { class: 'jvm-events' });
    container.append(GCSCOPE.ui.section('Events', eventsBox));

    if (report.unparsed && report.unparsed.count) {
      container.append(GCSCOPE.ui.section('Lines not understood (' + report.unparsed.count + ')',
        GCSCOPE.ui.table([{ key: 'line', label: 'Line', numeric: true }, { key: 'text', label: 'Text' }], report.unparsed.samples, { filter: false })));
    }

    function update() {
      const [t0, t1] = zoom;
      const c = compute(report, t0, t1);
      rangeLabel.textContent = t0 === null ? 'Whole log' : `${t0.toFixed(3)} s – ${t1.toFixed(3)} s`;
      resetBtn.hidden = t0 === null;
      kpiBox.textContent = '';
      kpiBox.appendChild(GCSCOPE.ui.kpis(kpiItems(report, c)));
      const ap = c.pauses.approx ? '≈ ' : '';
      const pct = el('p', { class: 'muted jvm-percentiles', text:
        `p50 ${ap}${fmt.seconds(c.pauses.p50)} · p90 ${ap}${fmt.seconds(c.pauses.p90)} · p99 ${ap}${fmt.seconds(c.pauses.p99)} · p99.9 ${ap}${fmt.seconds(c.pauses.p999)} · mean ${fmt.seconds(c.pauses.mean)}` +
        (c.pauses.approx ? ' (percentiles of a range of a long log are read from the histograms of its groups of pauses: within about 2 %)' : '') });
      kpiBox.appendChild(pct);

      histBox.textContent = '';
      if (charts && c.pauses.count) {
        const buckets = c.pauses.bins ? pauseBucketsFromBins(c.pauses.bins, c.pauses.perOctave, c.pauses.min, c.pauses.max)
          : pauseBuckets(c.pauses.values, c.pauses.min, c.pauses.max);
        const at = (v) => { const k = buckets.findIndex((b) => v * 1e3 <= b.hi); return k < 0 ? buckets.length - 1 : k; };
        hist = charts.histogram(histBox, {
          title: 'Pause duration histogram (ms)', buckets, xLabel: 'ms', yLabel: 'pauses',
          markers: [{ label: 'p50', value: at(c.pauses.p50) }, { label: 'p99', value: at(c.pauses.p99) }],
        });
      }

      causesBox.textContent = '';
      causesBox.appendChild(GCSCOPE.ui.table([
        { key: 'name', label: 'Cause' },
        { key: 'count', label: 'Pauses', numeric: true },
        { key: 'total', label: 'Paused', numeric: true, format: fmt.seconds },
      ], c.causes, { csvName: 'jvm-causes.csv', sort: { key: 'count', desc: true } }));
      // Pause kinds and phases: the same name/count/total/max table.
      const timesTable = (box, nameLabel, rows, csvName) => {
        box.textContent = '';
        box.appendChild(GCSCOPE.ui.table([
          { key: 'name', label: nameLabel },
          { key: 'count', label: 'Count', numeric: true },
          { key: 'total', label: 'Total', numeric: true, format: fmt.seconds },
          { key: 'max', label: 'Max', numeric: true, format: fmt.seconds },
        ], rows, { csvName, sort: { key: 'total', desc: true } }));
      };
      timesTable(pauseKindsBox, 'Pause', c.pauseKinds, 'jvm-pauses.csv');
      phasesSection.querySelector('summary').textContent = t0 === null ? 'Phases (whole log)' : 'Phases (range)';
      timesTable(phasesBox, 'Phase', c.phases, 'jvm-phases.csv');

      eventsBox.textContent = '';
      const rows = c.eventIndex.map((i) => {
        const row = {
          t: ev.t[i], type: s.types[ev.type[i]], cause: ev.cause[i] >= 0 ? s.causes[ev.cause[i]] : '',
          stw: ev.stw[i] ? 'pause' : 'concurrent', duration: ev.duration_s[i], paused: ev.pause_s[i],
          before: ev.heap_before_kb[i], after: ev.heap_after_kb[i], committed: ev.heap_committed_kb[i],
          gc_id: ev.gc_id[i], line: ev.line[i], events: ev.count ? ev.count[i] : 1,
        };
        for (const p of POOLS) row[p] = ev[p + '_after_kb'][i];
        return row;
      });
      const poolColumns = POOLS.map((p) => ({ key: p, label: p[0].toUpperCase() + p.slice(1) + ' after', numeric: true, format: fmt.kb }));
      eventsBox.appendChild(GCSCOPE.ui.table(exact ? [
        { key: 't', label: 'Uptime (s)', numeric: true, format: (v) => (v === null ? '—' : v.toFixed(3)) },
        { key: 'gc_id', label: 'GC id', numeric: true },
        { key: 'type', label: 'Type' },
        { key: 'cause', label: 'Cause' },
        { key: 'stw', label: 'Kind' },
        { key: 'duration', label: 'Duration', numeric: true, format: fmt.seconds },
        { key: 'paused', label: 'Paused', numeric: true, format: fmt.seconds },
        { key: 'before', label: 'Heap before', numeric: true, format: fmt.kb },
        { key: 'after', label: 'Heap after', numeric: true, format: fmt.kb },
        { key: 'committed', label: 'Committed', numeric: true, format: fmt.kb },
        ...poolColumns,
        { key: 'line', label: 'Line', numeric: true },
      ] : [
        // Buckets of consecutive events: first event's time, type, cause and line; highest before, lowest after.
        { key: 't', label: 'From (s)', numeric: true, format: (v) => (v === null ? '—' : v.toFixed(3)) },
        { key: 'events', label: 'Events', numeric: true },
        { key: 'type', label: 'First type' },
        { key: 'paused', label: 'Paused', numeric: true, format: fmt.seconds },
        { key: 'before', label: 'Max heap before', numeric: true, format: fmt.kb },
        { key: 'after', label: 'Min heap after', numeric: true, format: fmt.kb },
        { key: 'committed', label: 'Committed', numeric: true, format: fmt.kb },
        ...poolColumns.map((c) => ({ ...c, label: 'Max ' + c.label.toLowerCase() })),
        { key: 'line', label: 'First line', numeric: true },
      ], rows, { csvName: 'jvm-events.csv', caption: exact ? rows.length + ' events' : c.events + ' events in ' + rows.length + ' groups of up to ' + perBucket }));
    }
    update();
    // A range in the fragment (#range=a,b) from a shared link or a reload: zoom to it.
    const saved = GCSCOPE.state && GCSCOPE.state.get('range');
    const m = saved && /^(-?[\d.]+),(-?[\d.]+)$/.exec(saved);
    if (m && Number(m[1]) < Number(m[2])) {
      const [a, b] = [Number(m[1]), Number(m[2])];
      for (const p of [heapPlot, pausePlot]) if (p) p.setScale('x', { min: a, max: b });
      if (!heapPlot && !pausePlot) onZoom(a, b);
    }
    // Deep-link state hook: back/forward to another range (or the whole log).
    if (GCSCOPE.state) {
      GCSCOPE.state.watch('range', kpiBox, (v) => {
        const r = v && /^(-?[\d.]+),(-?[\d.]+)$/.exec(v);
        const plots = [heapPlot, pausePlot].filter(Boolean);
        if (r && Number(r[1]) < Number(r[2])) {
          for (const p of plots) p.setScale('x', { min: Number(r[1]), max: Number(r[2]) });
          if (!plots.length) onZoom(Number(r[1]), Number(r[2]));
        } else {
          for (const p of plots) p.setScale('x', { min: p.data[0][0], max: p.data[0][p.data[0].length - 1] });
          onZoom(null, null);
        }
      });
    }
    renderCompare(container, report, ctx);
  }

  // ---- Compare: this report against another JVM report on the page ----
  // Two logs dropped in one job are one report (a rotating set), so the other side is picked from
  // the JVM reports of the page: this document's other reports and every finished job card's.

  // The KPI fields gcscope compare (wasm/jvm/compare.cpp) computes: pauses.*, heap.*, rates.*,
  // throughput_percent, percent_paused, events.total, flattened to dotted keys.
  function kpiMap(report) {
    const out = new Map();
    const flatten = (v, prefix, depth) => {
      if (depth > 8) return;
      if (typeof v === 'number' && Number.isFinite(v)) { out.set(prefix, v); return; }
      if (v && typeof v === 'object' && !Array.isArray(v)) for (const k of Object.keys(v)) flatten(v[k], prefix ? prefix + '.' + k : k, depth + 1);
    };
    for (const g of ['pauses', 'heap', 'rates']) if (report[g] !== undefined) flatten(report[g], g, 0);
    for (const k of ['throughput_percent', 'percent_paused']) if (report[k] !== undefined) flatten(report[k], k, 0);
    if (report.events && report.events.total !== undefined) flatten(report.events.total, 'events.total', 0);
    return out;
  }

  function compareKpis(a, b) {
    const ka = kpiMap(a), kb = kpiMap(b);
    const keys = Array.from(new Set([...ka.keys(), ...kb.keys()])).sort();
    return keys.map((key) => {
      const va = ka.has(key) ? ka.get(key) : null, vb = kb.has(key) ? kb.get(key) : null;
      const delta = va !== null && vb !== null ? vb - va : null;
      const pct = delta !== null && va !== 0 ? (100 * delta) / Math.abs(va) : null;
      return { key, a: va, b: vb, delta, delta_percent: pct };
    });
  }

  // Pause counts in power-of-two millisecond buckets [2^k, 2^(k+1)) (sub-0.001 ms in the lowest).
  // Bucketed pauses: each histogram bin counts in the bucket of its middle.
  function pauseLog2Buckets(report) {
    const m = new Map();
    const key = (d) => Math.floor(Math.log2(Math.max(d * 1e3, 1 / 1024)));
    const pz = pausesOf(report);
    if (pz.bucketed) {
      for (let j = 0; j < pz.hist.bin.length; j++) {
        const k = key(binMiddle(pz.hist.bin[j], pz.perOctave));
        m.set(k, (m.get(k) || 0) + pz.hist.count[j]);
      }
      return m;
    }
    for (const d of pz.duration_s) {
      const k = key(d);
      m.set(k, (m.get(k) || 0) + 1);
    }
    return m;
  }

  function renderCompare(container, report, ctx) {
    const ui = GCSCOPE.ui;
    container.append(ui.section('Compare', ui.comparePicker({
      self: report, ctx, accept: (r) => r.format === 'jvm-gc-log' && Boolean(r.series), cls: 'jvm-compare',
      ariaLabel: 'JVM report to compare with', prompt: 'Compare with: ',
      emptyText: 'No other JVM report on the page: analyze another GC log (as its own job) to compare.',
      draw: (out, pick) => drawCompare(out, report, pick.report, ui.reportLabel(report, 'this report'), pick.label),
    })));
  }

  function drawCompare(out, a, b, labelA, labelB) {
    const rows = compareKpis(a, b);
    const num = (v) => (v === null ? '—' : Math.abs(v) >= 1000 ? v.toFixed(0) : String(Math.round(v * 1e4) / 1e4));
    out.appendChild(GCSCOPE.ui.table([
      { key: 'key', label: 'KPI' },
      { key: 'a', label: 'A: ' + labelA, numeric: true, format: num },
      { key: 'b', label: 'B: ' + labelB, numeric: true, format: num },
      { key: 'delta', label: 'Δ (B − A)', numeric: true, format: num },
      { key: 'delta_percent', label: 'Δ %', numeric: true, format: (v) => (v === null ? '—' : (v > 0 ? '+' : '') + v.toFixed(1) + ' %') },
    ], rows, { caption: rows.length + ' KPIs', csvName: 'jvm-compare.csv', filter: false }));
    const charts = GCSCOPE.charts;
    if (!charts) return;
    // Overlaid pause histograms.
    const ba = pauseLog2Buckets(a), bb = pauseLog2Buckets(b);
    const ks = Array.from(new Set([...ba.keys(), ...bb.keys()])).sort((x, y) => x - y);
    if (ks.length) {
      const xs = [];
      for (let k = ks[0]; k <= ks[ks.length - 1]; k++) xs.push(k);
      const histBox = el('div', { class: 'jvm-compare-hist' });
      out.appendChild(histBox);
      charts.line(histBox, {
        title: 'Pause histogram (count per duration bucket, ms)', x: xs, xLabel: 'pause ≥ (ms)', yLabel: 'pauses',
        xFormat: (k) => (Number.isInteger(k) ? String(Math.pow(2, k) >= 1 ? Math.pow(2, k) : Math.pow(2, k).toPrecision(2)) : ''),
        series: [
          { label: 'A: ' + labelA, values: xs.map((k) => ba.get(k) || 0), points: true },
          { label: 'B: ' + labelB, values: xs.map((k) => bb.get(k) || 0), points: true },
        ],
      });
    }
    // Overlaid heap after GC, each over its own time since its first event.
    const curve = (r) => {
      const ev = r.series.events, pts = [];
      let t0 = null;
      for (let i = 0; i < ev.t.length; i++) {
        if (ev.t[i] === null) continue;
        if (t0 === null) t0 = ev.t[i];
        if (ev.heap_after_kb[i] !== null) pts.push([ev.t[i] - t0, ev.heap_after_kb[i] / 1024]);
      }
      return pts;
    };
    const ca = curve(a), cb = curve(b);
    if (ca.length || cb.length) {
      const merged = ca.map((p) => [p[0], p[1], null]).concat(cb.map((p) => [p[0], null, p[1]])).sort((x, y) => x[0] - y[0]);
      const heapBox = el('div', { class: 'jvm-compare-heap' });
      out.appendChild(heapBox);
      charts.line(heapBox, {
        title: 'Heap after GC (MB) over time since each log\'s first event', x: merged.map((p) => p[0]),
        xLabel: 'seconds since first event', yLabel: 'MB',
        series: [
          { label: 'A: ' + labelA, values: merged.map((p) => p[1]), points: true },
          { label: 'B: ' + labelB, values: merged.map((p) => p[2]), points: true },
        ],
      });
    }
  }

  GCSCOPE.registerView('jvm-gc-log', { title: 'JVM GC log', render, compute, compareKpis });
})(typeof window !== 'undefined' ? window : globalThis);
