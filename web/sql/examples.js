// Example queries of the SQL panel, one click away: per format family, over the tables of
// docs/TABLES.md (bare names: the job's own schema is first on the search path), and across jobs.
// Each is plain SQL the user can edit; none computes anything the page shows elsewhere.
'use strict';
(function () {
  const TRACING = [
    ['Latency per probe', `SELECT probe, count(*) AS calls, avg(value) AS mean, quantile_disc(value, 0.99) AS p99, max(value) AS max
FROM events GROUP BY probe ORDER BY calls DESC`],
    ['Events per second', 'SELECT floor(t_s) AS second, count(*) AS events FROM events WHERE t_s IS NOT NULL GROUP BY 1 ORDER BY 1'],
    ['Histogram buckets', 'SELECT map, key, lo, hi, count FROM histogram_bins ORDER BY map, key, snapshot, bin'],
    ['Heaviest leaf frames', 'SELECT leaf, sum(weight) AS weight, count(*) AS stacks FROM stacks GROUP BY leaf ORDER BY weight DESC LIMIT 20'],
    ['Map entries', 'SELECT map, kind, key, value, text, count, total FROM maps ORDER BY map, snapshot'],
  ];
  const RUBYGC = [
    ['Samples per event', 'SELECT input, event, count(*) AS samples FROM gc_samples GROUP BY ALL ORDER BY input, samples DESC'],
    ['RSS and live slots over time', `SELECT t_s, rss_bytes / 1048576.0 AS rss_mib, heap_live_slots
FROM gc_samples ORDER BY t_s`],
    ['GC.stat at each payload\'s last sample', `SELECT input, key, value FROM gc_stat
JOIN (SELECT input, max(sample) AS sample FROM gc_samples GROUP BY input) USING (input, sample)
ORDER BY input, key`],
  ];
  // stackprof: its --text table from the frame table, and the raw records over time and by leaf.
  const STACKPROF = [
    ['Frames by self samples', `SELECT name, file, line, self_samples, total_samples
FROM frames WHERE total_samples > 0 ORDER BY self_samples DESC, total_samples DESC`],
    ['Samples per 100 ms', `SELECT floor(t_s * 10) / 10 AS t_s, sum(weight) AS samples
FROM samples WHERE t_s IS NOT NULL GROUP BY 1 ORDER BY 1`],
    ['Heaviest leaf frames', 'SELECT leaf, sum(weight) AS weight, count(*) AS stacks FROM stacks GROUP BY leaf ORDER BY weight DESC LIMIT 20'],
  ];
  // Ruby heap dumps: where the memory is by type and by allocation site, and what is referenced most.
  const HEAP = [
    ['Objects and bytes per type', `SELECT type, count(*) AS objects, sum(memsize) AS bytes
FROM objects GROUP BY type ORDER BY bytes DESC`],
    ['Allocation sites', `SELECT file, line, count(*) AS objects, sum(memsize) AS bytes
FROM objects WHERE file IS NOT NULL GROUP BY ALL ORDER BY bytes DESC LIMIT 50`],
    ['Most referenced objects', `SELECT to_address AS address, type, class, count(*) AS referrers
FROM object_references JOIN objects ON objects.address = to_address
GROUP BY ALL ORDER BY referrers DESC LIMIT 20`],
    ['Roots per category', 'SELECT category, count(*) AS roots FROM roots GROUP BY category ORDER BY roots DESC'],
  ];
  // rbkit captures: the object churn over time and per class, the GC cycles, the CPU samples' leaves,
  // the events per type.
  const RBKIT = [
    ['Objects created and destroyed per second', `SELECT ts, sum(created) AS created, sum(destroyed) AS destroyed
FROM object_rates GROUP BY ts ORDER BY ts`],
    ['Classes by objects created', `SELECT class, sum(created) AS created, sum(destroyed) AS destroyed
FROM object_rates GROUP BY class ORDER BY created DESC, class`],
    ['GC cycles', 'SELECT ts, duration_ms, mark_ms, sweep_ms FROM gc_cycles ORDER BY ts'],
    ['CPU samples per leaf', 'SELECT leaf, count(*) AS samples FROM cpu_samples GROUP BY leaf ORDER BY samples DESC LIMIT 20'],
    ['Events per type', `SELECT type, count(*) AS events, min(ts) AS first, max(ts) AS last
FROM rbkit_events GROUP BY type ORDER BY events DESC, type`],
  ];
  // GCToolKit's sample aggregations (pause time by cause, heap after full GC, allocation rate per
  // interval) and the pauses' percentiles per kind, over docs/TABLES.md's JVM tables.
  const JVM = [
    ['Pause time by cause', `SELECT cause, count(*) AS pauses, sum(duration_ms) AS total_ms, max(duration_ms) AS max_ms
FROM pauses GROUP BY cause ORDER BY total_ms DESC`],
    ['Heap after full GCs', `SELECT t_s, type, cause, heap_before_kb / 1024.0 AS before_mib, heap_after_kb / 1024.0 AS after_mib
FROM gc_events WHERE type IN ('Full', 'FullGC', 'PSFull', 'G1GCFull', 'SystemGC') ORDER BY t_s`],
    ['Allocation rate per second', `SELECT floor(t_s) AS second, sum(allocated_kb) / 1024.0 AS allocated_mib_per_s
FROM gc_events WHERE t_s IS NOT NULL GROUP BY 1 ORDER BY 1`],
    ['Pause percentiles per kind', `SELECT kind, count(*) AS pauses, quantile_disc(duration_ms, 0.5) AS p50_ms,
  quantile_disc(duration_ms, 0.99) AS p99_ms, max(duration_ms) AS max_ms
FROM pauses GROUP BY kind ORDER BY pauses DESC`],
    ['Findings', 'SELECT severity, id, count, first_line, message FROM findings'],
  ];
  const BY_FORMAT = {
    'jvm-gc-log': JVM,
    'tunemygc-payload': RUBYGC,
    'stackprof': STACKPROF,
    'ruby-heap-dump': HEAP,
    'rbkit-capture': RBKIT,
    'bpftrace-text': TRACING,
    'bpftrace-json': TRACING,
    'bcc-output': TRACING,
    'folded-stacks': TRACING,
    'perf-script': TRACING,
  };

  // [[label, sql]] for one job's formats.
  function forFormats(formats) {
    const out = [];
    for (const f of formats) for (const e of BY_FORMAT[f] || []) if (!out.some((x) => x[1] === e[1])) out.push(e);
    return out;
  }

  // [[label, sql]] across the jobs [{schema, formats, tables}]: every job's tables, and a join of two
  // jobs' stacks.
  function acrossJobs(jobs) {
    const out = [['Tables of every job', jobs.map((j) => `SELECT '${j.schema}' AS job, table_name, estimated_size AS rows
FROM duckdb_tables() WHERE schema_name = '${j.schema}'`).join('\nUNION ALL\n') + '\nORDER BY job, table_name']];
    // Stacks two jobs share (a capture and its folding, two runs of one program): weight side by side.
    const stacked = jobs.filter((j) => j.tables.some((t) => t.name === 'stacks'));
    if (stacked.length >= 2) {
      const [a, b] = stacked;
      out.push(['Stacks of two jobs side by side', `SELECT folded, a.weight AS ${a.schema}_weight, b.weight AS ${b.schema}_weight
FROM ${a.schema}.stacks a FULL JOIN ${b.schema}.stacks b USING (folded)
ORDER BY coalesce(a.weight, 0) + coalesce(b.weight, 0) DESC LIMIT 50`]);
    }
    return out;
  }

  GCSCOPE.sqlExamples = { forFormats, acrossJobs };
})();
