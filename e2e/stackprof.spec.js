// stackprof in the page: header, flame graph modes, the text table and method view, exports equal
// to the real stackprof CLI's output (corpus goldens), comparing two profiles, and the flame graph
// component at 10^6 samples.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, corpus, fixture, chooseFiles, lastJob, tempFile, speedscopeSandwich, speedscopeLeftHeavy } = require('./helpers');

const dump = (name) => corpus(`prof/${name}/${name}.dump`);
const golden = (name, report) => fs.readFileSync(corpus(`prof/${name}/golden/${report}`), 'utf8');

async function open(page, name) {
  await page.goto('/');
  await chooseFiles(page, [dump(name)]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  // Pinned to this job's card: a compared file becomes a job of its own, put first on the page.
  const id = await job.getAttribute('data-job');
  return page.locator(`.job[data-job="${id}"] section.report[data-format="stackprof"]`);
}

test('a raw cpu dump: header, flame graph modes, search, hover, table and method view', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  const head = report.locator('.stackprof-head');
  await expect(head).toContainText('cpu(1000)');
  await expect(head).toContainText('486');
  await expect(head).toContainText('49 (10.08 %)');  // GC: 49 (10.08%) in the CLI's --text
  await expect(head).toContainText('0.41 %');          // miss rate

  const fg = report.locator('.flamegraph');
  await expect(fg.locator('canvas')).toHaveCount(1);
  await expect(fg.locator('.fg-caption')).toContainText('Left heavy');
  await expect(fg.locator('.fg-caption')).toContainText('total 486 samples');  // Σ raw weights
  await fg.locator('button[data-mode="time-order"]').click();
  await expect(fg.locator('.fg-caption')).toContainText('Time order');
  await fg.locator('button[data-mode="left-heavy"]').click();

  // Hover the root row: <main>, the root of every stack but the GC samples' (437 of 486).
  const canvas = fg.locator('canvas').first();
  await canvas.scrollIntoViewIfNeeded();  // mouse coordinates are viewport coordinates
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 8);
  await expect(fg.locator('.fg-tip')).toBeVisible();
  await expect(fg.locator('.fg-tip')).toContainText('<main>');
  await expect(fg.locator('.fg-tip')).toContainText('437 samples (89.9 %)');

  await fg.locator('.fg-search').fill('Array#map');
  await expect(fg.locator('.fg-match')).toContainText('matches: 21.0 %');  // Array#map total 102 of 486

  // Sandwich of the heaviest self frame.
  await fg.locator('button[data-mode="sandwich"]').click();
  await expect(fg.locator('canvas')).toHaveCount(2);
  await expect(fg.locator('.fg-caption')).toContainText('Sandwich of Array#map');

  // Text table: stackprof's first row, then the method view for a clicked row.
  const firstRow = report.locator('.stackprof-text tbody tr').first();
  await expect(firstRow).toContainText('Array#map');
  await expect(firstRow).toContainText('102');
  await expect(firstRow).toContainText('61');
  const method = report.locator('.stackprof-method');
  await expect(method.locator('.method-name')).toHaveText('Array#map');
  await expect(method).toContainText('block (2 levels) in <class:Pipeline>');  // caller with 91 (89.2%)
  await expect(method).toContainText('89.2 %');
  await report.locator('.stackprof-text tbody tr', { hasText: 'Workloads::Blocks.run' }).first().click();
  await expect(method.locator('.method-name')).toHaveText('Workloads::Blocks.run');

  // stackprof's --select/--reject filters.
  await report.locator('.sp-reject-names').fill('^Array');
  await expect(report.locator('.stackprof-text tbody tr', { hasText: 'Array#map' })).toHaveCount(0);
  await report.locator('.sp-reject-names').fill('');
  await report.locator('.sp-select-files').fill('<cfunc>');
  await expect(report.locator('.stackprof-text .gs-table-caption')).toContainText('17 of 32 frames');  // manifest: 17 frames with nil line = C frames
});

test('exports are the same bytes as stackprof --graphviz and --stackcollapse', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  for (const [which, file] of [['graphviz', 'graphviz.dot'], ['collapsed', 'stackcollapse.txt']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), report.locator(`button[data-export="${which}"]`).click()]);
    const body = fs.readFileSync(await download.path(), 'utf8');
    expect(body).toBe(golden('blocks-cpu-raw', file));
  }
});

test('object mode says the miss rate is meaningless; an aggregated dump has no flame graph', async ({ page }) => {
  const objectReport = await open(page, 'blocks-object-raw');
  await expect(objectReport.locator('.stackprof-head')).toContainText('not meaningful in object mode');
  await expect(objectReport.locator('.fg-caption')).toContainText('allocations');

  const agg = await open(page, 'blocks-cpu-agg');
  await expect(agg.locator('.stackprof-flame')).toContainText('no raw samples');
  await expect(agg.locator('button[data-export="collapsed"]')).toHaveCount(0);
  await expect(agg.locator('.stackprof-text tbody tr').first()).toContainText('Workloads::Blocks.run');
});

test('comparing two profiles: the delta table and differential graph are gcscope compare\'s', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  await report.locator('.stackprof-compare-input').setInputFiles(dump('gc-cpu-raw'));
  const status = report.locator('.stackprof-compare-status');
  await expect(status).toContainText('Comparing with gc-cpu-raw.dump: before = this profile (486 samples), after = gc-cpu-raw.dump (879)');
  const diff = report.locator('.stackprof-diff-flame .flamegraph');
  await expect(diff.locator('button[data-mode="diff"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(diff.locator('.fg-caption')).toContainText('Differential');
  // The same per-frame deltas as the CLI (one C++ compare for both).
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['compare', dump('blocks-cpu-raw'), dump('gc-cpu-raw')]).toString()).compare;
  const rows = report.locator('.stackprof-compare-result tbody tr');
  await expect(rows.first()).toBeVisible();
  for (let i = 0; i < 5; i++) {
    const f = cli.frames[i];
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(0)).toHaveText(f.name);
    await expect(cells.nth(2)).toHaveText(f.self_a.toLocaleString('en-US'));
    await expect(cells.nth(3)).toHaveText(f.self_b.toLocaleString('en-US'));
    await expect(cells.nth(11)).toHaveText((f.total_delta_pct > 0 ? '+' : '') + f.total_delta_pct.toFixed(2));
  }
  // Hand check of one row against `stackprof --text` of each side: Array#map self 61 of 486 before.
  const map = cli.frames.find((f) => f.name === 'Array#map');
  expect([map.self_a, map.total_a]).toEqual([61, 102]);
  // Widths follow either side.
  await diff.locator('.fg-diff-side').click();
  await expect(diff.locator('.fg-caption')).toContainText('widths = this profile (486 samples)');
});

// The colour the user sees at CSS pixel (x, y) of a flame graph's canvas: [r, g, b].
const pixelAt = (canvas, x, y) => canvas.evaluate((c, [px, py]) => {
  const dpr = window.devicePixelRatio || 1;
  return Array.from(c.getContext('2d').getImageData(Math.round(px * dpr), Math.round(py * dpr), 1, 1).data.slice(0, 3));
}, [x, y]);

test('the compare\'s delta table sorts, filters and finds a frame in the differential graph, red grew, blue shrank', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  await report.locator('.stackprof-compare-input').setInputFiles(dump('gc-cpu-raw'));
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['compare', dump('blocks-cpu-raw'), dump('gc-cpu-raw')]).toString()).compare;
  const result = report.locator('.stackprof-compare-result');
  const rows = result.locator('tbody tr');
  await expect(rows).toHaveCount(cli.frames.length);

  // Sorting: "Self after" descending, then ascending (the CLI's self_b of each frame).
  const header = (label) => result.locator('th button.gs-sort', { hasText: new RegExp('^' + label.replace(/[%()]/g, '\\$&') + '$') });
  const byAfter = cli.frames.slice().sort((x, y) => y.self_b - x.self_b);
  expect(byAfter[0].self_b).toBeGreaterThan(byAfter[1].self_b);  // a unique first row
  await header('Self after').click();
  await expect(rows.first().locator('td').nth(0)).toHaveText(byAfter[0].name);  // String#to_sym, 323 after
  await expect(rows.first().locator('td').nth(3)).toHaveText(byAfter[0].self_b.toLocaleString('en-US'));
  await header('Self after').click();
  await expect(rows.first().locator('td').nth(3)).toHaveText('0');
  // Sorting by name, ascending.
  await header('Frame').click();
  const names = cli.frames.map((f) => f.name).sort((x, y) => x.localeCompare(y));
  await expect(rows.first().locator('td').nth(0)).toHaveText(names[0]);
  await expect(rows.last().locator('td').nth(0)).toHaveText(names[names.length - 1]);

  // Filtering: the frames whose name or file:line holds "pipeline" (case-insensitive).
  const filter = result.locator('input[aria-label="Filter rows"]');
  await filter.fill('Pipeline');
  const pipeline = cli.frames.filter((f) => (f.name + ' ' + f.file + ':' + f.line).toLowerCase().includes('pipeline'));
  expect(pipeline.length).toBeGreaterThan(0);
  expect(pipeline.length).toBeLessThan(cli.frames.length);
  await expect(rows).toHaveCount(pipeline.length);
  await filter.fill('');
  await expect(rows).toHaveCount(cli.frames.length);

  // Colour: widths are the after side (879 samples); its root row holds <main> (604) then
  // (garbage collection) (274). <main>'s share fell (89.9 % → 68.7 %), the GC's grew (10.1 % → 31.2 %).
  const main = cli.frames.find((f) => f.name === '<main>'), gc = cli.frames.find((f) => f.name === '(garbage collection)');
  expect([main.total_b, gc.total_b, cli.totals.b]).toEqual([604, 274, 879]);
  expect(main.total_delta_pct).toBeLessThan(-5);
  expect(gc.total_delta_pct).toBeGreaterThan(5);
  const diff = report.locator('.stackprof-diff-flame .flamegraph');
  const canvas = diff.locator('canvas.fg-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const mainX = box.width * (main.total_b / 2) / cli.totals.b, gcX = box.width * (main.total_b + gc.total_b / 2) / cli.totals.b;
  // Hovering says which cell is there (y = 1 px: the cell's fill, above its label).
  for (const [x, name] of [[mainX, '<main>'], [gcX, '(garbage collection)']]) {
    await page.mouse.move(box.x + x, box.y + 4);
    await expect(diff.locator('.fg-tip-name')).toHaveText(name);
  }
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  const mainColour = await pixelAt(canvas, mainX, 1), gcColour = await pixelAt(canvas, gcX, 1);
  expect(mainColour[2] - mainColour[0], 'shrank: blue').toBeGreaterThan(30);
  expect(gcColour[0] - gcColour[2], 'grew: red').toBeGreaterThan(30);

  // A row's click highlights its frame: the GC cell keeps its colour, every other cell is greyed.
  await rows.filter({ has: page.locator('td:first-child', { hasText: /^\(garbage collection\)$/ }) }).click();
  await expect.poll(() => pixelAt(canvas, mainX, 1)).toEqual([228, 228, 228]);
  expect(await pixelAt(canvas, gcX, 1)).toEqual(gcColour);
  // The dump holds two <main> frames (two frame ids; stackprof --text lists both): one row's frame
  // is the root cell, the other's is called below it, so exactly one click keeps the root's colour.
  const mains = rows.filter({ has: page.locator('td:first-child', { hasText: /^<main>$/ }) });
  await expect(mains).toHaveCount(2);
  const rootColours = [];
  for (let k = 0; k < 2; k++) {
    await mains.nth(k).click();
    await expect.poll(() => pixelAt(canvas, gcX, 1)).toEqual([228, 228, 228]);
    rootColours.push(await pixelAt(canvas, mainX, 1));
  }
  expect(rootColours.filter((c) => c.join() === mainColour.join())).toHaveLength(1);
  expect(rootColours).toContainEqual([228, 228, 228]);
});

test('the flame graph by keyboard: arrows walk the tree, Enter zooms, Esc and Backspace back out, / searches a regexp, announced', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  const fg = report.locator('.stackprof-flame .flamegraph');
  const canvas = fg.locator('canvas.fg-canvas');
  await canvas.focus();
  const live = fg.locator('.fg-live');
  // Focus selects the heaviest root: <main> in 437 of 486 samples.
  await expect(live).toHaveText(/^<main>.*437 samples \(89\.9 %\).*depth 1$/);
  await page.keyboard.press('ArrowDown');
  await expect(live).toContainText('depth 2');
  await expect(report.locator('.fg-sel-name')).toContainText('Selected: <main>');  // <main> calls <main>
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(live).toContainText('block in <main>');
  await page.keyboard.press('ArrowUp');
  await expect(live).toContainText('StackProf.run');
  await page.keyboard.press('Enter');
  await expect(fg).toHaveAttribute('data-view', /^left-heavy_[\d.]+_[\d.]+$/);
  await page.keyboard.press('Escape');
  await expect(fg).toHaveAttribute('data-view', 'left-heavy');
  await page.keyboard.press('?');
  await expect(fg.locator('.fg-help')).toBeVisible();
  await expect(fg.locator('.fg-help')).toContainText('zoom back out');
  await page.keyboard.press('?');

  // Left/Right: siblings. The roots are <main> (437) then (garbage collection) (49 of 486), whose
  // callees are (sweeping) (45) then (marking) (4): stackprof --text and --stackcollapse.
  await canvas.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(live).toHaveText(/^<main>.*depth 1$/);
  await page.keyboard.press('ArrowRight');
  await expect(live).toHaveText(/^\(garbage collection\).*49 samples \(10\.1 %\).*depth 1$/);
  await page.keyboard.press('ArrowRight');  // no later root: the selection stays
  await expect(live).toHaveText(/^\(garbage collection\)/);
  await page.keyboard.press('ArrowLeft');
  await expect(live).toHaveText(/^<main>.*depth 1$/);
  await page.keyboard.press('ArrowRight');
  // Enter zooms to the GC cell (x from 437 to 486 of 486), then to (sweeping); Backspace backs out
  // one zoom at a time.
  await page.keyboard.press('Enter');
  await expect(fg).toHaveAttribute('data-view', 'left-heavy_' + +(437 / 486).toFixed(6) + '_1');
  await page.keyboard.press('ArrowDown');
  await expect(live).toHaveText(/^\(sweeping\).*45 samples \(9\.3 %\).*depth 2$/);
  await page.keyboard.press('ArrowRight');
  await expect(live).toHaveText(/^\(marking\).*4 samples \(0\.8 %\).*depth 2$/);
  await page.keyboard.press('ArrowLeft');
  await expect(live).toHaveText(/^\(sweeping\)/);
  await page.keyboard.press('Enter');
  await expect(fg).toHaveAttribute('data-view', 'left-heavy_' + +(437 / 486).toFixed(6) + '_' + +((437 + 45) / 486).toFixed(6));
  await page.keyboard.press('Backspace');
  await expect(fg).toHaveAttribute('data-view', 'left-heavy_' + +(437 / 486).toFixed(6) + '_1');
  await page.keyboard.press('Backspace');
  await expect(fg).toHaveAttribute('data-view', 'left-heavy');

  // `/` then a regular expression: anchored, it matches exactly the two frames that stackprof --text
  // names Array#each and Enumerator#each (not Enumerable#each_slice and the like). Its share is the
  // samples of stackprof --stackcollapse whose stack holds one of them.
  const re = '^(Array|Enumerator)#each$';
  const textFrames = golden('blocks-cpu-raw', 'text-all.txt').split('\n').map((l) => /^\s+\d+\s+\(\s*[\d.]+%\)\s+\d+\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(l)).filter(Boolean).map((m) => m[1]);
  expect(textFrames.filter((n) => new RegExp(re).test(n))).toEqual(['Array#each', 'Enumerator#each']);
  expect(textFrames.filter((n) => /each/.test(n)).length).toBeGreaterThan(2);
  let hit = 0, all = 0;
  for (const line of golden('blocks-cpu-raw', 'stackcollapse.txt').trim().split('\n')) {
    const cut = line.lastIndexOf(' '), n = Number(line.slice(cut + 1));
    all += n;
    if (line.slice(0, cut).split(';').some((f) => new RegExp(re).test(f))) hit += n;
  }
  expect(all).toBe(486);
  await page.keyboard.press('/');
  await expect(fg.locator('.fg-search')).toBeFocused();
  await page.keyboard.type(re);
  await expect(fg.locator('.fg-match')).toHaveText(`matches: ${(100 * hit / all).toFixed(1)} % of samples`);
  await page.keyboard.press('Enter');  // back to the graph
  await expect(canvas).toBeFocused();
});

test('speedscope round trip: the real speedscope reads back stackprof\'s total and heaviest stack', async ({ page, context }) => {
  const report = await open(page, 'blocks-cpu-raw');
  const [download] = await Promise.all([page.waitForEvent('download'), report.locator('button[data-export="speedscope"]').click()]);
  const file = tempFile('blocks-cpu-raw.speedscope.json', fs.readFileSync(await download.path()));
  // stackprof --stackcollapse of the dump: the total, and the stack Left Heavy draws on the left edge
  // (from the root, the heaviest child at each depth; the dump has no ties on that path).
  const tree = { children: new Map() };
  let total = 0;
  for (const line of golden('blocks-cpu-raw', 'stackcollapse.txt').trim().split('\n')) {
    const cut = line.lastIndexOf(' '), n = Number(line.slice(cut + 1));
    total += n;
    let node = tree;
    for (const f of line.slice(0, cut).split(';')) {
      if (!node.children.has(f)) node.children.set(f, { weight: 0, children: new Map() });
      node = node.children.get(f);
      node.weight += n;
    }
  }
  const heaviest = [];
  for (let node = tree; node.children.size;) {
    const [[name, child], next] = [...node.children].sort((a, b) => b[1].weight - a[1].weight);
    expect(next === undefined || next[1].weight < child.weight, `no tie under ${name}`).toBe(true);
    heaviest.push({ weight: child.weight, name });
    node = child;
  }
  expect(total).toBe(Number(golden('blocks-cpu-raw', 'text.txt').match(/Samples: (\d+)/)[1]));
  const shown = await speedscopeLeftHeavy(context, file, expect);
  expect(shown.roots.reduce((sum, f) => sum + f.weight, 0)).toBe(total);
  expect(shown.heaviest).toEqual(heaviest);
  // The sandwich table: Array#map's total and self as stackprof --text prints them (102 and 61).
  const rows = await speedscopeSandwich(context, file, expect);
  const map = golden('blocks-cpu-raw', 'text.txt').match(/^\s*(\d+)\s+\(\s*[\d.]+%\)\s+(\d+)\s+\(\s*[\d.]+%\)\s+Array#map$/m);
  expect(rows.find((r) => r.name === 'Array#map')).toMatchObject({ total: expect.stringMatching(`^${map[1]} `), self: expect.stringMatching(`^${map[2]} `) });
});

// fixtures/profile/transforms: each case's expected collapsed stacks, made by an independent
// script over the real stackprof CLI's output.
const transformCases = JSON.parse(fs.readFileSync(fixture('profile/transforms/cases.json'), 'utf8'));
const caseDump = (src) => {
  src = src.replace(/^json:/, '');
  return src === 'gems' ? fixture('stackprof/gems/gems-wall-raw.dump') : dump(src.split(':')[1]);
};

test('every transform from a deep link: breadcrumbs, and the download follows the transformed profile', async ({ page }) => {
  for (const c of transformCases) {
    await page.goto('/#sp.flame.tf=' + encodeURIComponent(JSON.stringify(c.transforms)));
    await chooseFiles(page, [caseDump(c.dump)]);
    const job = await lastJob(page);
    const report = job.locator('section.report[data-format="stackprof"]');
    await expect(report.locator('.fg-crumb[data-index]')).toHaveCount(c.transforms.length);
    await expect(report.locator('.stackprof-flame .flamegraph')).toHaveAttribute('data-transforms', String(c.transforms.length));
    const [download] = await Promise.all([page.waitForEvent('download'), report.locator('button[data-export="collapsed"]').click()]);
    expect(fs.readFileSync(await download.path(), 'utf8'), c.id).toBe(fs.readFileSync(fixture(`profile/transforms/expected/${c.id}.txt`), 'utf8'));
  }
});

test('transforms from the bar: merge the selected function, remove the breadcrumb, only my code', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  const fg = report.locator('.stackprof-flame .flamegraph');
  await fg.locator('canvas.fg-canvas').focus();
  await page.keyboard.press('ArrowDown');  // the second <main>
  await fg.locator('.fg-t-merge').click();
  await expect(fg.locator('.fg-crumb[data-index="0"]')).toContainText('merged: <main>');
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('sp.flame.tf'))).toBe(JSON.stringify([{ merge_function: '<main>' }]));
  // The table and the method view follow the transformed profile (frames counted from its samples).
  await expect(report.locator('.stackprof-text .gs-table-caption')).toContainText('frames of the transformed profile (486 samples)');
  await expect(report.locator('.stackprof-text tbody tr td:nth-child(5)', { hasText: /^<main>$/ })).toHaveCount(0);
  // Removing the breadcrumb gives the whole profile back.
  await fg.locator('.fg-crumb-remove').click();
  await expect(fg.locator('.fg-crumb[data-index]')).toHaveCount(0);
  await expect(fg).toHaveAttribute('data-transforms', '0');
  await expect(report.locator('.stackprof-text .gs-table-caption')).toContainText('32 of 32 frames');

  // The preset on a profile that runs through gems.
  await page.goto('/');
  await chooseFiles(page, [fixture('stackprof/gems/gems-wall-raw.dump')]);
  const gems = (await lastJob(page)).locator('section.report[data-format="stackprof"]');
  await gems.locator('.fg-t-mine').click();
  await expect(gems.locator('.fg-crumb[data-index="0"]')).toContainText('only my code');
  const [download] = await Promise.all([page.waitForEvent('download'), gems.locator('button[data-export="collapsed"]').click()]);
  expect(fs.readFileSync(await download.path(), 'utf8')).toBe(fs.readFileSync(fixture('profile/transforms/expected/only-my-code.txt'), 'utf8'));
});

// Direct callers and callees of `name` (by name, summed weights) and its self/total, counted over
// collapsed-stack text with the frames matching `hidden` removed (their time kept by the caller).
function callsOf(folded, name, hidden) {
  const callers = {}, callees = {};
  let self = 0, total = 0;
  const add = (m, k, w) => { m[k] = (m[k] || 0) + w; };
  for (const line of folded.trim().split('\n')) {
    const cut = line.lastIndexOf(' '), w = Number(line.slice(cut + 1));
    const stack = line.slice(0, cut).split(';').filter((f) => !(hidden && hidden.test(f)));
    if (!stack.includes(name)) continue;
    total += w;
    if (stack[stack.length - 1] === name) self += w;
    const up = new Set(), down = new Set();
    stack.forEach((f, i) => {
      if (f !== name) return;
      if (i > 0 && stack[i - 1] !== name) up.add(stack[i - 1]);
      if (i + 1 < stack.length && stack[i + 1] !== name) down.add(stack[i + 1]);
    });
    for (const f of up) add(callers, f, w);
    for (const f of down) add(callees, f, w);
  }
  return { self, total, callers, callees };
}

test('the method view follows a transform: callers and callees of the transformed samples', async ({ page }) => {
  const report = await open(page, 'blocks-cpu-raw');
  const method = report.locator('.stackprof-method');
  const folded = golden('blocks-cpu-raw', 'stackcollapse.txt');
  // Rows of a method view's call table: {name: weight}.
  const callTable = async (heading) => {
    const box = method.locator('.method-view');
    const table = box.locator(`h5:text-matches("^${heading}") + .gs-table`);
    const out = {};
    for (const tr of await table.locator('tbody tr').all()) {
      const cells = await tr.locator('td').allTextContents();
      out[cells[2]] = Number(cells[0].replace(/,/g, ''));
    }
    return out;
  };
  await report.locator('.stackprof-text tbody tr', { hasText: 'Array#sum' }).first().click();
  await expect(method.locator('.method-name')).toHaveText('Array#sum');
  const before = callsOf(folded, 'Array#sum', null);
  expect(before.callers).toEqual({ 'Workloads::Pipeline#method_missing': 87 });  // stackprof --text: 87 total
  await expect.poll(() => callTable('Callers')).toEqual(before.callers);

  // Hide Workloads::Pipeline#method_missing: Array#sum is now called by Workloads::Blocks.run, calls
  // Symbol#length and Integer#^ directly, and keeps the hidden frame's self time.
  const fg = report.locator('.stackprof-flame .flamegraph');
  await fg.locator('.fg-hide-input').fill('^Workloads::Pipeline#method_missing$');
  await fg.locator('.fg-t-hide').click();
  await expect(fg.locator('.fg-crumb[data-index="0"]')).toContainText('hidden: /^Workloads::Pipeline#method_missing$/');
  const after = callsOf(folded, 'Array#sum', /^Workloads::Pipeline#method_missing$/);
  expect(after.callers).toEqual({ 'Workloads::Blocks.run': 87 });
  expect(after.self).toBeGreaterThan(before.self);
  await expect(method).toContainText(`in the transformed profile: ${after.self} self`);
  await expect(method).toContainText(`/ ${after.total} total`);
  await expect.poll(() => callTable('Callers')).toEqual(after.callers);
  await expect.poll(() => callTable('Callees')).toEqual(after.callees);
  // The CLI asked the same question with the same transform answers the same.
  const ask = (m, args) => JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['query', dump('blocks-cpu-raw'), '--method', m, '--args', JSON.stringify(args)]).toString()).result;
  const frame = ask('stacks.frames', {}).rows.find((r) => r.name === 'Array#sum').frame;
  const cli = ask('stacks.calls', { frame, transforms: [{ hide: '^Workloads::Pipeline#method_missing$' }] });
  expect(cli.name).toBe('Array#sum');
  expect(Object.fromEntries(cli.callees.map((c) => [c.name, c.weight]))).toEqual(after.callees);

  // Removing the breadcrumb brings stackprof --method's callers back.
  await fg.locator('.fg-crumb-remove').click();
  await expect.poll(() => callTable('Callers')).toEqual(before.callers);
});

// The code lines of a `stackprof --method` report: {line, total, self, code}; total/self null when
// stackprof printed no samples for the line, self 0 when it printed only the total.
function goldenCode(text) {
  const out = [];
  const body = text.slice(text.indexOf('  code:\n') + 8);
  for (const l of body.split('\n')) {
    const m = /^(?:\s*(\d+)\s+\(\s*[\d.]+%\)(?:\s+\/\s+(\d+)\s+\(\s*[\d.]+%\))?)?\s+\|\s+(\d+)\s+\| (.*)$/.exec(l);
    if (m) out.push({ line: Number(m[3]), total: m[1] === undefined ? null : Number(m[1]), self: m[1] === undefined ? null : Number(m[2] || 0), code: m[4] });
  }
  return out;
}

test('the method view shows the dropped source with the per-line samples of stackprof --method', async ({ page }) => {
  // fixtures/stackprof/source_lines.rb profiled itself into source-lines.dump; the goldens are the real
  // CLI's --method output, run while the file was on disk (under another absolute path than here).
  await page.goto('/');
  await chooseFiles(page, [fixture('stackprof/source-lines.dump')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const report = job.locator('section.report[data-format="stackprof"]');
  const method = report.locator('.stackprof-method');
  const pick = async (name) => {
    await report.locator('.sp-select-names').fill('^' + name.replace(/[#]/g, '\\$&') + '$');
    await report.locator('.stackprof-text tbody tr').first().click();
    await expect(method.locator('.method-name')).toHaveText(name);
  };
  await pick('Report#format_row');
  await expect(method.locator('.sp-source-unavailable')).toContainText('SOURCE UNAVAILABLE');

  // Pick the file (name only: matched to /…/fixtures/stackprof/source_lines.rb by suffix).
  await report.locator('.sp-source-input').setInputFiles(fixture('stackprof/source_lines.rb'));
  await expect(report.locator('.sp-source-status')).toContainText('1 source file loaded; 1 of');
  for (const [name, file] of [['Report#format_row', 'format_row'], ['Report#render', 'render'], ['Object#build_rows', 'build_rows']]) {
    await pick(name);
    const golden = goldenCode(fs.readFileSync(fixture(`stackprof/source-lines.method-${file}.txt`), 'utf8'));
    expect(golden.length).toBeGreaterThan(2);
    const rows = method.locator('table.sp-source tbody tr');
    await expect(rows).toHaveCount(golden.length);
    for (let i = 0; i < golden.length; i++) {
      const g = golden[i];
      const row = rows.nth(i);
      await expect(row).toHaveAttribute('data-line', String(g.line));
      await expect(row).toHaveAttribute('data-total', g.total === null ? '' : String(g.total));
      await expect(row).toHaveAttribute('data-self', g.self === null ? '' : String(g.self));
      await expect(row.locator('.sp-src-code')).toHaveText(g.code);
    }
  }
  // Report#format_row's hottest line, as the CLI prints it: 792 samples on line 22, none self.
  await pick('Report#format_row');
  const hot = method.locator('table.sp-source tr[data-line="22"]');
  await expect(hot).toHaveAttribute('data-total', '792');
  await expect(hot).toContainText('cells = row[:values].map');

  // Suffix matching prefers the candidate sharing more trailing path components.
  const rel = await page.evaluate(() => GCSCOPE.stackprofView.matchSource(
    new Map([['x.rb', []], ['app/lib/a/x.rb', []], ['lib/b/x.rb', []]]), '/srv/app/lib/a/x.rb').rel);
  expect(rel).toBe('app/lib/a/x.rb');
});

test('source files can be dropped on the source bar', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [fixture('stackprof/source-lines.dump')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="stackprof"]');
  const b64 = fs.readFileSync(fixture('stackprof/source_lines.rb')).toString('base64');
  const dt = await page.evaluateHandle((data) => {
    const bin = atob(data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const t = new DataTransfer();
    t.items.add(new File([bytes], 'source_lines.rb'));
    return t;
  }, b64);
  await report.locator('.stackprof-sources').dispatchEvent('drop', { dataTransfer: dt });
  await expect(report.locator('.sp-source-status')).toContainText('1 source file loaded');
  // The first method shown is the heaviest self frame; whichever it is, a frame of source_lines.rb
  // now shows code. Pick Object#build_rows: line 29 has 58 total / 36 self (the CLI's golden).
  await report.locator('.sp-select-names').fill('^Object#build_rows$');
  await report.locator('.stackprof-text tbody tr').first().click();
  const row = report.locator('.stackprof-method table.sp-source tr[data-line="29"]');
  await expect(row).toHaveAttribute('data-total', '58');
  await expect(row).toHaveAttribute('data-self', '36');
});

test('the flame graph component lays out 10^6 samples in every mode', async ({ page }) => {
  await page.goto('/');
  const timings = await page.evaluate(() => {
    // A synthetic profile: 2000 frames, a stack tree of ~50k nodes, 10^6 samples in time order.
    const frames = Array.from({ length: 2000 }, (_, i) => ({ name: 'Frame#m' + i, file: 'f' + (i % 40) + '.rb', line: i }));
    const parent = [-1], frame = [0];
    let seed = 7;
    const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    for (let i = 1; i < 50000; i++) { parent.push(rnd(i)); frame.push(1 + rnd(1999)); }
    const N = 1000000;
    const stack = new Int32Array(N), weight = new Float64Array(N).fill(1);
    let cur = 0;
    for (let i = 0; i < N; i++) { if (rnd(8) === 0) cur = rnd(50000); stack[i] = cur; }
    const box = document.createElement('div');
    box.style.width = '1200px';
    document.body.appendChild(box);
    const t0 = performance.now();
    const fg = GCSCOPE.flamegraph.create(box, { frames, stacks: { parent, frame }, samples: { stack, weight }, unit: 'samples' }, { mode: 'left-heavy' });
    const t1 = performance.now();
    fg.setMode('time-order');
    const t2 = performance.now();
    const l = fg.layout();
    fg.search('Frame#m12');
    const t3 = performance.now();
    fg.resetZoom();
    const t4 = performance.now();
    return { leftHeavy: t1 - t0, timeOrder: t2 - t1, search: t3 - t2, redraw: t4 - t3, total: l.total, cells: l.x.length };
  });
  // Speed is measured by bench/, not asserted here: this checks the layout holds every sample.
  expect(timings.total).toBe(1000000);
  expect(timings.cells).toBeGreaterThan(0);
});
