#!/bin/sh
# `mck mcc -j 2`: the portfolio's second process (mcc/portfolio.c) beside
# the first.  On contest instances whose answers are known: every value
# printed once and right by the oracle, with -j 2 as with -j 1; the second
# process starts (-v) and, on Kanban-PT-00005 (2.5 million markings, a
# reachable set of under a thousand diagram nodes), answers some CTL
# values itself; where there are no diagrams (Planning-PT-none), it runs
# best-first dependency graphs; on Election2020-PT-none its diagrams are
# built on the net reduced for the formulas; --json keeps one process.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
mcc="$SHARED/mcc"
tmp="${TMPDIR:-/tmp}/mck_portfolio.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

if [ ! -d "$mcc" ]; then
    echo "skip - portfolio: $mcc not found (the contest instances)"
    exit 0
fi

# check INSTANCE EXAM SHORT J: the answers of mck mcc -j J against the oracle
check() {
    inst=$1 exam=$2 short=$3 j=$4
    oracle="$mcc/oracle/$inst-$short.out"
    if [ ! -f "$oracle" ]; then
        echo "skip - portfolio $inst $exam: no oracle"
        return
    fi
    (cd "$mcc/$inst" && BK_TIME_CONFINEMENT=10 "$MCK" mcc -v -j "$j" "$exam" \
        >"$tmp.out" 2>"$tmp.err")
    rc=$?
    twice=$(awk '/^FORMULA/ {print $2}' "$tmp.out" | sort | uniq -d | wc -l)
    wrong=$(awk 'NR == FNR { if ($1 == "FORMULA") want[$2] = $3; next }
                 $1 == "FORMULA" && ($2 in want) && want[$2] != $3 { n++ }
                 END { print n + 0 }' "$oracle" "$tmp.out")
    n=$(grep -c '^FORMULA' "$tmp.out")
    if [ "$rc" -eq 0 ] && [ "$twice" -eq 0 ] && [ "$wrong" -eq 0 ] && [ "$n" -gt 0 ]; then
        echo "ok - portfolio $inst $exam -j $j: $n values, each once, none wrong"
    else
        echo "not ok - portfolio $inst $exam -j $j: exit $rc, $n values, $twice twice, $wrong wrong"
        cat "$tmp.out"
    fi
}

for inst in Kanban-PT-00005 Dekker-PT-010 HexagonalGrid-PT-110; do
    check "$inst" CTLCardinality CTLC 2
    check "$inst" CTLFireability CTLF 2
    check "$inst" ReachabilityCardinality RC 2
    check "$inst" LTLCardinality LTLC 2
done

check Kanban-PT-00005 CTLCardinality CTLC 2
if grep -q "portfolio: process [0-9]* runs the decision diagrams" "$tmp.err" &&
   grep -q "portfolio: reachable set complete" "$tmp.err"; then
    echo "ok - portfolio: -v tells the second process and its reachable set"
else
    echo "not ok - portfolio: no second process in -v"
    cat "$tmp.err"
fi
if grep -q "^FORMULA .* PARALLEL_PROCESSING DECISION_DIAGRAMS" "$tmp.out"; then
    echo "ok - portfolio: Kanban-PT-00005 CTL values answered by the diagrams beside the search"
else
    echo "not ok - portfolio: no value from the second process on Kanban-PT-00005"
    cat "$tmp.out"
fi

# FlexibleBarrier-PT-06a: 3 million markings, a reachable set of under 200
# nodes; the explicit pipeline leaves CTL values open at 10 s that the
# diagrams decide
check FlexibleBarrier-PT-06a CTLFireability CTLF 1
one=$n
check FlexibleBarrier-PT-06a CTLFireability CTLF 2
if [ "$n" -gt "$one" ]; then
    echo "ok - portfolio: FlexibleBarrier-PT-06a CTLFireability, $one values with -j 1, $n with -j 2"
else
    echo "not ok - portfolio: FlexibleBarrier-PT-06a CTLFireability, $one values with -j 1, $n with -j 2"
fi
# bounds by halving on the diagram, beside the search
check FMS-PT-00005 UpperBounds UB 2
check FMS-PT-00020 UpperBounds UB 2

# Planning-PT-none: a place without a proven bound, so no diagrams; the
# second process runs best-first dependency graphs instead, which decide
# CTLCardinality-02 and -08 within about a thousand markings, where the
# first process's searches decide neither in a minute
check Planning-PT-none CTLCardinality CTLC 2
if grep -q "portfolio: best-first dependency graphs on [0-9]* formulas" "$tmp.err" &&
   grep -q "^FORMULA Planning-PT-none-CTLCardinality-02 TRUE TECHNIQUES PARALLEL_PROCESSING EXPLICIT" "$tmp.out" &&
   grep -q "^FORMULA Planning-PT-none-CTLCardinality-08 TRUE TECHNIQUES PARALLEL_PROCESSING EXPLICIT" "$tmp.out"; then
    echo "ok - portfolio: Planning-PT-none CTL -02 and -08 by best-first in the second process"
else
    echo "not ok - portfolio: Planning-PT-none CTL -02 and -08 not by best-first in the second process"
    cat "$tmp.out"
    grep portfolio "$tmp.err"
fi

# Election2020-PT-none: two tallies of electoral votes that no
# CTLFireability formula reads; reduced without them, the reachable set is
# every subset of the 51 states yet to vote, a diagram of a few hundred
# nodes, where on the given net it was not complete in a minute (its
# fixpoints then need more than these 10 s)
check Election2020-PT-none CTLFireability CTLF 2
if grep -q "portfolio: the diagrams on the net reduced for [0-9]* formulas: 51 places" "$tmp.err" &&
   grep -q "portfolio: reachable set complete" "$tmp.err"; then
    echo "ok - portfolio: Election2020-PT-none's reachable set complete on the reduced net"
else
    echo "not ok - portfolio: Election2020-PT-none's reachable set not complete on the reduced net"
    cat "$tmp.out"
    grep portfolio "$tmp.err"
fi

check Kanban-PT-00005 LTLCardinality LTLC 2
if grep -q "portfolio: process [0-9]* runs the LTL checks in reverse order" "$tmp.err"; then
    echo "ok - portfolio: LTL's second process takes the formulas last to first"
else
    echo "not ok - portfolio: no LTL second process in -v"
fi

(cd "$mcc/Kanban-PT-00005" && BK_TIME_CONFINEMENT=10 "$MCK" mcc -v -j 1 CTLCardinality \
    >"$tmp.out" 2>"$tmp.err")
if ! grep -q "portfolio" "$tmp.err" && ! grep -q "PARALLEL_PROCESSING" "$tmp.out"; then
    echo "ok - portfolio: -j 1 runs one process"
else
    echo "not ok - portfolio: -j 1 still forked"
fi
(cd "$mcc/Kanban-PT-00005" && BK_TIME_CONFINEMENT=10 "$MCK" mcc --json -v -j 2 CTLCardinality \
    >"$tmp.out" 2>"$tmp.err")
if ! grep -q "portfolio" "$tmp.err"; then
    echo "ok - portfolio: off with --json (runs are collected in one process)"
else
    echo "not ok - portfolio: forked with --json"
fi
(cd "$mcc/Kanban-PT-00005" && "$MCK" mcc -j 0 CTLCardinality >/dev/null 2>"$tmp.err")
if [ $? -eq 2 ] && grep -q "bad process count '0'" "$tmp.err"; then
    echo "ok - portfolio: -j 0 is a usage error"
else
    echo "not ok - portfolio: -j 0 accepted"
fi
