#!/usr/bin/env python3
"""Checks mck's --json output against the man page's JSON section, the
verdict XML of the same results (--xml) and the text output of the same
check, with Python's own JSON and XML parsers.

  jsoncheck.py check JSON [XML [TEXT]]
  jsoncheck.py info JSON TEXT
  jsoncheck.py mcc JSON [XML [LINES]]

Prints one line per finding and exits 1 when there is any; prints
"N objects, M runs" on success.  Nothing here shares code with mck.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

problems = []


def problem(msg):
    problems.append(msg)


def load_lines(path):
    """Every line is one complete JSON object (JSON Lines)."""
    objs = []
    with open(path, 'rb') as f:
        data = f.read()
    try:
        text = data.decode('utf-8')   # strict: mck must write valid UTF-8
    except UnicodeDecodeError as e:
        problem('not UTF-8: %s' % e)
        return objs
    if text and not text.endswith('\n'):
        problem('the last line has no newline')
    for n, line in enumerate(text.splitlines(), 1):
        try:
            o = json.loads(line)
        except ValueError as e:
            problem('line %d is not JSON: %s' % (n, e))
            continue
        if not isinstance(o, dict):
            problem('line %d is not an object' % n)
            continue
        objs.append(o)
    return objs


def need(o, key, types, where):
    if key not in o:
        problem('%s: no member %s' % (where, key))
        return None
    if not isinstance(o[key], types) or (isinstance(o[key], bool) and bool not in
                                           (types if isinstance(types, tuple) else (types,))):
        problem('%s: %s is %r' % (where, key, o[key]))
        return None
    return o[key]


NUM = (int, float)


def check_run(run, where):
    need(run, 'role', str, where)
    if run.get('role') not in ('witness', 'counterexample'):
        problem('%s: role %r' % (where, run.get('role')))
    steps = need(run, 'steps', list, where) or []
    for i, s in enumerate(steps):
        w = '%s step %d' % (where, i)
        need(s, 'transition', str, w)
        if 'name' in s and s['name'] is not None and not isinstance(s['name'], str):
            problem('%s: name %r' % (w, s['name']))
        if 'text' not in run:   # the language's own words for each step
            need(s, 'text', str, w)
            attrs = need(s, 'attributes', dict, w) or {}
            for k, v in attrs.items():
                if not isinstance(v, str):
                    problem('%s: attribute %s is %r' % (w, k, v))
    ls = run.get('loop_start', 'missing')
    if ls == 'missing' or not (ls is None or (isinstance(ls, int) and 0 <= ls <= len(steps))):
        problem('%s: loop_start %r' % (where, ls))
    end = run.get('end')
    want_end = 'final state' if ls is None else 'deadlock' if ls == len(steps) else 'loop'
    if end != want_end:
        problem('%s: end %r, loop_start %r of %d steps' % (where, end, ls, len(steps)))
    if 'text' not in run:
        need(run, 'initial_state', str, where)
        if end != 'loop':
            need(run, 'final_state', str, where)


def check_result(o, where):
    for k in ('command', 'verdict'):
        need(o, k, str, where)
    if o.get('command') == 'check':
        for k in ('model', 'language', 'kind', 'checker'):
            need(o, k, str, where)
        if o.get('kind') not in ('dl', 'reach', 'ctl', 'ltl') and \
                not (o.get('kind') == 'auto' and o.get('verdict') == 'ERROR'):
            problem('%s: kind %r' % (where, o.get('kind')))
        if o.get('verdict') not in ('YES', 'NO', 'UNKNOWN', 'ERROR'):
            problem('%s: verdict %r' % (where, o.get('verdict')))
        if o.get('verdict') != 'ERROR':
            need(o, 'seconds', NUM, where)
            st = need(o, 'statistics', dict, where) or {}
            for k in ('states', 'edges', 'peak_bytes'):
                need(st, k, int, where + ' statistics')
            need(st, 'search_seconds', NUM, where + ' statistics')
            t = need(st, 'techniques', list, where + ' statistics') or []
            if not all(isinstance(x, str) and x and ' ' not in x for x in t):
                problem('%s: techniques %r' % (where, t))
    if o.get('verdict') in ('UNKNOWN', 'ERROR'):
        need(o, 'reason', str, where)
    if 'run' not in o:
        problem('%s: no member run' % where)
    elif o['run'] is not None:
        check_run(o['run'], where + ' run')


def xml_traces(path):
    """reference -> (value, role, [(transition, name, attrs)], loop index or None)"""
    out = {}
    for v in ET.parse(path).getroot().iter('verdict'):
        tr = v.find('trace')
        steps, loop = [], None
        role = None
        if tr is not None:
            role = tr.get('role')
            for c in tr:
                if c.tag == 'loop':
                    loop = len(steps)
                elif c.tag == 'step':
                    a = dict(c.attrib)
                    t = a.pop('transition')
                    n = a.pop('name', None)
                    steps.append((t, n, a))
        out[v.get('reference')] = (v.get('value'), role, steps if tr is not None else None, loop)
    return out


def same_as_xml(run, trace, where):
    value, role, steps, loop = trace
    if steps is None:
        problem('%s: a JSON run, no XML trace' % where)
        return
    if run['role'] != role:
        problem('%s: role %s, XML %s' % (where, run['role'], role))
    got = [(s.get('transition'), s.get('name'), s.get('attributes', {})) for s in run['steps']]
    if 'text' in run:   # steps without words: transitions only
        got = [(t, n, {}) for t, n, _ in got]
        steps = [(t, n, {}) for t, n, _ in steps]
    if got != steps:
        for i, (a, b) in enumerate(zip(got, steps)):
            if a != b:
                problem('%s: step %d is %r, XML %r' % (where, i, a, b))
                break
        else:
            problem('%s: %d steps, XML %d' % (where, len(got), len(steps)))
    if run['loop_start'] != loop:
        problem('%s: loop_start %r, XML loop at %r' % (where, run['loop_start'], loop))


RESULT = re.compile(r'^(?:Property (\S+): )?Result: (YES|NO|UNKNOWN)')


def text_blocks(path):
    """name (or None) -> (answer, [lines of its run])"""
    blocks = {}
    cur = None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f.read().split('\n'):
            m = RESULT.match(line)
            if m:
                cur = [m.group(2), []]
                blocks[m.group(1)] = cur
                continue
            if cur is None:
                continue
            if line.startswith('Time needed') or line.startswith('Property ') \
                    or line.startswith('Expected:') or line.startswith('Properties:'):
                cur = None
                continue
            if line not in ('Witness:', 'Counterexample:'):
                cur[1].append(line)
    return blocks


def same_as_text(run, lines, where):
    """The run's pieces are exactly the text's lines, in order."""
    want = ['*** initial state: %s ***' % run['initial_state']]
    for i, s in enumerate(run['steps']):
        if run['end'] == 'loop' and i == run['loop_start']:
            want.append('*** loop starts here ***')
        want.append(s['text'])
    if run['end'] == 'loop':
        want.append('*** loop ends here ***')
    else:
        want.append('*** final state: %s ***' % run['final_state'])
        if run['end'] == 'deadlock':
            want.append('*** run ends in a deadlock ***')
        if 'dead' in run:
            want.extend(run['dead'].split('\n'))
    # mck's text replaces bytes that are not UTF-8 as it reads them here
    if want != lines:
        for i, (a, b) in enumerate(zip(want, lines)):
            if a != b:
                problem('%s: text line %d is %r, JSON gives %r' % (where, i, b, a))
                return
        problem('%s: %d text lines, JSON gives %d' % (where, len(lines), len(want)))


def main():
    mode, jpath = sys.argv[1], sys.argv[2]
    xpath = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != '-' else None
    tpath = sys.argv[4] if len(sys.argv) > 4 else None
    objs = load_lines(jpath)
    runs = 0
    if mode == 'info':
        if len(objs) != 1 or objs[0].get('type') != 'model':
            problem('info: %d objects' % len(objs))
        else:
            o = objs[0]
            text = {}
            with open(sys.argv[3]) as f:
                for line in f:
                    k, _, v = line.rstrip('\n').partition(': ')
                    text[k] = v
            for k in ('places', 'transitions'):
                if str(o.get(k)) != text.get(k):
                    problem('info: %s %r, text %r' % (k, o.get(k), text.get(k)))
            if not text.get('arcs', '').startswith(str(o['arcs']['total']) + ' '):
                problem('info: arcs %r, text %r' % (o['arcs'], text.get('arcs')))
            if o.get('language') != text.get('language') or o.get('net') != text.get('net'):
                problem('info: language or net differ from the text')
            if o.get('syntactically_safe') != (text.get('syntactically safe') == 'yes'):
                problem('info: syntactically_safe differs from the text')
    else:
        traces = xml_traces(xpath) if xpath else None
        blocks = text_blocks(tpath) if tpath and mode == 'check' else None
        results = [o for o in objs if o.get('type') == 'result']
        for o in objs:
            if o.get('type') not in ('result', 'summary', 'word'):
                problem('object of type %r' % o.get('type'))
        for n, o in enumerate(results):
            where = 'result %s' % o.get('property', n)
            check_result(o, where)
            if o.get('run') is not None:
                runs += 1
            ref = o.get('property') if o.get('property') is not None else 'deadlock'
            if traces is not None and o.get('verdict') not in ('ERROR', 'UNKNOWN'):
                if ref not in traces:
                    problem('%s: no XML verdict %r' % (where, ref))
                else:
                    want = {'YES': 'true', 'NO': 'false'}.get(o['verdict'], o['verdict'].lower())
                    if traces[ref][0] != want:
                        problem('%s: verdict %s, XML %s' % (where, o['verdict'], traces[ref][0]))
                    if o['run'] is not None:
                        same_as_xml(o['run'], traces[ref], where)
                    elif mode == 'check' and traces[ref][2]:
                        problem('%s: no JSON run, an XML trace' % where)
            if blocks is not None:
                # a lone result's block has no "Property NAME:" before it
                name = None if list(blocks) == [None] else o.get('property')
                b = blocks.get(name)
                if b is None:
                    problem('%s: no text block' % where)
                elif b[0] != o['verdict'] and o['verdict'] != 'ERROR':
                    problem('%s: verdict %s, text %s' % (where, o['verdict'], b[0]))
                elif o.get('run') is not None:
                    same_as_text(o['run'], b[1], where)
        if not results:
            problem('no result object')
        summaries = [o for o in objs if o.get('type') == 'summary']
        if mode == 'check' and len(results) > 1 and len(summaries) != 1:
            problem('%d results and %d summaries' % (len(results), len(summaries)))
        for s in summaries:
            for k in ('properties', 'yes', 'no', 'unknown', 'errors', 'exit_status'):
                need(s, k, int, 'summary')
            if s.get('properties') != len(results):
                problem('summary: %r properties, %d results' % (s.get('properties'), len(results)))
            counted = {v: sum(1 for o in results if o['verdict'] == v)
                       for v in ('YES', 'NO', 'UNKNOWN', 'ERROR')}
            if (s.get('yes'), s.get('no'), s.get('unknown'), s.get('errors')) != \
                    (counted['YES'], counted['NO'], counted['UNKNOWN'], counted['ERROR']):
                problem('summary: counts %r, results %r' % (s, counted))
        if mode == 'mcc' and tpath:
            with open(tpath) as f:
                lines = sorted(l.split()[1] + ' ' + l.split()[2] for l in f
                               if l.startswith('FORMULA') or l.startswith('STATE_SPACE'))
            got = sorted('%s %s' % (o['property'], o['verdict']) for o in results
                         if o['verdict'] != 'UNKNOWN')
            if lines != got:
                problem('mcc: answers %r, lines %r' % (got[:3], lines[:3]))
    for p in problems:
        print(p)
    if not problems:
        print('%d objects, %d runs' % (len(objs), runs))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
