#!/bin/sh
# mck mcc's unfolding (mcc/unfolddecide.c) runs in a child process that
# the parent kills at the stage's deadline (CaDiCaL reads the clock only at
# its own checkpoints): a child stopped outright with SIGSTOP is killed at
# its share of the time and the examination goes on; what the child
# answers is printed once, with its techniques, and the parent does not
# answer it again; a memory budget too small ends the unfolding with a
# memory reason, not a crash, in mck mcc and in mck check.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_unfold_fence.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

. "$TOP/tests/lib/stopchild.sh"

if [ ! -d "$SHARED/mcc" ]; then
    echo "skip - unfold fence: $SHARED/mcc not found"
    exit 0
fi

# The child's answers: each value once, the unfolding's named, the
# oracle's values, with the second process of the portfolio (-j 2) and
# without it.
inst=Railroad-PT-005
oracle="$SHARED/mcc/oracle/$inst-RC.out"
if [ -f "$SHARED/mcc/$inst/model.pnml" ] && [ -f "$oracle" ]; then
    for j in 1 2; do
        BK_TIME_CONFINEMENT=30 "$MCK" mcc -j $j --walk=off --lp=off ReachabilityCardinality \
            "$SHARED/mcc/$inst" >"$tmp.o" 2>"$tmp.e"
        unf=$(grep -c "NET_UNFOLDING" "$tmp.o")
        dups=$(cut -d' ' -f2 "$tmp.o" | sort | uniq -d | wc -l)
        cut -d' ' -f2,3 "$tmp.o" | sort >"$tmp.got"
        grep '^FORMULA' "$oracle" | cut -d' ' -f2,3 | sort >"$tmp.want"
        if [ "$unf" -ge 5 ] && [ "$dups" -eq 0 ] && cmp -s "$tmp.got" "$tmp.want"; then
            echo "ok - mcc -j $j ReachabilityCardinality on $inst: $unf values by the fenced unfolding, each once, the oracle's"
        else
            echo "not ok - mcc -j $j on $inst: $unf by unfolding, $dups twice: $(diff "$tmp.got" "$tmp.want" | head -n 4 | tr '\n' ' ')"
        fi
    done
fi

# A stopped child is killed at the decider's deadline (under a second of
# a 10 s run) and the search answers the rest (a look may have settled a
# property before the stop came).
inst=Railroad-PT-010
if [ -f "$SHARED/mcc/$inst/model.pnml" ]; then
    BK_TIME_CONFINEMENT=10 "$MCK" mcc -v -j 1 --walk=off --lp=off ReachabilityFireability \
        "$SHARED/mcc/$inst" >"$tmp.fo" 2>"$tmp.fe" &
    parent=$!
    kid=$(stop_child_of "$parent")
    wait "$parent"
    took=$(sed -n 's/^mck mcc: unfolding settled [0-9]* of [0-9]* (\([0-9]*\)\..*/\1/p' "$tmp.fe")
    if [ -n "$kid" ] && [ -n "$took" ] && [ "$took" -le 2 ] &&
       grep -q "the fenced part was stopped at the deadline" "$tmp.fe" &&
       ! kill -0 "$kid" 2>/dev/null && [ "$(grep -c '^FORMULA' "$tmp.fo")" -ge 1 ]; then
        echo "ok - mcc pre-pass on $inst: the stopped unfolding process is killed at its deadline (${took} s), the search goes on"
    else
        echo "not ok - mcc pre-pass fence on $inst: child '${kid}', '${took}' s: $(grep -i 'unfold\|fence' "$tmp.fe" | tr '\n' ' ')"
    fi
    # the same for ReachabilityDeadlock, whose unfolding comes first
    BK_TIME_CONFINEMENT=10 "$MCK" mcc -v -j 1 ReachabilityDeadlock "$SHARED/mcc/$inst" \
        >"$tmp.do" 2>"$tmp.de" &
    parent=$!
    kid=$(stop_child_of "$parent")
    wait "$parent"
    if [ -n "$kid" ] && grep -q "the fenced part was stopped at the deadline" "$tmp.de" &&
       ! kill -0 "$kid" 2>/dev/null && grep -q "^FORMULA ReachabilityDeadlock FALSE" "$tmp.do" &&
       ! grep -q NET_UNFOLDING "$tmp.do"; then
        echo "ok - mcc ReachabilityDeadlock on $inst: the stopped unfolding is killed, the search answers"
    else
        echo "not ok - mcc ReachabilityDeadlock fence on $inst: child '${kid}': $(tr '\n' ' ' <"$tmp.do")"
    fi

    # memory: a budget the prefix does not fit ends the unfolding with the
    # reason, the search still answers, nothing crashes
    BK_MEMORY_CONFINEMENT=40 BK_TIME_CONFINEMENT=10 "$MCK" mcc -v -j 1 ReachabilityDeadlock \
        "$SHARED/mcc/$inst" >"$tmp.mo" 2>"$tmp.me"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "unfolding: memory budget exhausted" "$tmp.me" &&
       grep -q "^FORMULA ReachabilityDeadlock FALSE" "$tmp.mo"; then
        echo "ok - mcc with 40 MiB on $inst: the unfolding stops for memory, the search answers"
    else
        echo "not ok - mcc with 40 MiB on $inst: exit $rc: $(grep -i 'unfold\|memory' "$tmp.me" | tr '\n' ' ')"
    fi
    "$MCK" check -c unfold --mem 8 "$SHARED/mcc/$inst/model.pnml" >"$tmp.c" 2>&1
    rc=$?
    if [ "$rc" -eq 3 ] && grep -q "^Result: UNKNOWN (memory" "$tmp.c"; then
        echo "ok - check -c unfold --mem 8 on $inst: UNKNOWN, $(sed -n 's/^Result: UNKNOWN (\(.*\))\./\1/p' "$tmp.c")"
    else
        echo "not ok - check -c unfold --mem 8 on $inst: exit $rc: $(tr '\n' ' ' <"$tmp.c" | head -c 300)"
    fi
fi
