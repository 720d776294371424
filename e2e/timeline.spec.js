// The timeline of all open jobs (web/lib/timeline.js): a real JVM log with wall-clock decorations and
// a real rbkit capture on one time axis, their figures as counted independently of the engine, and
// the per-job offset moving a job along the axis.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, corpus, chooseFiles, lastJob, tempFile } = require('./helpers');

// The JVM log's pauses from its text: the wall-clock time (epoch s) of each "[gc,start] GC(n) Pause"
// line and the duration (ms) its closing "GC(n) Pause ... <d>ms" line prints.
function wallPauses(file) {
  const open = new Map(), out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let m = /^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\+0000\]\[[\d.]+s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) Pause/.exec(line);
    if (m) { open.set(m[2], out.length); out.push({ start: Date.parse(m[1] + 'Z') / 1000, ms: null }); continue; }
    m = /^\[[^\]]+\]\[[\d.]+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) Pause .* (\d+\.\d+)ms$/.exec(line);
    if (m && open.has(m[1])) { out[open.get(m[1])].ms = Number(m[2]); open.delete(m[1]); }
  }
  return out;
}

test('a JVM log and an rbkit capture on one time axis; an offset moves a job', async ({ page }) => {
  const log = fixture('jvm/jdk17-g1-time.log');
  const capture = fixture('rbkit/stock-server-first12.rbkit');
  const pauses = wallPauses(log);
  expect(pauses.length).toBe(30);
  const totalMs = pauses.reduce((s, p) => s + p.ms, 0);
  await page.goto('/');
  await chooseFiles(page, [log]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  const open = page.locator('button.timeline-open');
  await expect(open).toBeHidden();  // one job: nothing to lay side by side
  await chooseFiles(page, [capture]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await open.click();
  const panel = page.locator('section.timeline-panel');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const jvm = panel.locator('tr[data-job="1"]'), rbkit = panel.locator('tr[data-job="2"]');
  await expect(jvm.locator('.timeline-clock')).toHaveText('wall-clock time');
  await expect(rbkit.locator('.timeline-clock')).toHaveText('wall-clock time');
  // The pauses as the log's text counts them; the capture's allocations as the msgpack gem counts
  // them (3152 created: tests/rbkit/test_rbkit_corpus.cpp) and its one GC cycle.
  const total = totalMs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await expect(jvm.locator('.timeline-totals')).toContainText(`30 GC pauses, ${total} ms in all`);
  await expect(rbkit.locator('.timeline-totals')).toContainText('objects created: 3,152 in all');
  await expect(rbkit.locator('.timeline-totals')).toContainText('1 GC cycles');

  // One axis: both jobs at their own instants, the capture 1.6 hours before the log.
  const chart = panel.locator('figure.timeline-chart');
  const captureStart = 1795257121;  // its first second (fixtures/rbkit/real_stock_windows.truth.json's s0)
  const shown = async () => (await chart.getAttribute('data-shown')).split(',').map(Number);
  let [min, max] = await shown();
  expect(min).toBeLessThanOrEqual(captureStart);
  expect(max).toBeGreaterThanOrEqual(pauses[29].start);
  const firstX = (label) => chart.evaluate((fig, name) => {
    const u = fig.gcscopePlot;
    const k = u.series.findIndex((s) => s.label === name);
    const i = u.data[k].findIndex((v) => v !== null);
    return u.data[0][i];
  }, label);
  expect(await firstX('Job 2: objects created (objects/s)')).toBe(captureStart);
  expect(Math.abs(await firstX('Job 1: GC pauses (ms)') - pauses[0].start)).toBeLessThan(0.0015);

  // Moving the capture by the whole seconds between the two starts, less one, lays it over the log.
  const offset = Math.floor(pauses[0].start) - 1 - captureStart;
  await rbkit.locator('input.timeline-offset').fill(String(offset));
  await rbkit.locator('input.timeline-offset').press('Enter');
  await rbkit.locator('input.timeline-offset').blur();
  await expect.poll(async () => (await shown())[0]).toBeGreaterThan(captureStart + 1000);
  expect(await firstX('Job 2: objects created (objects/s)')).toBe(captureStart + offset);
  [min, max] = await shown();
  expect(max - min).toBeLessThan(10);

  // Zoom by keyboard until the range cuts the log's pauses: the engine answers the narrower range,
  // as `gcscope query` does, and the log's text agrees.
  const body = chart.locator('.gs-chart-body');
  await body.focus();
  let count = 30, t0 = 0, t1 = 0;
  for (let press = 0; press < 8 && (count === 30 || count === 0); press++) {
    [t0, t1] = (await zoomInByKey(chart, body)).split(',').map(Number);
    const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'),
      ['query', log, '--method', 'timeline.series', '--args', JSON.stringify({ t0, t1 })]).toString()).result;
    count = cli.series[0].totals.count;
  }
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(30);
  await expect(jvm.locator('.timeline-totals')).toContainText(`${count} GC pauses`);
  // The text's starts are printed to the millisecond: it decides where none is that near an end.
  const inRange = pauses.filter((p) => p.start >= t0 && p.start <= t1).length;
  if (!pauses.some((p) => Math.abs(p.start - t0) < 0.0015 || Math.abs(p.start - t1) < 0.0015)) expect(count).toBe(inRange);
});

// A TuneMyGC payload's GCs and values as its samples count them, without gcscope: the GC.stat
// columns by the header's key names (header[7]), each counter taken at its highest value so far
// (a thread's late sample adds nothing), a GC counter's rise at a sample being that many GCs.
function payloadFigures(file) {
  const [header, ...samples] = JSON.parse(fs.readFileSync(file, 'utf8'));
  const keys = header[7];
  const at = (s, key) => {
    const e = s.findIndex((x) => typeof x === 'string');  // the event; GC.stat values follow it
    return s[e + 1][keys.indexOf(key)];
  };
  const rises = (key) => {
    let high = at(samples[0], key), n = 0;
    for (const s of samples.slice(1)) { const v = at(s, key); if (v > high) { n += v - high; high = v; } }
    return n;
  };
  const live = samples.map((s) => at(s, 'heap_live_slots'));
  const ts = samples.map((s) => s[s.findIndex((x) => typeof x === 'string') - 3]);
  return { minor: rises('minor_gc_count'), major: rises('major_gc_count'), allocated: rises('total_allocated_objects'),
    gcMs: rises('time'), samples: samples.length, liveMax: Math.max(...live), first: ts[0] };
}

const fragment = (page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

// One zoom in by keyboard (the + key unshifted) on the chart's focused body; resolves with the range
// shown once it has changed.
async function zoomInByKey(chart, body) {
  const before = await chart.getAttribute('data-x-range');
  await body.press('=');
  await expect(chart).not.toHaveAttribute('data-x-range', before || '');
  return chart.getAttribute('data-x-range');
}

test('a TuneMyGC payload beside an rbkit capture: its GCs and heap on the same wall clock', async ({ page }) => {
  const payload = fixture('rubygc/rt16_rack_app_tiny_seed.json');
  const capture = fixture('rbkit/stock-server-first12.rbkit');
  const want = payloadFigures(payload);
  expect(want).toMatchObject({ minor: 1, major: 0, samples: 9, gcMs: 2 });
  await page.goto('/');
  await chooseFiles(page, [capture]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await chooseFiles(page, [payload]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await page.locator('button.timeline-open').click();
  const panel = page.locator('section.timeline-panel');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const tuner = panel.locator('tr[data-job="2"]');
  await expect(tuner.locator('.timeline-clock')).toHaveText('wall-clock time');
  const n = (x) => x.toLocaleString('en-US');
  await expect(tuner.locator('.timeline-totals')).toHaveText(
    `${want.minor} minor GCs, ${want.gcMs.toFixed(2)} ms in all, longest ${want.gcMs.toFixed(2)} ms; ${want.major} major GCs; ` +
    `heap live slots: ${want.samples} values, highest ${n(want.liveMax)}; objects allocated: ${n(want.allocated)} in all`);
  // On one axis with the capture, at the payload's own first timestamp (epoch seconds).
  const chart = panel.locator('figure.timeline-chart');
  const firstX = await chart.evaluate((fig) => {
    const u = fig.gcscopePlot;
    const k = u.series.findIndex((s) => s.label === 'Job 2: heap live slots (slots)');
    return u.data[0][u.data[k].findIndex((v) => v !== null)];
  });
  expect(firstX).toBe(want.first);
  const [min, max] = (await chart.getAttribute('data-shown')).split(',').map(Number);
  expect(min).toBeLessThanOrEqual(1795257121);  // the capture's first second
  expect(max).toBeGreaterThanOrEqual(want.first);
});

test('the zoom and offsets are in the fragment: a reload shows the same view; a bad offset is refused', async ({ page }) => {
  const log = fixture('jvm/jdk17-g1-time.log');
  const capture = fixture('rbkit/stock-server-first12.rbkit');
  const openBoth = async () => {
    await chooseFiles(page, [log]);
    await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
    await chooseFiles(page, [capture]);
    await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  };
  await page.goto('/');
  await openBoth();
  await page.locator('button.timeline-open').click();
  const panel = page.locator('section.timeline-panel');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  expect(fragment(page).get('tl')).toBe('1,2');
  const offset = panel.locator('tr[data-job="2"] input.timeline-offset');
  const error = panel.locator('tr[data-job="2"] .timeline-offset-error');
  // A number moves the job; text that is not one is refused and the last number stays.
  const seconds = 5861.5;
  await offset.fill(String(seconds));
  await offset.press('Enter');
  await expect.poll(() => fragment(page).get('tl.off')).toBe(`2.0:${seconds}`);
  await expect(error).toBeHidden();
  await offset.fill('5861,5 s');
  await offset.press('Enter');
  await expect(error).toBeVisible();
  await expect(error).toHaveText(`"5861,5 s" is not a number of seconds: the offset stays ${seconds} s`);
  await expect(offset).toHaveValue(String(seconds));
  await expect(offset).toHaveAttribute('aria-invalid', 'true');
  expect(fragment(page).get('tl.off')).toBe(`2.0:${seconds}`);
  // A number too large to be one (Infinity) is refused too.
  await offset.fill('1e400');
  await offset.press('Enter');
  await expect(error).toHaveText(`"1e400" is not a number of seconds: the offset stays ${seconds} s`);
  expect(fragment(page).get('tl.off')).toBe(`2.0:${seconds}`);
  // Zoom twice by keyboard; the range reaches the fragment once the zooming stops.
  const chart = panel.locator('figure.timeline-chart');
  const body = chart.locator('.gs-chart-body');
  await body.focus();
  for (let press = 0; press < 2; press++) await zoomInByKey(chart, body);
  const range = await chart.getAttribute('data-x-range');
  await expect.poll(() => fragment(page).get('tl.range')).toBe(range);
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const totals = await panel.locator('.timeline-totals').allTextContents();
  expect(totals[0]).toMatch(/GC pauses/);

  // The same link after a reload, with the same files chosen again: the panel opens by itself on
  // the same range with the same offset, and the engines count the same.
  await page.reload();
  await openBoth();
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await expect(chart).toHaveAttribute('data-x-range', range);
  await expect(offset).toHaveValue(String(seconds));
  expect(await panel.locator('.timeline-totals').allTextContents()).toEqual(totals);
  // Closing the panel forgets its view.
  await panel.locator('button.timeline-close').click();
  expect(['tl', 'tl.range', 'tl.off'].map((k) => fragment(page).get(k))).toEqual([null, null, null]);
});

// The range is written to the fragment when the reader changes the view, and only then: a redraw
// for an offset, or back/forward applying the range of its entry, writes nothing of it. Every write
// of tl.range the page makes is recorded (GCSCOPE.state.set seen through).
test('only a change of the view writes its range to the fragment', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1-time.log')]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await chooseFiles(page, [fixture('rbkit/stock-server-first12.rbkit')]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await page.locator('button.timeline-open').click();
  const panel = page.locator('section.timeline-panel');
  const chart = panel.locator('figure.timeline-chart');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => {
    window.rangeWrites = [];
    const st = window.GCSCOPE.state, set = st.set;
    st.set = function (key, value, opts) {
      if (key === 'tl.range') window.rangeWrites.push(value);
      return set.call(this, key, value, opts);
    };
  });
  const writes = () => page.evaluate(() => window.rangeWrites.slice());
  // A write waits for the zooming to stop (ZOOM_SETTLE_MS, 300 ms): none may come in this long.
  const noneLater = async (want) => {
    await page.waitForTimeout(1000);
    expect(await writes()).toEqual(want);
  };
  // An offset moves the capture: the range shown is redrawn, the view (the whole range) is the same.
  const shown = await chart.getAttribute('data-shown');
  const offset = panel.locator('tr[data-job="2"] input.timeline-offset');
  await offset.fill('5861.5');
  await offset.press('Enter');
  await expect.poll(() => fragment(page).get('tl.off')).toBe('2.0:5861.5');
  await expect(chart).not.toHaveAttribute('data-shown', shown);
  await noneLater([]);
  // A zoom is written once, when it stops.
  const body = chart.locator('.gs-chart-body');
  await body.focus();
  const range = await zoomInByKey(chart, body);
  await expect.poll(writes).toEqual([range]);
  await expect.poll(() => fragment(page).get('tl.range')).toBe(range);
  // Back and forward apply the entries' ranges without writing them.
  await page.goBack();
  await expect(chart).toHaveAttribute('data-x-range', '');
  await noneLater([range]);
  expect(fragment(page).get('tl.range')).toBe(null);
  await page.goForward();
  await expect(chart).toHaveAttribute('data-x-range', range);
  await noneLater([range]);
  // The whole range again, by its button: a change, written.
  await panel.locator('button.timeline-whole').click();
  await expect(chart).toHaveAttribute('data-x-range', '');
  await expect.poll(writes).toEqual([range, null]);
  await expect.poll(() => fragment(page).get('tl.range')).toBe(null);
});

test('a saved HTML report of a job on the timeline shows the timeline from its recorded answers', async ({ page }) => {
  const log = fixture('jvm/jdk17-g1-time.log');
  const capture = fixture('rbkit/stock-server-first12.rbkit');
  await page.goto('/?sw=0&warmup=0');
  await chooseFiles(page, [log]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await chooseFiles(page, [capture]);
  const job = await lastJob(page);
  await expect(job).toHaveAttribute('data-engine', 'live');
  await page.locator('button.timeline-open').click();
  const panel = page.locator('section.timeline-panel');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const whole = await panel.locator('.timeline-totals').allTextContents();
  const chart = panel.locator('figure.timeline-chart');
  const body = chart.locator('.gs-chart-body');
  await body.focus();
  await body.press('=');
  await expect(chart).not.toHaveAttribute('data-x-range', '');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const range = await chart.getAttribute('data-x-range');
  const zoomed = await panel.locator('.timeline-totals').allTextContents();
  expect(zoomed).not.toEqual(whole);
  const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: 'Save as HTML report' }).click()]);
  const html = fs.readFileSync(await download.path(), 'utf8');

  // Opened from a file: no engine, the panel as it was saved, both jobs, the range shown then.
  await page.goto('file://' + tempFile('report.gcscope.html', html));
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await expect(panel.locator('table.timeline-jobs tbody tr')).toHaveCount(2);
  await expect(chart).toHaveAttribute('data-x-range', range);
  expect(await panel.locator('.timeline-totals').allTextContents()).toEqual(zoomed);
  // The whole range was shown before saving too; a range never shown is not in the report.
  await body.focus();
  await body.press('0');
  await expect(chart).toHaveAttribute('data-x-range', '');
  await expect.poll(() => panel.locator('.timeline-totals').allTextContents()).toEqual(whole);
  await body.press('=');  // the zoom made before saving: recorded
  await expect(chart).toHaveAttribute('data-x-range', range);
  await expect.poll(() => panel.locator('.timeline-totals').allTextContents()).toEqual(zoomed);
  await body.press('=');
  await expect(panel.locator('.timeline-totals').first()).toContainText('a saved report holds only the ranges shown when it was saved');

  // A report whose saved timeline is not what gcscope writes: the panel says so, the report stands.
  const data = /(<script type="application\/json" id="gcscope-data">)(.*?)(<\/script>)/s.exec(html);
  const doc = JSON.parse(data[2]);
  doc.timeline.sources[0].whole = null;
  const broken = html.replace(data[0], () => data[1] + JSON.stringify(doc).replace(/</g, '\\u003c') + data[3]);
  await page.goto('file://' + tempFile('broken.gcscope.html', broken));
  await expect(panel.locator('p.error')).toHaveText('This report\'s timeline cannot be read: it is not what gcscope saves.');
  await expect(page.locator('.job .report').first()).toBeVisible();
});

test('a tracing capture with its own timestamps beside a JVM log on uptime: both start at the axis start', async ({ page }) => {
  // bcc's ugc output as its repository publishes it: "START TIME(us) DESCRIPTION" lines, one event
  // stream per description, START in seconds of the tracer's clock (no wall-clock time).
  const capture = corpus('trace/bcc-upstream/ugc_example.txt');
  const events = [];
  for (const line of fs.readFileSync(capture, 'utf8').split('\n')) {
    const m = /^(\d+\.\d+)\s+(\d+\.\d+)\s+(\S.*?)\s*$/.exec(line);
    if (m) events.push({ start: Number(m[1]), ns: Number(m[2]) * 1000, what: m[3] });
  }
  const scavenges = events.filter((e) => e.what === 'GC scavenge');
  const full = events.filter((e) => e.what === 'GC mark-sweep-compact');
  expect([scavenges.length, full.length]).toEqual([20, 2]);
  const t0 = Math.min(...events.map((e) => e.start));
  const n = (x) => x.toLocaleString('en-US');
  await page.goto('/');
  await chooseFiles(page, [fixture('jvm/jdk17-g1.log')]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await chooseFiles(page, [capture]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await page.locator('button.timeline-open').click();
  const panel = page.locator('section.timeline-panel');
  await expect(panel).toHaveAttribute('data-ready', 'true');
  const jvm = panel.locator('tr[data-job="1"]'), tracing = panel.locator('tr[data-job="2"]');
  await expect(jvm.locator('.timeline-clock')).toHaveText('JVM uptime (no wall-clock time)');
  await expect(tracing.locator('.timeline-clock')).toHaveText("the capture's timestamps (no wall-clock time)");
  await expect(tracing.locator('.timeline-totals')).toContainText(
    `GC scavenge: ${scavenges.length} values, highest ${n(Math.max(...scavenges.map((e) => e.ns)))}`);
  await expect(tracing.locator('.timeline-totals')).toContainText(
    `GC mark-sweep-compact: ${full.length} values, highest ${n(Math.max(...full.map((e) => e.ns)))}`);
  // Neither has wall-clock time: each starts at the axis's start (0), the capture's first scavenge
  // its START less the capture's first START; an offset moves it by that many seconds.
  const chart = panel.locator('figure.timeline-chart');
  const firstX = (label) => chart.evaluate((fig, name) => {
    const u = fig.gcscopePlot;
    const k = u.series.findIndex((s) => s.label === name);
    return k < 0 ? null : u.data[0][u.data[k].findIndex((v) => v !== null)];
  }, label);
  const label = 'Job 2: GC scavenge (as printed (ns for latencies))';
  expect(await firstX(label)).toBeCloseTo(scavenges[0].start - t0, 9);
  await tracing.locator('input.timeline-offset').fill('2.5');
  await tracing.locator('input.timeline-offset').press('Enter');
  await expect.poll(() => firstX(label)).toBeCloseTo(scavenges[0].start - t0 + 2.5, 9);
});

test('back/forward step through the timeline: opening, an offset, each zoom once it stops, closing', async ({ page }) => {
  const log = fixture('jvm/jdk17-g1-time.log');
  const capture = fixture('rbkit/stock-server-first12.rbkit');
  const pauses = wallPauses(log);
  // The pauses the log's text places in [t0, t1], or null when one starts within its printed
  // millisecond of an end (the text cannot decide it).
  const textCount = ([t0, t1]) => (pauses.some((p) => Math.abs(p.start - t0) < 0.0015 || Math.abs(p.start - t1) < 0.0015)
    ? null : pauses.filter((p) => p.start >= t0 && p.start <= t1).length);
  await page.goto('/');
  await chooseFiles(page, [log]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  await chooseFiles(page, [capture]);
  await expect(await lastJob(page)).toHaveAttribute('data-engine', 'live');
  const panel = page.locator('section.timeline-panel');
  const chart = panel.locator('figure.timeline-chart');
  const jvmTotals = panel.locator('tr[data-job="1"] .timeline-totals');
  const offset = panel.locator('tr[data-job="2"] input.timeline-offset');
  const captureStart = 1795257121;  // the capture's first second, as in the first test
  await page.locator('button.timeline-open').click();
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await expect(jvmTotals).toContainText(`${pauses.length} GC pauses`);
  expect(fragment(page).get('tl')).toBe('1,2');

  // Step 2: the capture laid over the log by an offset.
  const seconds = Math.floor(pauses[0].start) - 1 - captureStart;
  await offset.fill(String(seconds));
  await offset.press('Enter');
  await expect.poll(() => fragment(page).get('tl.off')).toBe(`2.0:${seconds}`);
  const shownMin = async () => Number((await chart.getAttribute('data-shown')).split(',')[0]);
  await expect.poll(shownMin).toBeGreaterThan(captureStart + 1000);

  // Then zooms, each written to the fragment once it stops, until the range leaves pauses out.
  const body = chart.locator('.gs-chart-body');
  const zooms = [];
  const shownPauses = (z) => Number(/^(\d+) GC pauses/.exec(z.totals[0])[1]);
  while (zooms.length < 2 || (shownPauses(zooms[zooms.length - 1]) === pauses.length && zooms.length < 8)) {
    await body.focus();
    const range = await zoomInByKey(chart, body);
    await expect.poll(() => fragment(page).get('tl.range')).toBe(range);
    await expect(panel).toHaveAttribute('data-ready', 'true');
    const want = textCount(range.split(',').map(Number));
    if (want !== null) await expect(jvmTotals).toContainText(`${want} GC pauses`);
    zooms.push({ range, totals: await panel.locator('.timeline-totals').allTextContents() });
  }
  const last = zooms.length - 1;
  expect(shownPauses(zooms[last])).toBeLessThan(pauses.length);
  expect(shownPauses(zooms[last])).toBeGreaterThan(0);

  // A step's view, as the page shows it after back or forward.
  const atZoom = async (z) => {
    await expect(chart).toHaveAttribute('data-x-range', z.range);
    await expect.poll(() => panel.locator('.timeline-totals').allTextContents()).toEqual(z.totals);
    expect(fragment(page).get('tl.range')).toBe(z.range);
  };
  const atWhole = async (withOffset) => {
    await expect(chart).toHaveAttribute('data-x-range', '');
    await expect(jvmTotals).toContainText(`${pauses.length} GC pauses`);
    await expect(offset).toHaveValue(String(withOffset ? seconds : 0));
    if (withOffset) await expect.poll(shownMin).toBeGreaterThan(captureStart + 1000);
    else await expect.poll(shownMin).toBeLessThanOrEqual(captureStart);
  };
  for (let k = last - 1; k >= 0; k--) {
    await page.goBack();
    await atZoom(zooms[k]);
  }
  await page.goBack();
  await atWhole(true);
  await page.goBack();
  await atWhole(false);
  await page.goBack();  // before the panel was opened
  await expect(panel).toHaveCount(0);
  expect(fragment(page).get('tl')).toBe(null);
  await page.goForward();
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await atWhole(false);
  await page.goForward();
  await atWhole(true);
  for (let k = 0; k <= last; k++) {
    await page.goForward();
    await atZoom(zooms[k]);
  }

  // Closing is a step: back opens the panel again on the view it had.
  await panel.locator('button.timeline-close').click();
  await expect(panel).toHaveCount(0);
  await page.goBack();
  await expect(panel).toHaveAttribute('data-ready', 'true');
  await expect(offset).toHaveValue(String(seconds));
  await atZoom(zooms[last]);
  await page.goForward();
  await expect(panel).toHaveCount(0);
  expect(['tl', 'tl.range', 'tl.off'].map((k) => fragment(page).get(k))).toEqual([null, null, null]);
});
