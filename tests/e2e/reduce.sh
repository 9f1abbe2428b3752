#!/bin/sh
# The reduce checker (structural reduction, reduce/reduce.h) on the real
# models of examples/ and on shared MCC instances: for deadlocks, for every
# reachability property and for every LTL property without X, deadlock and
# actions it gives the explicit checker's answer, and its witnesses and
# lassos, found on the reduced net and expanded, are runs of the model
# (mck check replays every run on the model it read before printing it,
# and fails with an internal error when one does not replay).  With
# --reduce=off, mck mcc gives the same answers as with the reduction.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_reduce.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

. "$TOP/tests/lib/agree.sh"
agree_on_examples reduce
echo "ok - examples: reduce agrees with explicit on $pass checks, witnesses replay ($skipped other kinds or models, $unknown timed out)"
[ "$fail" -eq 0 ] || echo "not ok - examples: $fail checks differ"

if [ -d "$SHARED/mcc" ]; then
    pass=0 fail=0 skipped=0 unknown=0
    for inst in Railroad-PT-005 DrinkVendingMachine-PT-02 ShieldIIPs-PT-001B DNAwalker-PT-03track12BlockBoth \
                ERK-PT-000001 CircadianClock-PT-000001 Dekker-PT-010; do
        [ -f "$SHARED/mcc/$inst/model.pnml" ] || continue
        agree reduce "$inst dl" "$SHARED/mcc/$inst/model.pnml"
    done
    echo "ok - MCC instances: reduce agrees with explicit on $pass deadlock checks ($unknown timed out)"
    [ "$fail" -eq 0 ] || echo "not ok - MCC instances: $fail checks differ"
    [ "$pass" -ge 5 ] || echo "not ok - MCC instances: only $pass decided"
    # the same answers with the reduction switched off
    for exam in ReachabilityDeadlock ReachabilityCardinality UpperBounds LTLCardinality; do
        dir="$SHARED/mcc/Railroad-PT-005"
        BK_TIME_CONFINEMENT=20 "$MCK" mcc "$exam" "$dir" 2>/dev/null | sed 's/ TECHNIQUES.*//' | sort >"$tmp.on"
        BK_TIME_CONFINEMENT=20 "$MCK" mcc --reduce=off "$exam" "$dir" 2>/dev/null | sed 's/ TECHNIQUES.*//' | sort >"$tmp.off"
        n=$(wc -l <"$tmp.on")
        if [ "$n" -gt 0 ] && cmp -s "$tmp.on" "$tmp.off"; then
            echo "ok - mcc $exam on Railroad-PT-005: $n values, the same with --reduce=off"
        else
            echo "not ok - mcc $exam on Railroad-PT-005: --reduce=on and off differ ($n values)"
        fi
    done
else
    echo "skip - MCC instances: $SHARED/mcc not found"
fi
