// `gcscope tables -j2` keeps each input's rows of a table together and in the input's order.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { connect, tables, lit, missing, eventStream } = require('./duckdb');

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
