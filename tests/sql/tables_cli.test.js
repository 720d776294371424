// `gcscope tables` read back by DuckDB: the CSV (RFC 4180) and NDJSON forms, plain and gzip'd, with
// one worker and with two, hold the same rows; the figures are the inputs' own (hand counts below).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { connect, tables, lit, corpus, root, missing, eventStream } = require('./duckdb');

test('every form of the tables holds the same rows, with the inputs\' figures', { skip: missing || false }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-stream-'));
  const stream = path.join(tmp, 'stream.txt');
  eventStream(stream);
  const inputs = [stream, path.join(corpus, 'trace/bpftrace-0.17-det/det_hist_keyed.txt'),
    path.join(root, 'fixtures/tracing/perf-script-ruby.folded.txt'), path.join(tmp, 'missing.txt')];
  const csv = tables([...inputs, '-j', '2']);
  const ndjson = tables([...inputs, '--as', 'ndjson', '--gzip']);
  assert.strictEqual(csv.summary.analyzed, 3);
  assert.strictEqual(csv.summary.rejected, 1);
  const { rows } = await connect();
  const csvOf = (t) => `read_csv(${lit(path.join(csv.dir, t + '.csv'))})`;
  const ndOf = (t) => `read_json(${lit(path.join(ndjson.dir, t + '.ndjson.gz'))})`;

  // 60,000 events; values 1..30000 and 2..60000 step 2: sums 450,015,000 and 900,030,000.
  const [ev] = await rows(`select count(*) n, sum(value) filter (where probe like '%plain') plain,
      sum(value) filter (where probe like '%quoted%') quoted, min(t_s) t0, any_value(probe) filter (where probe like '%quoted%') AS probe_name
      from ${csvOf('events')}`);
  assert.deepStrictEqual(ev, { n: 60000, plain: 900030000, quoted: 450015000, t0: 1.000001, probe_name: 'usdt:app:"a, \\"quoted\\" probe"' });
  for (const table of ['events', 'maps', 'histogram_bins', 'stacks', 'errors']) {
    // the same multiset of rows in both forms (EXCEPT ALL both ways)
    const cols = (await rows(`describe select * from ${csvOf(table)}`)).map((c) => `"${c.column_name}"`).join(', ');
    const [diff] = await rows(`select (select count(*) from (select ${cols} from ${csvOf(table)} except all select ${cols} from ${ndOf(table)})) +
        (select count(*) from (select ${cols} from ${ndOf(table)} except all select ${cols} from ${csvOf(table)})) d`);
    assert.strictEqual(diff.d, 0, table);
  }
  const [bins] = await rows(`select count(*) n, sum(count) values_counted from ${csvOf('histogram_bins')}`);
  assert.deepStrictEqual(bins, { n: 14, values_counted: 6 });  // det_hist_keyed: 1 + 13 buckets, 1 + 5 values
  const [err] = await rows(`select input, message from ${csvOf('errors')}`);
  assert.deepStrictEqual(err, { input: path.join(tmp, 'missing.txt'), message: 'no such file or directory' });
  const summed = csv.summary.tables.find((t) => t.table === 'events');
  assert.strictEqual(summed.rows, 60000);
});
