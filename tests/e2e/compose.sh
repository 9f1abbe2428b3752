#!/bin/sh
# The compose checker (checkers/compose, docs/compose.md) through mck
# check: its row in mck list, the answers of the RERS example beside the
# explicit checker's and the file's, -v's statistics per step, the
# refusals (place atoms, kinds other than ltl), and the limits (-m,
# --timeout, SIGINT) ending in UNKNOWN with the reason and exit status 3.
# Its answers on the published RERS problems and on random systems are
# tested by tests/unit/test_rers.c and tests/unit/test_compose.c.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mck_compose.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if "$MCK" list | grep -q '^  compose *kinds ltl '; then
    echo "ok - compose: a row of mck list, kind ltl"
else
    echo "not ok - compose: no row 'compose kinds ltl' in mck list"
fi

lock="$TOP/examples/rers/lock.dot" props="$TOP/examples/rers/lock-properties.txt"
"$MCK" check -c compose -q "$lock" "$props" >"$tmp/c.out" 2>&1; rc=$?
"$MCK" check -c explicit -q "$lock" "$props" >"$tmp/e.out" 2>&1; erc=$?
if [ "$rc" -eq "$erc" ] && grep -q '^Properties: 5 checked, 0 unknown; of 5 with an expected answer, 5 agree, 0 disagree$' "$tmp/c.out" &&
   [ "$(grep '^Property' "$tmp/c.out")" = "$(grep '^Property' "$tmp/e.out")" ]; then
    echo "ok - compose: examples/rers/lock answered as the file and the explicit checker say"
else
    echo "not ok - compose: examples/rers/lock (exit $rc): $(grep -v '^Time' "$tmp/c.out" | tr '\n' ' ')"
fi

# -v: the budget's carve, each component and each product with its sizes
p105="$SHARED/rers/rers2016/problem105.dot"
if [ -f "$p105" ]; then
    sed -n 1,2p "$SHARED/rers/rers2016/problem105-properties-with-solution.txt" >"$tmp/one.txt"
    "$MCK" check -c compose -v "$p105" "$tmp/one.txt" >"$tmp/v.out" 2>"$tmp/v.err"
    if grep -q '^budget: compose.parts: ' "$tmp/v.err" &&
       grep -q '^compose: 5 components from units, 59 actions' "$tmp/v.err" &&
       [ "$(grep -c '^compose: component component[0-4]: [0-9]* states; minimised [0-9]* states' "$tmp/v.err")" -eq 5 ] &&
       grep -q '^compose: the formula: [0-9]* product states' "$tmp/v.err" &&
       grep -q '^net: 5 components' "$tmp/v.err"; then
        echo "ok - compose -v: the carve, the components before and after minimising, the formula's search"
    else
        echo "not ok - compose -v on problem105 #1: $(head -c 1500 "$tmp/v.err")"
    fi
else
    echo "skip - compose -v: $p105 absent"
fi

# refusals: a place atom, and kinds other than ltl
"$MCK" check -c compose "$TOP/examples/pnml/mutex.pnml" "$TOP/examples/pnml/crit1-infinitely-often.form" \
    >"$tmp/r.out" 2>"$tmp/r.err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q 'crit1-infinitely-often.form: compose checker: ltl whose propositions are all actions' "$tmp/r.err"; then
    echo "ok - compose: a formula over places is refused with the reason (exit 2)"
else
    echo "not ok - compose: a formula over places (exit $rc): $(cat "$tmp/r.err")"
fi
"$MCK" check -c compose "$lock" >"$tmp/k.out" 2>"$tmp/k.err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q 'checker compose does not support kind dl' "$tmp/k.err"; then
    echo "ok - compose: deadlock checks are refused (exit 2)"
else
    echo "not ok - compose: dl (exit $rc): $(cat "$tmp/k.err")"
fi

# limits on a system too big to finish: UNKNOWN with the reason, exit 3
p109="$SHARED/rers/rers2017/problem109.dot"
if [ -f "$p109" ]; then
    sed -n 1,2p "$SHARED/rers/rers2017/problem109-properties.txt" >"$tmp/p109.txt"
    for limit in "-m 1000:state limit reached" "--timeout 1:time limit reached" "--mem 16:memory budget exhausted"; do
        opt=${limit%%:*} reason=${limit#*:}
        # shellcheck disable=SC2086
        "$MCK" check -c compose -q $opt "$p109" "$tmp/p109.txt" >"$tmp/l.out" 2>&1; rc=$?
        if [ "$rc" -eq 3 ] && grep -q "^Property #1: Result: UNKNOWN ($reason)\.$" "$tmp/l.out"; then
            echo "ok - compose $opt on problem109 (2017): UNKNOWN ($reason), exit 3"
        else
            echo "not ok - compose $opt on problem109 (exit $rc): $(head -n 3 "$tmp/l.out" | tr '\n' ' ')"
        fi
    done
    "$MCK" check -c compose "$p109" "$tmp/p109.txt" >"$tmp/i.out" 2>&1 &
    pid=$!
    sleep 2
    kill -INT "$pid" 2>/dev/null
    wait "$pid"; rc=$?
    if [ "$rc" -eq 3 ] && grep -q '^Property #1: Result: UNKNOWN (interrupted)\.$' "$tmp/i.out"; then
        echo "ok - compose: SIGINT ends in UNKNOWN (interrupted), exit 3"
    else
        echo "not ok - compose: SIGINT (exit $rc): $(head -n 3 "$tmp/i.out" | tr '\n' ' ')"
    fi
else
    echo "skip - compose limits: $p109 absent"
fi
