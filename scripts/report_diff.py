#!/usr/bin/env python3
"""Runs `gcscope analyze` with two builds over the corpus and the fixtures and diffs the reports.

    python3 scripts/report_diff.py OLD_GCSCOPE NEW_GCSCOPE [--corpus DIR] [-j N] [--only TEXT] [--no-sets]

A refactoring that must not change behaviour is checked with the binary built before it (OLD) and
the one built after it (NEW). Inputs: every file of the corpus (--corpus, else GCSCOPE_CORPUS_DIR,
else ../shared/corpus beside the checkout) and of fixtures/, each analyzed alone, then every folder
that holds files, analyzed as one input set (how rotating JVM logs and mixed folders are read).
Each input's exit status and report (stdout) must be the same bytes under both builds. Every input
that differs is listed with the JSON paths whose values differ; the exit status is 1 if any does.

The reports of a binary are kept under build/report_diff/<sha1 of the binary>/, keyed by the input's
path, size and modification time, so that comparing several new builds with one old build runs the
old one once.
"""
import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, 'build', 'report_diff')


def inputs(tops, with_sets):
    """The files one by one (sorted), then each folder that holds files directly, as one input set."""
    files, folders = [], []
    for top in tops:
        for here, dirs, names in os.walk(top):
            dirs.sort()
            held = sorted(os.path.join(here, n) for n in names if os.path.isfile(os.path.join(here, n)))
            files += held
            if held:
                folders.append(here)
    return files + (folders if with_sets else [])


def sha1_of_file(path):
    h = hashlib.sha1()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def input_key(path):
    """What identifies one input's bytes without reading them: path, sizes and times of its files."""
    parts = [os.path.abspath(path)]
    members = [path] if os.path.isfile(path) else sorted(os.path.join(path, n) for n in os.listdir(path))
    for m in members:
        if os.path.isfile(m):
            st = os.stat(m)
            parts.append(f'{m}:{st.st_size}:{st.st_mtime_ns}')
    return hashlib.sha1('\n'.join(parts).encode()).hexdigest()


class Build:
    def __init__(self, binary):
        self.binary = os.path.abspath(binary)
        self.cache = os.path.join(CACHE, sha1_of_file(self.binary))
        os.makedirs(self.cache, exist_ok=True)

    def report(self, path):
        """(exit status, stdout bytes) of `gcscope analyze path`, from the cache when it has it."""
        cached = os.path.join(self.cache, input_key(path) + '.gz')
        if os.path.exists(cached):
            with gzip.open(cached, 'rb') as f:
                data = f.read()
            status, _, out = data.partition(b'\n')
            return int(status), out
        try:
            r = subprocess.run([self.binary, 'analyze', path], capture_output=True, timeout=900)
            status, out = r.returncode, r.stdout
        except subprocess.TimeoutExpired:
            status, out = -1, b'(no report within 900 s)'
        with gzip.open(cached + '.tmp', 'wb', compresslevel=1) as f:
            f.write(b'%d\n' % status + out)
        os.replace(cached + '.tmp', cached)
        return status, out


def json_differences(a, b, path='$', found=None, limit=12):
    """JSON paths where documents a and b differ (at most `limit`)."""
    found = [] if found is None else found
    if len(found) >= limit:
        return found
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                found.append(f'{path}.{k}: only in {"new" if k in b else "old"}')
            elif a[k] != b[k]:
                json_differences(a[k], b[k], f'{path}.{k}', found, limit)
            if len(found) >= limit:
                break
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            found.append(f'{path}: {len(a)} items -> {len(b)}')
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                json_differences(x, y, f'{path}[{i}]', found, limit)
            if len(found) >= limit:
                break
    elif a != b or type(a) is not type(b):
        found.append(f'{path}: {json.dumps(a)[:100]} -> {json.dumps(b)[:100]}')
    return found


def describe(old, new):
    """Why two (status, stdout) results differ, as lines."""
    lines = [f'exit status {old[0]} -> {new[0]}'] if old[0] != new[0] else []
    try:
        diffs = json_differences(json.loads(old[1]), json.loads(new[1]))
        lines += diffs or ['same JSON value, different bytes (key order or number formatting)']
    except ValueError:
        lines.append(f'output not JSON ({len(old[1])} -> {len(new[1])} bytes)')
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('old', help='gcscope built before the change')
    ap.add_argument('new', help='gcscope built after it')
    default_corpus = os.environ.get('GCSCOPE_CORPUS_DIR') or os.path.join(ROOT, '..', 'shared', 'corpus')
    ap.add_argument('--corpus', default=default_corpus)
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--only', default='', help='only inputs whose path contains this text')
    ap.add_argument('--no-sets', action='store_true', help='files only, no folders as input sets')
    args = ap.parse_args()
    if not os.path.isdir(args.corpus):
        sys.exit(f'no corpus at {args.corpus}: pass --corpus DIR or set GCSCOPE_CORPUS_DIR')
    todo = [p for p in inputs([args.corpus, os.path.join(ROOT, 'fixtures')], not args.no_sets) if args.only in p]
    old, new = Build(args.old), Build(args.new)

    def compare(path):
        a, b = old.report(path), new.report(path)
        return None if a == b else describe(a, b)

    differing = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, why in zip(todo, pool.map(compare, todo)):
            if why is not None:
                differing += 1
                print(f'DIFFERS {os.path.relpath(path)}')
                for line in why:
                    print('    ' + line)
    sets = sum(os.path.isdir(p) for p in todo)
    print(f'{len(todo)} inputs ({len(todo) - sets} files, {sets} folders as input sets): {differing} differ')
    return 1 if differing else 0


if __name__ == '__main__':
    sys.exit(main())
