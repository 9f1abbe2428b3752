#!/bin/sh
# Reading a CFA model takes time linear in its size (issue #40): 40 000
# automaton states took 8.9 s, since every state name was compared with
# every earlier one, and a model of many variables cleared an array over
# all of them for each transition.  Here 200 000 states (each labelled,
# every label given twice) and 50 000 variables each touched by its own
# transition must read within a few CPU seconds: quadratic reading would
# take minutes.  The models are generated with awk.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp="${TMPDIR:-/tmp}/mck_cfa_large.$$"
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
LIMIT=10
if grep -q 'fsanitize=address' "$TOP/config.mk" 2>/dev/null; then
    LIMIT=60
fi

if [ ! -x "$MCK" ]; then
    echo "skip - cfa_large: no mck binary at $MCK"
    exit 0
fi

# expect NAME TEXT COMMAND...: COMMAND prints TEXT within LIMIT CPU
# seconds (POSIX 'times', whose second line is the children's time).
expect() {
    name=$1 text=$2
    shift 2
    times >"$tmp/times0"
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    times >"$tmp/times1"
    secs=$(cat "$tmp/times0" "$tmp/times1" | awk '
        NR == 2 || NR == 4 { split($1, u, /[ms]/); split($2, s, /[ms]/);
                             t[NR] = u[1] * 60 + u[2] + s[1] * 60 + s[2] }
        END { printf "%.1f\n", t[4] - t[2] }')
    if ! grep -qF -- "$text" "$tmp/out"; then
        notes=$(head -c 300 "$tmp/err")
        echo "not ok - $name: exit $rc, no '$text': $notes"
    elif awk -v s="$secs" -v l="$LIMIT" 'BEGIN { exit !(s > l) }'; then
        echo "not ok - $name: $secs s of CPU, more than $LIMIT"
    else
        echo "ok - $name ($secs s of CPU)"
    fi
}

awk -v n=200000 'BEGIN {
    print "CFA"; print "@global"; print "var x: {0..1} init 0;"
    print "@automaton a"; print "@start s0;"
    for (i = 0; i < n; i++) {
        printf "s%d -> s%d : x'"'"' = 1 - '"'"'x;\n", i, (i + 1) % n
        printf "@label s%d : even;\n", i - i % 2
    }
}' >"$tmp/ring.cfa"
expect "a ring of 200000 states reads" "places: 200002" "$MCK" info "$tmp/ring.cfa"
printf '"even"\n' >"$tmp/even.f"
expect "its label on 100000 states (each given twice) is one proposition" "Result: YES." \
    "$MCK" check "$tmp/ring.cfa" "$tmp/even.f"

awk -v n=50000 'BEGIN {
    print "CFA"; print "@global"
    for (i = 0; i < n; i++) printf "var v%d: {0..1} init 0;\n", i
    print "@automaton a"; print "@start s;"
    for (i = 0; i < n; i++) printf "s -> s : v%d'"'"' = 1 - '"'"'v%d;\n", i, i
}' >"$tmp/vars.cfa"
expect "50000 variables, each flipped by its own transition, read" "transitions: 100000" \
    "$MCK" info "$tmp/vars.cfa"
exit 0
