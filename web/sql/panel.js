// GCSCOPE.sql: the SQL panel. DuckDB-wasm over the tables of the open jobs (docs/TABLES.md): each
// job's tables live in a schema of their own, j<N> for job N (the number in the job's card), so one
// query joins a JVM log with a bpftrace capture on `ts`. A job's panel has its schema first on the
// search path (its tables answer to their bare names); the panel across jobs names each schema.
//
// app.js loads this file when a panel is first opened, and this file loads DuckDB (sql/vendor/:
// DuckDB-wasm and apache-arrow from npm, copied by the build); the service worker keeps both once
// loaded. The engine's rows reach DuckDB as Arrow IPC streams, batch by batch, written by the engine's
// worker straight from the engine's tables (engine.table; worker.js ipcStream: no JSON on the way).
/* global Arrow */
'use strict';
(function () {
  const { el, fmt } = GCSCOPE.ui;
  const vendor = (file) => new URL('sql/vendor/' + file, document.baseURI).href;
  // Rows per batch, each batch one insert into DuckDB: a whole number of DuckDB's row groups (122,880
  // rows), and few inserts, since each costs DuckDB much beside its rows (BENCHMARKS.md, SQL). The
  // engine's worker holds one batch's column buffers at a time; the page holds the batches DuckDB has
  // not taken yet, of one table at a time (registerJob).
  const BATCH_ROWS = 4 * 122880;
  const SHOWN_ROWS = 10000;      // rows a result keeps for its table and chart (COPY exports them all)
  const stats = {};              // timings, for the benchmarks and the tests (GCSCOPE.sql.stats)
  let dbPromise = null;
  const registered = new Map();  // card → Promise<{schema, tables}>

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = el('script', { src: GCSCOPE.scriptURL ? GCSCOPE.scriptURL(src) : src });
      s.onload = resolve;
      s.onerror = () => reject(new Error('could not load ' + src));
      document.head.appendChild(s);
    });
  }

  function loadDuckDB() {
    if (!dbPromise) {
      dbPromise = (async () => {
        const t0 = performance.now();
        if (!globalThis.Arrow) await loadScript(vendor('Arrow.es2015.min.js'));
        const duckdb = await import(vendor('duckdb-browser.mjs'));
        const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(GCSCOPE.scriptURL ? GCSCOPE.scriptURL(vendor('duckdb-browser-eh.worker.js')) : vendor('duckdb-browser-eh.worker.js')));
        await db.instantiate(vendor('duckdb-eh.wasm'));
        await closeDoors(db);
        // The Parquet writer comes with the engine, so that a panel that opened offline exports too.
        await loadParquetWriter().catch(() => {});
        stats.loadMs = performance.now() - t0;
        return db;
      })();
      dbPromise.catch(() => { dbPromise = null; });
    }
    return dbPromise;
  }

  // DuckDB answers from the registered tables only: no extension is installed or loaded (that would
  // fetch code from DuckDB's servers, and the page stays closed to the network: a query that needs an
  // extension, read_parquet say, gets DuckDB's own error naming it), no file is read or written, and
  // the configuration is locked so that no query can open these doors again.
  async function closeDoors(db) {
    const conn = await db.connect();
    try {
      for (const option of ['autoinstall_known_extensions = false', 'autoload_known_extensions = false',
        'enable_external_access = false', 'lock_configuration = true']) await conn.query('SET GLOBAL ' + option);
    } finally {
      await conn.close();
    }
  }

  // ---- The engine's tables into DuckDB ---------------------------------------------------------

  // Where registration's time goes (GCSCOPE.sql.stats.register, for the benchmark): the engine's
  // worker writing the batches as Arrow IPC streams and sending them (engineSendMs: the streams and
  // sending only), and DuckDB's worker inserting them (while the engine writes the next ones); and
  // the most batches (and their bytes) held in the page at once, waiting for DuckDB.
  function newTiming() { return { tables: {}, engineMs: 0, engineSendMs: 0, insertMs: 0, batches: 0, ipcBytes: 0, heldMax: 0, heldBytesMax: 0, held: 0, heldBytes: 0 }; }

  // A table's batches, asked of the engine now and taken in order as they arrive: next() resolves
  // to the next batch, or null after the last (rejects if the engine failed); written once the
  // engine has sent them all. changed() is called when a batch arrives or is taken and when the
  // engine has written the table (not after a failure).
  function batchQueue(engine, name, timing, changed) {
    const items = [];
    let wake = null, ended = false, failure = null;
    const signal = () => {
      if (wake) { wake(); wake = null; }
      if (!failure) changed();
    };
    const hold = (batch, sign) => {
      timing.held += sign;
      timing.heldBytes += sign * batch.ipc.byteLength;
      timing.heldMax = Math.max(timing.heldMax, timing.held);
      timing.heldBytesMax = Math.max(timing.heldBytesMax, timing.heldBytes);
    };
    const answer = engine.table(name, (batch) => { items.push(batch); hold(batch, 1); signal(); }, BATCH_ROWS)
      .then((a) => { ended = true; signal(); return a; }, (err) => { failure = err; ended = true; signal(); return {}; });
    return {
      answer,
      get written() { return ended && !failure; },
      async next() {
        while (!items.length && !ended) await new Promise((resolve) => { wake = resolve; });
        if (items.length) {
          hold(items[0], -1);
          const batch = items.shift();
          signal();
          return batch;
        }
        if (failure) throw failure;
        return null;
      },
    };
  }

  async function insertTable(conn, queue, schema, name, timing) {
    let create = true;
    for (let batch; (batch = await queue.next());) {
      timing.batches++;
      timing.ipcBytes += batch.ipc.byteLength;
      const t0 = performance.now();
      await conn.insertArrowFromIPCStream(batch.ipc, { schema, name, create });
      timing.insertMs += performance.now() - t0;
      create = false;
    }
    const answer = await queue.answer;
    timing.engineMs += answer.ms || 0;
    timing.engineSendMs += answer.sendMs || 0;
    timing.tables[name] = { rows: answer.rows, engineMs: Math.round(answer.ms || 0) };
  }

  const schemaOf = (card) => 'j' + card.dataset.job;
  const liveCards = () => Array.from(document.querySelectorAll('#jobs .job[data-engine="live"]')).reverse();

  // Registers the tables of `card`'s job in DuckDB (dbReady: a promise of it), one table after
  // another. The first table is asked of the engine at once, so that the engine writes it while
  // DuckDB still loads; each next table once the engine has written the one before and at most one
  // batch waits here for DuckDB. So the batches waiting are one besides those of the table being
  // written, never the whole job's, and the engine writes while DuckDB inserts.
  function registerJob(dbReady, card) {
    if (!registered.has(card)) {
      const done = (async () => {
        const engine = card.gcscopeEngine;
        const schema = schemaOf(card);
        const tables = await engine.query('session.tables', {});
        const timing = newTiming();
        const queues = [];
        const ask = () => {
          const i = queues.length;
          if (i < tables.length && (i === 0 || queues[i - 1].written) && timing.held <= 1) queues.push(batchQueue(engine, tables[i].name, timing, ask));
        };
        ask();
        const db = await dbReady;
        const t0 = performance.now();
        performance.mark('gcscope-sql-register');  // the benchmark's trace splits its threads' time here
        const conn = await db.connect();
        try {
          await conn.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
          for (let i = 0; i < tables.length; i++) await insertTable(conn, queues[i], schema, tables[i].name, timing);
        } catch (err) {
          // The tables made before the failure go too, so that opening the panel again starts over.
          await conn.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
          throw err;
        } finally {
          await conn.close();
        }
        stats.registerMs = performance.now() - t0;
        stats.register = timing;
        performance.mark('gcscope-sql-registered');
        return { schema, tables, formats: (card.gcscopeDoc.reports || []).map((r) => r.format) };
      })();
      registered.set(card, done);
      done.catch(() => registered.delete(card));
    }
    return registered.get(card);
  }

  // ---- Running a query ---------------------------------------------------------------------------

  // A result value as the page shows it: integers (BigInt, and DuckDB's HUGEINT sums, which reach
  // Arrow as decimals of scale 0) as Number where exact and as their digits beyond 2^53; other
  // decimals as Number; timestamps and dates as ISO text.
  function plain(v, type) {
    if (v === null || v === undefined) return null;
    if (Arrow.DataType.isDecimal(type)) return decimal(Arrow.util.bigNumToString(v), type.scale);
    if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
    if (Arrow.DataType.isTimestamp(type)) return new Date(v).toISOString();
    if (Arrow.DataType.isDate(type)) return new Date(v).toISOString().slice(0, 10);
    if (v instanceof Uint8Array) return `(${v.length} bytes)`;
    if (typeof v === 'object') return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));
    return v;
  }
  function decimal(digits, scale) {
    if (scale > 0) {
      const neg = digits.startsWith('-');
      const d = (neg ? digits.slice(1) : digits).padStart(scale + 1, '0');
      return Number((neg ? '-' : '') + d.slice(0, d.length - scale) + '.' + d.slice(d.length - scale));
    }
    const n = BigInt(digits);
    return n >= -(2n ** 53n) && n <= 2n ** 53n ? Number(n) : digits;
  }
  const isNumeric = (type) => Arrow.DataType.isInt(type) || Arrow.DataType.isFloat(type) || Arrow.DataType.isDecimal(type);
  const isTime = (type) => Arrow.DataType.isTimestamp(type) || Arrow.DataType.isDate(type);

  // An instant as ISO 8601 text with every digit of its unit (DuckDB's timestamps are microseconds).
  function timestampText(v, unit) {
    const digits = [0, 3, 6, 9][unit];
    const per = 10n ** BigInt(digits);
    let sec = v / per;
    if (v < 0n && sec * per !== v) sec -= 1n;
    const frac = v - sec * per;
    return new Date(Number(sec) * 1000).toISOString().slice(0, 19) + (digits ? '.' + frac.toString().padStart(digits, '0') : '') + 'Z';
  }
  // The first `limit` rows of an answer as plain values (timestamps from their raw values: exact).
  function rowsOf(table, limit) {
    const fields = table.schema.fields;
    const rows = [];
    for (const batch of table.batches) {
      const cols = fields.map((f, i) => batch.getChildAt(i));
      for (let r = 0; r < batch.numRows && rows.length < limit; r++) {
        rows.push(cols.map((c, i) => {
          const d = c.data[0];
          if (Arrow.DataType.isTimestamp(fields[i].type) && d.values instanceof BigInt64Array && c.isValid(r)) return timestampText(d.values[d.offset + r], fields[i].type.unit);
          return plain(c.get(r), fields[i].type);
        }));
      }
    }
    return rows;
  }

  function resultRows(table) {
    const fields = table.schema.fields;
    const rows = rowsOf(table, SHOWN_ROWS);
    const columns = fields.map((f) => ({ name: f.name, type: String(f.type), numeric: isNumeric(f.type), time: isTime(f.type) }));
    return { columns, rows, total: table.numRows };
  }

  async function runQuery(conn, sql) {
    const t0 = performance.now();
    const table = await conn.query(sql);
    const out = resultRows(table);
    out.ms = performance.now() - t0;
    stats.lastQueryMs = out.ms;
    return out;
  }

  // Every row of a query's answer as CSV (RFC 4180, a header row, CRLF line ends; a null is an empty
  // field), from the Arrow answer itself: numbers at full precision, timestamps as ISO 8601.
  function csvOf(table) {
    const cell = (v) => {
      const text = v === null || v === undefined ? '' : String(v);
      return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
    };
    const lines = [table.schema.fields.map((f) => cell(f.name)).join(',')];
    for (const row of rowsOf(table, Infinity)) lines.push(row.map(cell).join(','));
    return lines.join('\r\n') + '\r\n';
  }

  // Every row of a query's answer as a Parquet file (hyparquet-writer, loaded on the first export;
  // snappy pages, nullable columns), each column typed from its Arrow type: integers as INT32 or
  // INT64 (DuckDB's HUGEINT sums, decimals of scale 0, as INT64), floats and other decimals as
  // DOUBLE, booleans, timestamps as TIMESTAMP (milliseconds); anything else as its text, as the
  // table shows it (dates ISO 8601, lists and structs JSON).
  function parquetColumn(name, vector, type) {
    const n = vector.length, data = new Array(n);
    const each = (f) => { for (let r = 0; r < n; r++) { const v = vector.get(r); data[r] = v === null || v === undefined ? null : f(v); } };
    let kind;
    if (Arrow.DataType.isInt(type) && (type.bitWidth < 32 || (type.bitWidth === 32 && type.isSigned))) { kind = 'INT32'; each(Number); }
    else if (Arrow.DataType.isInt(type)) { kind = 'INT64'; each((v) => BigInt.asIntN(64, BigInt(v))); }
    else if (Arrow.DataType.isDecimal(type) && type.scale === 0) { kind = 'INT64'; each((v) => BigInt.asIntN(64, BigInt(Arrow.util.bigNumToString(v)))); }
    else if (Arrow.DataType.isFloat(type) || Arrow.DataType.isDecimal(type)) { kind = 'DOUBLE'; each((v) => Number(plain(v, type))); }
    else if (Arrow.DataType.isBool(type)) { kind = 'BOOLEAN'; each(Boolean); }
    else if (Arrow.DataType.isTimestamp(type)) { kind = 'TIMESTAMP'; each((v) => new Date(Number(v))); }
    else { kind = 'STRING'; each((v) => String(plain(v, type))); }
    return { name, data, type: kind, nullable: true };
  }
  let parquetWriter = null;
  function loadParquetWriter() {
    if (!parquetWriter) {
      parquetWriter = import(vendor('hyparquet-writer/index.js'));
      parquetWriter.catch(() => { parquetWriter = null; });
    }
    return parquetWriter;
  }
  async function parquetOf(table) {
    const { parquetWriteBuffer } = await loadParquetWriter();
    const columnData = table.schema.fields.map((f, i) => parquetColumn(f.name, table.getChildAt(i), f.type));
    return new Uint8Array(parquetWriteBuffer({ columnData }));
  }

  // ---- The panel ----------------------------------------------------------------------------------

  // A chart of a result, chosen by its columns' types: the first column numeric or a timestamp → a
  // line of each numeric column after it against it; the first a string → bars of the next numeric
  // (the first BAR_ROWS rows, its title says so when there are more). The box's data-chart says
  // which (line, bar; none without a numeric column after the first, or with fewer than two rows).
  const BAR_ROWS = 60;
  const epochSeconds = (iso) => Date.parse(iso.replace(/(\.\d{3})\d+Z$/, '$1Z')) / 1000;
  function chart(box, res) {
    box.textContent = '';
    box.dataset.chart = 'none';
    if (res.rows.length < 2 || res.columns.length < 2 || !GCSCOPE.charts) return;
    const first = res.columns[0];
    const time = first.time;
    const ys = res.columns.map((c, i) => i).filter((i) => i > 0 && res.columns[i].numeric).slice(0, 4);
    if (!ys.length) return;
    if (first.numeric || time) {
      const order = res.rows.map((r, i) => i).filter((i) => res.rows[i][0] !== null)
        .sort((a, b) => (time ? epochSeconds(res.rows[a][0]) - epochSeconds(res.rows[b][0]) : res.rows[a][0] - res.rows[b][0]));
      const x = order.map((i) => (time ? epochSeconds(res.rows[i][0]) : Number(res.rows[i][0])));
      box.dataset.chart = 'line';
      GCSCOPE.charts.line(box, {
        title: 'Result', x, xLabel: first.name, xTime: time, height: 220,
        series: ys.map((k) => ({ label: res.columns[k].name, values: order.map((i) => (res.rows[i][k] === null ? null : Number(res.rows[i][k]))), points: order.length < 200 })),
      });
    } else {
      const rows = res.rows.slice(0, BAR_ROWS);
      box.dataset.chart = 'bar';
      GCSCOPE.charts.histogram(box, {
        title: rows.length < res.rows.length ? `Result: the first ${rows.length} of ${fmt.num(res.rows.length)} rows` : 'Result', xLabel: first.name, yLabel: res.columns[ys[0]].name, countLabel: res.columns[ys[0]].name,
        buckets: rows.map((r) => ({ lo: r[0], hi: r[0], count: r[ys[0]] === null ? 0 : Number(r[ys[0]]) })),
        bucketLabel: (b) => String(b.lo),
      });
    }
  }

  function renderResult(box, res) {
    box.textContent = '';
    const chartBox = el('div', { class: 'sql-chart' });
    const columns = res.columns.map((c, i) => ({ key: String(i), label: c.name, numeric: c.numeric, title: c.type }));
    box.append(chartBox, GCSCOPE.ui.table(columns, res.rows, { csvName: 'gcscope-result.csv', pageSize: 100,
      caption: res.total > res.rows.length ? `Query result: the first ${fmt.num(res.rows.length)} of ${fmt.num(res.total)} rows (export for all)` : 'Query result' }));
    chart(chartBox, res);
  }

  // The panel of one job (card) or of every open job (card null).
  function panel(card) {
    const scope = card ? String(card.dataset.job) : 'all';
    const box = el('section', { class: 'sql-panel', dataset: { sqlScope: scope } });
    const text = el('textarea', { class: 'sql-text', rows: 6, spellcheck: 'false', 'aria-label': 'SQL query' });
    const status = el('span', { class: 'sql-status muted', role: 'status', text: 'Loading DuckDB…' });
    const tablesLine = el('p', { class: 'sql-tables muted' });
    const examples = el('div', { class: 'sql-examples' });
    const result = el('div', { class: 'sql-result' });
    const run = el('button', { type: 'button', class: 'gs-small sql-run', text: 'Run', disabled: true });
    const csv = el('button', { type: 'button', class: 'gs-small sql-csv', text: 'Export CSV', disabled: true });
    const parquet = el('button', { type: 'button', class: 'gs-small sql-parquet', text: 'Export Parquet', disabled: true });
    const close = el('button', { type: 'button', class: 'gs-small sql-close', text: 'Close' });
    const title = card ? `SQL over job ${scope} (schema j${scope})` : 'SQL across all open jobs (schemas j1, j2, …)';
    box.append(el('header', { class: 'sql-head' }, el('h3', { text: title }), close), tablesLine, examples, text,
      el('div', { class: 'sql-actions' }, run, csv, parquet, status), result);
    close.addEventListener('click', () => { box.remove(); GCSCOPE.state.set('sql', null, { push: true }); GCSCOPE.state.set('sqljob', null); });
    return { box, text, status, tablesLine, examples, result, run, csv, parquet, scope };
  }

  async function connectPanel(p, card) {
    const dbReady = loadDuckDB();
    const cards = card ? [card] : liveCards();
    const jobs = await Promise.all(cards.map((c) => registerJob(dbReady, c)));
    const db = await dbReady;
    const conn = await db.connect();
    if (card) await conn.query(`SET search_path = '${schemaOf(card)},main'`);
    p.tablesLine.textContent = 'Tables: ' + jobs.map((j) => (card ? '' : j.schema + ': ') + j.tables.map((t) => t.name).join(', ')).join('; ');
    const list = card ? GCSCOPE.sqlExamples.forFormats(jobs[0].formats) : GCSCOPE.sqlExamples.acrossJobs(jobs);
    for (const [label, sql] of list) {
      p.examples.appendChild(el('button', { type: 'button', class: 'gs-small sql-example', text: label, title: sql,
        on: { click: () => { p.text.value = sql; p.run.click(); } } }));
    }
    return { db, conn };
  }

  function wire(p, conn) {
    const busy = (on) => { [p.run, p.csv, p.parquet].forEach((b) => { b.disabled = on; }); };
    p.run.addEventListener('click', async () => {
      const sql = p.text.value.trim();
      if (!sql) return;
      GCSCOPE.state.set('sql', sql, { push: true });
      GCSCOPE.state.set('sqljob', p.scope);
      busy(true);
      p.status.textContent = 'Running…';
      try {
        const res = await runQuery(conn, sql);
        p.status.textContent = `${fmt.num(res.total)} rows in ${res.ms.toFixed(0)} ms`;
        renderResult(p.result, res);
        p.result.dataset.rows = String(res.total);
      } catch (err) {
        p.status.textContent = '';
        p.result.textContent = '';
        p.result.appendChild(el('p', { class: 'error sql-error', role: 'alert', text: String((err && err.message) || err) }));
      } finally { busy(false); }
    });
    // An export runs the query again and writes every row of its answer.
    const exporter = (name, mime, write) => async () => {
      const sql = p.text.value.trim();
      if (!sql) return;
      busy(true);
      try {
        GCSCOPE.ui.download(name, mime, await write(await conn.query(sql)));
      } catch (err) {
        p.status.textContent = 'Export failed: ' + String((err && err.message) || err);
      } finally { busy(false); }
    };
    p.csv.addEventListener('click', exporter('gcscope-result.csv', 'text/csv', csvOf));
    p.parquet.addEventListener('click', exporter('gcscope-result.parquet', 'application/vnd.apache.parquet', parquetOf));
    p.text.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) p.run.click(); });
  }

  // Opens (or shows again) the panel of `card` (null: across every open job), with `sql` run in it.
  async function open(card, sql) {
    const host = card ? card.querySelector('.job-body') : document.getElementById('jobs');
    const scope = card ? String(card.dataset.job) : 'all';
    let existing = host && host.querySelector(`:scope > .sql-panel[data-sql-scope="${scope}"]`);
    if (!existing) {
      const p = panel(card);
      host.prepend(p.box);
      existing = p.box;
      existing.gcscopePanel = p;
      try {
        const { conn } = await connectPanel(p, card);
        wire(p, conn);
        p.status.textContent = `DuckDB ready (${Math.round(stats.loadMs)} ms to load)`;
        [p.run, p.csv, p.parquet].forEach((b) => { b.disabled = false; });
        existing.dataset.ready = 'true';
      } catch (err) {
        p.status.textContent = 'The SQL panel could not open: ' + String((err && err.message) || err);
        existing.dataset.ready = 'failed';
        return existing;
      }
    }
    existing.scrollIntoView({ block: 'nearest' });
    const p = existing.gcscopePanel;
    if (sql && p) { p.text.value = sql; if (existing.dataset.ready === 'true') p.run.click(); }
    return existing;
  }

  // The panel the fragment names (#sql=...&sqljob=N|all), once its job is live.
  function openFromState() {
    const sql = GCSCOPE.state.get('sql');
    if (!sql) return null;
    const job = GCSCOPE.state.get('sqljob') || 'all';
    const card = job === 'all' ? null : document.querySelector(`#jobs .job[data-job="${CSS.escape(job)}"][data-engine="live"]`);
    if (job !== 'all' && !card) return null;
    return open(card, sql);
  }

  // Rows of a query across every open job as objects (the embedding API's {sql}).
  async function query(sql) {
    const dbReady = loadDuckDB();
    await Promise.all(liveCards().map((c) => registerJob(dbReady, c)));
    const db = await dbReady;
    const conn = await db.connect();
    try {
      const res = await runQuery(conn, sql);
      return { columns: res.columns.map((c) => c.name), rows: res.rows, total: res.total };
    } finally {
      await conn.close();
    }
  }

  GCSCOPE.sql = { loadDuckDB, registerJob, runQuery, csvOf, parquetOf, liveCards, schemaOf, stats, open, openFromState, query };
})();
