#!/bin/sh
# APNN (apnn-format.md): the two worked examples of §6 read with the counts
# and answers §6 states, the accepted syntax of §2-§3 (features.apnn: CRLF,
# \inputnet, layout, forward references, merged arcs, a capacity), and each
# error of §4-§5 is refused with exactly one "FILE:LINE: text" and status 2.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/apnn"
ex="$TOP/examples/apnn"
tmp="${TMPDIR:-/tmp}/mck_apnn.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM
. "$TOP/tests/lib/one_error.sh"

# fixture (tests/data/apnn/bad_NAME.apnn) | line | expected text
while IFS='|' read -r name line text; do
    expect_one_error "apnn" "$name" "$data/bad_$name.apnn" "$data/bad_$name.apnn:$line: " "$text"
done <<'TABLE'
empty_file|1|missing \beginnet
no_beginnet|2|missing \beginnet
no_endnet|3|missing \endnet
unclosed|2|a group opened here is not closed
unclosed_name|2|a group opened here is not closed
dup_place|3|identifier p is declared twice
dup_kind|3|identifier p is declared twice (as a place and as a transition)
no_from|4|arc a1 has no \from
no_to|4|arc a1 has no \to
unknown_end|4|arc a1: unknown identifier u in \to
two_places|4|arc a1 connects two places
two_transitions|4|arc a1 connects two transitions
weight0|4|\weight{0} in arc a1
negative|2|negative number in \init of place p
nonnumeric|2|\init of place p is not an unsigned integer: 'N+1'
huge|2|\init of place p is larger than 9223372036854775807
arc_expression|4|coloured APNN is not supported
const|2|coloured APNN is not supported (\const)
guard|3|coloured APNN is not supported (\guard in transition t)
priority|3|priorities are not supported
arc_type|4|unsupported arc type 'inhibitor' in arc a1
nested|3|hierarchical APNN is not supported
dup_attr|2|duplicate \init in place p1
unknown_attr|3|unknown attribute \size in place q
unknown_cmd|3|unknown command \foo in net n
stray_text|3|unexpected text 'place'
after_end|4|text after \endnet
over_capacity|2|place p starts with 3 tokens, above its \capacity{2}
cap_clash|7|cannot add the capacity place s~cap: duplicate id
dup_arc_id|5|arc identifier a is declared twice
TABLE

run() { "$MCK" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?; }
expect() {   # NAME STATUS FIRST-LINE
    if [ "$rc" -eq "$2" ] && [ "$(head -n 1 "$tmp.out")" = "$3" ]; then
        echo "ok - apnn $1"
    else
        echo "not ok - apnn $1: status $rc, '$(head -n 1 "$tmp.out")'"
    fi
}
# sizes NAME FILE-COUNTS(P T A) INFO-COUNTS(P T A): what the file declares
# (the reader's -v line) and what mck info shows (with capacity places)
sizes() {
    run info -v "$ex/$1.apnn"
    if grep -q "^places: $5$" "$tmp.out" && grep -q "^transitions: $6$" "$tmp.out" &&
       grep -q "^arcs: $7 " "$tmp.out" &&
       grep -q ": $2 places, $3 transitions, $4 arcs in the file; $(($5 - $2)) capacity $(
           [ $(($5 - $2)) -eq 1 ] && echo place || echo places) added$" "$tmp.err"; then
        echo "ok - apnn $1: $2 places, $3 transitions, $4 arcs (net: $5, $6, $7)"
    else
        echo "not ok - apnn $1: sizes differ: $(grep -E '^(places|transitions|arcs)' "$tmp.out" |
              tr '\n' ' ') $(cat "$tmp.err")"
    fi
}
states() {   # NAME COUNT STATUS: the dl check's reachable markings and answer
    run check -v -k dl "$ex/$1.apnn"
    if [ "$rc" -eq "$3" ] && grep -q "^states: $2$" "$tmp.err"; then
        echo "ok - apnn $1 dl: status $3 after $2 reachable markings"
    else
        echo "not ok - apnn $1 dl: status $rc, $(grep '^states' "$tmp.err")"
    fi
}

# §6.1: 5 places (+ sem~cap for \capacity{1}), 4 transitions, 12 arcs
# (+ one complement arc for each of the 4 transitions that move sem)
sizes mutex 5 4 12 6 4 16
states mutex 3 1
run apnn:explicit-reach "$ex/mutex.apnn" "$ex/both-critical.form"
expect "mutex reach crit1 & crit2" 1 "Result: NO."
run apnn:explicit-reach "$ex/mutex.apnn" "$ex/sem-overfull.form"
expect "mutex reach sem >= 2" 1 "Result: NO."
run apnn:explicit-ctl "$ex/mutex.apnn" "$ex/sem-again.form"
expect "mutex ctl AG EF sem" 0 "Result: YES."
run info -v "$ex/mutex.apnn"
if grep -q '^transition e1 "enter1"$' "$tmp.out" && grep -q '^place s "sem" tokens 1$' "$tmp.out"
then echo "ok - apnn mutex: ids with their names"; else echo "not ok - apnn mutex: names"; fi

# §6.2: deadlock after A_takes_f1, B_takes_f2, as transition names
sizes forks 8 6 20 8 6 20
states forks 6 0
run check apnn:explicit-dl "$ex/forks.apnn"
printf 'Result: YES.\nWitness:\n*** initial state: f1, f2, a0, b0 ***\nA_takes_f1\nB_takes_f2\n*** final state: a1, b1 ***\n' >"$tmp.want"
if [ "$rc" -eq 0 ] && head -n 6 "$tmp.out" | cmp -s - "$tmp.want"; then
    echo "ok - apnn forks dl: the run of §6.2"
else
    echo "not ok - apnn forks dl: status $rc"; cat "$tmp.out"
fi

# features.apnn: the capacity 3 bounds buf (4 markings, not unbounded);
# a self-loop at the capacity stays enabled (the weak semantics of §5);
# the capacity place is never shown; "look" names two transitions, so both
# are shown by their ids; a5 adds its weight to a2 (drain takes 3).
sizes features 1 4 7 2 4 8
states features 4 1
printf '"buffer" >= 4\n' >"$tmp.f"
run check "$ex/features.apnn" "$tmp.f"
expect "features: the capacity bounds buffer" 1 "Result: NO."
printf 'fireable("touch") & "buffer" >= 3\n' >"$tmp.f"
run check "$ex/features.apnn" "$tmp.f"
printf '*** initial state: (empty) ***\nfill\nfill\nfill\n*** final state: buffer(3) ***\n' >"$tmp.want"
if [ "$rc" -eq 0 ] && sed -n '3,7p' "$tmp.out" | cmp -s - "$tmp.want"; then
    echo "ok - apnn features: a self-loop is enabled at the capacity; capacity place hidden"
else
    echo "not ok - apnn features: self-loop at capacity: status $rc"; cat "$tmp.out"
fi
printf 'fireable("drain")\n' >"$tmp.f"
run check -v "$ex/features.apnn" "$tmp.f"
if [ "$rc" -eq 0 ] && [ "$(grep -c '^fill$' "$tmp.out")" -eq 3 ] &&
   grep -q 'warning: arc a5 repeats an arc from buf to drain: weights added' "$tmp.err"; then
    echo "ok - apnn features: duplicate arcs add their weights, with a warning"
else
    echo "not ok - apnn features: merged arcs: status $rc"
fi
run info -v "$ex/features.apnn"
if grep -q '^transition touch$' "$tmp.out" && grep -q '^transition peek$' "$tmp.out" &&
   grep -q '^place buf "buffer"$' "$tmp.out" && grep -q '^net: features$' "$tmp.out"; then
    echo "ok - apnn features: ambiguous names fall back to ids"
else
    echo "not ok - apnn features: names"
fi
