#!/bin/sh
# --json (the man page's JSON section) on check, info and mcc, validated
# with Python's JSON parser by tests/lib/jsoncheck.py: every line one
# object of the documented shape; each result's verdict and run are those
# of the verdict XML of the same check (--xml: transitions, names,
# attributes, loop) and of its text output (the state and step lines in
# the model's terms), for runs of every language, lassos, deadlock ends
# and a file of several properties; bytes of names that are not UTF-8 come
# out as U+FFFD; info gives the text's sizes; mcc the answer lines'
# values with the --xml runs.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_json.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

if ! command -v python3 >/dev/null 2>&1; then
    echo "skip - --json output: python3 not installed (the tests parse it with Python's json)"
    exit 0
fi
jc="$TOP/tests/lib/jsoncheck.py"

# json_check LABEL xml|noxml ARGS...: check --json, --xml and text of the
# same check (noxml: the XML's trace is not compared; it writes '?' where
# JSON writes U+FFFD, and it keeps the run -q drops)
json_check() {
    label=$1 cmp_xml=$2
    shift 2
    "$MCK" check --json --xml "$tmp.xml" "$@" >"$tmp.json" 2>"$tmp.err"
    st_json=$?
    "$MCK" check "$@" >"$tmp.txt" 2>/dev/null
    st_text=$?
    if [ "$st_json" -ne "$st_text" ]; then
        echo "not ok - $label: exit $st_json with --json, $st_text without"
        return
    fi
    x="$tmp.xml"
    [ "$cmp_xml" = xml ] || x=-
    if out=$(python3 "$jc" check "$tmp.json" "$x" "$tmp.txt" 2>&1); then
        echo "ok - $label: $out, as the $( [ "$x" = - ] || printf "XML and the ")text (exit $st_json)"
    else
        echo "not ok - $label: $(echo "$out" | head -n 3 | tr '\n' ' ')"
        head -n 3 "$tmp.err"
    fi
}

ex="$TOP/examples"
printf '"crit1"\n' >"$tmp.crit1"
json_check "pep deadlock" xml "$ex/pep/philo4.ll_net"
json_check "pnml reach witness" xml "$ex/pnml/mutex-broken.pnml" "$ex/pnml/both-critical.form"
json_check "pnml reach NO, no run" xml "$ex/pnml/mutex.pnml" "$ex/pnml/both-critical.form"
json_check "pnml ltl lasso" xml -k ltl "$ex/pnml/mutex.pnml" "$ex/pnml/crit1-infinitely-often.form"
json_check "pnml ctl lasso" xml "$ex/pnml/mutex.pnml" "$ex/pnml/crit1-eventually.form"
json_check "cfa reach, attributes" xml "$ex/cfa/mutex_bad.cfa" "$ex/cfa/bad_mutex.f"
json_check "cfa ltl lasso" xml "$ex/cfa/dekker.cfa" "$ex/cfa/dekker_live.f"
json_check "bpn2 deadlock, what it waits at" xml "$ex/bpn2/incr-noexit.bpn2"
json_check "rers list, expected answers" xml "$ex/rers/lock.dot" "$ex/rers/lock-properties.txt"
json_check "apnn reach" xml "$ex/apnn/mutex.apnn" "$tmp.crit1"
json_check "senil reach" xml "$ex/senil/mutex.senil" "$tmp.crit1"
printf 'dl stuck:\nreach both: "crit1" & "crit2";\nctl live: AG EF "crit1";\nltl inf: G F "crit1"\n' >"$tmp.list"
json_check "a file of four kinds" xml "$ex/pnml/mutex.pnml" "$tmp.list"
printf 'dl stuck:\nltl deadlock_forever: G !"x = 2"\n' >"$tmp.bl"
json_check "bpn2 list, a run into a repeated deadlock" xml "$ex/bpn2/incr-noexit.bpn2" "$tmp.bl"
json_check "-c symbolic" xml -c symbolic "$ex/pep/philo4.ll_net"
json_check "-q: no runs" noxml -q "$ex/pnml/mutex.pnml" "$tmp.list"
if grep -q '"run":{' "$tmp.json"; then
    echo "not ok - -q: a run in the JSON"
fi

# UNKNOWN: the reason, no run
"$MCK" check --json -m 3 "$ex/pep/philo4.ll_net" >"$tmp.json" 2>/dev/null
st=$?
if [ "$st" -eq 3 ] && python3 - "$tmp.json" <<'PY'
import json, sys
o = json.loads(open(sys.argv[1]).read())
sys.exit(not (o["verdict"] == "UNKNOWN" and "state limit" in o["reason"] and o["run"] is None
              and o["statistics"]["states"] >= 3))
PY
then
    echo "ok - UNKNOWN: the reason, the statistics, no run, exit 3"
else
    echo "not ok - UNKNOWN: exit $st: $(cat "$tmp.json")"
fi

# an error: no object, the message on stderr, exit 2
"$MCK" check --json "$ex/pnml/mutex.pnml" /nonexistent.form >"$tmp.json" 2>"$tmp.err"
st=$?
if [ "$st" -eq 2 ] && [ ! -s "$tmp.json" ] && grep -q 'nonexistent.form: cannot open' "$tmp.err"; then
    echo "ok - an error: exit 2, the message on stderr, no object"
else
    echo "not ok - an error: exit $st: $(cat "$tmp.json" "$tmp.err")"
fi
# a property that cannot be checked: an ERROR object, the others go on
printf 'ctl a: AG EF "crit1";\nb: "crit1";\n' >"$tmp.err2"
"$MCK" check --json -c stubborn "$ex/pnml/mutex.pnml" "$tmp.err2" >"$tmp.json" 2>/dev/null
st=$?
if [ "$st" -eq 2 ] && python3 "$jc" check "$tmp.json" >/dev/null &&
   grep -q '"property":"a","kind":"ctl","checker":"stubborn","verdict":"ERROR","reason":"checker stubborn does not support kind ctl"' "$tmp.json" &&
   grep -q '"type":"summary".*"errors":1.*"exit_status":2' "$tmp.json"; then
    echo "ok - a property the checker refuses: an ERROR object, the summary says exit 2"
else
    echo "not ok - a property the checker refuses: exit $st: $(cat "$tmp.json")"
fi

# names that are not UTF-8 (Latin-1, an overlong '/', a byte that starts
# nothing), a tab, a backslash and a control character
printf 'PEP\nPTNet\nFORMAT_N2\nPL\n1"caf\351\tq\\\\x"M1\n2"\342\202\254-ok"\n3"bad\300\257\001"\nTR\n1"t\3771"\n2"t2"\nTP\n1<2\n2<3\nPT\n1>1\n2>2\n' >"$tmp.ll_net"
json_check "names that are not UTF-8" noxml "$tmp.ll_net"
if python3 - "$tmp.json" <<'PY'
import json, sys
o = json.loads(open(sys.argv[1], encoding="utf-8").read())
r = o["run"]
ok = (r["initial_state"] == "caf\ufffd\tq\\\\x" and r["steps"][0]["name"] == "t\ufffd1"
      and r["final_state"] == "bad\ufffd\ufffd\x01")
sys.exit(not ok)
PY
then
    echo "ok - not UTF-8: each bad byte one U+FFFD, controls escaped, valid bytes kept"
else
    echo "not ok - not UTF-8: $(cat "$tmp.json")"
fi
"$MCK" info --json -v "$tmp.ll_net" >"$tmp.json" 2>/dev/null
if python3 -c 'import json,sys; o=json.load(open(sys.argv[1],encoding="utf-8")); sys.exit(o["nodes"]["places"][1]["name"] != "\u20ac-ok")' "$tmp.json"; then
    echo "ok - info -v: valid UTF-8 names pass unchanged"
else
    echo "not ok - info -v: $(cat "$tmp.json")"
fi

# info: the text's facts
for m in "$ex/pnml/mutex.pnml" "$ex/pep/philo4.ll_net" "$ex/cfa/dekker.cfa" "$ex/apnn/mutex.apnn" \
         "$ex/bpn2/prodcons.bpn2" "$ex/rers/lock.dot"; do
    "$MCK" info --json "$m" >"$tmp.json" 2>/dev/null
    "$MCK" info "$m" >"$tmp.txt" 2>/dev/null
    if out=$(python3 "$jc" info "$tmp.json" "$tmp.txt" 2>&1); then
        echo "ok - info --json $(basename "$m"): the text's sizes"
    else
        echo "not ok - info --json $(basename "$m"): $out"
    fi
done

# mcc: the answer lines' values, the --xml runs
if [ ! -d "$SHARED/mcc" ]; then
    echo "skip - mcc --json: no MCC instances in $SHARED/mcc"
    exit 0
fi
mcc_json() {
    inst=$1 exam=$2 dir="$SHARED/mcc/$1"
    [ -f "$dir/model.pnml" ] || { echo "skip - mcc --json $inst: not in $SHARED/mcc"; return; }
    BK_TIME_CONFINEMENT=30 "$MCK" mcc --json --xml "$tmp.xml" "$exam" "$dir" >"$tmp.json" 2>/dev/null
    BK_TIME_CONFINEMENT=30 "$MCK" mcc "$exam" "$dir" >"$tmp.txt" 2>/dev/null
    if out=$(python3 "$jc" mcc "$tmp.json" "$tmp.xml" "$tmp.txt" 2>&1); then
        echo "ok - mcc --json $inst $exam: $out, the lines' values, the XML's runs"
    else
        echo "not ok - mcc --json $inst $exam: $(echo "$out" | head -n 3 | tr '\n' ' ')"
    fi
}
mcc_json ERK-PT-000001 ReachabilityCardinality
mcc_json ERK-PT-000001 StateSpace
mcc_json ShieldRVs-PT-001A LTLFireability
mcc_json ShieldRVs-PT-001A CTLFireability
mcc_json Eratosthenes-PT-010 ReachabilityDeadlock
# values left open: UNKNOWN objects with the reason, once each
dir="$SHARED/mcc/SwimmingPool-PT-03"
if [ -f "$dir/model.pnml" ]; then
    BK_TIME_CONFINEMENT=3 "$MCK" mcc --json CTLCardinality "$dir" >"$tmp.json" 2>/dev/null
    if python3 - "$tmp.json" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
ids = [o["property"] for o in objs]
unknown = [o for o in objs if o["verdict"] == "UNKNOWN"]
ok = (len(objs) == 16 and len(set(ids)) == 16 and unknown
      and all(o["reason"] and o["run"] is None for o in unknown))
sys.exit(not ok)
PY
    then
        echo "ok - mcc --json with 3 s: the open values as UNKNOWN with the reason, 16 ids once each"
    else
        echo "not ok - mcc --json with 3 s: $(head -c 600 "$tmp.json")"
    fi
fi
