#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/lib/mkseries.py BASE SERIES_D PRISTINE OVERLAY OUT DATE

Split the overlay's one patch into the numbered series series.d/ defines
(tools/lam-patches is the front end; docs/packaging.md).

BASE      overlay-base/ (diff/PATH.diff: pristine -> overlay, one per file)
SERIES_D  series.d/NN-slug.txt: line 1 the subject, then the body, a line
          "---", then selectors, one per line:
              PATH            every hunk of PATH not taken by an earlier patch
              PATH /REGEX/    those whose changed lines match REGEX
          Every hunk must go to exactly one patch, every selector must take
          at least one hunk: a new hunk in the overlay, or a selector that
          no longer matches, stops the generation (the series cannot drift).
PRISTINE  the pristine kernel tree (base file contents)
OVERLAY   overlay/ (the result must equal it, byte for byte)
OUT       an empty directory: NNNN-*.patch (git format-patch) and series
DATE      the commits' date (the series is reproducible)

Exit 0, or 1 with one line on stderr.
"""
import os
import re
import subprocess
import sys
import tempfile

HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def die(msg):
    sys.stderr.write('lam-patches: %s\n' % msg)
    sys.exit(1)


def parse_diff(path, text):
    """The hunks of one file's unified diff: (old_start, old_len, lines)."""
    lines = text.splitlines(keepends=True)
    if len(lines) < 2 or not lines[0].startswith('--- ') or \
            not lines[1].startswith('+++ '):
        die('%s: not a unified diff' % path)
    new_file = lines[0].startswith('--- /dev/null')
    hunks, i = [], 2
    while i < len(lines):
        m = HUNK.match(lines[i])
        if not m:
            die('%s: line %d: expected a hunk header' % (path, i + 1))
        old_start, old_len = int(m.group(1)), int(m.group(2) or 1)
        new_len = int(m.group(4) or 1)
        body, i = [lines[i]], i + 1
        o = n = 0
        while i < len(lines) and (o < old_len or n < new_len or
                                  lines[i].startswith('\\')):
            c = lines[i][:1]
            if c in (' ', '\n'):
                o, n = o + 1, n + 1
            elif c == '-':
                o += 1
            elif c == '+':
                n += 1
            elif c != '\\':
                die('%s: line %d: bad hunk line' % (path, i + 1))
            body.append(lines[i])
            i += 1
        hunks.append({'old_start': old_start, 'old_len': old_len,
                      'lines': body, 'patch': None})
    return new_file, hunks


def changed_text(hunk):
    return ''.join(l[1:] for l in hunk['lines'][1:] if l[:1] in '+-')


def apply_hunks(path, orig, hunks, upto):
    """orig (list of lines) with the hunks of patches <= upto applied."""
    out, pos, prev = [], 0, None
    for h in sorted(hunks, key=lambda h: h['old_start']):
        start = h['old_start'] - 1 if h['old_len'] else h['old_start']
        old, new = [], []
        for l in h['lines'][1:]:
            c, t = l[:1], l[1:]
            if c == '\n':            # an empty context line
                c, t = ' ', '\n'
            if c == '\\':           # "\ No newline at end of file"
                tgt = new if prev == '+' else old if prev == '-' else None
                for lst in ([old, new] if tgt is None else [tgt]):
                    if lst and lst[-1].endswith('\n'):
                        lst[-1] = lst[-1][:-1]
                continue
            prev = c
            if c == ' ':
                old.append(t)
                new.append(t)
            elif c == '-':
                old.append(t)
            else:
                new.append(t)
        if orig[start:start + len(old)] != old:
            die('%s: the hunk at line %d does not match the pristine file '
                '(overlay-base is stale: tools/lam-overlay refresh)' %
                (path, h['old_start']))
        out += orig[pos:start]
        out += new if h['patch'] <= upto else old
        pos = start + len(old)
    return out + orig[pos:]


def read_series(series_d):
    patches = []
    for name in sorted(os.listdir(series_d)):
        if not re.match(r'^\d\d-[a-z0-9-]+\.txt$', name):
            die('series.d/%s: name it NN-slug.txt' % name)
        with open(os.path.join(series_d, name)) as f:
            text = f.read()
        if '\n---\n' not in text:
            die('series.d/%s: no "---" line before the selectors' % name)
        msg, sel = text.split('\n---\n', 1)
        subject = msg.split('\n', 1)[0].strip()
        if not subject or len(subject) > 75:
            die('series.d/%s: the subject (line 1) must be 1 to 75 chars' %
                name)
        sels = []
        for l in sel.splitlines():
            if not l.strip() or l.startswith('#'):
                continue
            m = re.match(r'^(\S+)(?:\s+/(.*)/)?\s*$', l)
            if not m:
                die('series.d/%s: bad selector "%s"' % (name, l))
            sels.append((m.group(1), m.group(2)))
        patches.append({'name': name, 'msg': msg.rstrip('\n') + '\n',
                        'sels': sels})
    if not patches:
        die('series.d/ defines no patch')
    return patches


def main():
    if len(sys.argv) != 7:
        die('usage: mkseries.py BASE SERIES_D PRISTINE OVERLAY OUT DATE')
    base, series_d, pristine, overlay, out, date = sys.argv[1:]
    # git format-patch runs in the scratch repository: a relative OUT
    # would land there and be deleted with it
    out = os.path.abspath(out)
    files = {}
    diffdir = os.path.join(base, 'diff')
    for root, _, names in os.walk(diffdir):
        for n in names:
            if n.endswith('.diff'):
                p = os.path.relpath(os.path.join(root, n), diffdir)[:-5]
                with open(os.path.join(root, n)) as f:
                    text = f.read()
                if text:
                    files[p] = parse_diff(p, text)
    patches = read_series(series_d)

    for k, p in enumerate(patches, 1):
        for path, rx in p['sels']:
            if path not in files:
                die('series.d/%s: %s is not a file the overlay changes' %
                    (p['name'], path))
            took = 0
            for h in files[path][1]:
                if h['patch'] is None and \
                        (rx is None or re.search(rx, changed_text(h))):
                    h['patch'] = k
                    took += 1
            if not took:
                die('series.d/%s: "%s%s" takes no hunk' %
                    (p['name'], path, ' /%s/' % rx if rx else ''))
    for path in sorted(files):
        for h in files[path][1]:
            if h['patch'] is None:
                die('%s: the hunk at line %d is in no patch of series.d/ '
                    '(add a selector)' % (path, h['old_start']))

    def pristine_lines(path):
        if files[path][0]:
            return []
        with open(os.path.join(pristine, path), encoding='utf-8',
                  errors='surrogateescape', newline='') as f:
            return f.read().splitlines(keepends=True)

    def write(root, path, lines):
        dst = os.path.join(root, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, 'w', encoding='utf-8', errors='surrogateescape',
                  newline='') as f:
            f.write(''.join(lines))

    orig = {p: pristine_lines(p) for p in files}
    # the whole series must give the overlay
    for p in files:
        full = ''.join(apply_hunks(p, orig[p], files[p][1], len(patches)))
        with open(os.path.join(overlay, p), encoding='utf-8',
                  errors='surrogateescape', newline='') as f:
            if f.read() != full:
                die('%s: overlay-base/diff does not give overlay/%s '
                    '(tools/lam-overlay refresh)' % (p, p))

    env = dict(os.environ, GIT_AUTHOR_NAME='lam-overlay',
               GIT_AUTHOR_EMAIL='lam-overlay@localhost',
               GIT_COMMITTER_NAME='lam-overlay',
               GIT_COMMITTER_EMAIL='lam-overlay@localhost',
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_CONFIG_GLOBAL='/dev/null', GIT_CONFIG_NOSYSTEM='1',
               LC_ALL='C')

    def git(repo, *args, stdin=None):
        r = subprocess.run(['git', '-C', repo] + list(args), env=env,
                           input=stdin, capture_output=True, text=True)
        if r.returncode:
            die('git %s: %s' % (args[0], r.stderr.strip().split('\n')[-1]))
        return r.stdout

    with tempfile.TemporaryDirectory() as repo:
        git(repo, 'init', '-q', '-b', 'base')
        for p in files:
            if not files[p][0]:
                write(repo, p, orig[p])
        git(repo, 'add', '-A')
        git(repo, 'commit', '-q', '-m', 'pristine files the series touches')
        for k, pt in enumerate(patches, 1):
            for p in files:
                if any(h['patch'] == k for h in files[p][1]):
                    write(repo, p, apply_hunks(p, orig[p], files[p][1], k))
            git(repo, 'add', '-A')
            git(repo, 'commit', '-q', '-F', '-', stdin=pt['msg'])
        made = git(repo, 'format-patch', '--no-signature',
                   '--zero-commit', '--numbered', '-o', out,
                   'base~%d' % len(patches)).split()
    with open(os.path.join(out, 'series'), 'w') as f:
        for m in made:
            f.write(os.path.basename(m) + '\n')


if __name__ == '__main__':
    main()
