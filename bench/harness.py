#!/usr/bin/env python3
"""gcscope benchmark harness: one command for every parser, native and in Chromium, peers alongside.

    python3 bench/harness.py            full run (inputs of ~25-200 MB, 5 native reps, 3 Chromium reps)
    python3 bench/harness.py --quick    CI smoke: small inputs, 1 rep, no speed assertions
    python3 bench/harness.py --only jvm-unified,stackprof

It generates the inputs reproducibly into bench/out/ (seeded; JVM logs by concatenating time-shifted
real logs; the other domains through bench/<domain>/generate.sh when present), then measures for each:
  native   `gcscope analyze FILE` under /usr/bin/time, pinned to the last CPU (see PIN): CPU seconds (user+sys), wall, peak RSS; median of N
  limit    the same bytes through a plain memchr line count (build/native/gcscope_scan_limit)
  node     the wasm module fed 1 MiB chunks in node, as the worker does (CPU seconds, wasm heap)
  chromium the page in Debian's chromium: file handed to the worker → report rendered / first chart, and
           the worker's own time (job message → report text: reading, parsing, writing the report); for
           the first file on a fresh page, the first on a page left idle until it warmed up, and the next;
           with --returning also the first file of a returning visit (service worker and V8's code cache)
  peers    the peer tools this machine can install, on the same input, in the same run
and rewrites the figures section of BENCHMARKS.md (machine, date, exact command).
MB/s is MiB of input per CPU second for native/node/limit (the machines are shared: CPU time is
steadier than wall time), and MiB per wall second for Chromium (whole browser pipeline).
"""
import argparse
import datetime
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'bench', 'out')
CLI = os.path.join(ROOT, 'build', 'native', 'gcscope')
SCAN = os.path.join(ROOT, 'build', 'native', 'gcscope_scan_limit')
SITE = os.path.join(ROOT, 'build', 'wasm', 'site')
CORPUS = os.environ.get('GCSCOPE_CORPUS_DIR') or os.path.join(ROOT, '..', 'shared', 'corpus')  # CI sets it
MiB = 1024 * 1024


def log(*a):
    print('[bench]', *a, file=sys.stderr, flush=True)


# ---- Input generators -------------------------------------------------------------------------

def concat_shifted(src, dst, target_bytes, stamp_re, shift_fn):
    """Concatenates copies of a real log until target_bytes, shifting its timestamps so the result
    reads as one long run (each copy starts where the previous one ended)."""
    data = open(src, 'rb').read()
    stamps = [float(m.group(1).replace(b',', b'.')) for m in stamp_re.finditer(data)]
    span = (max(stamps) if stamps else 0) + 1.0
    with open(dst, 'wb') as out:
        written, k = 0, 0
        while written < target_bytes:
            chunk = data if k == 0 else stamp_re.sub(lambda m: shift_fn(m, k * span), data)
            out.write(chunk)
            written += len(chunk)
            k += 1
    return dst


def gen_jvm_unified(quick):
    dst = os.path.join(OUT, 'jvm-unified-g1.log')
    src = os.path.join(ROOT, 'fixtures', 'jvm', 'jdk17-g1.log')
    rx = re.compile(rb'^\[(\d+\.\d+)s\]', re.M)
    return concat_shifted(src, dst, (4 if quick else 200) * MiB, rx,
                          lambda m, off: b'[%.3fs]' % (float(m.group(1)) + off))


def gen_jvm_legacy(quick):
    dst = os.path.join(OUT, 'jvm-legacy-parnew-cms.log')
    src = os.path.join(CORPUS, 'jvm', 'gctoolkit', 'preunified', 'cms', 'parnew', 'details', 'TC_oy579c2n5.gc.out')
    rx = re.compile(rb'(?<![\d.])(\d+\.\d{3}): \[')
    return concat_shifted(src, dst, (4 if quick else 200) * MiB, rx,
                          lambda m, off: b'%.3f: [' % (float(m.group(1)) + off))


def domain_generator(domain):
    """bench/<domain>/generate.sh OUTDIR QUICK prints one 'name<TAB>path' line per input it made."""
    script = os.path.join(ROOT, 'bench', domain, 'generate.sh')

    def gen(quick):
        if not os.path.exists(script):
            return []
        res = subprocess.run(['bash', script, OUT, '1' if quick else '0'], capture_output=True, text=True, cwd=ROOT)
        if res.returncode != 0:
            log(f'{domain}: generator failed: {res.stderr.strip()[-500:]}')
            return []
        return [line.split('\t')[-1] for line in res.stdout.splitlines() if line.strip()]
    return gen


# Peers that the package registries here provide, run on the same input in the same invocation, each
# with the gcscope command that does the same job (None: the full `gcscope analyze` measured above).
def peer_commands(domain, path):
    peers = []
    if domain == 'stackprof' and shutil.which('stackprof') and path.endswith('.dump'):
        peers.append(('stackprof --text (Debian ruby-stackprof 0.2.21)', ['stackprof', path, '--text'],
                      [CLI, 'stackprof', '--text', path]))
    if domain == 'heap' and shutil.which('heapy') and 'heap' in os.path.basename(path):
        peers.append(('heapy read (Debian ruby-heapy 0.2.0)', ['heapy', 'read', path], None))
    return peers


INPUTS = [
    # (domain, title, generator)
    ('jvm-unified', 'JVM unified G1 log (JDK 17 log, time-shifted copies)', lambda q: [gen_jvm_unified(q)]),
    ('jvm-legacy', 'JVM legacy ParNew/CMS log (GCToolKit corpus log, time-shifted copies)', lambda q: [gen_jvm_legacy(q)]),
    ('rubygc', 'TuneMyGC payload', domain_generator('rubygc')),
    ('stackprof', 'stackprof dump', domain_generator('stackprof')),
    ('heap', 'ObjectSpace.dump_all', domain_generator('heap')),
    ('rbkit', 'rbkit capture', domain_generator('rbkit')),
    ('tracing', 'tracing output', domain_generator('tracing')),
]

# Reference figures of peers that cannot be installed here (quoted from the project's issues; they
# were measured on this machine type by hand, not by this harness).
QUOTED = {
    'jvm-unified': 'GCViewer ≈ 12 MB/s, GCToolKit ≈ 7 MB/s (quoted, not measured by the harness)',
    'jvm-legacy': 'GCToolKit ≈ 1.4 MB/s on a 200 MB CMS log (quoted, not measured by the harness)',
}


# ---- Measurements -----------------------------------------------------------------------------

# Native and node runs are pinned to the last CPU. On the 2-core VM these figures come from, every
# device interrupt (virtio network, console, balloon) is delivered to CPU 0 (see /proc/interrupts), and
# unpinned runs of the same command were bimodal: 0.31 s CPU when the scheduler kept them on CPU 1,
# up to 0.58 s on CPU 0. GCSCOPE_BENCH_CPU=N picks another CPU; GCSCOPE_BENCH_CPU=none turns pinning off.
def pin_prefix():
    want = os.environ.get('GCSCOPE_BENCH_CPU', str((os.cpu_count() or 1) - 1))
    if want == 'none' or not shutil.which('taskset') or (os.cpu_count() or 1) < 2:
        return []
    return ['taskset', '-c', want]


PIN = pin_prefix()


def timed(cmd, reps):
    """Runs cmd reps times under /usr/bin/time (pinned, see PIN); returns lists of cpu_s, wall_s, rss_kb."""
    cpu, wall, rss = [], [], []
    for _ in range(reps):
        res = subprocess.run(PIN + ['/usr/bin/time', '-f', '%e %U %S %M', '--'] + cmd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        last = res.stderr.strip().splitlines()[-1].split()
        e, u, s, m = float(last[0]), float(last[1]), float(last[2]), int(last[3])
        cpu.append(max(u + s, 0.01))  # /usr/bin/time resolves 10 ms
        wall.append(e)
        rss.append(m)
    return cpu, wall, rss


def summary(values):
    return {'median': statistics.median(values), 'min': min(values), 'max': max(values)}


def measure(domain, title, path, reps, chromium_reps, skip_chromium, returning=False):
    size = os.path.getsize(path)
    mib = size / MiB
    row = {'domain': domain, 'title': title, 'file': os.path.relpath(path, ROOT), 'bytes': size}
    cpu, wall, rss = timed([CLI, 'analyze', path], reps)
    row['native'] = {'cpu_s': summary(cpu), 'wall_s': summary(wall), 'peak_rss_kb': max(rss),
                     'mb_s': mib / max(statistics.median(cpu), 1e-9)}
    scan = [json.loads(subprocess.run(PIN + [SCAN, path], capture_output=True, text=True).stdout)['cpu_s'] for _ in range(reps)]
    row['limit'] = {'cpu_s': summary(scan), 'mb_s': mib / max(statistics.median(scan), 1e-9)}
    row['native']['fraction_of_limit'] = row['native']['mb_s'] / row['limit']['mb_s']
    node = [json.loads(subprocess.run(PIN + ['node', os.path.join(ROOT, 'bench', 'node_bench.js'), SITE, path],
                                      capture_output=True, text=True).stdout) for _ in range(max(1, reps // 2))]
    ncpu = [n['cpu_s'] for n in node]
    row['node'] = {'cpu_s': summary(ncpu), 'mb_s': mib / max(statistics.median(ncpu), 1e-9),
                   'wasm_heap_bytes': max(n['wasm_heap_bytes'] for n in node)}
    if not skip_chromium:
        try:
            env = dict(os.environ, GCSCOPE_BENCH_RETURNING='1' if returning else '0')
            limit = 600 if returning else 300
            res = subprocess.run(['node', os.path.join(ROOT, 'bench', 'chromium_bench.js'), SITE, str(chromium_reps), path],
                                 capture_output=True, text=True, cwd=ROOT, timeout=limit, env=env)
        except subprocess.TimeoutExpired:
            res = subprocess.CompletedProcess([], 1, '', f'no report within {limit} s')
        lines = [l for l in res.stdout.splitlines() if l.startswith('{')]
        row['chromium'] = json.loads(lines[0]) if lines else {'error': res.stderr.strip()[-300:]}
    row['peers'] = []
    if domain == 'stackprof' and path.endswith('.json') and not skip_chromium and os.path.isdir(os.path.join(ROOT, 'node_modules', 'speedscope')):
        res = subprocess.run(['node', os.path.join(ROOT, 'bench', 'flamegraph_vs_speedscope.js'), SITE, str(chromium_reps), path],
                             capture_output=True, text=True, cwd=ROOT)
        lines = [l for l in res.stdout.splitlines() if l.startswith('{')]
        if lines:
            v = json.loads(lines[0])
            row['peers'].append({'peer': 'speedscope 1.25 first flame graph (Chromium, wall)', 'cpu_s': summary([v['speedscope_ms'] / 1000]),
                                 'wall_s': summary([v['speedscope_ms'] / 1000]), 'peak_rss_kb': 0,
                                 'ratio_cpu': v['speedscope_over_gcscope'], 'gcscope_first_flame_graph_ms': v['gcscope_ms']})
    for name, cmd, ours_cmd in peer_commands(domain, path):
        pc, pw, pr = timed(cmd, max(1, reps // 2))
        ours = timed(ours_cmd, reps)[0] if ours_cmd else cpu
        row['peers'].append({'peer': name, 'cpu_s': summary(pc), 'wall_s': summary(pw), 'peak_rss_kb': max(pr),
                             'ours_cpu_s': summary(ours), 'ours_command': 'gcscope ' + ' '.join(ours_cmd[1:-1]) if ours_cmd else 'gcscope analyze',
                             'ratio_cpu': statistics.median(pc) / max(statistics.median(ours), 1e-9)})
    return row


# ---- BENCHMARKS.md ----------------------------------------------------------------------------

def machine():
    cpu = ''
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 1024 ** 3
    load = os.getloadavg()
    return f'{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB, {platform.system()} {platform.release()}; load average at start {load[0]:.1f}'


def fmt(x, d=1):
    return '—' if x is None else f'{x:,.{d}f}'


def write_markdown(rows, command, quick):
    lines = ['<!-- bench:figures:start (written by bench/harness.py; edit the text outside these markers) -->', '',
             f'Measured {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC on {machine()}.', '',
             f'Command: `{command}`' + (' (quick mode: small inputs, figures are not representative)' if quick else '')]
    lines += ['', '| domain | input | size | native MB/s (CPU) | native peak RSS | fraction of memchr limit | node wasm MB/s (CPU) | Chromium worker MB/s (wall): first file / first after idle warm-up / next file / first of a returning visit | Chromium MB/s (wall, to the rendered report): first / after warm-up / next | Chromium report / first chart (first file) | wasm heap (Chromium) | peers (same run) |',
              '|---|---|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        n, c = r['native'], r.get('chromium', {})
        def peer_text(p):
            if 'gcscope_first_flame_graph_ms' in p:
                return (f"{p['peer']}: {fmt(p['wall_s']['median'], 2)} s vs gcscope {fmt(p['gcscope_first_flame_graph_ms'] / 1000, 2)} s "
                        f"from navigation, ours ×{fmt(p['ratio_cpu'], 1)} faster")
            ours = p.get('ours_command', 'gcscope analyze')
            return f"{p['peer']}: {fmt(p['cpu_s']['median'], 2)} s CPU, ours (`{ours}`) ×{fmt(p['ratio_cpu'], 1)} faster"
        peers = '; '.join(peer_text(p) for p in r['peers'])
        if r['domain'] in QUOTED:
            peers = (peers + '; ' if peers else '') + QUOTED[r['domain']]
        chart = c.get('first_chart_ms')
        lines.append('| {d} | {t} (`{f}`) | {s:.1f} MiB | {nm} (min–max CPU {a}–{b} s) | {rss:.0f} MiB | {frac:.0%} | {node} | {wm} | {cm} | {rep} ms / {ch} | {heap} | {peers} |'.format(
            d=r['domain'], t=r['title'], f=r['file'], s=r['bytes'] / MiB, nm=fmt(n['mb_s']), a=fmt(n['cpu_s']['min'], 3),
            b=fmt(n['cpu_s']['max'], 3), rss=n['peak_rss_kb'] / 1024, frac=n['fraction_of_limit'], node=fmt(r['node']['mb_s']),
            wm=' / '.join(fmt(k.get('worker_mb_s')) for k in (c, c.get('idle') or {}, c.get('warm') or {}, c.get('returning') or {})),
            cm=' / '.join(fmt(k.get('mb_s')) for k in (c, c.get('idle') or {}, c.get('warm') or {})), rep=fmt(c.get('report_ms'), 0), ch=(fmt(chart, 0) + ' ms') if chart else '—',
            heap=(fmt(c.get('wasm_heap_bytes', 0) / MiB, 0) + ' MiB') if c.get('wasm_heap_bytes') else '—', peers=peers or '—'))
    lines += ['', '<!-- bench:figures:end -->']
    block = '\n'.join(lines)
    path = os.path.join(ROOT, 'BENCHMARKS.md')
    text = open(path).read() if os.path.exists(path) else '# Benchmarks\n\n'
    if '<!-- bench:figures:start' in text:
        text = re.sub(r'<!-- bench:figures:start.*?<!-- bench:figures:end -->', lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + '\n\n' + block + '\n'
    open(path, 'w').write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--quick', action='store_true', help='small inputs, one rep, no Chromium reps beyond one')
    ap.add_argument('--only', default='', help='comma-separated domains')
    ap.add_argument('--no-chromium', action='store_true')
    ap.add_argument('--returning', action='store_true', help='also the first file of a returning visit (~20 s more per input and rep)')
    ap.add_argument('--chromium-max-mb', type=float, default=0, help='skip the Chromium stage for larger inputs (0: no limit)')
    ap.add_argument('--no-write', action='store_true', help='print JSON only, leave BENCHMARKS.md alone')
    ap.add_argument('--from-json', help='re-render BENCHMARKS.md from the JSON a previous run printed (with its command)')
    ap.add_argument('--command', default='', help='with --from-json: the command that produced it')
    args = ap.parse_args()
    if args.from_json:
        write_markdown(json.load(open(args.from_json)), args.command or 'python3 bench/harness.py', False)
        return
    for need in (CLI, SCAN, os.path.join(SITE, 'gcscope.js')):
        if not os.path.exists(need):
            sys.exit(f'missing {need}: build first (./dev.sh test builds both targets)')
    os.makedirs(OUT, exist_ok=True)
    random.seed(20261121)
    only = set(filter(None, args.only.split(',')))
    reps = 1 if args.quick else 5
    rows = []
    for domain, title, gen in INPUTS:
        if only and domain not in only:
            continue
        log(f'{domain}: generating inputs')
        for path in gen(args.quick):
            log(f'{domain}: measuring {os.path.relpath(path, ROOT)} ({os.path.getsize(path) / MiB:.1f} MiB)')
            too_big = args.chromium_max_mb and os.path.getsize(path) > args.chromium_max_mb * MiB
            rows.append(measure(domain, title, path, reps, 1 if args.quick else 3, args.no_chromium or too_big, args.returning))
    print(json.dumps(rows, indent=1))
    if not args.no_write and not args.quick:
        cmd = 'python3 bench/harness.py' + (' --only ' + args.only if args.only else '') + \
            (f' --chromium-max-mb {args.chromium_max_mb:g}' if args.chromium_max_mb else '') + (' --no-chromium' if args.no_chromium else '') + \
            (' --returning' if args.returning else '')
        write_markdown(rows, cmd, args.quick)


if __name__ == '__main__':
    main()
