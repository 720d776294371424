// The SQL panel (web/sql/): DuckDB-wasm over the tables of the open jobs, loaded only when a panel is
// first opened; the example queries on real inputs, a join across two jobs, the deep link, the
// CSV export read back by DuckDB (npm @duckdb/node-api) and compared with the CLI's tables, precise
// errors for bad SQL, and the panel offline after one visit.
// openInGcscope is the host page's function (e2e/host/embed-example.html).
/* global openInGcscope */
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');
const { test, expect } = require('@playwright/test');
const { DuckDBInstance } = require('@duckdb/node-api');
const { execFileSync } = require('child_process');
const { ROOT, fixture, chooseFiles, lastJob, tempFile } = require('./helpers');

// Opens the SQL panel of a job (or across jobs) and waits until DuckDB is ready in it.
async function openPanel(page, job) {
  if (job) await job.locator('.job-sql').click();
  else await page.locator('.sql-open-all').click();
  const panel = (job || page).locator('.sql-panel').first();
  await expect(panel).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  return panel;
}

// Runs `sql` in the panel; resolves to the result's rows as text cells.
async function run(panel, sql) {
  await panel.locator('.sql-text').fill(sql);
  await panel.locator('.sql-run').click();
  await expect(panel.locator('.sql-status')).toHaveText(/rows in \d+ ms/);
  await expect(panel.locator('.sql-error')).toHaveCount(0);
  return cells(panel);
}
// The result table's rows as text cells (the chart's legend is a table too: not this one).
const cells = (panel) => panel.locator('.sql-result .gs-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells, (td) => td.textContent)));
// Clicks every example query of a panel, each answered without an error; returns (in `into`) each
// example's result cells by its button's text.
async function runExamples(panel, into = {}) {
  for (const button of await panel.locator('.sql-example').all()) {
    await button.click();
    await expect(panel.locator('.sql-status')).toHaveText(/rows in \d+ ms/);
    await expect(panel.locator('.sql-error')).toHaveCount(0);
    into[await button.textContent()] = await cells(panel);
  }
  return into;
}

// The page's CSP violations (script, worker, wasm, Trusted Types), recorded from the first script on.
async function watchCsp(page) {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  });
  return () => page.evaluate(() => window.cspViolations);
}

test('the page loads no SQL engine until a panel is opened, and it runs under the page\'s CSP', async ({ page }) => {
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  const violations = await watchCsp(page);
  await page.goto('/?warmup=0');
  await chooseFiles(page, [fixture('tracing/bpftrace-hist.txt')]);
  await lastJob(page);
  expect(asked.filter((p) => p.includes('/sql/'))).toEqual([]);
  const panel = await openPanel(page, page.locator('.job').first());
  expect(asked).toContain('/sql/vendor/duckdb-eh.wasm');
  // bpftrace-hist.txt: one hist() map, 10 buckets [2,4) .. [1K,2K), values in the first and last.
  expect(await run(panel, 'SELECT count(*) AS buckets, sum(count) AS values_counted, min(lo) AS lo, max(hi) AS hi FROM histogram_bins'))
    .toEqual([['10', '2', '2', '2,047']]);
  expect(await violations()).toEqual([]);
});

// bpftrace printf events "<nsecs> <probe> <value>": probe a: 10, 20, 30; probe b: 1, 2, 3, 4.
function handCountedStream() {
  return tempFile('events.txt', ['Attaching 2 probes...', '1000000000 usdt:app:a 10', '1000001000 usdt:app:b 1',
    '1000002000 usdt:app:a 20', '1000003000 usdt:app:b 2', '1000004000 usdt:app:b 3', '1000005000 usdt:app:a 30',
    '2000000000 usdt:app:b 4', ''].join('\n'));
}

test('an example query\'s figures are the input\'s own (a hand-counted event stream)', async ({ page }) => {
  const stream = handCountedStream();
  await page.goto('/?warmup=0');
  await chooseFiles(page, [stream]);
  const panel = await openPanel(page, await lastJob(page));
  await panel.locator('.sql-example', { hasText: 'Latency per probe' }).click();
  await expect(panel.locator('.sql-status')).toHaveText(/^2 rows in \d+ ms$/);
  // probe, calls, mean, p99, max (by calls, descending)
  expect(await cells(panel)).toEqual([['usdt:app:b', '4', '2.5', '4', '4'], ['usdt:app:a', '3', '20', '30', '30']]);
  await panel.locator('.sql-example', { hasText: 'Events per second' }).click();
  await expect(panel.locator('.sql-status')).toHaveText(/^2 rows in \d+ ms$/);
  expect(await cells(panel)).toEqual([['1', '6'], ['2', '1']]);
});

test('bad SQL shows DuckDB\'s error where the result goes; the panel and the page go on', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?warmup=0');
  await chooseFiles(page, [fixture('tracing/bpftrace-hist.txt')]);
  const job = await lastJob(page);
  const panel = await openPanel(page, job);
  await panel.locator('.sql-text').fill('SELEC count(*) FROM histogram_bins');
  await panel.locator('.sql-run').click();
  await expect(panel.locator('.sql-error')).toContainText('Parser Error: syntax error at or near "SELEC"');
  await expect(panel.locator('.sql-error')).toHaveAttribute('role', 'alert');
  await panel.locator('.sql-text').fill('SELECT * FROM no_such_table');
  await panel.locator('.sql-run').click();
  await expect(panel.locator('.sql-error')).toContainText('Catalog Error: Table with name no_such_table does not exist');
  // No extension is fetched (the page stays closed to the network): DuckDB says which one is missing.
  await panel.locator('.sql-text').fill("SELECT * FROM read_parquet('x.parquet')");
  await panel.locator('.sql-run').click();
  await expect(panel.locator('.sql-error')).toContainText('Table Function with name "read_parquet" is not in the catalog, but it exists in the parquet extension');
  await panel.locator('.sql-text').fill("SET GLOBAL autoload_known_extensions = true");
  await panel.locator('.sql-run').click();
  await expect(panel.locator('.sql-error')).toContainText('the configuration has been locked');
  expect(await run(panel, 'SELECT count(*) AS n FROM histogram_bins')).toEqual([['10']]);
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(errors).toEqual([]);
});

// A column type the worker's Arrow writer does not know (here bool, taken out of the served
// worker.js's IPC_TYPES) is an error naming the table, the column and the type, in the panel's
// status; no batch of that table reaches DuckDB and the page goes on.
test('a column type without an Arrow writer is an error naming it and its table, shown by the panel', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let served = 0;
  await page.context().route((url) => url.pathname.endsWith('/worker.js'), async (route) => {
    const text = await (await route.fetch()).text();
    const without = text.replace(/\n\s*bool: \[6, \[\]\],/, '');
    if (without !== text) served++;
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: without });
  });
  // No service worker: the route must serve worker.js.
  await page.goto('/?sw=0&warmup=0');
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.txt')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(served).toBeGreaterThan(0);
  await job.locator('.job-sql').click();
  const panel = job.locator('.sql-panel').first();
  await expect(panel).toHaveAttribute('data-ready', 'failed', { timeout: 60_000 });
  await expect(panel.locator('.sql-status')).toHaveText(
    "The SQL panel could not open: table stacks: column truncated has type 'bool', which the Arrow writer (worker.js IPC_TYPES) does not know");
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(errors).toEqual([]);
});

// Every batch of a table is checked against the table's schema (session.tables), not the first one
// only. The engine itself cannot write a batch of other types (core/table_columns.cpp takes every
// column's type from the schema at begin()), so the served worker.js is given one whose second batch
// description says another type for a column: a JSON.parse that alters it once, appended to the
// worker, whose own code is unchanged. That table's answer is an error naming the table, the batch,
// the column and both types, after the first batch only; asked again, every batch of it comes, with
// the worker's timings beside the rows.
test('a batch whose column type is not the schema\'s, after the first, is an error naming it', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  let served = 0;
  await page.context().route((url) => url.pathname.endsWith('/worker.js'), async (route) => {
    const text = await (await route.fetch()).text();
    served++;
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: text + `
      const engineParse = JSON.parse;
      let described = 0;
      JSON.parse = (json) => {
        const v = engineParse(json);
        const batch = v && Array.isArray(v.columns) && v.columns.length > 1 && 'validity' in v.columns[0];
        if (batch && ++described === 2) v.columns[1].type = v.columns[1].type === 'float64' ? 'int64' : 'float64';
        return v;
      };` });
  });
  await page.goto('/?sw=0&warmup=0');
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.txt')]);
  const job = await lastJob(page);
  await expect(job.locator('.job-status')).toHaveText('Done');
  expect(served).toBeGreaterThan(0);
  // The perf script's 10 stacks, in batches of 4 rows.
  const ask = () => job.evaluate(async (card) => {
    const batches = [];
    const schema = (await card.gcscopeEngine.query('session.tables', {})).find((t) => t.name === 'stacks').columns;
    try {
      const answer = await card.gcscopeEngine.table('stacks', (b) => batches.push(b.rows), 4);
      return { batches, answer, schema };
    } catch (err) {
      return { batches, error: err.message, schema };
    }
  });
  const first = await ask();
  const column = first.schema[1];
  const other = column.type === 'float64' ? 'int64' : 'float64';
  expect(first.error).toBe(`table stacks: batch 2 has column ${column.name} of type '${other}' where its schema has ${column.name} of type '${column.type}'`);
  expect(first.batches).toEqual([4]);
  const second = await ask();
  expect(second.error).toBeUndefined();
  expect(second.batches).toEqual([4, 4, 2]);
  expect(second.answer.rows).toBe(10);
  expect(second.answer.ms).toBeGreaterThanOrEqual(second.answer.sendMs);
  expect(second.answer.sendMs).toBeGreaterThanOrEqual(0);
  expect(errors).toEqual([]);
});

// Exports the panel's query as CSV (the Export CSV button) into `file`.
async function exportCsv(page, panel, sql, file) {
  await panel.locator('.sql-text').fill(sql);
  const download = page.waitForEvent('download');
  await panel.locator('.sql-csv').click();
  await (await download).saveAs(file);
  return file;
}

// Every table of a job, exported from the panel as CSV, holds the rows `gcscope tables` writes for
// the same files (EXCEPT ALL both ways, both read with the page's column types; `input` differs:
// the page knows the files' names only). The page's tables reach DuckDB as the engine worker's
// Arrow IPC streams (web/worker.js ipcStream): this checks every value of them. Resolves to the
// rows of each table.
async function pageTablesAreTheCli(page, inputs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sql-cli-'));
  const summary = JSON.parse(execFileSync(path.join(ROOT, 'build/native/gcscope'), ['tables', ...inputs, '--out', dir]).toString());
  await page.goto('/?warmup=0');
  await chooseFiles(page, inputs);
  const panel = await openPanel(page, await lastJob(page));
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  const one = async (sql) => Object.values((await conn.runAndReadAll(sql)).getRowObjectsJS()[0])[0];
  const compared = {};
  for (const { table, file, rows } of summary.tables.filter((t) => t.table !== 'errors')) {
    const types = await run(panel, `SELECT column_name, column_type FROM (DESCRIBE SELECT * EXCLUDE (input) FROM ${table})`);
    const columns = types.map(([name, type]) => `'${name}': '${type}'`).join(', ');
    const csv = await exportCsv(page, panel, `SELECT * EXCLUDE (input) FROM ${table}`, path.join(dir, table + '.page.csv'));
    const fromPage = `read_csv('${csv}', header = true, columns = {${columns}})`;
    const fromCli = `(SELECT * EXCLUDE (input) FROM read_csv('${file}', header = true, columns = {'input': 'VARCHAR', ${columns}}))`;
    expect(Number(await one(`SELECT count(*) FROM ${fromPage}`)), table).toBe(rows);
    expect(Number(await one(`SELECT (SELECT count(*) FROM (SELECT * FROM ${fromCli} EXCEPT ALL SELECT * FROM ${fromPage}))
      + (SELECT count(*) FROM (SELECT * FROM ${fromPage} EXCEPT ALL SELECT * FROM ${fromCli}))`)), table).toBe(0);
    compared[table] = rows;
  }
  return compared;
}

test('a job\'s tables in the page are the CLI\'s tables, row for row', async ({ page }) => {
  const compared = await pageTablesAreTheCli(page, [fixture('tracing/perf-script-ruby.txt'), fixture('tracing/bpftrace-maps.txt'),
    fixture('tracing/bpftrace-hist.txt'), handCountedStream()]);
  // Every table has rows: the stream's 7 events, the hist's 10 buckets, the perf script's 10 stacks.
  expect(compared).toMatchObject({ events: 7, histogram_bins: 10, stacks: 10 });
  expect(Object.keys(compared).sort()).toEqual(['events', 'histogram_bins', 'maps', 'stacks']);
  expect(compared.maps).toBeGreaterThan(0);
});

// A JVM log's six tables, row for row; its pauses are the log's pause lines, counted here.
test('a JVM log\'s tables in the page are the CLI\'s tables, row for row', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const pauseLines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => /\bGC\(\d+\) Pause .* [0-9.]+ms$/.test(l)).length;
  const compared = await pageTablesAreTheCli(page, [file]);
  expect(Object.keys(compared).sort()).toEqual(['findings', 'gc_events', 'heap_pools', 'pauses', 'phases', 'safepoints']);
  expect(compared.pauses).toBe(pauseLines);
  expect(pauseLines).toBeGreaterThan(10);
  expect(compared.phases).toBeGreaterThan(0);
  expect(compared.heap_pools).toBeGreaterThan(0);
  // Each of these tables is one batch (fewer rows than a batch's 491,520), and the page asks for a
  // table only once the one before is written and at most one batch waits for DuckDB: two batches
  // at most wait at a time, not the job's every table while DuckDB loads.
  const held = await page.evaluate(() => GCSCOPE.sql.stats.register);
  expect(held.batches).toBeGreaterThanOrEqual(6);
  expect(held.heldMax).toBeLessThanOrEqual(2);
});

test('a capture\'s examples run, and a query joins two jobs on their stacks', async ({ page }) => {
  await page.goto('/?warmup=0');
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.txt')]);
  const perf = await lastJob(page);
  await chooseFiles(page, [fixture('tracing/perf-script-ruby.folded.txt')]);
  const folded = await lastJob(page);
  const panel = await openPanel(page, folded);
  await runExamples(panel);
  // perf-script-ruby.folded.txt: 10 lines, weights summing to the file's own counts.
  const sum = fs.readFileSync(fixture('tracing/perf-script-ruby.folded.txt'), 'utf8').trim().split('\n')
    .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  expect(await run(panel, 'SELECT count(*) AS n, sum(weight) AS w FROM stacks')).toEqual([['10', sum.toLocaleString('en-US')]]);
  // The folded file is FlameGraph's folding of the same perf script: every stack of one job is a
  // stack of the other, with the same weight.
  const all = await openPanel(page, null);
  const [a, b] = [await perf.getAttribute('data-job'), await folded.getAttribute('data-job')];
  expect(await run(all, `SELECT count(*) AS n, sum(abs(a.weight - b.weight)) AS diff
    FROM j${a}.stacks a JOIN j${b}.stacks b USING (folded)`)).toEqual([['10', '0']]);
  await all.locator('.sql-example', { hasText: 'Stacks of two jobs side by side' }).click();
  await expect(all.locator('.sql-status')).toHaveText(/^10 rows in \d+ ms$/);
  expect((await cells(all)).every(([, x, y]) => x === y)).toBe(true);
  await all.locator('.sql-example', { hasText: 'Tables of every job' }).click();
  await expect(all.locator('.sql-status')).toHaveText(/^8 rows in \d+ ms$/);  // events, maps, histogram_bins, stacks of each
});

test('the deep link runs its query; the CSV export reads back in DuckDB', async ({ page }) => {
  const sql = 'SELECT bin, lo, hi, count FROM histogram_bins WHERE count > 0 ORDER BY bin';
  await page.goto('/?warmup=0&url=samples/bpftrace-hist.txt#sql=' + encodeURIComponent(sql) + '&sqljob=1');
  const panel = page.locator('.job .sql-panel');
  // bpftrace-hist.txt: [2, 4) and [1K, 2K) hold one value each.
  await expect(panel.locator('.sql-result .gs-table tbody tr')).toHaveCount(2, { timeout: 60_000 });
  expect(await cells(panel)).toEqual([['0', '2', '3', '1'], ['9', '1,024', '2,047', '1']]);
  expect(await panel.locator('.sql-text').inputValue()).toBe(sql);
  const file = await exportCsv(page, panel, sql, path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sql-')), 'result.csv'));
  expect(fs.readFileSync(file, 'utf8')).toBe('bin,lo,hi,count\r\n0,2,3,1\r\n9,1024,2047,1\r\n');
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await conn.runAndReadAll(`SELECT lo, hi, count FROM read_csv('${file}') ORDER BY lo`)).getRowObjectsJS();
  expect(rows.map((r) => [Number(r.lo), Number(r.hi), Number(r.count)])).toEqual([[2, 3, 1], [1024, 2047, 1]]);
});

test('a dashboard on another origin asks SQL over the frame\'s jobs', async ({ page }) => {
  await page.goto(process.env.GCSCOPE_HOST_URL + 'embed-example.html?site=' + encodeURIComponent(process.env.GCSCOPE_SITE_URL));
  const text = fs.readFileSync(fixture('tracing/perf-script-ruby.folded.txt'), 'utf8');
  const answer = await page.evaluate(async (folded) => {
    const frame = document.getElementById('gcscope');
    await openInGcscope(frame, 'ruby.folded', new TextEncoder().encode(folded).buffer);
    const origin = new URL(frame.src).origin;
    return new Promise((resolve) => {
      window.addEventListener('message', (e) => {
        if (e.source === frame.contentWindow && e.data && e.data.id === 'q1') resolve(e.data);
      });
      frame.contentWindow.postMessage({ type: 'gcscope:query', id: 'q1', sql: 'SELECT count(*) AS n, max(depth) AS deepest FROM j1.stacks' }, origin);
    });
  }, text);
  // 10 folded lines; the deepest has the most ';'-separated frames.
  const deepest = Math.max(...text.trim().split('\n').map((l) => l.slice(0, l.lastIndexOf(' ')).split(';').length));
  expect(answer).toEqual({ type: 'gcscope:answer', id: 'q1', result: { columns: ['n', 'deepest'], rows: [[10, deepest]], total: 1 } });
});

// ---- Offline: a server of its own that the test stops ---------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

test('once opened, the SQL panel works offline, its Parquet export too', async ({ browser }) => {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), '--root', path.join(ROOT, 'build/wasm/site'), '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => server.stdout.on('data', (d) => { if (String(d).includes('serving')) resolve(); }));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const url = `http://127.0.0.1:${port}/`;
    await page.goto(url + '?warmup=0');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    });
    await chooseFiles(page, [fixture('tracing/bpftrace-hist.txt')]);
    await openPanel(page, await lastJob(page));
    server.kill();
    await context.setOffline(true);
    await page.goto(url + '?warmup=0');
    await chooseFiles(page, [fixture('tracing/bpftrace-hist.txt')]);
    const panel = await openPanel(page, await lastJob(page));
    expect(await run(panel, 'SELECT sum(count) AS values_counted FROM histogram_bins')).toEqual([['2']]);
    const download = page.waitForEvent('download');
    await panel.locator('.sql-parquet').click();
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sql-')), 'offline.parquet');
    await (await download).saveAs(saved);
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    expect((await conn.runAndReadAll(`SELECT values_counted FROM read_parquet('${saved}')`)).getRowObjectsJS()).toEqual([{ values_counted: 2n }]);
  } finally {
    await context.close();
    if (server.exitCode === null) server.kill();
  }
});

test('a TuneMyGC payload\'s examples run; its samples are the payload\'s own', async ({ page }) => {
  const file = fixture('rubygc/rec31_leak.json');
  const [header, ...samples] = JSON.parse(fs.readFileSync(file, 'utf8'));
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));
  await runExamples(panel);
  // The last example: every GC.stat key (header[7]) at the last sample, as the payload wrote it.
  const last = samples[samples.length - 1][4];
  const want = header[7].map((k, j) => ['rec31_leak.json', k, last[j].toLocaleString('en-US')]).sort((a, b) => (a[1] < b[1] ? -1 : 1));
  expect(await cells(panel)).toEqual(want);
  expect(await run(panel, 'SELECT count(*) AS n, max(peak_rss_bytes) AS peak FROM gc_samples'))
    .toEqual([[String(samples.length), Math.max(...samples.map((s) => s[1])).toLocaleString('en-US')]]);
  // tuner_samples, whose columns follow the payload, registers with every key of its header as a column.
  const keys = await run(panel, `SELECT column_name FROM (DESCRIBE tuner_samples) OFFSET 6`);
  expect(keys.map((r) => r[0])).toEqual(header[7]);
  const at = (k) => last[header[7].indexOf(k)].toLocaleString('en-US');
  expect(await run(panel, `SELECT "count", heap_live_slots FROM tuner_samples WHERE sample = ${samples.length - 1}`))
    .toEqual([[at('count'), at('heap_live_slots')]]);
});

// A JVM log's examples (GCToolKit's sample aggregations) run; their figures are the log's own, counted
// here from its text: the pause lines per cause, the one full collection's heap before and after.
test('a JVM log\'s examples run; pause time by cause and heap after full GC are the log\'s', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pausesOf = (cause) => lines.filter((l) => /\bGC\(\d+\) Pause .* [0-9.]+ms$/.test(l) && l.includes(`(${cause}) `)).length;
  const full = lines.map((l) => /\bGC\(\d+\) Pause Full \(System\.gc\(\)\) (\d+)M->(\d+)M\(\d+M\) [0-9.]+ms$/.exec(l)).filter(Boolean);
  expect(full.length).toBe(1);
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));
  const ran = await runExamples(panel);
  expect(Object.keys(ran)).toEqual(expect.arrayContaining(['Pause time by cause', 'Heap after full GCs', 'Allocation rate per second']));
  // cause, pauses, total_ms, max_ms
  const byCause = Object.fromEntries(ran['Pause time by cause'].map((r) => [r[0], Number(r[1])]));
  for (const cause of ['G1 Evacuation Pause', 'G1 Humongous Allocation', 'G1 Preventive Collection']) {
    expect(byCause[cause], cause).toBe(pausesOf(cause));
  }
  expect(byCause['G1 Evacuation Pause']).toBeGreaterThan(10);
  // t_s, type, cause, before_mib, after_mib
  expect(ran['Heap after full GCs'].map((r) => r.slice(2))).toEqual([['System.gc()', full[0][1], full[0][2]]]);
});

test('the Parquet export reads back in DuckDB: every row, typed, with the log\'s pause counts', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const pausesOf = (cause) => lines.filter((l) => /\bGC\(\d+\) Pause .* [0-9.]+ms$/.test(l) && l.includes(`(${cause}) `)).length;
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));
  // One column of each kind the export types: text, integer, float, boolean, timestamp.
  const sql = 'SELECT cause, count(*) AS pauses, sum(duration_ms) AS total_ms, max(gc_id) AS last_gc, bool_or(duration_ms > 5) AS over_5ms, ' +
    "TIMESTAMP '2026-01-01' + to_milliseconds(CAST(min(t_s) * 1000 AS BIGINT)) AS first_at FROM pauses GROUP BY cause ORDER BY cause";
  await run(panel, sql);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sql-'));
  const parquet = path.join(dir, 'result.parquet');
  const download = page.waitForEvent('download');
  await panel.locator('.sql-parquet').click();
  await (await download).saveAs(parquet);
  expect(fs.readFileSync(parquet).subarray(0, 4).toString()).toBe('PAR1');
  const csv = await exportCsv(page, panel, sql, path.join(dir, 'result.csv'));
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  const types = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${parquet}')`)).getRowObjectsJS();
  expect(types.map((t) => [t.column_name, t.column_type])).toEqual([['cause', 'VARCHAR'], ['pauses', 'BIGINT'], ['total_ms', 'DOUBLE'],
    ['last_gc', 'BIGINT'], ['over_5ms', 'BOOLEAN'], ['first_at', 'TIMESTAMP']]);
  // The same rows as the CSV export of the same answer, value for value.
  const read = async (from) => (await conn.runAndReadAll(`SELECT cause, pauses, total_ms, last_gc, over_5ms, CAST(first_at AS TIMESTAMP) AS first_at FROM ${from} ORDER BY cause`))
    .getRowObjectsJS().map((r) => JSON.stringify(r, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
  const rows = await read(`read_parquet('${parquet}')`);
  expect(rows).toEqual(await read(`read_csv('${csv}')`));
  const byCause = Object.fromEntries(rows.map((r) => JSON.parse(r)).map((r) => [r.cause, r.pauses]));
  for (const cause of ['G1 Evacuation Pause', 'G1 Humongous Allocation', 'G1 Preventive Collection']) expect(byCause[cause], cause).toBe(pausesOf(cause));
});

// A stackprof profile's and a heap dump's examples run in the page; their figures are the real
// stackprof CLI's (`stackprof --text`, kept beside the fixture) and the dump's own lines.
test('a stackprof profile\'s and a heap dump\'s examples run; their figures are stackprof\'s and the dump\'s', async ({ page }) => {
  const text = fs.readFileSync(fixture('stackprof/fib-cpu-raw.text.txt'), 'utf8');
  const want = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\d+)\s+\(.*?\)\s+(\d+)\s+\(.*?\)\s{5}(.*)$/.exec(line);
    if (m) want.push([m[3], m[2], m[1]]);
  }
  const dump = require('zlib').gunzipSync(fs.readFileSync(fixture('heap/points.heap.json.gz'))).toString('utf8')
    .split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.address && !['ROOT', 'SHAPE', 'NONE'].includes(r.type));
  const perType = {};
  for (const o of dump) perType[o.type] = (perType[o.type] || 0) + 1;
  await page.goto('/?warmup=0');
  const ran = {};
  for (const file of ['stackprof/fib-cpu-raw.dump', 'heap/points.heap.json.gz']) {
    await chooseFiles(page, [fixture(file)]);
    const panel = await openPanel(page, await lastJob(page));
    await runExamples(panel, ran);
  }
  // name, file, line, self_samples, total_samples
  expect(ran['Frames by self samples'].map((r) => [r[0], r[3], r[4]]).sort()).toEqual(want.sort());
  // type, objects, bytes
  expect(Object.fromEntries(ran['Objects and bytes per type'].map((r) => [r[0], Number(r[1].replace(/,/g, ''))]))).toEqual(perType);
});

// Three heap dumps of one process are one job; its tables hold every dump's rows under the dump's
// name, with the dump's own line counts (objects, references to objects of the dump, root edges).
test('a set of heap dumps: every dump\'s objects, references and roots, each under its dump', async ({ page }) => {
  const names = ['sites_1', 'sites_2', 'sites_3'].map((n) => `${n}.heap.json.gz`);
  const want = names.map((name) => {
    const records = require('zlib').gunzipSync(fs.readFileSync(fixture(`heap/${name}`))).toString('utf8')
      .split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const objects = records.filter((r) => r.address && !['ROOT', 'SHAPE', 'NONE'].includes(r.type));
    const held = new Set(objects.map((o) => o.address));
    const refs = (list) => (list || []).filter((a) => held.has(a)).length;
    return [name, objects.length, objects.reduce((s, o) => s + refs(o.references), 0),
      records.filter((r) => r.type === 'ROOT').reduce((s, r) => s + refs(r.references), 0)].map((v) => v.toLocaleString('en-US'));
  });
  await page.goto('/?warmup=0');
  await chooseFiles(page, names.map((n) => fixture(`heap/${n}`)));
  const panel = await openPanel(page, await lastJob(page));
  expect(await run(panel, `SELECT input, (SELECT count(*) FROM objects o WHERE o.input = i.input) AS objects,
      (SELECT count(*) FROM object_references r WHERE r.input = i.input) AS refs,
      (SELECT count(*) FROM roots r WHERE r.input = i.input) AS roots
    FROM (SELECT DISTINCT input FROM objects) i ORDER BY input`)).toEqual(want);
});

// A real rbkit server's capture (the first 12 messages, fixtures/rbkit): every example runs; its
// events per type and objects created per class are those rbkit_frames.py's own msgpack reader reads.
test('an rbkit capture\'s examples run; its events are the capture\'s own', async ({ page }) => {
  const file = fixture('rbkit/stock-server-first12.rbkit');
  const names = ['obj_created', 'obj_destroyed', 'gc_start', 'gc_end_m', 'gc_end_s', 'object_space_dump', 'gc_stats', 'event_collection', 'handshake', 'cpu_sample'];
  const events = execFileSync('python3', [fixture('rbkit/rbkit_frames.py'), 'events', file]).toString().trim().split('\n').map((l) => JSON.parse(l));
  const perType = {};
  const perClass = {};
  for (const [type, , , cls] of events) {
    perType[names[type]] = (perType[names[type]] || 0) + 1;
    if (type === 0) perClass[cls ?? '(nil)'] = (perClass[cls ?? '(nil)'] || 0) + 1;
  }
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));
  const ran = await runExamples(panel);
  const count = (s) => Number(s.replace(/,/g, ''));
  expect(Object.fromEntries(ran['Events per type'].map((r) => [r[0], count(r[1])]))).toEqual(perType);
  expect(Object.fromEntries(ran['Classes by objects created'].filter((r) => count(r[1]) > 0).map((r) => [r[0], count(r[1])]))).toEqual(perClass);
  expect(ran['GC cycles'].length).toBe(perType.gc_start || 0);
});

// The pause lines of a JVM log (those printing a duration), counted from its text: [GC(n), the
// duration printed (ms), the line's text].
function pauseLinesOf(file) {
  return fs.readFileSync(file, 'utf8').split('\n').map((l) => [l, /\bGC\((\d+)\) Pause .* ([0-9.]+)ms$/.exec(l)])
    .filter(([, m]) => m).map(([l, m]) => [Number(m[1]), Number(m[2]), l]);
}
const numberOf = (cell) => Number(cell.replace(/,/g, ''));

// A header click sorts the result table: a text column ascending first, then descending; a numeric
// one descending first (the largest first), then ascending. Rows that tie keep the answer's order.
// Each order is DuckDB's own ORDER BY of the same query, and the durations in order are those the
// log's pause lines print, ordered here.
test('a result table sorts by a header click as DuckDB\'s ORDER BY does', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const pauses = pauseLinesOf(file);
  expect(pauses.length).toBeGreaterThan(10);
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));
  const base = 'SELECT gc_id, cause, kind, duration_ms, line FROM pauses';
  const ordered = {};
  for (const order of ['cause', 'cause DESC', 'duration_ms DESC', 'duration_ms', 'gc_id DESC']) ordered[order] = await run(panel, `${base} ORDER BY ${order}, line`);
  const unsorted = await run(panel, `${base} ORDER BY line`);
  // [GC(n), duration] of every pause, the page's and the log's, in one order.
  const byGc = (a, b) => a[0] - b[0] || a[1] - b[1];
  expect(unsorted.map((r) => [numberOf(r[0]), numberOf(r[3])]).sort(byGc)).toEqual(pauses.map(([gc, ms]) => [gc, ms]).sort(byGc));
  expect(new Set(unsorted.map((r) => r[1])).size).toBeGreaterThan(1);
  for (const order of Object.keys(ordered)) expect(ordered[order], order).not.toEqual(unsorted);
  const header = (name) => panel.locator('.sql-result .gs-table th', { hasText: name });
  const clickAndRead = async (name, sort) => {
    await header(name).locator('button').click();
    await expect(header(name)).toHaveAttribute('aria-sort', sort);
    return cells(panel);
  };
  expect(await clickAndRead('cause', 'ascending')).toEqual(ordered.cause);
  expect(await clickAndRead('cause', 'descending')).toEqual(ordered['cause DESC']);
  const byDurationDesc = await clickAndRead('duration_ms', 'descending');
  expect(byDurationDesc).toEqual(ordered['duration_ms DESC']);
  await expect(header('cause')).toHaveAttribute('aria-sort', 'none');
  expect(await clickAndRead('duration_ms', 'ascending')).toEqual(ordered.duration_ms);
  // GC numbers of one and two digits: ordered as numbers, not as text.
  expect(await clickAndRead('gc_id', 'descending')).toEqual(ordered['gc_id DESC']);
  // The log's own order: the durations its pause lines print, longest first.
  expect(byDurationDesc.map((r) => numberOf(r[3]))).toEqual(pauses.map(([, ms]) => ms).sort((a, b) => b - a));
});

// What the chart of a result draws (null: no chart): the kind the panel chose, uPlot's series
// count, its x values and the y values of its first series, and whether x is a time axis.
const chartOf = (panel) => panel.locator('.sql-result .sql-chart').evaluate((box) => {
  const fig = box.querySelector('.gs-chart');
  const plot = fig && fig.gcscopePlot;
  return { kind: box.dataset.chart, canvases: box.querySelectorAll('canvas').length, title: fig ? fig.querySelector('.gs-chart-title').textContent : null,
    series: plot ? plot.series.length : 0, x: plot ? Array.from(plot.data[0]) : [], y: plot ? Array.from(plot.data[1]) : [], time: plot ? plot.scales.x.time : null };
});

// The chart follows the result's column types: a number or an instant first and a number next → a
// line, every row a point; text first → bars, one per row; no number after the first column → none.
// Each plotted value is the log's (its printed durations, its pause lines per cause).
test('a result\'s chart is a line, bars or none by its columns\' types; every row is plotted', async ({ page }) => {
  const file = fixture('jvm/jdk17-g1.log');
  const pauses = pauseLinesOf(file);
  const durations = pauses.map(([, ms]) => ms).sort((a, b) => a - b);
  await page.goto('/?warmup=0');
  await chooseFiles(page, [file]);
  const panel = await openPanel(page, await lastJob(page));

  // A number against a number: a line of the pauses' durations against their start, in time order.
  expect((await run(panel, 'SELECT t_s, duration_ms FROM pauses')).length).toBe(pauses.length);
  let drawn = await chartOf(panel);
  expect(drawn).toMatchObject({ kind: 'line', series: 2, time: false, canvases: 1 });
  expect(drawn.x.length).toBe(pauses.length);
  expect(drawn.x).toEqual(drawn.x.slice().sort((a, b) => a - b));
  expect(drawn.y.slice().sort((a, b) => a - b)).toEqual(durations);

  // An instant against a number: a line on a time axis, x in seconds since the epoch.
  const rows = await run(panel, "SELECT TIMESTAMP '2026-01-01' + to_milliseconds(CAST(t_s * 1000 AS BIGINT)) AS at, duration_ms, gc_id FROM pauses");
  expect(rows.length).toBe(pauses.length);
  drawn = await chartOf(panel);
  expect(drawn).toMatchObject({ kind: 'line', series: 3, time: true, canvases: 1 });
  expect(drawn.x.length).toBe(pauses.length);
  const [firstStart] = (await run(panel, 'SELECT min(CAST(t_s * 1000 AS BIGINT)) AS first_ms FROM pauses'))[0];
  expect(drawn.x[0]).toBeCloseTo(Date.UTC(2026, 0, 1) / 1000 + numberOf(firstStart) / 1000, 6);
  expect(drawn.y.slice().sort((a, b) => a - b)).toEqual(durations);

  // Text against a number: one bar per cause, its height the cause's pause lines in the log.
  const byCause = await run(panel, 'SELECT cause, count(*) AS pauses FROM pauses GROUP BY cause ORDER BY cause');
  expect(byCause.length).toBeGreaterThan(1);
  drawn = await chartOf(panel);
  expect(drawn).toMatchObject({ kind: 'bar', series: 2, canvases: 1, title: 'Result' });
  expect(drawn.x.length).toBe(byCause.length);
  expect(drawn.y).toEqual(byCause.map((r) => numberOf(r[1])));
  expect(drawn.y.reduce((a, b) => a + b, 0)).toBe(pauses.length);
  const evacuations = pauses.filter(([, , line]) => line.includes('(G1 Evacuation Pause) ')).length;
  expect(drawn.y[byCause.findIndex((r) => r[0] === 'G1 Evacuation Pause')]).toBe(evacuations);

  // Bars of more rows than a chart holds: the first 60, and the title says so.
  expect((await run(panel, "SELECT 'gc ' || i AS label, i AS value FROM range(75) t(i)")).length).toBe(75);
  drawn = await chartOf(panel);
  expect(drawn).toMatchObject({ kind: 'bar', title: 'Result: the first 60 of 75 rows' });
  expect(drawn.y).toEqual(Array.from({ length: 60 }, (_, i) => i));

  // No number after the first column, or a single row: no chart.
  expect((await run(panel, 'SELECT cause, kind FROM pauses')).length).toBe(pauses.length);
  expect(await chartOf(panel)).toMatchObject({ kind: 'none', canvases: 0, series: 0 });
  expect((await run(panel, 'SELECT duration_ms, t_s FROM pauses ORDER BY line LIMIT 1')).length).toBe(1);
  expect(await chartOf(panel)).toMatchObject({ kind: 'none', canvases: 0 });
});
