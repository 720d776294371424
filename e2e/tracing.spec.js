// The tracing view in the browser: real bpftrace/perf outputs dropped on the page, per-probe latency,
// histograms with percentile buckets, stacks, exact 64-bit values, and the capture-recipe builder.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, corpus, chooseFiles, lastJob, tempFile, speedscopeSandwich } = require('./helpers');

const gcscope = (...args) => JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), args, { maxBuffer: 1 << 28 }).toString());
// A figure as the page prints it (en-US grouping; '—' for none).
const shown = (x) => (x === null || x === undefined ? '—' : typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(x));

// The recipe's exact printf stream: my_controller:index takes i µs (i = 1..100), :show 5 µs (10 calls).
function eventStream() {
  let s = '{"type": "attached_probes", "data": {"probes": 2}}\n';
  for (let i = 1; i <= 100; i++) {
    s += `{"type": "printf", "data": "${1000000000 + i * 10000000} usdt:/proc/9/root/tmp/my_controller-AbCdEf.so:my_controller:index ${i * 1000}\\n"}\n`;
    if (i % 10 === 0) s += `{"type": "printf", "data": "${1000000000 + i * 10000000} usdt:/proc/9/root/tmp/my_controller-AbCdEf.so:my_controller:show 5000\\n"}\n`;
  }
  return s;
}

test('bpftrace maps: per-probe table from count/avg/min/max/stats maps', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('tracing/bpftrace-maps.txt')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="bpftrace-text"]');
  await expect(report).toBeVisible();
  await expect(report.locator('.gs-kpi').first()).toContainText('bpftrace');
  const latency = report.locator('.tracing-latency table');
  // det_aggs: @c[x] = 2 calls, @min[x] = 2, @max[x] = 9 (corpus manifest)
  const x = latency.locator('tbody tr', { hasText: /^x/ });
  await expect(x.locator('td').nth(1)).toHaveText('2');
});

test('bpftrace hist: chart with percentile buckets stated as bounds', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('tracing/bpftrace-hist.txt')]);
  const job = await lastJob(page);
  const hist = job.locator('.tracing-hist').first();
  await expect(hist.locator('canvas').first()).toBeVisible();
  // det_hist: values 2 and 1024 -> p50 in [2, 3], p90 in [1024, 2047]
  await expect(hist.locator('.tracing-pct')).toHaveText('percentile buckets: p50 2 – 3 · p90 1,024 – 2,047 · p99 1,024 – 2,047');
});

test('a printf event stream gives exact percentiles and an overhead estimate', async ({ page }) => {
  let s = '{"type": "attached_probes", "data": {"probes": 1}}\n';
  for (let i = 1; i <= 100; i++) {
    s += `{"type": "printf", "data": "${1000000000 + i * 10000000} usdt:/proc/9/root/tmp/my_controller-AbCdEf.so:my_controller:index ${i * 1000}\\n"}\n`;
  }
  const p = tempFile('events.ndjson', s);
  await page.goto('/');
  await chooseFiles(page, [p]);
  const job = await lastJob(page);
  const row = job.locator('.tracing-latency tbody tr').first();
  await expect(row.locator('td').first()).toHaveText('my_controller:index');
  // 100 calls of 1..100 µs: nearest-rank p99 = 99 µs
  await expect(row.locator('td').nth(8)).toHaveText('99 µs');
  await expect(row.locator('td').nth(9)).toHaveText('exact (events)');
  await expect(job.locator('.tracing-overhead-result')).toContainText('fires/s');
  // the recipe builder is seeded with the probes found
  await expect(job.locator('.tracing-recipe-probes')).toHaveValue('my_controller:index');
});

test('64-bit values are shown exactly (never through a JS number)', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('trace/bpftrace-0.17-det/det_bigints.ndjson')]);
  const job = await lastJob(page);
  const maps = job.locator('section.report[data-format="bpftrace-json"]');
  await expect(maps.getByText('18446744073709551615', { exact: true })).toBeVisible();
  await expect(maps.getByText('9007199254740993', { exact: true })).toBeVisible();
});

test('perf script: stacks folded and listed as top stacks', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.txt')]);
  const job = await lastJob(page);
  const stacks = job.locator('.tracing-stacks');
  // stackcollapse-perf.pl folds this capture into 10 distinct stacks (fixture perf-script-ruby.folded.txt)
  await expect(stacks.locator('.gs-table-count')).toHaveText('10 rows');
  await expect(stacks.locator('tbody tr').first().locator('td').first()).toHaveText('20,202,020');
});

// Folded text transformed here, line by line: merge_function removes the frame (its time goes to the
// caller), drop_function removes the lines holding it; lines left without frames go.
function transformFolded(text, kind, name) {
  return text.split('\n').filter(Boolean).map((line) => {
    const at = line.lastIndexOf(' ');
    const frames = line.slice(0, at).split(';');
    if (kind === 'drop' && frames.includes(name)) return '';
    const kept = kind === 'merge' ? frames.filter((f) => f !== name) : frames;
    return kept.length ? kept.join(';') + line.slice(at) + '\n' : '';
  }).join('');
}

test('folded stacks: transforms from a deep link and from the bar, their breadcrumbs and downloads', async ({ page }) => {
  const file = fixture('tracing/perf-script-ruby.folded.txt');
  const text = fs.readFileSync(file, 'utf8');
  const collapsed = async (stacks) => {
    const [download] = await Promise.all([page.waitForEvent('download'), stacks.locator('button[data-export="collapsed"]').click()]);
    return fs.readFileSync(await download.path(), 'utf8');
  };
  await page.goto('/#tr.flame.tf=' + encodeURIComponent(JSON.stringify([{ merge_function: '[unknown]' }])));
  await chooseFiles(page, [file]);
  const stacks = (await lastJob(page)).locator('.tracing-stacks');
  const fg = stacks.locator('.flamegraph');
  await expect(fg.locator('.fg-crumb[data-index="0"]')).toContainText('merged: [unknown]');
  await expect(fg).toHaveAttribute('data-transforms', '1');
  expect(await collapsed(stacks)).toBe(transformFolded(text, 'merge', '[unknown]'));
  // Removing the breadcrumb gives the whole capture back: the file itself (its lines are distinct).
  await fg.locator('.fg-crumb-remove').click();
  await expect(fg).toHaveAttribute('data-transforms', '0');
  expect(await collapsed(stacks)).toBe(text);
  // From the bar: the root's heaviest child ([unknown], 11 of the 13 samples) selected, its samples dropped.
  await fg.locator('canvas.fg-canvas').first().focus();
  await page.keyboard.press('ArrowDown');
  await fg.locator('.fg-t-drop').click();
  await expect(fg.locator('.fg-crumb[data-index="0"]')).toContainText('dropped: [unknown]');
  expect(await collapsed(stacks)).toBe(transformFolded(text, 'drop', '[unknown]'));
});

test('cut stack strings are flagged with the string-limit hint', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('trace/ruby-static-tracing/integration_stacktrace.out')]);
  const job = await lastJob(page);
  await expect(job.locator('.tracing-hint[data-id="strlen"]')).toContainText('BPFTRACE_STRLEN');
  await expect(job.locator('.tracing-stacks tbody tr').first()).toContainText('cut');
});

test('the capture-recipe builder writes commands for what is typed', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('tracing/bpftrace-maps.txt')]);
  const job = await lastJob(page);
  await job.locator('.tracing-recipe-probes').fill('MyController#index');
  await job.locator('.tracing-recipe-pid').fill('4242');
  const recipes = job.locator('.tracing-recipes');
  await expect(recipes.locator('[data-id="enable"] pre')).toHaveText('kill -PROF 4242');
  await expect(recipes.locator('[data-id="count"] pre')).toHaveText("bpftrace -e 'usdt::my_controller:index { @calls[probe] = count(); }' -p 4242");
  await job.locator('.tracing-recipe-probes').fill('ruby:method__entry');
  await expect(recipes.locator('[data-id="tracepoint"] pre')).toContainText('TracePoint.new');
});

test('a probe listing is recognized; a listed probe picked gives its capture commands', async ({ page }) => {
  await page.goto('/');
  // bpftrace -l 'usdt:*' -p PID over a ruby process (fixtures/tracing/make_listings.sh): 22 lines.
  await chooseFiles(page, [fixture('tracing/bpftrace-l-usdt-pid.txt')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="bpftrace-text"]');
  await expect(report.locator('.gs-kpi', { hasText: 'probes listed' })).toContainText('22');
  await expect(report.locator('table tbody tr', { hasText: 'ruby:method__entry' }).first()).toContainText('21393');
  await report.locator('.tracing-recipe-pick').selectOption({ label: 'ruby:method__entry' });
  await expect(report.locator('.tracing-recipe-probes')).toHaveValue('ruby:method__entry');
  await expect(report.locator('.tracing-recipe-pid')).toHaveValue('21393');
  await expect(report.locator('.tracing-recipes [data-id="tracepoint"] pre')).toContainText('TracePoint.new');
  await expect(report.locator('.tracing-recipes')).toContainText('-p 21393');
});

test('two captures dropped together are compared probe by probe', async ({ page }) => {
  await page.goto('/');
  // the same Rails app traced twice: count/avg/stats maps, then hist() of the latencies
  await chooseFiles(page, [corpus('trace/malformed/bt_text_with_stderr_mixed.txt'), corpus('trace/malformed/bt_text_bar_count_mismatch.txt')]);
  const job = await lastJob(page);
  const first = job.locator('section.report').filter({ has: page.locator('h3.report-title', { hasText: 'bt_text_with_stderr_mixed.txt' }) });
  const compare = first.locator('.tracing-compare .gs-table', { hasText: 'Per-probe deltas' });
  await expect(compare).toBeVisible();
  // create: 143 calls here (@count[create]) vs 208 in the hist capture (207 + 1 in @ns[create]):
  // +65 = +45.5% (the figures of tests/tracing/test_tracing_compare.cpp)
  const create = compare.locator('tbody tr', { hasText: /^create/ });
  await expect(create.locator('td').nth(2)).toHaveText('143');
  await expect(create.locator('td').nth(3)).toHaveText('208');
  await expect(create.locator('td').nth(4)).toHaveText('65');
  await expect(create.locator('td').nth(5)).toHaveText('+45.5%');
  // p50 of the hist capture is a bucket: [4M, 8M) = 4,194,304 – 8,388,607
  await expect(create.locator('td').nth(10)).toHaveText('4,194,304 – 8,388,607');
});

test('two stack captures are compared stack by stack', async ({ page }) => {
  await page.goto('/');
  // perf script of dd (folded by gcscope) against FlameGraph's --all folding of the same capture
  await chooseFiles(page, [corpus('trace/stacks/flamegraph-tests/perf-dd-stacks-01.txt'), corpus('trace/stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-all.txt')]);
  const job = await lastJob(page);
  const first = job.locator('section.report[data-format="perf-script"]');
  const box = first.locator('.tracing-compare');
  await expect(box.locator('.tracing-compare-stacks-summary')).toContainText('2 in both, 8 only in A, 7 only in B');
  const top = box.locator('.gs-table', { hasText: 'Per-stack weight deltas' }).locator('tbody tr').first();
  await expect(top.locator('td').first()).toHaveText('-20,202,020');
  await expect(top.locator('td').last()).toHaveText('dd;[unknown];write;system_call;sys_write;vfs_write;fsnotify;__srcu_read_unlock');
  // Per frame too: the rows of `gcscope compare A B` (one C++ profile compare for every stack source).
  const cli = gcscope('compare', corpus('trace/stacks/flamegraph-tests/perf-dd-stacks-01.txt'), corpus('trace/stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-all.txt')).compare;
  const rows = box.locator('.tracing-compare-frames tbody tr');
  for (let i = 0; i < 3; i++) {
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(0)).toHaveText(cli.frames[i].name);
    await expect(cells.nth(2)).toHaveText(cli.frames[i].self_a.toLocaleString('en-US'));
    await expect(cells.nth(3)).toHaveText(cli.frames[i].self_b.toLocaleString('en-US'));
  }
  await expect(box.locator('.tracing-diff-flame .fg-caption')).toContainText('Differential');
});

test('comparing captures of two jobs shows the deltas gcscope compare computes', async ({ page }) => {
  const a = corpus('trace/malformed/bt_text_with_stderr_mixed.txt'), b = corpus('trace/malformed/bt_text_bar_count_mismatch.txt');
  await page.goto('/');
  await chooseFiles(page, [a]);
  await lastJob(page);
  await chooseFiles(page, [b]);
  await lastJob(page);
  const jobA = page.locator('.job').nth(1);  // jobs are listed newest first
  const box = jobA.locator('.tracing-compare');
  // Job B came after job A's view was drawn: Compare refills the list (B is its only capture).
  await box.locator('button', { hasText: 'Compare' }).click();
  await expect(box.locator('select option:checked')).toContainText('bt_text_bar_count_mismatch.txt');
  const probes = box.locator('.gs-table', { hasText: 'Per-probe deltas' });
  await expect(probes).toBeVisible();
  const cli = gcscope('compare', a, b).compare;
  expect(cli.probes.length).toBe(5);
  for (const p of cli.probes) {
    const row = probes.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp('^' + p.probe + '$') }) });
    const td = row.locator('td');
    await expect(td.nth(2)).toHaveText(shown(p.calls.a));
    await expect(td.nth(3)).toHaveText(shown(p.calls.b));
    await expect(td.nth(4)).toHaveText(shown(p.calls.delta));
    await expect(td.nth(5)).toHaveText(p.calls.delta_percent === null ? '—' : (p.calls.delta_percent > 0 ? '+' : '') + p.calls.delta_percent.toFixed(1) + '%');
  }
  // No stacks in either capture: no per-frame part, nor a reason for its absence; the JSON download
  // is the engine's answer.
  expect(cli.frames).toBeUndefined();
  expect(cli.frames_omitted).toBeUndefined();
  await expect(box.locator('.tracing-compare-frames, .tracing-compare-no-frames')).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), box.locator('button', { hasText: 'Download comparison JSON' }).click()]);
  expect(download.suggestedFilename()).toBe('tracing-compare.json');
  expect(JSON.parse(fs.readFileSync(await download.path(), 'utf8'))).toMatchObject({ probes: cli.probes, stacks: cli.stacks });
});

// Two jobs of two captures each, compared as sets: each side is the sum of its job's captures
// (compare.side/compare.with {set: true}), what `gcscope compare DIR_A DIR_B` computes.
test('two jobs of several captures are compared as their sums', async ({ page }) => {
  const stacks = (name) => corpus('trace/stacks/flamegraph-tests/' + name);
  // stacks weighed in samples on both sides (a perf script's period would not add to samples)
  const setA = [stacks('perf-funcab-cmd-01.txt'), stacks('perf-js-stacks-01.txt')];
  const setB = [stacks('perf-funcab-cmd-01-collapsed-all.txt'), stacks('perf-java-stacks-02.txt')];
  const folder = (files) => {
    const dir = path.dirname(tempFile('x', ''));
    for (const f of files) fs.copyFileSync(f, path.join(dir, path.basename(f)));
    fs.unlinkSync(path.join(dir, 'x'));
    return dir;
  };
  const cli = gcscope('compare', folder(setA), folder(setB)).compare;
  // the sum is not the first capture of each side: the option must change the figures
  const single = gcscope('compare', setA[0], setB[0]).compare;
  expect(cli.a.set).toEqual({ captures: 2, formats: ['perf-script'], not_summed: [] });
  expect(cli.b.set.captures).toBe(2);
  expect(cli.b.set.not_summed).toEqual([]);
  expect(cli.totals.a).not.toBe(single.totals.a);
  expect(cli.totals.b).not.toBe(single.totals.b);
  // Each side's total is the sum of its captures' own: the collapsed file's is its lines' weights.
  const second = gcscope('compare', setA[1], setB[1]).compare;
  const weights = fs.readFileSync(setB[0], 'utf8').split('\n').filter(Boolean).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  expect(single.totals.b).toBe(weights);
  expect(cli.totals.a).toBe(single.totals.a + second.totals.a);
  expect(cli.totals.b).toBe(single.totals.b + second.totals.b);

  await page.goto('/');
  await chooseFiles(page, setA);
  await lastJob(page);
  await chooseFiles(page, setB);
  await lastJob(page);
  const jobA = page.locator('.job').nth(1);  // jobs are listed newest first
  const box = jobA.locator('section.report').first().locator('.tracing-compare');
  const option = box.locator('.gs-compare-set-option');
  // A capture of its own job is not a set comparison: no option
  await box.locator('button', { hasText: 'Compare' }).click();
  await expect(box.locator('select option:checked')).toContainText('this job');
  await expect(option).toBeHidden();
  const other = await box.locator('select option', { hasText: 'job 1' }).first().getAttribute('value');
  await box.locator('select').selectOption(other);
  await expect(option).toBeVisible();
  // one capture against one first: the figures of the two first captures
  await expect(box.locator('.tracing-compare-stacks-summary')).toContainText(`A ${single.stacks.a.unique} (${shown(single.stacks.a.total_weight)}`);
  await option.locator('input').check();
  await expect(box.locator('.gs-compare-set-note li')).toHaveText(['A: 2 reports summed', 'B: 2 reports summed']);
  const s = cli.stacks;
  await expect(box.locator('.tracing-compare-stacks-summary')).toHaveText(
    `stacks: A ${shown(s.a.unique)} (${shown(s.a.total_weight)} ${s.a.weight_unit}), B ${shown(s.b.unique)} (${shown(s.b.total_weight)} ${s.b.weight_unit}); ` +
    `${shown(s.common)} in both, ${shown(s.only_a)} only in A, ${shown(s.only_b)} only in B`);
  const rows = box.locator('.tracing-compare-frames tbody tr');
  expect(cli.frames.length).toBeGreaterThan(5);
  for (let i = 0; i < 5; i++) {
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(0)).toHaveText(cli.frames[i].name);
    await expect(cells.nth(2)).toHaveText(shown(cli.frames[i].self_a));
    await expect(cells.nth(3)).toHaveText(shown(cli.frames[i].self_b));
    await expect(cells.nth(7)).toHaveText(shown(cli.frames[i].total_a));
    await expect(cells.nth(8)).toHaveText(shown(cli.frames[i].total_b));
  }
});

test("a capture opens with its slowest probes; a probe's values are binned by the engine", async ({ page }) => {
  const file = tempFile('events.ndjson', eventStream());
  await page.goto('/');
  await chooseFiles(page, [file]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="bpftrace-json"]');
  const first = report.locator('details.gs-section').first();
  await expect(first.locator('summary')).toHaveText('Slowest probes');
  const cli = gcscope('analyze', file).reports[0];
  expect(cli.slowest_probes[0].probe).toBe('my_controller:index');  // p99 99 µs against 5 µs
  await expect(first.locator('tbody tr').first().locator('td').nth(1)).toHaveText(cli.slowest_probes[0].probe);
  // events: the 110 printf lines, not the attached_probes record
  await expect(report.locator('.gs-kpi', { hasText: 'events' }).first().locator('.gs-kpi-value')).toHaveText('110');
  // Its detail: exact bins from the engine, re-binned over a range typed in.
  await first.locator('tbody tr').first().click();
  const detail = report.locator('.tracing-probe-detail');
  await expect(detail.locator('.tracing-bins-note')).toContainText('0 below and 0 above');
  await detail.locator('.tracing-bins-lo').fill('50000');
  await detail.locator('.tracing-bins-hi').fill('59999');
  await detail.locator('.tracing-bins-n').fill('5');
  await detail.locator('.tracing-bins-form button[type=submit]').click();
  const bins = gcscope('query', file, '--method', 'tracing.histogram', '--args', JSON.stringify({ probe: 'my_controller:index', lo: 50000, hi: 59999, bins: 5 })).result;
  await expect(detail.locator('.tracing-bins-note')).toContainText(`${bins.below} below and ${bins.above} above`);
  expect(bins.width).toBe(2000);
  await expect(detail.locator('.gs-chart-title').last()).toContainText('bins of 2.00 µs');
});

test('speedscope round trip: the real speedscope opens a perf capture\'s export with the folding\'s figures', async ({ page, context }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.txt')]);
  const stacks = (await lastJob(page)).locator('.tracing-stacks');
  const [download] = await Promise.all([page.waitForEvent('download'), stacks.locator('button[data-export="speedscope"]').click()]);
  const file = tempFile('perf-script-ruby.speedscope.json', fs.readFileSync(await download.path()));
  // The expectation from FlameGraph's stackcollapse-perf.pl folding of the same capture: each
  // frame's self (leaf) and total (stacks holding it) weight, as shares of the whole.
  const folded = fs.readFileSync(fixture('tracing/perf-script-ruby.folded.txt'), 'utf8').split('\n').filter(Boolean).map((l) => {
    const at = l.lastIndexOf(' ');
    return { frames: l.slice(0, at).split(';'), weight: Number(l.slice(at + 1)) };
  });
  const all = folded.reduce((a, s) => a + s.weight, 0);
  const self = {}, total = {};
  for (const s of folded) {
    self[s.frames[s.frames.length - 1]] = (self[s.frames[s.frames.length - 1]] || 0) + s.weight;
    for (const f of new Set(s.frames)) total[f] = (total[f] || 0) + s.weight;
  }
  const heaviest = Object.keys(self).sort((a, b) => self[b] - self[a] || (a < b ? -1 : 1))[0];
  const share = (w) => Math.round((100 * w) / all) + '%';
  const rows = await speedscopeSandwich(context, file, expect);
  expect(rows[0].name).toBe(heaviest);
  expect(rows[0].self).toContain('(' + share(self[heaviest]) + ')');
  expect(rows[0].total).toContain('(' + share(total[heaviest]) + ')');
  expect(rows.find((r) => r.name === 'ruby').total).toContain('(100%)');
});
