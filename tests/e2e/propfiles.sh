#!/bin/sh
# Property files of several properties with mck check (formula-syntax.md
# §8): a Kit file of named formulas of all four kinds, in five languages,
# gives for each formula exactly the block (answer and run) the formula
# gives alone; the exit status is the worst case (error > unknown > NO >
# YES); errors name the file, line and formula; --xml names each verdict
# after its formula.  And MCC property XML: on shared contest instances
# every property of a file gets the answer `mck mcc` gives it (16 of 16),
# for reachability, CTL and LTL files.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_propfiles.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

# The block of property NAME in a list's output, without its time line.
block() {
    awk -v name="$2" '
        /^Property / { on = index($0, "Property " name ": ") == 1
                       if (on) sub("^Property " name ": ", "") }
        /^Properties: / { on = 0 }
        on && !/^Time needed/ { print }' "$1"
}

# agree LABEL MODEL ENTRIES: ENTRIES holds lines "KIND NAME FORMULA"; the
# named file of all of them is checked once, and each block must be the
# output of the formula alone (dl: no property file) with -k KIND.
agree() {
    label=$1 model=$2 entries=$3
    : >"$tmp.list"
    printf '%s\n' "$entries" | while read -r kind name formula; do
        [ -n "$kind" ] || continue
        if [ "$kind" = dl ]; then
            printf 'dl %s:\n' "$name" >>"$tmp.list"
        else
            printf '%s %s: %s;\n' "$kind" "$name" "$formula" >>"$tmp.list"
        fi
    done
    "$MCK" check "$model" "$tmp.list" >"$tmp.out" 2>"$tmp.err"
    st=$?
    worst=0 bad="" n=0
    while read -r kind name formula; do
        [ -n "$kind" ] || continue
        n=$((n + 1))
        if [ "$kind" = dl ]; then
            "$MCK" check "$model" >"$tmp.alone" 2>&1
        else
            printf '%s\n' "$formula" >"$tmp.one"
            "$MCK" check -k "$kind" "$model" "$tmp.one" >"$tmp.alone" 2>&1
        fi
        one=$?
        case "$worst:$one" in
            *:2|0:*|1:3) worst=$one ;;
        esac
        grep -v '^Time needed' "$tmp.alone" >"$tmp.want"
        block "$tmp.out" "$name" >"$tmp.got"
        cmp -s "$tmp.want" "$tmp.got" || bad="$bad $name"
    done <<EOF
$entries
EOF
    summary=$(grep -c '^Properties: '"$n"' checked' "$tmp.out")
    if [ -z "$bad" ] && [ "$st" -eq "$worst" ] && [ "$summary" -eq 1 ]; then
        echo "ok - $label: $n named formulas, each as alone, exit $st (the worst)"
    else
        echo "not ok - $label: differ:$bad; exit $st, worst $worst, summary $summary"
        head -n 5 "$tmp.err"
    fi
}

agree "pnml mutex" "$TOP/examples/pnml/mutex.pnml" '
dl stuck
reach both "crit1" & "crit2"
ctl live AG EF "crit1"
ltl inf G F "crit1"
ltl first "idle1"'

agree "cfa dekker" "$TOP/examples/cfa/dekker.cfa" '
dl stuck
reach mutex "proc1.crit" & "proc2.crit"
ctl home AG EF ("proc1.idle" & "proc2.idle")
ltl live G ("proc1.want" -> F "proc1.crit")'

agree "bpn2 incr" "$TOP/examples/bpn2/incr.bpn2" '
dl stuck
reach x2at5 "x = 2" & "at 5"
ctl three AF "x = 3"
ltl ends F G fireable("terminated")'

agree "pep philo4" "$TOP/examples/pep/philo4.ll_net" '
dl stuck
reach hungry "hasleft0" & "hasleft1" & "hasleft2" & "hasleft3"
ctl neighbours AG !("eat0" & "eat1")
ltl eats G F "eat0"'

agree "rers combos" "$TOP/tests/data/rers/combos.dot" '
ltl always_y G (x -> X G y)
ltl never_y G !y
ltl gf G F fireable(y)'

# without kinds: each formula's own, as a lone file's
printf 'a: "crit1" & "crit2"\nb: AG EF "crit1"\nc: G F "crit1"\n' >"$tmp.auto"
"$MCK" check -q "$TOP/examples/pnml/mutex.pnml" "$tmp.auto" >"$tmp.out" 2>&1
if grep -q '^Property a: Result: NO\.$' "$tmp.out" && grep -q '^Property b: Result: YES\.$' "$tmp.out" &&
   grep -q '^Property c: Result: NO\.$' "$tmp.out" &&
   grep -q '^Properties: 3 checked, 0 unknown; 1 YES, 2 NO$' "$tmp.out"; then
    echo "ok - kinds from each formula: reach NO, ctl YES, ltl NO, summary"
else
    echo "not ok - kinds from each formula: $(tr '\n' ' ' <"$tmp.out")"
fi

# the exit status is the worst case: error > unknown > NO > YES
status() {
    printf "$2" >"$tmp.st"
    "$MCK" check -q $3 "$TOP/examples/pnml/mutex.pnml" "$tmp.st" >"$tmp.out" 2>"$tmp.err"
    st=$?
    if [ "$st" -eq "$1" ]; then
        echo "ok - exit $1: $4"
    else
        echo "not ok - exit $1: $4: got $st: $(tr '\n' ' ' <"$tmp.out")"
    fi
}
status 0 'a: EF "crit1";\nb: AG EF "idle1";\n' "" "every answer YES"
status 1 'a: EF "crit1";\nb: "crit1" & "crit2";\n' "" "a NO among YES"
status 3 'a: "crit1" & "crit2";\nb: AG EF "idle1";\nc: "crit1";\n' "-m 2" "an UNKNOWN (-m 2) beside a NO"
status 2 'a: "crit1" & "crit2";\nctl b: AG EF "idle1";\nc: "crit1";\n' "-c stubborn" \
    "a property the checker refuses, beside others"
if grep -q 'st:2: property b: checker stubborn does not support kind ctl' "$tmp.err" &&
   grep -q '^Property b: not checked: checker stubborn' "$tmp.out" &&
   grep -q '^Property c: Result: YES\.$' "$tmp.out" &&
   grep -q '^Properties: 2 checked, 0 unknown; 1 YES, 1 NO; 1 not checked (errors)$' "$tmp.out"; then
    echo "ok - the refused property: FILE:LINE: message, the others still checked"
else
    echo "not ok - the refused property: $(tr '\n' ' ' <"$tmp.err") / $(tr '\n' ' ' <"$tmp.out")"
fi

# errors in the file: exit 2, one message with the position, nothing checked
printf 'a: "crit1";\nb: "crit2";\na: "idle1";\n' >"$tmp.dup"
"$MCK" check "$TOP/examples/pnml/mutex.pnml" "$tmp.dup" >"$tmp.out" 2>"$tmp.err"
st=$?
if [ "$st" -eq 2 ] && [ "$(cat "$tmp.err")" = "$tmp.dup:3:1: formula a named twice" ] &&
   [ ! -s "$tmp.out" ]; then
    echo "ok - a name given twice: exit 2, FILE:LINE:COL"
else
    echo "not ok - a name given twice: exit $st: $(cat "$tmp.err")"
fi
printf 'dl d: "crit1";\n' >"$tmp.dlf"
"$MCK" check "$TOP/examples/pnml/mutex.pnml" "$tmp.dlf" >/dev/null 2>"$tmp.err"
st=$?
if [ "$st" -eq 2 ] && [ "$(cat "$tmp.err")" = "$tmp.dlf:1:7: dl takes no formula" ]; then
    echo "ok - dl with a formula: exit 2, the formula's position"
else
    echo "not ok - dl with a formula: exit $st: $(cat "$tmp.err")"
fi
"$MCK" check --expect "$TOP/examples/pnml/mutex.pnml" "$tmp.auto" >/dev/null 2>"$tmp.err"
st=$?
if [ "$st" -eq 2 ] && grep -q 'auto:[0-9]*: --expect: property a has no expected answer' "$tmp.err"; then
    echo "ok - --expect on named formulas: they carry no expected answers"
else
    echo "not ok - --expect on named formulas: exit $st: $(cat "$tmp.err")"
fi

# --xml: one verdict per formula, named after it, with its kind
"$MCK" check -q --xml "$tmp.xml" "$TOP/examples/pnml/mutex.pnml" "$tmp.auto" >/dev/null 2>&1
if grep -q '<verdict category="reach" reference="a" value="false">' "$tmp.xml" &&
   grep -q '<verdict category="ctl" reference="b" value="true">' "$tmp.xml" &&
   grep -q '<verdict category="ltl" reference="c" value="false">' "$tmp.xml"; then
    echo "ok - --xml: a verdict per named formula"
else
    echo "not ok - --xml: a verdict per named formula: $(grep '<verdict' "$tmp.xml" | tr '\n' ' ')"
fi

# ---- MCC property XML ----
if [ ! -d "$SHARED/mcc" ]; then
    echo "skip - MCC property files: no MCC instances in $SHARED/mcc"
    exit 0
fi
# the answers of `mck check` and of `mck mcc` on the same file
same_as_mcc() {
    inst=$1 exam=$2 dir="$SHARED/mcc/$1"
    if [ ! -f "$dir/$exam.xml" ]; then
        echo "skip - $inst $exam: no property file"
        return
    fi
    BK_TIME_CONFINEMENT=60 "$MCK" mcc "$exam" "$dir" 2>/dev/null |
        awk '/^FORMULA/ { print $2, $3 }' | sort >"$tmp.mcc"
    "$MCK" check -q --timeout 30 "$dir/model.pnml" "$dir/$exam.xml" 2>"$tmp.err" >"$tmp.chk"
    st=$?
    sed -n 's/^Property \([^:]*\): Result: \(YES\|NO\)\.$/\1 \2/p' "$tmp.chk" |
        sed 's/ YES$/ TRUE/; s/ NO$/ FALSE/' | sort >"$tmp.ans"
    n=$(wc -l <"$tmp.ans")
    if [ "$n" -eq 16 ] && cmp -s "$tmp.mcc" "$tmp.ans" && [ "$st" -le 1 ]; then
        echo "ok - $inst $exam: mck check gives the 16 answers of mck mcc"
    else
        echo "not ok - $inst $exam: $n answers, exit $st; differ from mck mcc:"
        diff "$tmp.mcc" "$tmp.ans" | head -n 5
        head -n 3 "$tmp.err"
    fi
}
same_as_mcc Kanban-PT-00005 ReachabilityCardinality
same_as_mcc ERK-PT-000001 ReachabilityCardinality
same_as_mcc ERK-PT-000001 ReachabilityFireability
same_as_mcc Eratosthenes-PT-010 CTLCardinality
same_as_mcc ShieldRVs-PT-001A CTLFireability
same_as_mcc Sudoku-PT-AN01 LTLCardinality
same_as_mcc ShieldRVs-PT-001A LTLFireability

dir="$SHARED/mcc/ERK-PT-000001"
if [ -f "$dir/UpperBounds.xml" ]; then
    "$MCK" check -q "$dir/model.pnml" "$dir/UpperBounds.xml" >"$tmp.out" 2>"$tmp.err"
    st=$?
    if [ "$st" -eq 2 ] && grep -q "UpperBounds.xml:[0-9]*: property ERK-PT-000001-UpperBounds-00: a place bound asks for a value" "$tmp.err"; then
        echo "ok - UpperBounds: each bound refused with the reason, exit 2"
    else
        echo "not ok - UpperBounds: exit $st: $(head -n 2 "$tmp.err")"
    fi
    "$MCK" check -q -k ltl "$dir/model.pnml" "$dir/CTLCardinality.xml" >/dev/null 2>"$tmp.err"
    st=$?
    if [ "$st" -eq 2 ] && grep -q "property ERK-PT-000001-CTLCardinality-00: a ctl property, not ltl as asked" "$tmp.err"; then
        echo "ok - -k ltl on a CTL file: each property refused"
    else
        echo "not ok - -k ltl on a CTL file: exit $st: $(head -n 2 "$tmp.err")"
    fi
    # the verdicts carry the examination and the ids; an A G that fails has
    # its counterexample
    "$MCK" check -q --xml "$tmp.vx" "$dir/model.pnml" "$dir/ReachabilityCardinality.xml" >/dev/null 2>&1
    if [ "$(grep -c '<verdict category="ReachabilityCardinality" reference="ERK-PT-000001-ReachabilityCardinality-' "$tmp.vx")" -eq 16 ]; then
        echo "ok - --xml on an MCC file: 16 verdicts, named by examination and id"
    else
        echo "not ok - --xml on an MCC file: $(grep -c '<verdict' "$tmp.vx") verdicts"
    fi
fi
