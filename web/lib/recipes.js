// GCSCOPE.recipes: capture commands for Ruby static tracing, generated from a provider/tracepoint
// list the user types. Pure text generation (no DOM, no page state), so node can test it.
//
// Facts behind the commands (checked on real runs of the gem under bpftrace 0.17, BCC and perf):
// - ruby-static-tracing providers (and their USDT probes) exist only after the first SIGPROF;
// - Tracer::Latency fires (method_name, duration_ns): arg0 = string, arg1 = nanoseconds;
// - Tracer::Stack fires (method_name, caller.join("\n")): arg1 is a string cut by bpftrace's string
//   limit (64 bytes by default before 0.23, at most 200 in 0.17);
// - percentiles from hist() are bucket ranges; exact ones need a printf event stream (-f json);
// - Ruby's own method__entry/method__return probes fire only while a TracePoint is enabled.
'use strict';
(function (global) {
  const SAFE = /^[A-Za-z0-9_.*\-/]+$/;

  // MyController -> my_controller, A::BFoo -> a_b_foo (the gem's Helpers.underscore).
  function underscore(name) {
    return String(name)
      .replace(/::/g, '_')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
      .replace(/([a-z\d])([A-Z])/g, '$1_$2')
      .toLowerCase();
  }

  // One user entry -> {provider, name} or {error}. Accepts "provider:probe", "provider:*",
  // "usdt:/path:provider:probe", "MyController#index", "ruby:method__entry".
  function parseEntry(raw) {
    let s = String(raw).trim();
    if (!s) return null;
    if (s.startsWith('usdt:')) {
      const parts = s.split(':');
      if (parts.length < 3) return { raw: s, error: 'expected usdt:[path:]provider:probe' };
      s = parts.slice(-2).join(':');
    }
    let provider;
    let name;
    const hash = s.indexOf('#');
    if (hash > 0) {
      provider = underscore(s.slice(0, hash));
      name = s.slice(hash + 1);
    } else {
      const colon = s.lastIndexOf(':');
      if (colon <= 0 || colon === s.length - 1) return { raw: s, error: 'expected provider:probe (e.g. my_controller:index)' };
      provider = s.slice(0, colon);
      name = s.slice(colon + 1);
      if (/[A-Z]/.test(provider[0] || '')) provider = underscore(provider);
    }
    if (!SAFE.test(provider) || !SAFE.test(name)) return { raw: s, error: 'only letters, digits, _ . * - / are allowed' };
    return { raw: s, provider, name, ruby: provider === 'ruby' };
  }

  function versionAtLeast(v, want) {
    const a = String(v || '0.17').split('.').map((x) => parseInt(x, 10) || 0);
    const b = want.split('.').map((x) => parseInt(x, 10) || 0);
    for (let i = 0; i < 2; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    return true;
  }

  // options: {probes: "text with entries separated by newlines/commas/spaces", pid, bpftrace: "0.17",
  //           strlen: 200, interval: 1}
  function build(options) {
    const o = options || {};
    const pid = /^\d+$/.test(String(o.pid || '').trim()) ? String(o.pid).trim() : '<PID>';
    const version = o.bpftrace || '0.17';
    const entries = String(o.probes || '')
      .split(/[\s,;]+/)
      .map(parseEntry)
      .filter(Boolean);
    const probes = entries.filter((e) => !e.error);
    const warnings = entries.filter((e) => e.error).map((e) => `"${e.raw}": ${e.error}`);
    const gem = probes.filter((p) => !p.ruby);
    const ruby = probes.filter((p) => p.ruby);
    const steps = [];
    const list = (ps) => ps.map((p) => `usdt::${p.provider}:${p.name}`).join(', ');
    const bt = (prog, json) => `bpftrace${json ? ' -f json' : ''} -e '${prog}' -p ${pid}`;
    const newStrlen = versionAtLeast(version, '0.20');
    const maxStr = newStrlen ? 1024 : 200;
    const strlen = Math.max(16, Math.min(parseInt(o.strlen, 10) || maxStr, newStrlen ? 65536 : 200));
    const strlenEnv = newStrlen ? `BPFTRACE_MAX_STRLEN=${strlen}` : `BPFTRACE_STRLEN=${strlen}`;
    const interval = Math.max(1, parseInt(o.interval, 10) || 1);

    if (gem.length) {
      const ps = list(gem);
      steps.push({ id: 'enable', title: 'Turn the providers on', command: `kill -PROF ${pid}`,
        note: 'ruby-static-tracing registers its providers (and their USDT probes) only after the first SIGPROF; a second SIGPROF turns tracing off again.' });
      steps.push({ id: 'list', title: 'Check the probes exist', command: `bpftrace -l 'usdt:*' -p ${pid}`,
        note: 'Probe paths look like usdt:/proc/<pid>/root/tmp/<provider>-XXXXXX.so:<provider>:<probe>.' });
      steps.push({ id: 'count', title: 'Calls per probe', command: bt(`${ps} { @calls[probe] = count(); }`) });
      steps.push({ id: 'sum', title: 'Total time per probe (arg1 = duration in ns)', command: bt(`${ps} { @ns_total[probe] = sum(arg1); }`) });
      steps.push({ id: 'stats', title: 'Calls, mean and total per probe', command: bt(`${ps} { @ns_stats[probe] = stats(arg1); }`) });
      steps.push({ id: 'hist', title: 'Latency distribution (log2 buckets: percentiles are bucket ranges)',
        command: bt(`${ps} { @ns[probe] = hist(arg1); }`, true) + ' > hist.ndjson' });
      steps.push({ id: 'events', title: 'Exact percentiles: one event per call',
        command: bt(`${ps} { printf("%llu %s %llu\\n", nsecs, probe, arg1); }`, true) + ' > events.ndjson',
        note: 'One line per traced call: large at high call rates, but gives exact percentiles and the overhead estimate.' });
      steps.push({ id: 'interval', title: `Rates over time (every ${interval} s)`,
        command: bt(`${ps} { @calls[probe] = count(); } interval:s:${interval} { time(); print(@calls); clear(@calls); }`, true) + ' > rates.ndjson' });
      steps.push({ id: 'stacks', title: 'Ruby stacks for a flame graph (Stack tracer: arg1 = caller string)',
        command: `${strlenEnv} ` + bt(`${ps} { @stacks[str(arg1)] = count(); }`, true) + ' > stacks.ndjson',
        note: `Stack strings are cut at the string limit (64 bytes by default before bpftrace 0.23${newStrlen ? '' : ', at most 200 in 0.17'}); cut stacks are flagged.` });
    }
    if (ruby.length) {
      const ps = ruby.map((p) => `usdt:/usr/lib/x86_64-linux-gnu/libruby-3.1.so:ruby:${p.name}`).join(', ');
      steps.push({ id: 'tracepoint', title: "Ruby's own probes need a TracePoint",
        command: 'TracePoint.new(:call, :return) {}.enable   # in the traced process (e.g. an initializer)',
        note: 'method__entry/method__return fire only while a TracePoint is enabled (Ruby >= 2.5); without one the capture is empty. Adjust the libruby path to your install.' });
      steps.push({ id: 'ruby-count', title: "Calls per Ruby method (Ruby's probes)",
        command: bt(`${ps} { @calls[str(arg0), str(arg1)] = count(); }`) });
    }
    if (!probes.length) warnings.push('Type probes as provider:probe (my_controller:index), MyController#index or provider:*.');
    return { pid, bpftrace: version, probes, warnings, steps };
  }

  // All steps as one copy-pasteable shell script.
  function script(result) {
    const lines = ['#!/bin/sh', '# capture recipes generated by gcscope'];
    for (const s of result.steps) {
      lines.push('', `# ${s.title}`);
      if (s.note) lines.push(`# ${s.note}`);
      lines.push(s.command);
    }
    return lines.join('\n') + '\n';
  }

  const api = { build, script, underscore, parseEntry };
  if (global && typeof global === 'object') {
    const GCSCOPE = global.GCSCOPE || (global.GCSCOPE = {});
    GCSCOPE.recipes = api;
  }
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
