// Ruby heap dumps in the browser: summary tables, icicle with path to root, diff of 3 dumps, and
// hostile strings rendered as text.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('@playwright/test');
const { ROOT, fixture, corpus, chooseFiles, lastJob } = require('./helpers');

// What `gcscope query` answers about the same input: the engine the page asks, run natively.
function cliQuery(paths, method, args) {
  const out = execFileSync(path.join(ROOT, 'build/native/gcscope'), ['query', ...paths, '--method', method, '--args', JSON.stringify(args || {})],
    { maxBuffer: 1 << 28 }).toString();
  return JSON.parse(out).result;
}

test('a dump shows its summaries, icicle and path to a root', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/dumps/small_points.heap.json')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  // 7762 objects (manifest expect.object_records), 2207939 bytes of memsize.
  await expect(report.locator('.gs-kpi').first()).toContainText('7,762');
  // By class: Point has 500 instances (expected/small_points.inprocess.json retained.Point).
  const classes = report.locator('details', { hasText: 'By class' }).first();
  await classes.locator('input[type=search]').fill('Point');
  await expect(classes.locator('tbody tr').first()).toContainText('500');
  // Sorting by the Objects column puts String (3404 instances) first.
  const byClass = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: /^By class$/ }) });
  await byClass.locator('input[type=search]').fill('');
  await byClass.locator('th', { hasText: 'Objects' }).click();
  await expect(byClass.locator('tbody tr').first().locator('td').first()).toHaveText('String');
  await expect(byClass.locator('tbody tr').first().locator('td').nth(1)).toHaveText('3,404');
  // The icicle is drawn; clicking the top retainer row shows its path from a GC root.
  const icicle = report.locator('.heap-icicle-wrap canvas.fg-canvas');
  await expect(icicle).toBeVisible();
  const top = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Top retainers' }) });
  await top.locator('tbody tr').first().click();
  await expect(report.locator('.heap-detail ol.heap-path li').first()).toContainText('GC root:');
  // Clicking into the icicle selects a node and shows its details.
  await icicle.scrollIntoViewIfNeeded();  // mouse coordinates are viewport coordinates
  const box = await icicle.boundingBox();
  await page.mouse.click(box.x + 5, box.y + 16 + 8);  // row 2: the biggest object below the GC roots
  await expect(report.locator('.heap-detail h4')).not.toBeEmpty();
  // zoomed in: the second row is the selected object across the width; one row down, its children
  await page.mouse.click(box.x + 5, box.y + 2 * 16 + 8);
  await expect(report.locator('.heap-detail ol.heap-path li').first()).toContainText('GC root:');
});

test('a partial (since:) dump says why there is no dominator tree', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/dumps/variant_since_partial.heap.json')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  await expect(report.locator('.gs-kpi').first()).toContainText('2,015');
  await expect(report).toContainText('No dominator tree: no ROOT records');
  await expect(report.locator('.heap-icicle-wrap')).toHaveCount(0);
});

test('three dumps open on the diff: the 2000 leaked strings are listed at their line', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, ['leak_1', 'leak_2', 'leak_3'].map((n) => fixture(`heap/${n}.heap.json.gz`)));
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  const diff = report.locator('details.gs-section').first();
  await expect(diff.locator('summary').first()).toHaveText('New objects still alive (3 dumps compared)');
  // fixtures/heap/diff.truth.json: 2000 strings leak at generate_diff.rb:<leak.line>
  const truth = JSON.parse(fs.readFileSync(fixture('heap/diff.truth.json'), 'utf8')).leak;
  const first = diff.locator('tbody').first().locator('tr').first();
  await expect(first.locator('td').nth(0)).toHaveText(truth.file);
  await expect(first.locator('td').nth(1)).toHaveText(String(truth.line));
  await expect(first.locator('td').nth(3)).toHaveText('2,000');
});

test('three leak dumps show the diff first with the three leak sites on top; the last dump is one click away', async ({ page }) => {
  await page.goto('/');
  await chooseFiles(page, ['sites_1', 'sites_2', 'sites_3'].map((n) => fixture(`heap/${n}.heap.json.gz`)));
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  // fixtures/heap/sites.truth.json: what Ruby holds at each SITE line (1500 strings, 900 arrays, 300 objects)
  const sites = JSON.parse(fs.readFileSync(fixture('heap/sites.truth.json'), 'utf8')).sites;
  const diff = report.locator('details.gs-section').first();
  await expect(diff.locator('summary').first()).toContainText('New objects still alive');
  const rows = diff.locator('.gs-table').first().locator('tbody tr');
  for (let k = 0; k < 3; k++) {
    const cells = rows.nth(k).locator('td');
    await expect(cells.nth(0)).toHaveText(sites[k].file);
    await expect(cells.nth(1)).toHaveText(String(sites[k].line));
    await expect(cells.nth(2)).toHaveText(sites[k].type);
    await expect(cells.nth(3)).toHaveText(sites[k].count.toLocaleString('en-US'));
  }
  // The page speaks no CLI: no option names, no flags.
  await expect(report).not.toContainText('--diff');
  await expect(report).not.toContainText('heap_diff');
  // The last dump's summary: closed, one click away.
  const last = report.locator('details.heap-last-dump');
  await expect(last).not.toHaveAttribute('open', '');
  await last.locator('summary').first().click();
  const files = ['sites_1', 'sites_2', 'sites_3'].map((n) => fixture(`heap/${n}.heap.json.gz`));
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['analyze', ...files], { maxBuffer: 1 << 28 }).toString());
  await expect(last.locator('.gs-kpi').first()).toContainText(cli.reports[0].objects.toLocaleString('en-US'));
  await expect(last.locator('.heap-icicle-wrap canvas.fg-canvas')).toBeVisible();
});

test('any object, looked up or clicked, shows its path to a root and its dominator subtree (as gcscope query says)', async ({ page }) => {
  await page.goto('/');
  const dump = fixture('heap/graph.heap.json.gz');
  const truth = JSON.parse(fs.readFileSync(fixture('heap/graph.truth.json'), 'utf8'));
  await chooseFiles(page, [dump]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  const detail = report.locator('.heap-detail');
  // One order of the generated program: neither a top retainer nor in the report's bounded tree.
  const order = truth.targets.order.address;
  await report.locator('input.heap-find').fill(order);
  await report.locator('.heap-find-form button[type=submit]').click();
  const path = cliQuery([dump], 'heap.path', { address: order });
  const steps = detail.locator('ol.heap-path li');
  await expect(steps.first()).toHaveText('GC root: ' + path.root_category);
  await expect(steps).toHaveCount(path.path_to_root.length + 1);
  // Root first in the page, object first in the answer.
  for (let k = 0; k < path.path_to_root.length; k++) {
    await expect(steps.nth(k + 1).locator('a.heap-obj')).toHaveAttribute('data-address', path.path_to_root[path.path_to_root.length - 1 - k].address);
  }
  await expect(detail.locator('h4')).toContainText('Order  ' + order);
  // Its dominator subtree: the same nodes as the engine's, biggest first.
  const sub = cliQuery([dump], 'heap.subtree', { address: order, max_nodes: 60 });
  const subRows = detail.locator('.heap-subtree tbody tr');
  await expect(subRows).toHaveCount(sub.nodes);
  await expect(subRows.first().locator('td').nth(1)).toHaveText(order);
  // Clicking a step of the path (the object holding the order) shows that object.
  const holder = path.path_to_root[1].address;
  await steps.nth(path.path_to_root.length - 1).locator('a.heap-obj').click();
  await expect(detail.locator('h4')).toContainText(holder);
  const holderPath = cliQuery([dump], 'heap.path', { address: holder });
  await expect(detail.locator('ol.heap-path li')).toHaveCount(holderPath.path_to_root.length + 1);
  const holderSub = cliQuery([dump], 'heap.subtree', { address: holder, max_nodes: 60 });
  await expect(detail.locator('.heap-subtree tbody tr')).toHaveCount(holderSub.nodes);
  const holderSteps = detail.locator('ol.heap-path li');
  for (let k = 0; k < holderPath.path_to_root.length; k++) {
    const o = holderPath.path_to_root[holderPath.path_to_root.length - 1 - k];
    await expect(holderSteps.nth(k + 1)).toContainText(o.label + '  ' + o.address);
  }
  // The orders array's referrers, from the engine, paged (tests/heap/test_heap_queries.cpp checks
  // them against Ruby's): the Registry module, whose constant holds it, is named as a module.
  const orders = truth.targets.orders.address;
  await report.locator('input.heap-find').fill(orders);
  await report.locator('.heap-find-form button[type=submit]').click();
  await expect(detail.locator('h4')).toContainText('Array  ' + orders);
  const parents = cliQuery([dump], 'heap.parents', { address: orders });
  expect(parents.total).toBeGreaterThan(1);
  await expect(detail.locator('.heap-parents > p')).toHaveText('Referenced by: ' + parents.total);
  await expect(detail.locator('.heap-parents li')).toHaveCount(Math.min(parents.total, 50));
  await expect(detail.locator('.heap-parents')).toContainText('Module Registry  ' + truth.labels['Module Registry'][0]);
});

test('a Class object in the retainers and the icicle carries its name', async ({ page }) => {
  await page.goto('/');
  const dump = fixture('heap/graph.heap.json.gz');
  await chooseFiles(page, [dump]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  const top = report.locator('details.gs-section').filter({ has: page.locator('summary', { hasText: 'Top retainers' }) });
  // The report's own top retainers, as gcscope analyze writes them: every Class row is named.
  const cli = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['analyze', dump], { maxBuffer: 1 << 28 }).toString());
  const named = cli.reports[0].top_retainers.filter((t) => t.type === 'CLASS' && t.name);
  expect(named.length).toBeGreaterThan(0);
  await top.locator('input[type=search]').fill(named[0].address);
  await expect(top.locator('tbody tr').first().locator('td').first()).toHaveText('Class ' + named[0].name);
  // The icicle's SVG export names it too (its boxes carry the same labels).
  const svg = await report.locator('.heap-icicle-wrap').evaluate((w) => w.toSvg());
  expect(svg).toContain('Class Object');
});

test('HTML in class names, files and roots stays text', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  await page.goto('/');
  await chooseFiles(page, [corpus('heap/malformed/heap_xss_fields.heap.json')]);
  const job = await lastJob(page);
  const report = job.locator('section.report[data-format="ruby-heap-dump"]');
  await expect(report.locator('td', { hasText: '<img src=x onerror=alert(1)>' }).first()).toBeVisible();
  await expect(report.locator('td', { hasText: '<script>alert(2)</script>.rb' }).first()).toBeVisible();
  expect(await page.locator('img[src=x], iframe, svg[onload]').count()).toBe(0);
  expect(dialogs).toBe(0);
});

test('the icicle is the shared flame graph over retained bytes: its transforms and downloads', async ({ page }) => {
  // Every reachable byte, walked here over the dump's own records (from the ROOT records along
  // "references" and "class", summing "memsize").
  const objs = new Map(), todo = [];
  for (const line of require('zlib').gunzipSync(fs.readFileSync(fixture('heap/points.heap.json.gz'))).toString().split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.type === 'ROOT') todo.push(...(r.references || []));
    else if (r.address) objs.set(r.address, r);
  }
  const seen = new Set();
  while (todo.length) {
    const a = todo.pop();
    if (seen.has(a) || !objs.has(a)) continue;
    seen.add(a);
    const o = objs.get(a);
    todo.push(...(o.references || []), ...(o.class ? [o.class] : []));
  }
  const reachable = [...seen].reduce((s, a) => s + (objs.get(a).memsize || 0), 0);
  const weight = (text) => text.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

  await page.goto('/#heap.flame.tf=' + encodeURIComponent(JSON.stringify([{ drop_function: 'String' }])));
  await chooseFiles(page, [fixture('heap/points.heap.json.gz')]);
  const report = (await lastJob(page)).locator('section.report[data-format="ruby-heap-dump"]');
  const fg = report.locator('.heap-icicle-wrap .flamegraph');
  await expect(fg).toHaveAttribute('data-transforms', '1');
  const collapsed = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), report.locator('.heap-icicle-wrap button[data-export="collapsed"]').click()]);
    return fs.readFileSync(await download.path(), 'utf8');
  };
  const dropped = await collapsed();
  await fg.locator('.fg-crumb-remove').click();
  await expect(fg).toHaveAttribute('data-transforms', '0');
  const whole = await collapsed();
  expect(weight(whole)).toBe(reachable);
  // drop_function: the lines holding a String frame go, the others stay as they were.
  expect(dropped).toBe(whole.split('\n').filter((l) => l && !l.slice(0, l.lastIndexOf(' ')).split(';').includes('String')).map((l) => l + '\n').join(''));
  await expect(fg.locator('.fg-caption')).toContainText('Icicle: retained size along the dominator tree');
});
