#!/bin/sh
# The run's budget (base/budget.h) as -v tells it: one line with the bytes
# and seconds and where they came from (--mem/--timeout, BenchKit's
# variables, the default), then one line per part a search carves out of
# it, with the table's shares; nothing of it without -v.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp="${TMPDIR:-/tmp}/mck_budget.$$"
trap 'rm -rf "$tmp".*' EXIT INT TERM
net="$TOP/examples/pnml/mutex.pnml"
ctl="$TOP/examples/pnml/crit1-always-possible.form"

# has NAME LINE FILE: FILE has LINE as a whole line
has() {
    if grep -qxF -- "$2" "$3"; then
        echo "ok - $1: '$2'"
    else
        echo "not ok - $1: no line '$2' in: $(grep '^budget' "$3" | head -n 5 | tr '\n' '|')"
    fi
}

"$MCK" check -v --mem 64 --timeout 5 "$net" >"$tmp.out" 2>"$tmp.err"
has "check -v --mem 64 --timeout 5" "budget: 64 MiB (--mem), 5 s (--timeout)" "$tmp.err"
if [ "$(grep -c '^budget: [0-9]' "$tmp.err")" = 1 ] && head -n 1 "$tmp.err" | grep -q '^budget: 64 MiB'; then
    echo "ok - check -v: the budget once, first"
else
    echo "not ok - check -v: the budget once, first: $(head -n 3 "$tmp.err" | tr '\n' '|')"
fi
# place bounds get a twentieth of the time (at most 1 s), a quarter of it
# for one-hot groups
if grep -qE '^budget: explore.placebits: 64 MiB, 0\.2[45][0-9] s$' "$tmp.err" &&
   grep -qE '^budget: explore.onehot: 64 MiB, 0\.06[0-9] s$' "$tmp.err"; then
    echo "ok - check -v: the carves of the place bounds and the one-hot groups"
else
    echo "not ok - check -v: the bounds' carves: $(grep '^budget' "$tmp.err" | tr '\n' '|')"
fi
if grep -q '^Result: ' "$tmp.out"; then
    echo "ok - check -v: the answer as ever"
else
    echo "not ok - check -v: no result: $(head -c 200 "$tmp.out")"
fi

"$MCK" check "$net" >"$tmp.out" 2>"$tmp.err"
if grep -q '^budget' "$tmp.err" "$tmp.out"; then
    echo "not ok - check without -v tells no budget: $(grep '^budget' "$tmp.err" | head -n 1)"
else
    echo "ok - check without -v tells no budget"
fi

"$MCK" check -v "$net" >"$tmp.out" 2>"$tmp.err"
if grep -qE '^budget: [0-9.]+ MiB \(default\), no time limit$' "$tmp.err"; then
    echo "ok - check -v without limits: $(grep '^budget: [0-9]' "$tmp.err")"
else
    echo "not ok - check -v without limits: $(grep '^budget' "$tmp.err" | head -n 1)"
fi

# CTL: a third of the bytes for the markings, the rest for the model, half
# of that for the graph
"$MCK" check -v -k ctl --mem 96 "$net" "$ctl" >"$tmp.out" 2>"$tmp.err"
has "ctl --mem 96" "budget: ctl.states: 32 MiB, no time limit" "$tmp.err"
has "ctl --mem 96" "budget: ctl.model: 64 MiB, no time limit" "$tmp.err"
has "ctl --mem 96" "budget: ctl.graph: 32 MiB, no time limit" "$tmp.err"

"$MCK" properties -v --mem 30 --timeout 10 "$net" >"$tmp.out" 2>"$tmp.err"
has "properties -v" "budget: 30 MiB (--mem), 10 s (--timeout)" "$tmp.err"
# 70 % of the time for the exploration (less what passed since its clock
# started)
if grep -qE '^budget: generic.states: 10 MiB, (7|6\.9[0-9]+) s$' "$tmp.err"; then
    echo "ok - properties -v: the exploration's carve: $(grep '^budget: generic.states' "$tmp.err")"
else
    echo "not ok - properties -v: the exploration's carve: $(grep '^budget' "$tmp.err" | tr '\n' '|')"
fi

# mck mcc: BenchKit's variables, less the margin and the memory share
mkdir "$tmp.mcc" && cp "$net" "$tmp.mcc/model.pnml"
BK_TIME_CONFINEMENT=60 BK_MEMORY_CONFINEMENT=1024 "$MCK" mcc -v StateSpace "$tmp.mcc" \
    >"$tmp.out" 2>"$tmp.err"
has "mcc -v" "budget: 768 MiB (BK_MEMORY_CONFINEMENT), 59.200 s (BK_TIME_CONFINEMENT)" "$tmp.err"
BK_TIME_CONFINEMENT=soon BK_MEMORY_CONFINEMENT=lots "$MCK" mcc -v StateSpace "$tmp.mcc" \
    >"$tmp.out" 2>"$tmp.err"
has "mcc: a bad BK_TIME_CONFINEMENT is said" "mck mcc: ignoring BK_TIME_CONFINEMENT='soon'" "$tmp.err"
has "mcc: a bad BK_MEMORY_CONFINEMENT is said" "mck mcc: ignoring BK_MEMORY_CONFINEMENT='lots'" "$tmp.err"
if grep -qE '^budget: [0-9.]+ MiB \(default\), 3570 s \(default\)$' "$tmp.err" &&
   grep -q '^STATE_SPACE STATES 8 ' "$tmp.out"; then
    echo "ok - mcc with bad values: the defaults, and the answers"
else
    echo "not ok - mcc with bad values: $(grep '^budget' "$tmp.err" | head -n 1); $(head -n 1 "$tmp.out")"
fi
