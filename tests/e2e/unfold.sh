#!/bin/sh
# The unfold checker (complete prefixes, SAT; engine/unfold/) from the
# command line: on the models of examples/, on the PEP examples of the
# shared data (a deadlock and a reach property for every place and pair of
# places, written here) and on safe MCC instances whose explicit search
# ends in seconds (deadlock and both reachability files) it gives the
# explicit checker's answers; mck check replays every run before printing
# it, so an agreeing YES is also a run that replays.  A net not proven
# safe ends in UNKNOWN with the place named; mck list shows the row; -v
# prints the prefix's size and the configuration as a partial order; mck
# convert --to prefix writes the .mci file.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_unfold.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

. "$TOP/tests/lib/agree.sh"
agree_on_examples unfold
echo "ok - examples: unfold agrees with explicit on $pass checks, witnesses replay ($skipped other kinds or models, $unknown unknown)"
[ "$fail" -eq 0 ] || echo "not ok - examples: $fail checks differ"
[ "$pass" -ge 10 ] || echo "not ok - examples: only $pass checks decided"

# Property by property: the Result lines of both checkers, the same.
same_results() {   # LABEL MODEL PROPERTIES
    "$MCK" check -q --timeout 30 "$2" "$3" 2>&1 | grep '^Property .*Result' >"$tmp.pe"
    "$MCK" check -c unfold --timeout 30 "$2" "$3" >"$tmp.out" 2>&1
    grep '^Property .*Result' "$tmp.out" >"$tmp.pu"
    n=$(wc -l <"$tmp.pe")
    if grep -q "internal error" "$tmp.out"; then
        echo "not ok - $1: a run did not replay: $(grep "internal error" "$tmp.out" | head -n 1)"
    elif [ "$n" -gt 0 ] && cmp -s "$tmp.pe" "$tmp.pu" && ! grep -q UNKNOWN "$tmp.pu"; then
        props=$((props + n))
    else
        echo "not ok - $1: results differ: $(diff "$tmp.pe" "$tmp.pu" | head -n 4 | tr '\n' ' ')"
    fi
}

pep="$SHARED/examples/pep"
if [ -d "$pep" ]; then
    pass=0 fail=0 skipped=0 unknown=0 props=0
    for model in "$pep"/*.ll_net; do
        agree unfold "$(basename "$model") dl" "$model"
        # every place, and each place with the one three further on
        "$MCK" info -v "$model" 2>/dev/null | sed -n 's/^place [0-9]* "\(.*\)".*/\1/p' >"$tmp.names"
        awk '{ n[NR] = $0 }
             END { for (i = 1; i <= NR; i++) {
                       printf "reach p%d: \"%s\";\n", i, n[i]
                       j = (i + 2) % NR + 1
                       printf "reach q%d: \"%s\" & !\"%s\";\n", i, n[i], n[j] } }' \
            "$tmp.names" >"$tmp.f"
        same_results "$(basename "$model") places" "$model" "$tmp.f"
    done
    echo "ok - PEP examples: unfold agrees with explicit on $pass deadlocks and $props reach properties"
    [ "$fail" -eq 0 ] || echo "not ok - PEP examples: $fail deadlock checks differ"
    [ "$pass" -eq 8 ] || echo "not ok - PEP examples: only $pass of 8 deadlocks decided"
    [ "$props" -ge 100 ] || echo "not ok - PEP examples: only $props reach properties agree"
else
    echo "skip - PEP examples: $pep not found"
fi

if [ -d "$SHARED/mcc" ]; then
    pass=0 fail=0 skipped=0 unknown=0 props=0 n_inst=0
    for inst in Dekker-PT-010 Railroad-PT-005 ShieldIIPs-PT-001B NQueens-PT-05 \
                SharedMemory-PT-000005 RwMutex-PT-r0010w0010 IBM703-PT-none Eratosthenes-PT-010; do
        dir="$SHARED/mcc/$inst"
        [ -f "$dir/model.pnml" ] || continue
        n_inst=$((n_inst + 1))
        agree unfold "$inst dl" "$dir/model.pnml"
        for f in ReachabilityCardinality ReachabilityFireability; do
            [ -f "$dir/$f.xml" ] && same_results "$inst $f" "$dir/model.pnml" "$dir/$f.xml"
        done
    done
    # deadlock on every safe instance where both searches end in seconds
    # (docs/unfolding.md lists the safe ones whose prefix does not)
    for inst in AirplaneLD-PT-0010 AutoFlight-PT-03a AutoFlight-PT-04a DatabaseWithMutex-COL-02 \
                DatabaseWithMutex-PT-02 DrinkVendingMachine-PT-02 ERK-PT-000001 \
                FlexibleBarrier-PT-04a HealthRecord-PT-02 IBM319-PT-none \
                IOTPpurchase-PT-C01M01P01D01 NQueens-PT-08 ParamProductionCell-PT-0 \
                ParamProductionCell-PT-2 Parking-PT-208 QuasiCertifProtocol-COL-02 \
                QuasiCertifProtocol-PT-02 Referendum-COL-0020 Referendum-PT-0010 \
                ResAllocation-PT-R003C003 ResAllocation-PT-R015C002 RwMutex-PT-r0020w0010 \
                ShieldIIPt-PT-001B ShieldPPPs-PT-001B ShieldPPPt-PT-001A ShieldRVs-PT-001A \
                ShieldRVt-PT-004A SimpleLoadBal-PT-02 SimpleLoadBal-PT-05 Sudoku-PT-AN01 \
                TokenRing-COL-005 ViralEpidemic-PT-S03D1C1A02; do
        dir="$SHARED/mcc/$inst"
        [ -f "$dir/model.pnml" ] || continue
        n_inst=$((n_inst + 1))
        agree unfold "$inst dl" "$dir/model.pnml"
    done
    # a property file: the prefix is built for the first property, the
    # others are decided on it (their answers are compared above)
    m="$SHARED/mcc/Dekker-PT-010"
    if [ -f "$m/ReachabilityCardinality.xml" ]; then
        "$MCK" check -c unfold -v --timeout 60 "$m/model.pnml" "$m/ReachabilityCardinality.xml" \
            >"$tmp.k" 2>&1
        n=$(grep -c '^Property .*Result' "$tmp.k")
        built=$(grep '^unfold: prefix of' "$tmp.k" | grep -vc 'for an earlier property')
        kept=$(grep -c '^unfold: prefix of .*(for an earlier property)' "$tmp.k")
        memory=$(grep -c '^unfold: memory' "$tmp.k")
        if [ "$n" -gt 1 ] && [ "$built" -eq 1 ] && [ "$memory" -eq 1 ] && [ "$kept" -eq $((n - 1)) ]; then
            echo "ok - Dekker-PT-010 ReachabilityCardinality: one prefix for $n properties"
        else
            echo "not ok - Dekker-PT-010 ReachabilityCardinality: $n properties, prefix built $built times ($memory memory lines), kept $kept times"
        fi
    fi
    echo "ok - MCC instances: unfold agrees with explicit on $pass deadlocks of $n_inst safe instances and $props reachability properties of 8 of them"
    [ "$fail" -eq 0 ] || echo "not ok - MCC instances: $fail deadlock checks differ"
    [ "$pass" -eq "$n_inst" ] || echo "not ok - MCC instances: only $pass of $n_inst deadlocks decided"
    [ "$props" -ge 100 ] || echo "not ok - MCC instances: only $props reachability properties agree"

    # limits: a prefix too large for the time or the memory given, UNKNOWN
    # (exit 3) with the reason (Echo-PT-d03r03 opens millions of extensions)
    # (under load the safety proof's share of the second can run out first)
    for limit in "--timeout 1:time limit reached" "--mem 20:memory budget exhausted"; do
        "$MCK" check -c unfold ${limit%%:*} "$SHARED/mcc/Echo-PT-d03r03/model.pnml" >"$tmp.l" 2>&1
        st=$?
        if [ "$st" -eq 3 ] && grep -q "UNKNOWN (${limit#*:}" "$tmp.l"; then
            echo "ok - ${limit%%:*}: UNKNOWN, ${limit#*:}"
        else
            echo "not ok - ${limit%%:*}: exit $st: $(head -n 1 "$tmp.l")"
        fi
    done

    # not safe: UNKNOWN (exit 3) with the place
    "$MCK" check -c unfold "$SHARED/mcc/CircularTrains-PT-012/model.pnml" >"$tmp.u" 2>&1
    st=$?
    if [ "$st" -eq 3 ] && grep -q "not proven safe (place .* may hold more than one token)" "$tmp.u"; then
        echo "ok - a net that is not safe: UNKNOWN, the place named"
    else
        echo "not ok - a net that is not safe: exit $st: $(head -n 2 "$tmp.u" | tr '\n' ' ')"
    fi
else
    echo "skip - MCC instances: $SHARED/mcc not found"
fi

if "$MCK" list | grep -q '^  unfold  *kinds dl,reach'; then
    echo "ok - mck list shows the unfold row"
else
    echo "not ok - mck list shows the unfold row"
fi

# -v: the prefix's size and the configuration, each event after its causes
"$MCK" check -v -c unfold "$TOP/examples/pep/philo4.ll_net" >"$tmp.v" 2>&1
if grep -q "^unfold: prefix of [0-9]* events ([0-9]* cut-offs), [0-9]* conditions" "$tmp.v" &&
   grep -q "^unfold:   e[0-9]*: .* < (initial marking)" "$tmp.v" &&
   grep -q "^Result: YES" "$tmp.v"; then
    echo "ok - -v: the prefix's size and the deadlock's configuration as a partial order"
else
    echo "not ok - -v: $(grep unfold "$tmp.v" | head -n 3 | tr '\n' ' ')"
fi

# the prefix as a .mci file: the conditions and events -v counts
"$MCK" convert "$TOP/examples/pep/philo4.ll_net" -o "$tmp.mci" >"$tmp.cv" 2>&1
st=$?
ev=$(sed -n 's/^unfold: prefix of \([0-9]*\) events.*/\1/p' "$tmp.v")
co=$(sed -n 's/^unfold: prefix of .* cut-offs), \([0-9]*\) conditions.*/\1/p' "$tmp.v")
head=$(od -An -t d4 -N 8 "$tmp.mci" 2>/dev/null | tr -s ' ' | sed 's/^ //')
if [ "$st" -eq 0 ] && [ -n "$ev" ] && [ "$head" = "$co $ev" ]; then
    echo "ok - convert to .mci: $co conditions, $ev events, as the checker built them"
else
    echo "not ok - convert to .mci: exit $st, header '$head', want '$co $ev': $(head -n 2 "$tmp.cv")"
fi

# mck info --prefix: the size the checker built; none, with why, when not safe
line=$("$MCK" info --prefix "$TOP/examples/pep/philo4.ll_net" 2>&1 | grep '^prefix:')
if [ -n "$ev" ] && [ "$line" = "prefix: $ev events ($(sed -n 's/^unfold: prefix of [0-9]* events (\([0-9]*\) cut-offs).*/\1/p' "$tmp.v") cut-offs), $co conditions" ]; then
    echo "ok - info --prefix: $line"
else
    echo "not ok - info --prefix: '$line'"
fi
if "$MCK" info --prefix --json "$TOP/examples/apnn/features.apnn" 2>&1 |
        grep -q '"prefix":{"none":"unfold: the net is not proven safe (place buf'; then
    echo "ok - info --prefix --json on a net that is not safe: none, and why"
else
    echo "not ok - info --prefix --json on a net that is not safe"
fi

# mck mcc: with the state equation and the walks off, the prefix decides
# the reachability files and ReachabilityDeadlock of safe instances: the
# oracle's values, named NET_UNFOLDING, and the first run in --xml replays
if [ -d "$SHARED/mcc" ]; then
    for case in Dekker-PT-010:RC:ReachabilityCardinality ShieldIIPs-PT-001B:RF:ReachabilityFireability \
                IBM703-PT-none:RD:ReachabilityDeadlock Railroad-PT-005:RD:ReachabilityDeadlock; do
        inst=${case%%:*} rest=${case#*:}
        short=${rest%%:*} exam=${rest#*:}
        dir="$SHARED/mcc/$inst"
        oracle="$SHARED/mcc/oracle/$inst-$short.out"
        [ -f "$dir/model.pnml" ] && [ -f "$oracle" ] || continue
        BK_TIME_CONFINEMENT=60 "$MCK" mcc -j 1 --lp=off --walk=off --xml "$tmp.xml" "$exam" "$dir" \
            >"$tmp.mcc" 2>"$tmp.err"
        sed 's/ TECHNIQUES.*//' "$tmp.mcc" | sort >"$tmp.got"
        grep '^FORMULA' "$oracle" | sed 's/ TECHNIQUES.*//' | sort >"$tmp.want"
        byunf=$(grep -c "NET_UNFOLDING SAT_SMT" "$tmp.mcc")
        replay=ok
        if grep -q "TRUE.*NET_UNFOLDING\|FALSE.*NET_UNFOLDING" "$tmp.mcc" && grep -q "<trace" "$tmp.xml" 2>/dev/null; then
            "$MCK" simulate --run "$tmp.xml" "$dir/model.pnml" >"$tmp.sim" 2>&1 || replay="failed: $(tail -n 1 "$tmp.sim")"
        fi
        if [ -s "$tmp.got" ] && cmp -s "$tmp.got" "$tmp.want" && [ "$byunf" -ge 1 ] && [ "$replay" = ok ]; then
            echo "ok - mcc $exam on $inst: the oracle's $(wc -l <"$tmp.got") values, $byunf by the unfolding"
        else
            echo "not ok - mcc $exam on $inst: $byunf by the unfolding, replay $replay: $(diff "$tmp.got" "$tmp.want" | head -n 3 | tr '\n' ' ')"
        fi
    done
fi

# the witness in a verdict file, replayed by simulate and drawn by draw --run
"$MCK" check -c unfold --xml "$tmp.vx" "$TOP/examples/pep/philo4.ll_net" >/dev/null 2>&1
if "$MCK" simulate --run "$tmp.vx" "$TOP/examples/pep/philo4.ll_net" 2>&1 |
        grep -q "^Replayed: 4 steps" &&
   "$MCK" draw --run "$tmp.vx" -o "$tmp.dot" "$TOP/examples/pep/philo4.ll_net" && [ -s "$tmp.dot" ]; then
    echo "ok - --xml: the configuration's run replays in simulate (4 steps) and draws"
else
    echo "not ok - --xml: the configuration's run does not replay or draw"
fi
