// Times the SQL panel (web/sql/panel.js) in the page: DuckDB-wasm's first load (from opening the panel
// to DuckDB ready, service worker and HTTP caches empty: a fresh browser context), registering a
// job's tables (engine → Arrow batches → DuckDB) and a group-by over 10^6 rows. Prints one JSON line
// per measurement with the load average (the machine is shared: read wall times with it).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { test, expect } = require('@playwright/test');

// A bpftrace printf stream of `n` events over 8 probes: "<nsecs> <probe> <latency ns>".
function eventStream(n) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-sqlbench-')), 'events.txt');
  const lines = ['Attaching 8 probes...'];
  for (let i = 0; i < n; i++) lines.push(`${1000000000 + i * 1000} usdt:app:probe${i % 8} ${1000 + ((i * 7919) % 100000)}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

// Registration's parts (web/sql/panel.js newTiming), rounded to ms.
const split = (t) => Object.fromEntries(Object.entries(t || {}).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v) : v]));

// CPU time per thread from a Chromium trace: the thread time (tdur) of each top-level task, summed
// per thread and per phase. The phases split at the user timing marks `marks`, in order (the panel's
// opening: before registration, DuckDB's first load, and during it; web/sql/panel.js marks both ends;
// tasks after the last mark are left out); a trace without marks is one phase. Unlike wall time, it
// does not grow with the load. The engine's and DuckDB's workers are both "DedicatedWorker thread"s:
// DuckDB's is the thread the trace's TracingSessionIdForWorker event gives for DuckDB's worker
// script (recorded when the worker starts; `duckdbThread`, "pid:tid", names it in a later trace).
const DUCKDB_WORKER = /duckdb-browser-eh\.worker\.js/;
const TIMELINE = 'disabled-by-default-devtools.timeline';
function threadCpu(trace, marks = [], duckdbThread = null) {
  const events = trace.traceEvents || trace;
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const started = events.find((e) => e.name === 'TracingSessionIdForWorker' && DUCKDB_WORKER.test((e.args.data || {}).url || ''));
  const duckdb = duckdbThread || (started ? `${started.pid}:${started.args.data.workerThreadId}` : null);
  const at = marks.map((name) => {
    const e = events.find((x) => x.name === name && x.cat === 'blink.user_timing');
    if (!e) throw new Error(`the trace has no mark ${name}`);
    return e.ts;
  });
  const phases = (at.length ? at : [Infinity]).map(() => new Map());
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined || e.cat !== 'toplevel') continue;
    const phase = at.length ? at.findIndex((ts) => e.ts < ts) : 0;
    if (phase < 0) continue;
    const key = `${e.pid}:${e.tid}`;
    phases[phase].set(key, (phases[phase].get(key) || 0) + e.tdur / 1000);
  }
  const table = (sums) => Object.fromEntries([...sums].filter(([, ms]) => ms >= 20).sort((a, b) => b[1] - a[1])
    .map(([key, ms]) => [`${key === duckdb ? 'DuckDB' : names.get(key) || '?'} ${key.split(':')[1]}`, Math.round(ms)]));
  return { phases: phases.map(table), duckdbThread: duckdb, duckdbMs: phases.map((sums) => (duckdb ? sums.get(duckdb) || 0 : NaN)) };
}

async function measure(page, input, label, groupBy) {
  await page.goto('/?warmup=0');
  await page.locator('#file-input').setInputFiles([].concat(input));
  const card = page.locator('.job').first();
  await expect(card.locator('.job-status')).toHaveText('Done', { timeout: 600_000 });
  const load = os.loadavg()[0];
  await page.context().browser().startTracing(page, { categories: ['toplevel', '__metadata', 'blink.user_timing', TIMELINE] });
  const t0 = Date.now();
  await card.locator('.job-sql').click();
  await expect(card.locator('.sql-panel')).toHaveAttribute('data-ready', 'true', { timeout: 600_000 });
  const openMs = Date.now() - t0;
  const opening = threadCpu(JSON.parse(await page.context().browser().stopTracing()), ['gcscope-sql-register', 'gcscope-sql-registered']);
  if (!opening.duckdbThread) throw new Error("the trace names no thread for DuckDB's worker");
  const cpu = { load: opening.phases[0], register: opening.phases[1] };
  const stats = await page.evaluate(() => ({ ...GCSCOPE.sql.stats }));
  const runs = [];
  await page.context().browser().startTracing(page, { categories: ['toplevel', '__metadata'] });
  for (let k = 0; k < 5; k++) {
    runs.push(await page.evaluate(async (sql) => {
      const db = await GCSCOPE.sql.loadDuckDB();
      const conn = await db.connect();
      await conn.query("SET search_path = 'j1,main'");
      const res = await GCSCOPE.sql.runQuery(conn, sql);
      await conn.close();
      return res.ms;
    }, groupBy));
  }
  // DuckDB's worker's CPU time per run (the query runs there).
  const queryCpu = threadCpu(JSON.parse(await page.context().browser().stopTracing()), [], opening.duckdbThread).duckdbMs[0] / 5;
  if (!(queryCpu > 0) || !runs.every(Number.isFinite)) throw new Error(`the group-by gave no timing: CPU ${queryCpu}, runs ${runs}`);
  if (!stats.register) throw new Error('the panel recorded no registration timing');
  runs.sort((a, b) => a - b);
  const rows = await page.evaluate(async () => {
    const db = await GCSCOPE.sql.loadDuckDB();
    const conn = await db.connect();
    const t = await conn.query("SELECT sum(estimated_size) AS n FROM duckdb_tables() WHERE schema_name = 'j1'");
    await conn.close();
    return Number(t.getChildAt(0).get(0));
  });
  console.log(JSON.stringify({ input: label, rows_registered: rows, panel_open_ms: openMs, duckdb_load_ms: Math.round(stats.loadMs),
    register_ms: Math.round(stats.registerMs), register_split: split(stats.register), cpu_ms_by_thread: cpu, group_by_ms_median_of_5: Math.round(runs[2]), group_by_cpu_ms_mean: Math.round(queryCpu), group_by: groupBy, load_average: load }));
}

test('10^6 traced events: register and group by', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await measure(page, eventStream(1000000), 'bpftrace event stream, 10^6 events',
    'SELECT probe, count(*) AS calls, quantile_disc(value, 0.99) AS p99, max(value) AS max FROM events GROUP BY probe');
  await context.close();
});

test('the 200 MB JVM benchmark log: register its tables', async ({ browser }) => {
  const log = process.env.BENCH_JVM_LOG;
  test.skip(!log, 'set BENCH_JVM_LOG (python3 bench/jvm/make_big_g1.py OUT 200 makes the 200 MB log)');
  const context = await browser.newContext();
  const page = await context.newPage();
  await measure(page, log, path.basename(log),
    'SELECT kind, count(*) AS pauses, quantile_disc(duration_ms, 0.99) AS p99_ms FROM pauses GROUP BY kind');
  await context.close();
});

// The Ruby formats' tables: the real rbkit server's capture of the shared corpus (one row per event
// in rbkit_events) and a set of three heap dumps (every dump's objects and references).
test('rbkit and heap tables: register and group by', async ({ browser }) => {
  const root = path.join(__dirname, '../..');
  const capture = path.join(process.env.GCSCOPE_CORPUS_DIR || path.join(root, '../shared/corpus'), 'heap/rbkit/real_stock_threaddeath.rbkit');
  test.skip(!fs.existsSync(capture), `no corpus capture at ${capture}`);
  for (const [input, label, sql] of [
    [capture, 'rbkit capture (5.7 MB, real server)', 'SELECT type, class, count(*) AS events FROM rbkit_events GROUP BY ALL'],
    [['sites_1', 'sites_2', 'sites_3'].map((n) => path.join(root, `fixtures/heap/${n}.heap.json.gz`)), 'three heap dumps (fixtures/heap/sites_*)',
      'SELECT input, class, count(*) AS objects, sum(memsize) AS bytes FROM objects GROUP BY ALL'],
  ]) {
    const context = await browser.newContext();
    await measure(await context.newPage(), input, label, sql);
    await context.close();
  }
});

// stackprof's tables of the harness's raw object-mode dump (bench/stackprof/generate.sh: 25 MB).
test('a stackprof raw dump: register and group by', async ({ browser }) => {
  const dump = process.env.BENCH_STACKPROF_DUMP;
  test.skip(!dump, 'set BENCH_STACKPROF_DUMP (bench/stackprof/generate.sh bench/out 0 makes one)');
  const context = await browser.newContext();
  await measure(await context.newPage(), dump, path.basename(dump),
    'SELECT s.leaf, sum(r.weight) AS weight, count(*) AS records FROM samples r JOIN stacks s USING (stack_id) GROUP BY s.leaf');
  await context.close();
});
