#!/bin/sh
# The symbolic checker (decision diagrams, symbolic/symbolic.h) from the
# command line: on the models of examples/ and a few MCC instances it
# gives the explicit checker's answer for deadlocks, reachability and CTL, its
# witnesses replay (mck check replays every run before printing it and
# fails with an internal error when one does not), a net it cannot bound
# and a memory budget too small end in UNKNOWN with the reason, mck list
# shows the row, and mck mcc StateSpace answers with the diagrams where
# the explicit search gives up.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_symbolic.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

. "$TOP/tests/lib/agree.sh"
agree_on_examples symbolic
echo "ok - examples: symbolic agrees with explicit on $pass checks, witnesses replay ($skipped other kinds or models, $unknown unknown)"
[ "$fail" -eq 0 ] || echo "not ok - examples: $fail checks differ"
[ "$pass" -ge 10 ] || echo "not ok - examples: only $pass checks decided"

out=$("$MCK" check -c symbolic "$TOP/examples/pep/philo4.ll_net" 2>&1)
case $out in
    *"Result: YES."*takeleft3*) echo "ok - philo4: a deadlock, and the run to it" ;;
    *) echo "not ok - philo4 with -c symbolic: $out" ;;
esac

if "$MCK" list | grep -q '^  symbolic  *kinds dl,reach'; then
    echo "ok - mck list shows the symbolic row"
else
    echo "not ok - mck list shows the symbolic row"
fi

. "$TOP/tests/lib/stopchild.sh"

if [ -d "$SHARED/mcc" ]; then
    pass=0 fail=0 skipped=0 unknown=0
    for inst in Railroad-PT-005 DrinkVendingMachine-PT-02 ShieldIIPs-PT-001B Dekker-PT-010 \
                DLCround-PT-03a SimpleLoadBal-PT-05; do
        [ -f "$SHARED/mcc/$inst/model.pnml" ] || continue
        agree symbolic "$inst dl" "$SHARED/mcc/$inst/model.pnml"
    done
    echo "ok - MCC instances: symbolic agrees with explicit on $pass deadlock checks ($unknown unknown)"
    [ "$fail" -eq 0 ] || echo "not ok - MCC instances: $fail checks differ"
    [ "$pass" -ge 3 ] || echo "not ok - MCC instances: only $pass decided"
    # a memory budget too small for the diagrams: UNKNOWN, exit 3, the reason said
    "$MCK" check -c symbolic --mem 1 "$SHARED/mcc/TCPcondis-PT-05/model.pnml" >"$tmp.m" 2>&1
    st=$?
    if [ "$st" -eq 3 ] && grep -q "memory budget exhausted" "$tmp.m"; then
        echo "ok - --mem 1: UNKNOWN, memory budget exhausted"
    else
        echo "not ok - --mem 1: exit $st: $(head -n 3 "$tmp.m" | tr '\n' ' ')"
    fi
    # StateSpace where the explicit search gives up: the diagrams' four
    # values, exactly the oracle's
    inst=ShieldPPPt-PT-002A
    if [ -f "$SHARED/mcc/$inst/model.pnml" ] && [ -f "$SHARED/mcc/oracle/$inst-SS.out" ]; then
        BK_TIME_CONFINEMENT=10 "$MCK" mcc StateSpace "$SHARED/mcc/$inst" 2>/dev/null >"$tmp.ss"
        grep -c "DECISION_DIAGRAMS" "$tmp.ss" | grep -q '^4$' &&
            sed 's/ TECHNIQUES.*//' "$tmp.ss" | sort >"$tmp.got" &&
            grep '^STATE_SPACE' "$SHARED/mcc/oracle/$inst-SS.out" | sed 's/ TECHNIQUES.*//' | sort >"$tmp.want"
        if [ -s "$tmp.got" ] && cmp -s "$tmp.got" "$tmp.want"; then
            echo "ok - mcc StateSpace on $inst: the oracle's four values, by decision diagrams"
        else
            echo "not ok - mcc StateSpace on $inst: $(tr '\n' ' ' <"$tmp.ss")"
        fi
    fi
    # The diagrams run in a child that the parent kills at the deadline,
    # however long one of their operations takes: here the child is
    # stopped outright (SIGSTOP), so only the parent's kill can end it.
    inst=HouseConstruction-PT-00050
    if [ -f "$SHARED/mcc/$inst/model.pnml" ]; then
        start=$(date +%s)
        BK_TIME_CONFINEMENT=6 "$MCK" mcc -v -j 1 StateSpace "$SHARED/mcc/$inst" \
            >"$tmp.fo" 2>"$tmp.fe" &
        parent=$!
        kid=$(stop_child_of "$parent")
        wait "$parent"
        took=$(($(date +%s) - start))
        if [ -n "$kid" ] && [ "$took" -le 12 ] && grep -qx "CANNOT_COMPUTE" "$tmp.fo" &&
           grep -q "the fenced part was stopped at the deadline" "$tmp.fe" &&
           ! kill -0 "$kid" 2>/dev/null; then
            echo "ok - mcc StateSpace on $inst: the stopped diagram process is killed at the 6 s limit (${took} s)"
        else
            echo "not ok - mcc StateSpace fence on $inst: child '${kid}', ${took} s, $(tr '\n' ' ' <"$tmp.fo")"
        fi
    fi
    # mck check runs the symbolic checker behind the same kind of fence:
    # a stopped child is killed at --timeout and the answer is UNKNOWN
    if [ -f "$SHARED/mcc/$inst/model.pnml" ]; then
        start=$(date +%s)
        "$MCK" check --timeout 4 symbolic-dl "$SHARED/mcc/$inst/model.pnml" >"$tmp.co" 2>&1 &
        parent=$!
        kid=$(stop_child_of "$parent")
        wait "$parent"
        rc=$?
        took=$(($(date +%s) - start))
        if [ -n "$kid" ] && [ "$rc" = 3 ] && [ "$took" -le 10 ] &&
           grep -qx 'Result: UNKNOWN (time limit reached).' "$tmp.co" && ! kill -0 "$kid" 2>/dev/null; then
            echo "ok - check symbolic-dl on $inst: the stopped checker process is killed at the 4 s limit (${took} s)"
        else
            echo "not ok - check symbolic-dl fence on $inst: child '${kid}', exit $rc, ${took} s, $(tr '\n' ' ' <"$tmp.co")"
        fi
    fi
else
    echo "skip - MCC instances: $SHARED/mcc not found"
fi
