// `gcscope tables` read back by DuckDB: the CSV (RFC 4180) and NDJSON forms, plain and gzip'd, with
// one worker and with two, hold the same rows; the figures are the inputs' own (hand counts below).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { connect, tables, lit, corpus, root, missing } = require('./duckdb');

// A printf event stream as the capture recipe's bpftrace program prints it: "<nsecs> <probe> <ns>".
// 30,000 events of each of two probes: enough rows (~4 MB of CSV) for several 1 MiB pieces per file.
function eventStream(file) {
  const lines = ['Attaching 2 probes...'];
  for (let i = 1; i <= 30000; i++) {
    lines.push(`${1000000000 + i * 1000} usdt:app:"a, \\"quoted\\" probe" ${i}`);
    lines.push(`${1000000500 + i * 1000} usdt:app:plain ${2 * i}`);
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

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

test('an input\'s rows of a table stay together and in order with two workers', { skip: missing || false }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gcscope-stream-'));
  const files = [0, 1, 2].map((k) => path.join(tmp, `s${k}.txt`));
  files.forEach(eventStream);
  const { dir } = tables([...files, '-j2']);
  const { rows } = await connect();
  // Runs of one input in file order: one run per input.
  const [r] = await rows(`select count(*) runs from (select input, lag(input) over (order by rn) prev
      from (select input, row_number() over () rn from read_csv(${lit(path.join(dir, 'events.csv'))}))) where prev is distinct from input`);
  assert.strictEqual(r.runs, 3);
});
