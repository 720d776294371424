// Deep links and SVG export: each view's selection goes into the URL fragment (GCSCOPE.state), a
// reload with the same input (the same ?url= sample, or the same file chosen again) comes back to it,
// and back/forward step through the selections. Every chart and flame graph exports a standalone SVG.
const fs = require('fs');
const { test, expect } = require('@playwright/test');
const { fixture, corpus, chooseFiles, lastJob } = require('./helpers');

const hashParam = (page, key) => new URL(page.url()).hash.length > 1 ? new URLSearchParams(new URL(page.url()).hash.slice(1)).get(key) : null;
// Drag-selects a chart's plot area from one fraction of its width to another (uPlot zooms to it).
async function dragAcross(page, over, from, to) {
  await over.scrollIntoViewIfNeeded();
  const b = await over.boundingBox();
  await page.mouse.move(b.x + b.width * from, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * to, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

// ---- stackprof ------------------------------------------------------------------------------

test('stackprof: the selected frame and the flame graph view survive a reload; back/forward step through them', async ({ page }) => {
  await page.goto('/?url=samples/fib-cpu-raw.dump&sw=0');
  await lastJob(page);  // the report is done
  const report = () => page.locator('section.report[data-format="stackprof"]');
  // By default the method view shows the first frame of the text report.
  const rows = report().locator('.stackprof-text tbody tr');
  const firstName = await rows.nth(0).locator('td').nth(4).textContent();
  await expect(report().locator('.method-name')).toHaveText(firstName);
  expect(hashParam(page, 'sp.frame')).toBe(null);
  // Select the third frame of the table.
  const third = await rows.nth(2).locator('td').nth(4).textContent();
  expect(third).not.toBe(firstName);
  await rows.nth(2).click();
  await expect(report().locator('.method-name')).toHaveText(third);
  expect(hashParam(page, 'sp.frame')).toMatch(/^\d+$/);
  // Sandwich of that frame in the flame graph.
  await report().locator('.method-view + button, .stackprof-method button', { hasText: 'Show sandwich' }).click();
  const fg = report().locator('.flamegraph');
  await expect(fg).toHaveAttribute('data-view', 'sandwich.' + hashParam(page, 'sp.frame'));
  await expect(fg.locator('.fg-caption')).toContainText('Sandwich of ' + third);
  expect(hashParam(page, 'sp.flame')).toBe('sandwich.' + hashParam(page, 'sp.frame'));

  // Reload: same sample, same selection and view.
  await page.reload();
  await lastJob(page);
  await expect(report().locator('.method-name')).toHaveText(third);
  await expect(report().locator('.flamegraph .fg-caption')).toContainText('Sandwich of ' + third);
  await expect(report().locator('.flamegraph button[data-mode="sandwich"]')).toHaveAttribute('aria-pressed', 'true');

  // Zoom into the left-heavy graph by clicking its second row: the zoom is kept too.
  await report().locator('.flamegraph button[data-mode="left-heavy"]').click();
  await expect(fg).toHaveAttribute('data-view', 'left-heavy');
  const canvas = report().locator('.flamegraph canvas.fg-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // Rows are 16 px; left heavy puts the heaviest child first, so go down the left edge until a
  // click lands on a cell narrower than the whole profile.
  let zoomed = 'left-heavy';
  for (let row = 1; row < 12 && zoomed === 'left-heavy'; row++) {
    await page.mouse.click(box.x + 3, box.y + row * 16 + 8);
    zoomed = await fg.getAttribute('data-view');
  }
  expect(zoomed).toMatch(/^left-heavy_[\d.]+_[\d.]+$/);
  expect(hashParam(page, 'sp.flame')).toBe(zoomed);
  await page.reload();
  await lastJob(page);
  await expect(report().locator('.flamegraph')).toHaveAttribute('data-view', zoomed);

  // Back, one selection at a time (each click above was one entry): at every step the flame graph
  // shows what the fragment says, until the sandwich; forward as many steps returns to the zoom.
  let steps = 0;
  for (; steps < 12; steps++) {
    await page.goBack();
    const want = hashParam(page, 'sp.flame') || 'left-heavy';
    await expect(report().locator('.flamegraph')).toHaveAttribute('data-view', want);
    if (want.startsWith('sandwich.')) break;
  }
  expect(hashParam(page, 'sp.flame')).toMatch(/^sandwich\./);
  await expect(report().locator('.method-name')).toHaveText(third);
  for (let i = 0; i <= steps; i++) await page.goForward();
  await expect(report().locator('.flamegraph')).toHaveAttribute('data-view', zoomed);
  // Back to before any selection: the default frame again.
  await page.goto(page.url().split('#')[0]);
  await lastJob(page);
  await expect(report().locator('.method-name')).toHaveText(firstName);
});

// ---- heap ------------------------------------------------------------------------------------

test('heap: the selected object survives choosing the same file again after a reload; back clears it', async ({ page }) => {
  const dump = corpus('heap/dumps/small_points.heap.json');
  await page.goto('/?sw=0');
  await chooseFiles(page, [dump]);
  await lastJob(page);
  const report = () => page.locator('section.report[data-format="ruby-heap-dump"]');
  const top = report().locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Top retainers' }) });
  // The second top retainer (the first is often a root holder): its address is in the table.
  const row = top.locator('tbody tr').nth(1);
  const address = (await row.locator('td').nth(1).textContent()).trim();
  await row.click();
  await expect(report().locator('.heap-detail h4')).toContainText(address);
  expect(hashParam(page, 'heap.obj')).toBe(address);
  await page.reload();
  await chooseFiles(page, [dump]);
  await lastJob(page);
  await expect(report().locator('.heap-detail h4')).toContainText(address);
  await expect(report().locator('.heap-detail ol.heap-path li').first()).toContainText('GC root:');
  // The icicle is zoomed to it: its breadcrumb ends with the object.
  await expect(report().locator('.heap-crumbs a').last()).toContainText(address);
  await page.goBack();
  await expect(report().locator('.heap-detail h4')).toHaveCount(0);
  await page.goForward();
  await expect(report().locator('.heap-detail h4')).toContainText(address);
});

// ---- tracing ---------------------------------------------------------------------------------

test('tracing: the selected probe, histogram and flame graph view survive a reload', async ({ page }) => {
  // Probes: bpftrace-maps.txt (det_aggs: @c[x] = 2 calls).
  await page.goto('/?sw=0');
  await chooseFiles(page, [fixture('tracing/bpftrace-maps.txt')]);
  let job = await lastJob(page);
  await job.locator('.tracing-latency tbody tr', { hasText: /^x/ }).click();
  await expect(job.locator('.tracing-selected')).toHaveText(/^Selected probe x: 2 calls/);
  expect(hashParam(page, 'tr.probe')).toBe('x');
  await page.reload();
  await chooseFiles(page, [fixture('tracing/bpftrace-maps.txt')]);
  job = await lastJob(page);
  await expect(job.locator('.tracing-selected')).toHaveText(/^Selected probe x: 2 calls/);
  await page.goBack();
  await expect(job.locator('.tracing-selected')).toBeHidden();

  // Histograms: the sample bpftrace-hist.txt by ?url=; select the second one if there are two.
  await page.goto('/?url=samples/bpftrace-hist.txt&sw=0');
  job = await lastJob(page);
  const hists = job.locator('.tracing-hist');
  const n = await hists.count();
  const pick = n > 1 ? 1 : 0;
  await hists.nth(pick).locator('button.tracing-hist-select').click();
  await expect(hists.nth(pick)).toHaveClass(/selected/);
  expect(hashParam(page, 'tr.hist')).toBe(String(pick));
  await page.reload();
  job = await lastJob(page);
  await expect(job.locator('.tracing-hist').nth(pick)).toHaveClass(/selected/);
  await expect(job.locator('.tracing-hist.selected')).toHaveCount(1);

  // Flame graph of perf script stacks: time order mode, reload, still time order.
  await page.goto('/?url=samples/perf-script-ruby.txt&sw=0');
  job = await lastJob(page);
  await job.locator('.tracing-flame button[data-mode="time-order"]').click();
  expect(hashParam(page, 'tr.flame')).toBe('time-order');
  await page.reload();
  job = await lastJob(page);
  await expect(job.locator('.tracing-flame .flamegraph')).toHaveAttribute('data-view', 'time-order');
  await expect(job.locator('.tracing-flame button[data-mode="time-order"]')).toHaveAttribute('aria-pressed', 'true');
  await page.goBack();
  await expect(job.locator('.tracing-flame .flamegraph')).toHaveAttribute('data-view', 'left-heavy');
});

// ---- rbkit and the Ruby GC tuner -----------------------------------------------------------------

test('rbkit: the CPU flame graph view survives a reload', async ({ page }) => {
  const capture = corpus('heap/rbkit/legacy_rbkit_client_fixtures/cpusample.rbkit');
  await page.goto('/?sw=0');
  await chooseFiles(page, [capture]);
  let job = await lastJob(page);
  await job.locator('.rbkit-flamegraph button[data-mode="sandwich"]').click();
  const view = await job.locator('.rbkit-flamegraph .flamegraph').getAttribute('data-view');
  expect(view).toMatch(/^sandwich\.\d+$/);
  expect(hashParam(page, 'rbkit.flame')).toBe(view);
  await page.reload();
  await chooseFiles(page, [capture]);
  job = await lastJob(page);
  await expect(job.locator('.rbkit-flamegraph .flamegraph')).toHaveAttribute('data-view', view);
});

test('Ruby GC tuner: the env-block tab of each strategy survives a reload; back/forward', async ({ page }) => {
  const payload = corpus('tuner/rt01_rack_app_seed.json');
  await page.goto('/?sw=0');
  await chooseFiles(page, [payload]);
  await lastJob(page);  // the report is done
  const speed = () => page.locator('.rubygc-strategy[data-strategy="speed"]');
  await speed().locator('button[data-form="dockerfile"]').click();
  await speed().locator('button[data-form="heroku"]').click();
  expect(hashParam(page, 'gc.speed')).toBe('heroku');
  await page.reload();
  await chooseFiles(page, [payload]);
  await lastJob(page);
  // rt01 speed advice (corpus oracle): INIT_SLOTS 929657.
  await expect(speed().locator('pre.gs-copy')).toContainText('heroku config:set RUBY_GC_HEAP_GROWTH_FACTOR=1.25 RUBY_GC_HEAP_INIT_SLOTS=929657');
  await expect(speed().locator('button[data-form="heroku"]')).toHaveClass(/active/);
  await page.goBack();
  await expect(speed().locator('pre.gs-copy')).toContainText('ENV RUBY_GC_HEAP_GROWTH_FACTOR=1.25');
  await page.goBack();
  await expect(speed().locator('pre.gs-copy')).toHaveText('export RUBY_GC_HEAP_GROWTH_FACTOR=1.25\nexport RUBY_GC_HEAP_INIT_SLOTS=929657\n');
  await page.goForward();
  await expect(speed().locator('pre.gs-copy')).toContainText('ENV RUBY_GC_HEAP_GROWTH_FACTOR=1.25');
});

test('Ruby GC tuner and rbkit: a zoomed timeline range survives a reload, on every chart of the view', async ({ page }) => {
  const payload = fixture('rubygc/rec31_steady.json');
  await page.goto('/?sw=0');
  await chooseFiles(page, [payload]);
  await lastJob(page);
  const charts = page.locator('.rubygc-timelines .gs-chart');
  const n = await charts.count();
  expect(n).toBeGreaterThanOrEqual(2);
  await dragAcross(page, charts.first().locator('.u-over'), 0.3, 0.6);
  await expect.poll(() => hashParam(page, 'gc.range')).toMatch(/^[\d.]+,[\d.]+$/);
  const range = hashParam(page, 'gc.range');
  await expect(charts.first()).toHaveAttribute('data-x-range', range);
  await page.reload();
  await chooseFiles(page, [payload]);
  await lastJob(page);
  for (let i = 0; i < n; i++) await expect(page.locator('.rubygc-timelines .gs-chart').nth(i)).toHaveAttribute('data-x-range', range);
  await page.goBack();
  for (let i = 0; i < n; i++) await expect(page.locator('.rubygc-timelines .gs-chart').nth(i)).toHaveAttribute('data-x-range', '');

  // rbkit: the same mechanism on its timeline (key rbkit.range).
  await page.goto('/?url=samples/stock-server-first12.rbkit&sw=0');
  await lastJob(page);
  const rb = page.locator('section.report[data-format="rbkit-capture"] .gs-chart');
  await expect(rb.first()).toBeVisible();
  {
    await dragAcross(page, rb.first().locator('.u-over'), 0.2, 0.7);
    // The fragment is written when uPlot applies the selection (after the mouseup's frame).
    await expect.poll(() => hashParam(page, 'rbkit.range')).toMatch(/^[\d.]+,[\d.]+$/);
    const r = hashParam(page, 'rbkit.range');
    await page.reload();
    await lastJob(page);
    await expect(page.locator('section.report[data-format="rbkit-capture"] .gs-chart').first()).toHaveAttribute('data-x-range', r);
  }
});

test('JVM: the zoomed range survives a reload and back/forward return to the whole log', async ({ page }) => {
  await page.goto('/?url=samples/jdk17-g1.log&sw=0');
  await lastJob(page);
  // Zoom by dragging across the pause chart, as a user does.
  const range = page.locator('.jvm-range');
  await expect(range).toHaveText('Whole log');
  await dragAcross(page, page.locator('.jvm-pause-chart .u-over'), 0.2, 0.5);
  await expect(range).not.toHaveText('Whole log');
  const zoomedText = await range.textContent();
  expect(hashParam(page, 'range')).toMatch(/^[\d.]+,[\d.]+$/);
  await page.reload();
  await lastJob(page);
  await expect(page.locator('.jvm-range')).toHaveText(zoomedText);
  await page.goBack();
  await expect(page.locator('.jvm-range')).toHaveText('Whole log');
  await page.goForward();
  await expect(page.locator('.jvm-range')).toHaveText(zoomedText);
});

test('JVM: the event table\'s page survives a reload once the paging stops', async ({ page }) => {
  await page.goto('/?url=samples/jdk17-g1-leak.log&sw=0');
  await lastJob(page);
  const events = page.locator('.jvm-events');
  const count = events.locator('.gs-table-count');
  await expect(count).toHaveText(/^1–50 of /);
  await events.locator('button.gs-sort', { hasText: /^Duration$/ }).click();
  await events.locator('button.gs-next').click();
  await expect(count).toHaveText(/^51–/);
  const firstRow = await events.locator('tbody tr').first().textContent();
  // A page turned is written to the fragment lazily, once the turning stops; the sort at once.
  await expect.poll(() => hashParam(page, 'events')).toBe('duration_s.d.50');
  await page.reload();
  await lastJob(page);
  await expect(page.locator('.jvm-events .gs-table-count')).toHaveText(/^51–/);
  await expect(page.locator('.jvm-events tbody tr').first()).toHaveText(firstRow);
  await page.locator('.jvm-events button.gs-prev').click();
  await expect(page.locator('.jvm-events .gs-table-count')).toHaveText(/^1–50 of /);
  await expect.poll(() => hashParam(page, 'events')).toBe('duration_s.d.0');
});

// ---- SVG export ----------------------------------------------------------------------------------

async function downloadText(page, locator) {
  const [download] = await Promise.all([page.waitForEvent('download'), locator.click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

// Parses SVG text (DOMParser, as an image/svg+xml document) and counts what it holds: in a blank page
// of its own, since gcscope's pages refuse strings as markup (Trusted Types).
async function inspectSvg(page, text) {
  const blank = await page.context().newPage();
  try {
    return await inspectSvgIn(blank, text);
  } finally {
    await blank.close();
  }
}
async function inspectSvgIn(page, text) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const root = doc.documentElement;
    const q = (s) => doc.getElementsByTagNameNS('http://www.w3.org/2000/svg', s);
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      root: root.localName, ns: root.namespaceURI,
      scripts: doc.getElementsByTagName('script').length + q('script').length + q('foreignObject').length,
      handlers: Array.from(doc.getElementsByTagName('*')).some((n) => Array.from(n.attributes).some((a) => /^on/i.test(a.name))),
      series: Array.from(doc.querySelectorAll('g.series')).map((g) => ({ label: g.getAttribute('data-label'), paths: g.querySelectorAll('path').length,
        points: g.querySelectorAll('rect.point').length, bars: g.querySelectorAll('rect.bar').length })),
      markers: Array.from(doc.querySelectorAll('g.marker')).map((g) => g.getAttribute('data-label')),
      cells: doc.querySelectorAll('g.fg-cell').length,
      cellTitles: Array.from(doc.querySelectorAll('g.fg-cell > title')).map((n) => n.textContent),
      texts: Array.from(doc.querySelectorAll('text')).map((n) => n.textContent),
    };
  }, text);
}

test('SVG export: a histogram has one bar per bucket and its percentile markers; no script', async ({ page }) => {
  await page.goto('/?url=samples/bpftrace-hist.txt&sw=0');
  const job = await lastJob(page);
  const hist = job.locator('.tracing-hist').first();
  const { name, text } = await downloadText(page, hist.locator('button.gs-svg'));
  expect(name).toMatch(/\.svg$/);
  const svg = await inspectSvg(page, text);
  expect(svg.error).toBe(false);
  expect(svg.root).toBe('svg');
  expect(svg.ns).toBe('http://www.w3.org/2000/svg');
  expect(svg.scripts).toBe(0);
  expect(svg.handlers).toBe(false);
  // fixtures/tracing/bpftrace-hist.txt, first map: count its bucket lines by hand from the file
  // ("[lo, hi) count |@@@|" rows up to the next blank line).
  const lines = fs.readFileSync(fixture('tracing/bpftrace-hist.txt'), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^@/.test(l));
  let buckets = 0;
  for (let i = start + 1; i < lines.length && /^[[(]/.test(lines[i]); i++) buckets++;
  expect(buckets).toBeGreaterThan(1);
  expect(svg.series).toEqual([{ label: 'count', paths: 0, points: 0, bars: buckets }]);
  // det_hist: p50 in [2, 3], p90 and p99 in [1024, 2047] (tracing.spec.js): three markers.
  expect(svg.markers).toEqual(['p50', 'p90', 'p99']);
});

test('SVG export: the JVM heap chart has its four series with one point per GC event', async ({ page }) => {
  await page.goto('/?url=samples/jdk17-g1.log&sw=0');
  const job = await lastJob(page);
  const report = await job.evaluate((card) => card.gcscopeDoc.reports[0]);
  const ev = report.series.events;
  // The heap chart plots the report's series: for this short log one row per event with a time and
  // a heap figure; "after GC" has one point per row with heap_after_kb, the pause marks one per
  // event with a pause.
  expect(report.series.decimated).toBe(false);
  let after = 0, pauses = 0, before = 0;
  for (let i = 0; i < ev.t.length; i++) {
    if (ev.heap_after_kb[i] !== null) after++;
    if (ev.heap_before_kb[i] !== null) before++;
    if (ev.pause_s[i] !== null) pauses++;
  }
  const { text } = await downloadText(page, job.locator('.jvm-heap-chart button.gs-svg'));
  const svg = await inspectSvg(page, text);
  expect(svg.error).toBe(false);
  expect(svg.scripts).toBe(0);
  expect(svg.series.map((s) => s.label)).toEqual(['before GC', 'after GC', 'committed', 'pause (ms)']);
  expect(svg.series[0]).toMatchObject({ paths: 0, points: before });
  expect(svg.series[1]).toMatchObject({ paths: 1, points: after });
  expect(svg.series[2]).toMatchObject({ paths: 1, points: 0 });
  expect(svg.series[3]).toMatchObject({ paths: 0, points: pauses });
  expect(after).toBeGreaterThan(10);
  expect(svg.texts).toContain('uptime (s)');
});

test('SVG export: the flame graph has one rectangle per stack prefix, names as text', async ({ page }) => {
  // A folded-stacks file written here, with a hostile frame name: 4 distinct prefixes
  // (main; main;<script>…; main;<script>…;leaf; main;other), counted by hand.
  const folded = 'main;<script>alert(1)</script> 3\nmain;<script>alert(1)</script>;leaf&"x" 2\nmain;other 5\n';
  const file = require('./helpers').tempFile('hostile.folded', folded);
  await page.goto('/?sw=0');
  await chooseFiles(page, [file]);
  const job = await lastJob(page);
  const fg = job.locator('.flamegraph').first();
  await expect(fg).toBeVisible();
  const { name, text } = await downloadText(page, fg.locator('button.fg-svg'));
  expect(name).toMatch(/flamegraph\.svg$/);
  expect(text).not.toContain('<script>');
  const svg = await inspectSvg(page, text);
  expect(svg.error).toBe(false);
  expect(svg.scripts).toBe(0);
  expect(svg.handlers).toBe(false);
  expect(svg.cells).toBe(4);
  // Weights: main = 10 of 10, other = 5, <script> = 5 (3 self + 2 in leaf), leaf = 2.
  expect(svg.cellTitles.sort()).toEqual([
    '<script>alert(1)</script>: 5 samples (50.0 %)',
    'leaf&"x": 2 samples (20.0 %)',
    'main: 10 samples (100.0 %)',
    'other: 5 samples (50.0 %)',
  ].map((s) => expect.stringMatching('^' + s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ samples/, ' \\S+'))));
  // Nothing of the page was injected by rendering the hostile name.
  expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(2);
});

test('SVG export: the heap icicle (the shared flame graph) has its boxes, titled with label and retained bytes', async ({ page }) => {
  await page.goto('/?sw=0');
  await chooseFiles(page, [corpus('heap/dumps/small_points.heap.json')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  const icicle = report.locator('.heap-icicle-wrap');
  await icicle.scrollIntoViewIfNeeded();
  const { name, text } = await downloadText(page, icicle.locator('button.fg-svg'));
  expect(name).toBe('heap-icicle.svg');
  const blank = await page.context().newPage();  // a page that takes markup (gcscope's do not)
  const svg = await blank.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length > 0,
      scripts: doc.getElementsByTagName('script').length,
      titles: Array.from(doc.querySelectorAll('g.fg-cell > title')).map((n) => n.textContent),
      rects: doc.querySelectorAll('g.fg-cell > rect').length,
    };
  }, text);
  await blank.close();
  expect(svg.error).toBe(false);
  expect(svg.scripts).toBe(0);
  // One titled rectangle per box; the first is the root of the dominator tree.
  expect(svg.rects).toBe(svg.titles.length);
  expect(svg.titles[0]).toMatch(/^\(GC roots\): [\d,]+ bytes \(100\.0 %\)$/);
  // The biggest retainer of the "Top retainers" table (its label and retained bytes) is one of the boxes.
  const top = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Top retainers' }) });
  const label = (await top.locator('tbody tr').first().locator('td').first().textContent()).trim();
  expect(svg.titles.some((t) => t.startsWith(label + ':') || t.startsWith(label + ' ('))).toBe(true);
});
