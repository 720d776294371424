// rbkit captures in the page: timeline charts, tables, warnings for counter gaps and incomplete
// snapshots, and hostile strings staying inert text.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, corpus, chooseFiles, lastJob, tempFile } = require('./helpers');

const report = (job) => job.locator('section.report[data-format="rbkit-capture"]');

test('the real capture prefix: KPIs, timeline charts with GC bands, class table, notes', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('rbkit/stock-server-first12.rbkit')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const r = report(job);
  await expect(r).toBeVisible();
  // Counted with the msgpack gem (see tests/rbkit/test_rbkit_corpus.cpp): 3152 created, 4028 destroyed.
  await expect(r.locator('.gs-kpi', { hasText: 'objects created' }).locator('.gs-kpi-value')).toHaveText('3,152');
  await expect(r.locator('.gs-kpi', { hasText: 'objects destroyed' }).locator('.gs-kpi-value')).toHaveText('4,028');
  await expect(r.locator('.gs-kpi', { hasText: 'protocol' }).locator('.gs-kpi-value')).toHaveText('2.1');
  await expect(r.locator('.gs-chart-title')).toContainText([
    'Objects created / destroyed per second, live objects',
    'Objects created per second, by class',
    'Objects destroyed per second, by class',
  ]);
  await expect(r.locator('.gs-chart canvas').first()).toBeVisible();
  // The lines are really drawn: the first chart's canvas has pixels of the "created" series colour
  // (PALETTE[0] = #2563eb) and of the GC sweep band fill rgba(217,119,6,.14) (the canvas is
  // transparent, so that fill reads back as orange with a low alpha). A chart whose x scale broke
  // shows only axes. Polled: uPlot redraws after the page lays the chart out.
  const canvas = r.locator('.gs-chart canvas').first();
  await expect.poll(() => canvas.evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let line = 0, band = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 200 && Math.abs(d[i] - 37) < 30 && Math.abs(d[i + 1] - 99) < 30 && Math.abs(d[i + 2] - 235) < 30) line++;
      if (d[i + 3] > 10 && d[i + 3] < 80 && d[i] > 180 && d[i + 1] > 90 && d[i + 1] < 150 && d[i + 2] < 40) band++;
    }
    return line > 50 && band > 50;
  }), { timeout: 10_000 }).toBe(true);
  const orderRow = r.locator('tr', { has: page.locator('td', { hasText: /^Order$/ }) }).first();
  await expect(orderRow.locator('td').nth(1)).toHaveText('328');
  await expect(r.locator('.rbkit-notes')).toContainText('no gc_stats messages in this capture');
  await expect(r.locator('.rbkit-notes')).toContainText('no object_space_dump snapshot in this capture');
});

test('an incomplete snapshot is flagged and snapshots say they include unreachable objects', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/malformed/rbkit_incomplete_snapshot.rbkit')]);
  const job = await lastJob(page);
  const r = report(job);
  await expect(r.locator('.rbkit-warnings')).toContainText('Snapshot 7 is INCOMPLETE: 2000 of 2500 announced objects arrived');
  const s7 = r.locator('[data-snapshot="7"]');
  await expect(s7.locator('.snapshot-status')).toHaveText('INCOMPLETE: 2,000 of 2,500 objects arrived');
  const s8 = r.locator('[data-snapshot="8"]');
  await expect(s8.locator('.snapshot-status')).toHaveText('complete: 1,500 of 1,500 objects');
  await expect(s8.locator('.snapshot-note')).toContainText('without running a GC first');
  // The snapshot's class table comes from the shared heap model's by_class (computed once): 1500 Hash.
  await expect(s8.locator('.gs-table-caption', { hasText: 'By class (1 classes)' })).toHaveCount(1);
  // 1500 Hash allocated at b.rb:3 (expectations.json).
  const site = s8.locator('tr', { has: page.locator('td', { hasText: /^b\.rb$/ }) });
  await expect(site.locator('td')).toHaveText(['Hash', 'b.rb', '3', '1,500', '156 KB']);
  // The same snapshot in the shared heap view (rendered when opened): 1500 Hash, no dominator tree.
  const shared = s8.locator('details.rbkit-heap-model');
  await shared.locator('summary').first().click();
  const hashRow = shared.locator('tr', { has: page.locator('td', { hasText: /^Hash$/ }) }).first();
  await expect(hashRow.locator('td').nth(1)).toHaveText('1,500');
  await expect(shared).toContainText('No dominator tree: rbkit snapshots carry no GC roots');
});

test('message_counter gaps are reported as warnings', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/malformed/rbkit_counter_gaps.rbkit')]);
  const r = report(await lastJob(page));
  await expect(r.locator('.rbkit-warnings')).toContainText('2 event_collection message(s) missing (message_counter gaps: 3–4)');
  await expect(r.locator('.rbkit-warnings')).toContainText('1 repeated message_counter value(s) (5)');
});

test('HTML and script in class names, paths and the handshake stay inert text', async ({ page }) => {
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/malformed/rbkit_xss_strings.rbkit')]);
  const r = report(await lastJob(page));
  await expect(r.locator('td', { hasText: "<script>alert('cls')</script>" }).first()).toBeVisible();
  await expect(r.locator('td', { hasText: '"><img src=x onerror=alert(2)>' }).first()).toBeVisible();
  await expect(r.locator('td', { hasText: "<script>alert('proc')</script>" })).toHaveCount(1);  // handshake process_name
  // Nothing the capture contains became markup.
  await expect(page.locator('.report-body script, .report-body img, .report-body svg, .report-body b, .report-body textarea')).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test('gc_stats and cpu_sample of real 2014-15 servers (rbkit-client test captures)', async ({ page }) => {
  await page.goto('/');
  // Test data only (GPL-2.0 repository), read from the corpus, never bundled.
  await chooseFiles(page, [corpus('heap/rbkit/legacy_rbkit_client_fixtures/gcstats.rbkit'),
    corpus('heap/rbkit/legacy_rbkit_client_fixtures/cpusample.rbkit')]);
  const job = await lastJob(page);
  const reports = report(job);
  await expect(reports).toHaveCount(2);
  // gcstats.rbkit (msgpack gem): one gc_stats with Ruby 2.1 names, heap_live_slot = 32203, count = 5.
  const gs = reports.filter({ has: page.locator('h3', { hasText: 'gcstats.rbkit' }) });
  const live = gs.locator('tr', { has: page.locator('td', { hasText: /^heap_live_slot$/ }) });
  await expect(live.locator('td').nth(1)).toHaveText('32,203');
  const count = gs.locator('tr', { has: page.locator('td', { hasText: /^count$/ }) });
  await expect(count.locator('td').nth(2)).toHaveText('5');
  // cpusample.rbkit: one sample whose leaf is Rbkit::Server#process_incoming_request; 2.1 inferred from it.
  const cpu = reports.filter({ has: page.locator('h3', { hasText: 'cpusample.rbkit' }) });
  await expect(cpu.locator('.gs-kpi', { hasText: 'protocol' }).locator('.gs-kpi-value')).toHaveText('2.1');
  const leaf = cpu.locator('tr', { has: page.locator('td', { hasText: /^Rbkit::Server#process_incoming_request$/ }) }).first();
  await expect(leaf.locator('td').nth(1)).toHaveText('1');
  await expect(cpu.locator('td', { hasText: 'block in Rbkit::Server#start → block (2 levels) in Rbkit::Server#start → Rbkit::Server#process_incoming_request' })).toHaveCount(1);
  await expect(cpu.locator('.rbkit-flamegraph canvas')).toHaveCount(1);
  await expect(cpu.locator('.rbkit-flamegraph .error')).toHaveCount(0);
});

test('a capture opens with live objects over time and the leak reading; the handshake is closed', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/rbkit/real_stock_threaddeath.rbkit')]);
  const r = report(await lastJob(page));
  const first = r.locator('details.gs-section').first();
  await expect(first.locator('summary').first()).toHaveText('Live objects over time');
  // After ~6 s of warm-up the live curve stays between 9,500 and 11,800: no leak.
  await expect(first.locator('.rbkit-leak')).toHaveAttribute('data-verdict', 'stable');
  await expect(first.locator('.rbkit-leak-verdict')).toContainText('No sign of a leak');
  await expect(r.locator('details.rbkit-handshake')).not.toHaveAttribute('open', '');
});

test('a capture whose live objects keep growing reads as a leak, naming what accumulates', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('rbkit/leak-synthetic.rbkit')]);
  const r = report(await lastJob(page));
  const leak = r.locator('details.gs-section').first().locator('.rbkit-leak');
  await expect(leak).toHaveAttribute('data-verdict', 'growing');
  // 5 Order objects kept each second for 40 s (fixtures/rbkit/rbkit_frames.py): 200 left, 300 a minute.
  await expect(leak).toContainText('about 300 a minute');
  await expect(leak).toContainText('Order (200)');
});

test('zooming the timeline shows the range figures the engine computes (as gcscope query says)', async ({ page }) => {
  const capture = corpus('heap/rbkit/real_stock_threaddeath.rbkit');
  await page.goto('/');
  await chooseFiles(page, [capture]);
  const r = report(await lastJob(page));
  const chart = r.locator('.gs-chart').first();
  const over = chart.locator('.u-over');
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const range = r.locator('.rbkit-range');
  await expect(range.locator('.gs-kpi').first()).toBeVisible();
  const [t0, t1] = (await chart.getAttribute('data-x-range')).split(',').map(Number);
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'),
    ['query', capture, '--method', 'rbkit.range', '--args', JSON.stringify({ t0, t1 })], { maxBuffer: 1 << 28 }).toString()).result;
  expect(cli.objects.created).toBeGreaterThan(0);
  await expect(range.locator('.gs-kpi', { hasText: 'created' }).first().locator('.gs-kpi-value')).toHaveText(cli.objects.created.toLocaleString('en-US'));
  await expect(range.locator('.gs-kpi', { hasText: 'destroyed' }).first().locator('.gs-kpi-value')).toHaveText(cli.objects.destroyed.toLocaleString('en-US'));
});

test('cpu samples: the shared flame graph with the engine\'s transforms; downloads follow them', async ({ page }) => {
  // fixtures/rbkit/cpu-workload.rbkit carries a real stackprof profile's samples: its collapsed stacks
  // are stackprof's own --stackcollapse of that profile (fixtures/rbkit/generate_cpu.rb).
  const folded = fs.readFileSync(fixture('rbkit/cpu-workload.folded.txt'), 'utf8');
  const dropped = folded.split('\n').filter((l) => l && !l.replace(/ \d+$/, '').split(';').includes('Report#fib')).map((l) => l + '\n').join('');
  await page.goto('/#rbkit.flame.tf=' + encodeURIComponent(JSON.stringify([{ drop_function: 'Report#fib' }])));
  await chooseFiles(page, [fixture('rbkit/cpu-workload.rbkit')]);
  const r = report(await lastJob(page));
  const fg = r.locator('.rbkit-flamegraph .flamegraph');
  await expect(fg.locator('.fg-crumb[data-index="0"]')).toContainText('Report#fib');
  await expect(fg).toHaveAttribute('data-transforms', '1');
  const collapsed = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), r.locator('.rbkit-flamegraph button[data-export="collapsed"]').click()]);
    return fs.readFileSync(await download.path(), 'utf8');
  };
  expect(await collapsed()).toBe(dropped);
  // Removing the breadcrumb gives every sample back.
  await fg.locator('.fg-crumb-remove').click();
  await expect(fg).toHaveAttribute('data-transforms', '0');
  expect(await collapsed()).toBe(folded);
  await expect(r.locator('.rbkit-flamegraph .error')).toHaveCount(0);
});

// The compare panel's per-frame rows are `gcscope compare`'s frames, in its order: name, total on
// each side, and with {self: true} self on each side.
async function expectFrameRows(box, frames, { self }) {
  const rows = box.locator('.rbkit-compare-frames tbody tr');
  await expect(rows).toHaveCount(frames.length);
  const n = (v) => v.toLocaleString('en-US');
  for (let i = 0; i < frames.length; i++) {
    const td = rows.nth(i).locator('td');
    await expect(td.nth(0)).toHaveText(frames[i].name);
    if (self) {
      await expect(td.nth(2)).toHaveText(n(frames[i].self_a));
      await expect(td.nth(3)).toHaveText(n(frames[i].self_b));
    }
    await expect(td.nth(7)).toHaveText(n(frames[i].total_a));
    await expect(td.nth(8)).toHaveText(n(frames[i].total_b));
  }
}

const gcscope = (args) => JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), args).toString());

// The comparison's JSON download (its button under the compare panel `box`), parsed.
async function downloadedComparison(box) {
  const [download] = await Promise.all([box.page().waitForEvent('download'), box.locator('button', { hasText: 'Download comparison JSON' }).click()]);
  expect(download.suggestedFilename()).toBe('rbkit-compare.json');
  return JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
}

// The capture without the samples holding Report#fib, re-encoded by the fixture's own msgpack codec
// (fixtures/rbkit/rbkit_frames.py without), as tests/cli/cli_stacks.sh makes it.
function captureWithoutFib() {
  const out = tempFile('nofib.rbkit', '');
  execFileSync('python3', [fixture('rbkit/rbkit_frames.py'), 'without', 'Report#fib', fixture('rbkit/cpu-workload.rbkit'), out]);
  return out;
}

test('two captures compare: objects and GC per second, per class, and the cpu samples per frame', async ({ page }) => {
  const cpu = fixture('rbkit/cpu-workload.rbkit'), leak = fixture('rbkit/leak-synthetic.rbkit'), nofib = captureWithoutFib();
  await page.goto('/');
  for (const f of [cpu, leak, nofib]) {
    await chooseFiles(page, [f]);
    await lastJob(page);
  }
  const box = report(page.locator('.job').nth(2)).locator('.rbkit-compare');  // jobs are listed newest first
  // the other jobs came after this one's view was drawn: Compare refills the list
  await box.locator('button', { hasText: 'Compare' }).click();
  const pick = async (name) => {
    await box.locator('select').selectOption(await box.locator('select option', { hasText: name }).first().getAttribute('value'));
  };
  // leak-synthetic.rbkit (rbkit_frames.py leak), counted by hand: 100 objects a second for 40 s,
  // k < 5 Order, odd k String (48 of 5..99), even k Hash (47) -> 4000: Order 200, String 1920, Hash
  // 1880; a GC cycle in seconds 4, 9, ..., 39 (8) of 30 ms each; timestamps from the handshake
  // (t0 - 500 ms) to the last gc_end_s (t0 + 39980 ms): 40.48 s. cpu-workload.rbkit has no objects.
  await pick('leak-synthetic.rbkit');
  const figures = box.locator('.gs-table', { hasText: 'Objects and GC' });
  const cells = (label) => figures.locator('tbody tr', { has: page.locator('td:first-child', { hasText: new RegExp('^' + label + '$') }) }).locator('td');
  await expect(cells('objects created').nth(2)).toHaveText('4,000');
  await expect(cells('objects created').nth(3)).toHaveText('4,000');
  await expect(cells('span \\(s\\)').nth(2)).toHaveText('40.48');
  await expect(cells('objects created per s').nth(2)).toHaveText((4000 / 40.48).toLocaleString('en-US', { maximumFractionDigits: 3 }));
  await expect(cells('objects created per s').nth(4)).toHaveText('—');  // from 0
  await expect(cells('GC cycles').nth(2)).toHaveText('8');
  await expect(cells('GC time \\(ms\\)').nth(2)).toHaveText('240');
  await expect(cells('longest GC \\(ms\\)').nth(2)).toHaveText('30');
  const classes = box.locator('.gs-table', { hasText: 'Objects created per class' }).locator('tbody tr');
  await expect(classes).toHaveCount(3);
  for (const [i, name, n] of [[0, 'String', '1,920'], [1, 'Hash', '1,880'], [2, 'Order', '200']]) {
    await expect(classes.nth(i).locator('td').nth(0)).toHaveText(name);
    await expect(classes.nth(i).locator('td').nth(2)).toHaveText(n);
  }
  await expect(box.locator('.rbkit-compare-no-frames')).toHaveText("No per-frame deltas: capture B has no cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)");
  // Every figure's Δ% is `gcscope compare`'s of the two files, signed, one decimal, none from 0; the
  // JSON download is its answer.
  const withLeak = gcscope(['compare', cpu, leak]).compare;
  const signed = (x) => (x === null || x === undefined ? '—' : (x > 0 ? '+' : '') + x.toFixed(1) + '%');
  const figureKeys = [['span \\(s\\)', 'span_s'], ['objects created', 'objects_created'], ['objects created per s', 'objects_per_s'],
    ['GC cycles', 'gc_cycles'], ['GC cycles per s', 'gc_per_s'], ['GC time \\(ms\\)', 'gc_total_ms'], ['longest GC \\(ms\\)', 'gc_max_ms']];
  for (const [label, key] of figureKeys) await expect(cells(label).nth(4), key).toHaveText(signed(withLeak.rbkit[key].delta_percent));
  expect(withLeak.rbkit.span_s.delta_percent).not.toBeNull();  // one figure with a percent at least
  expect(await downloadedComparison(box)).toMatchObject({ rbkit: withLeak.rbkit, frames_omitted: withLeak.frames_omitted });

  // Against the capture without fib: per frame, the rows of `gcscope compare` of the two files, whose
  // totals are the sample counts of stackprof's folding with and without the Report#fib lines.
  await pick('nofib.rbkit');
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['compare', cpu, nofib]).toString()).compare;
  const folded = fs.readFileSync(fixture('rbkit/cpu-workload.folded.txt'), 'utf8').split('\n').filter(Boolean);
  const weight = (lines) => lines.reduce((s, l) => s + Number(l.split(' ').pop()), 0);
  expect(cli.totals.a).toBe(weight(folded));
  expect(cli.totals.b).toBe(weight(folded.filter((l) => !l.includes('Report#fib'))));
  await expectFrameRows(box, cli.frames, { self: true });
  await expect(cells('objects created').nth(3)).toHaveText('0');
  expect(await downloadedComparison(box)).toMatchObject({ totals: cli.totals, frames: cli.frames, rbkit: cli.rbkit });
});

test('a job of several captures compares as their sum with the box ticked, as gcscope compare DIR does', async ({ page }) => {
  const cpu = fixture('rbkit/cpu-workload.rbkit'), leak = fixture('rbkit/leak-synthetic.rbkit'), nofib = captureWithoutFib();
  const dir = path.dirname(tempFile('cpu-workload.rbkit', fs.readFileSync(cpu)));
  fs.copyFileSync(leak, path.join(dir, 'leak-synthetic.rbkit'));
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['compare', dir, nofib]).toString()).compare;
  expect(cli.a.set).toEqual({ captures: 2, not_summed: [] });
  await page.goto('/');
  await chooseFiles(page, [cpu, leak]);
  await lastJob(page);
  await chooseFiles(page, [nofib]);
  await lastJob(page);
  const box = report(page.locator('.job').nth(1)).first().locator('.rbkit-compare');
  await box.locator('button', { hasText: 'Compare' }).click();
  await box.locator('select').selectOption(await box.locator('select option', { hasText: 'nofib.rbkit' }).first().getAttribute('value'));
  await box.locator('.gs-compare-set-option input').check();
  await expect(box.locator('.gs-compare-set-note li')).toHaveText(['A: 2 reports summed', 'B: one report']);
  // the set's objects are leak-synthetic's 4000 (cpu-workload traces none); its samples cpu-workload's
  const figures = box.locator('.gs-table', { hasText: 'Objects and GC' });
  const objects = figures.locator('tbody tr', { has: page.locator('td:first-child', { hasText: /^objects created$/ }) }).locator('td');
  await expect(objects.nth(1)).toHaveText('4,000');
  expect(cli.rbkit.objects_created.a).toBe(4000);
  expect(cli.totals.a).toBe(147);
  const perSecond = figures.locator('tbody tr', { has: page.locator('td:first-child', { hasText: /^objects created per s$/ }) }).locator('td');
  // Spans by fixtures/rbkit/count_figures.rb: cpu-workload 4.822 s, leak-synthetic 40.48 s, added.
  await expect(perSecond.nth(1)).toHaveText((4000 / (4.822 + 40.48)).toLocaleString('en-US', { maximumFractionDigits: 3 }));
  await expectFrameRows(box, cli.frames, { self: false });
});
