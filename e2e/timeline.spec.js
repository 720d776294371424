// The timeline of all open jobs (web/lib/timeline.js): a real JVM log with wall-clock decorations and
// a real rbkit capture on one time axis, their figures as counted independently of the engine, and
// the per-job offset moving a job along the axis.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, chooseFiles, lastJob } = require('./helpers');

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
    const before = await chart.getAttribute('data-x-range');
    await body.press('=');  // the + key unshifted
    await expect(chart).not.toHaveAttribute('data-x-range', before || '');
    [t0, t1] = (await chart.getAttribute('data-x-range')).split(',').map(Number);
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
