#!/bin/sh
# CTL evidence in the model's terms (docs/mck.1, CTL SEMANTICS): a nested
# obligation gets a run in parts, each marked "*** from here: F holds ***"
# (or fails) where it starts -- for AG (p -> AF q) failing, the path to a
# p-state, then the lasso that avoids q -- and the verdict XML holds the
# whole run, which replays.  The heading follows the answer: a YES is
# witnessed, a NO has a counterexample, negations and all.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
cfa="$TOP/examples/cfa"
pnml="$TOP/examples/pnml"
tmp="${TMPDIR:-/tmp}/mck_ctlev.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

ok() { echo "ok - ctl evidence: $1"; }
bad() { echo "not ok - ctl evidence: $1"; sed 's/^/# /' "$tmp.out"; }

# check MODEL FORMULA [ARGS...]: stdout in $tmp.out, status in $rc
check() {
    model=$1 formula=$2
    shift 2
    printf '%s\n' "$formula" >"$tmp.f"
    "$MCK" check "$@" "$model" "$tmp.f" >"$tmp.out" 2>"$tmp.err"
    rc=$?
}

# The number of the first line of $tmp.out that is exactly $1 (0: none).
lineno() {
    n=$(grep -n -x -F -e "$1" "$tmp.out" | head -n 1 | cut -d: -f1)
    echo "${n:-0}"
}

# ---- Dekker: process 1 may wait forever (no fairness) ----
check "$cfa/dekker.cfa" 'AG ("proc1.want" -> AF "proc1.crit")' --xml "$tmp.xml"
first=$(lineno '*** from here: AG ("proc1.want" -> AF "proc1.crit") fails ***')
second=$(lineno '*** from here: AF "proc1.crit" fails ***')
loop=$(lineno '*** loop starts here ***')
loopend=$(lineno '*** loop ends here ***')
if [ "$rc" -eq 1 ] && [ "$(sed -n 2p "$tmp.out")" = "Counterexample:" ] &&
   [ "$first" -eq 4 ] && [ "$second" -gt "$first" ] && [ "$loop" -gt "$second" ] &&
   [ "$loopend" -gt "$loop" ]; then
    ok "dekker AG (want -> AF crit): NO, the path, then from where AF fails the lasso"
else
    bad "dekker AG (want -> AF crit): NO, the path, then from where AF fails the lasso"
fi
# --json carries the same parts: where each starts, in steps, and what it shows
"$MCK" check --json "$cfa/dekker.cfa" "$tmp.f" >"$tmp.json" 2>/dev/null
steps_before=$(sed -n "4,${second}p" "$tmp.out" | grep -c '^proc[12]: ')
if python3 - "$tmp.json" "$steps_before" <<'PY'
import json, sys
run = json.loads(open(sys.argv[1]).readline())["run"]
seg = run["segments"]
want = [(0, 'AG ("proc1.want" -> AF "proc1.crit")', False),
        (int(sys.argv[2]), 'AF "proc1.crit"', False)]
sys.exit(0 if [(s["start"], s["formula"], s["holds"]) for s in seg] == want else 1)
PY
then
    ok "dekker --json: the run's segments start where the text's markers stand"
else
    bad "dekker --json: segments $(cat "$tmp.json")"
fi
# the path ends with process 1 wanting; from there on it never enters
before=$(sed -n "$((second - 1))p" "$tmp.out")
after=$(sed -n "$((second + 1)),${loopend}p" "$tmp.out")
if printf '%s\n' "$before" | grep -q '^proc1: .*\] want$' &&
   ! printf '%s\n' "$after" | grep -q '^proc1: .*\] crit$' &&
   printf '%s\n' "$after" | grep -q '^proc2: '; then
    ok "dekker: the first part ends with proc1 wanting, the second never lets it in"
else
    bad "dekker: the first part ends with proc1 wanting, the second never lets it in"
fi
# the verdict XML's trace is the one run, both parts, and it replays
printed=$(grep -c '^proc[12]: ' "$tmp.out")
traced=$(grep -c '<step ' "$tmp.xml" 2>/dev/null)
"$MCK" simulate --run "$tmp.xml" "$cfa/dekker.cfa" >"$tmp.sim" 2>&1
sim=$?
if [ "$printed" -gt 0 ] && [ "$printed" = "$traced" ] && grep -q '<loop/>' "$tmp.xml" &&
   [ "$sim" -eq 0 ] && grep -q "^Replayed: $printed steps" "$tmp.sim"; then
    ok "dekker: the verdict trace holds both parts ($traced steps) and replays"
else
    bad "dekker: the verdict trace holds both parts ($printed printed, $traced traced, simulate $sim)"
fi

# ---- the same obligation on a PNML net, in its transitions' names ----
check "$pnml/mutex.pnml" 'AG ("wait1" -> AF "crit1")'
second=$(lineno '*** from here: AF "crit1" fails ***')
loopend=$(lineno '*** loop ends here ***')
if [ "$rc" -eq 1 ] && [ "$second" -gt 0 ] && [ "$loopend" -gt "$second" ] &&
   [ "$(sed -n "$((second - 1))p" "$tmp.out")" = "ask1" ] &&
   ! sed -n "$second,${loopend}p" "$tmp.out" | grep -q -x 'enter1'; then
    ok "pnml mutex AG (wait1 -> AF crit1): ask1, then a loop without enter1"
else
    bad "pnml mutex AG (wait1 -> AF crit1): ask1, then a loop without enter1"
fi
check "$pnml/mutex.pnml" 'EF ("wait1" & EG !"crit1")'
second=$(lineno '*** from here: EG !"crit1" holds ***')
if [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$tmp.out")" = "Witness:" ] && [ "$second" -gt 0 ] &&
   [ "$(lineno '*** loop starts here ***')" -gt "$second" ]; then
    ok "pnml mutex EF (wait1 & EG !crit1): YES, the path, then the loop where EG holds"
else
    bad "pnml mutex EF (wait1 & EG !crit1): YES, the path, then the loop where EG holds"
fi

# ---- headings: model | formula | status | heading ("-": no run) | parts ----
while IFS="|" read -r file formula want heading parts; do
    check "$TOP/examples/$file" "$formula"
    got=$(sed -n 2p "$tmp.out")
    marks=$(grep -c '^\*\*\* from here: ' "$tmp.out")
    case "$heading" in
        -) has=$(grep -c -x -e 'Witness:' -e 'Counterexample:' "$tmp.out")
           good=$([ "$has" -eq 0 ] && echo 1) ;;
        *) good=$([ "$got" = "$heading" ] && echo 1) ;;
    esac
    if [ "$rc" -eq "$want" ] && [ "$good" = 1 ] && [ "$marks" -eq "$parts" ]; then
        ok "$file $formula: status $want, $([ "$heading" = - ] && echo 'no run' || echo "$heading") $parts marked parts"
    else
        bad "$file $formula: status $want (got $rc), '$heading' (got '$got'), $parts marked parts (got $marks)"
    fi
done <<'TABLE'
cfa/dekker.cfa|AG !("cs1" & "cs2")|0|-|0
cfa/dekker.cfa|AG EF ("proc1.idle" & "proc2.idle")|0|-|0
cfa/mutex_bad.cfa|AG !("cs1" & "cs2")|1|Counterexample:|0
cfa/mutex_bad.cfa|EF ("cs1" & "cs2")|0|Witness:|0
cfa/mutex_bad.cfa|!EF ("cs1" & "cs2")|1|Counterexample:|0
cfa/mutex_bad.cfa|!AG !("cs1" & "cs2")|0|Witness:|0
cfa/dekker.cfa|EF ("proc1.want" & EG !"proc1.crit")|0|Witness:|2
cfa/dekker.cfa|!EF ("proc1.want" & EG !"proc1.crit")|1|Counterexample:|2
cfa/dekker.cfa|!AG ("proc1.want" -> AF "proc1.crit")|0|Witness:|2
cfa/peterson.cfa|AG ("proc1.wait" -> AF "cs1")|0|-|0
TABLE

# ---- no room for the graph: the local check answers, with its own runs ----
kanban="${SHARED:-$TOP/../shared}/mcc/Kanban-PT-00010/model.pnml"
if [ -f "$kanban" ]; then
    printf '%s\n' 'ef: EF ("Pout3" >= 3 && "Pout2" >= 2);' 'eg: EG ("P3" >= 1);' \
        'ag: AG ("Pout1" <= 8);' >"$tmp.k"
    "$MCK" check -v --mem 8 --xml "$tmp.kx" "$kanban" "$tmp.k" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    local_used=$(grep -c "budget: ctl.local.states" "$tmp.err")
    n=0 replayed=0
    for id in ef eg ag; do
        python3 - "$tmp.kx" "$id" "$tmp.one.xml" <<'PY' || continue
import copy, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
for v in root.iter('verdict'):
    if v.get('reference') == sys.argv[2]:
        break
else:
    v = None
if v is None or v.find('trace') is None:
    sys.exit(1)
one = ET.Element(root.tag, root.attrib)
for c in root:
    if c.tag != 'verdict':
        one.append(copy.deepcopy(c))
one.append(copy.deepcopy(v))
ET.ElementTree(one).write(sys.argv[3])
PY
        n=$((n + 1))
        "$MCK" simulate --run "$tmp.one.xml" "$kanban" >"$tmp.sim" 2>&1 &&
            grep -q '^Replayed: ' "$tmp.sim" && replayed=$((replayed + 1))
    done
    loops=$(grep -c '^\*\*\* loop starts here \*\*\*$' "$tmp.out")
    if [ "$rc" -eq 1 ] && [ "$local_used" -ge 1 ] && [ "$n" -eq 3 ] && [ "$replayed" -eq 3 ] &&
       [ "$loops" -eq 1 ] && grep -q "^Property ag: Result: NO.$" "$tmp.out"; then
        ok "Kanban-10 in 8 MiB: the local check's runs for EF, EG (a lasso) and AG replay"
    else
        bad "Kanban-10 in 8 MiB: status $rc, local $local_used, $replayed of $n traces replay, $loops loops"
    fi
else
    echo "skip - ctl evidence: Kanban-PT-00010 not in the shared data"
fi
