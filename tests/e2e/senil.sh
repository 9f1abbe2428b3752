#!/bin/sh
# SENIL (kit-overview.md §5): the examples of §5.6 give the answers §5.6
# states, with every kind of the explicit checker, and each malformed file
# of §5.5 is refused with exactly one "FILE:LINE: text" and exit status 2.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/senil"
ex="$TOP/examples/senil"
tmp="${TMPDIR:-/tmp}/mck_senil.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM
. "$TOP/tests/lib/one_error.sh"

# fixture (tests/data/senil/bad_NAME.senil) | line | expected text
while IFS='|' read -r name line text; do
    expect_one_error "senil" "$name" "$data/bad_$name.senil" "$data/bad_$name.senil:$line: " "$text"
done <<'TABLE'
header|1|a SENIL file starts with the line 'SENIL'
empty_file|2|a SENIL file starts with the line 'SENIL'
nosection|2|a line before the first section keyword
keyword|4|unknown keyword '@transitions'
keyword_text|2|text after the section keyword @trans
empty_element|3|a name is missing in the list
no_arrow|3|'->' expected after the list
no_middle|3|the middle name is missing
two_middle|3|a second name in the middle
place_labels|3|labels are allowed on @trans lines only
brace|3|'}' expected after the labels
kind|6|'r' is used as a place and as a transition
marking_transition|5|'start' is not a place of the net
marking_unknown|3|'ghost' is not a place of the net
partition_twice|6|'b' is in two @partition blocks
char|3|illegal character '$'
TABLE

# check FILE ARGS... : runs mck, stdout in $tmp.out, status in $rc
run() { "$MCK" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?; }
expect() {   # NAME STATUS FIRST-LINE
    if [ "$rc" -eq "$2" ] && [ "$(head -n 1 "$tmp.out")" = "$3" ]; then
        echo "ok - senil $1"
    else
        echo "not ok - senil $1: status $rc, '$(head -n 1 "$tmp.out")'"
    fi
}

for net in mutex mutex-by-places; do
    run info "$ex/$net.senil"
    if grep -q "^places: 5$" "$tmp.out" && grep -q "^transitions: 4$" "$tmp.out" &&
       grep -q "^arcs: 12 " "$tmp.out"; then
        echo "ok - senil $net: 5 places, 4 transitions, 12 arcs"
    else
        echo "not ok - senil $net: sizes differ from §5.6"
    fi
    run check -v "$ex/$net.senil"
    if [ "$rc" -eq 1 ] && grep -q "^states: 3$" "$tmp.err"; then
        echo "ok - senil $net dl: NO after 3 reachable markings"
    else
        echo "not ok - senil $net dl: status $rc"
    fi
    run senil:explicit-reach "$ex/$net.senil" "$ex/both-critical.form"
    expect "$net reach crit1 & crit2" 1 "Result: NO."
    run senil:explicit-ctl "$ex/$net.senil" "$ex/free-again.form"
    expect "$net ctl AG EF free" 0 "Result: YES."
done
printf 'G F "free"\n' >"$tmp.ltl"
run senil:explicit-ltl "$ex/mutex.senil" "$tmp.ltl"
expect "mutex ltl G F free" 0 "Result: YES."
printf 'G F "crit1"\n' >"$tmp.ltl"
run senil:explicit-ltl "$ex/mutex.senil" "$tmp.ltl"
if [ "$rc" -eq 1 ] && grep -q "^\*\*\* loop starts here \*\*\*$" "$tmp.out"; then
    echo "ok - senil mutex ltl G F crit1: NO with a lasso"
else
    echo "not ok - senil mutex ltl G F crit1: status $rc"
fi

# job.senil: the witness exactly as §5.6 prints it
run check senil:explicit-dl "$ex/job.senil"
printf 'Result: YES.\nWitness:\n*** initial state: ready ***\nstart\nfinish\n*** final state: (empty) ***\n' >"$tmp.want"
if [ "$rc" -eq 0 ] && head -n 6 "$tmp.out" | cmp -s - "$tmp.want"; then
    echo "ok - senil job dl: the witness of §5.6"
else
    echo "not ok - senil job dl: status $rc, output differs from §5.6"
fi
run info "$ex/job.senil"
grep -q "^arcs: 3 " "$tmp.out" && echo "ok - senil job: 3 arcs (the repeated one once)" ||
    echo "not ok - senil job: arcs differ from §5.6"
exit 0
