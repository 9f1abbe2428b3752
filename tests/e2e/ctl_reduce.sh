#!/bin/sh
# CTL on the reduced net (reduce/reduce.h, "branching") on shared MCC
# instances with small state spaces:
#   - the reduce checker gives the explicit checker's answer to every
#     CTLCardinality and CTLFireability property both decide, and every run
#     it prints, found on the reduced net and expanded, replays on the model
#     (mck check replays each run before printing it: an internal error
#     otherwise); a fair share of the properties ran on a smaller net (with
#     a run to print, sink and implicit places stay);
#   - mck mcc answers some values of Railroad-PT-010 CTLCardinality on the
#     graph of the net reduced for all its open formulas, and with --xml
#     every trace in the file replays on the model (mck simulate --run, one
#     verdict at a time), loops closing and deadlocks dead;
#   - mck mcc gives the same CTL values with --reduce=off wherever both
#     answer.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_ctlred.$$"
trap 'rm -rf "$tmp" "$tmp".*' EXIT INT TERM

mcc="$SHARED/mcc"
if [ ! -d "$mcc" ]; then
    echo "skip - ctl reduce: $mcc not found (the contest instances)"
    exit 0
fi

# ---- the reduce checker against the explicit one, property by property ----
same=0 differ=0 reduced=0 decided=0 errors=0 files=0
for inst in ERK-PT-000001 ResAllocation-PT-R003C003 DatabaseWithMutex-PT-02 \
            CircularTrains-PT-012 PhilosophersDyn-PT-03 NQueens-PT-05 SimpleLoadBal-PT-02 \
            DrinkVendingMachine-PT-02 QuasiCertifProtocol-PT-02 Railroad-PT-005 \
            SharedMemory-PT-000005 IBM319-PT-none DNAwalker-PT-03track12BlockBoth \
            Dekker-PT-010 IBM703-PT-none; do
    for exam in CTLCardinality CTLFireability; do
        dir="$mcc/$inst"
        [ -f "$dir/$exam.xml" ] || continue
        files=$((files + 1))
        "$MCK" check -q --timeout 20 "$dir/model.pnml" "$dir/$exam.xml" >"$tmp.e" 2>&1
        "$MCK" check -v -c reduce --timeout 20 "$dir/model.pnml" "$dir/$exam.xml" >"$tmp.r" 2>&1
        errors=$((errors + $(grep -c "internal error" "$tmp.r")))
        reduced=$((reduced + $(grep -c "^net: reduced to" "$tmp.r")))
        grep '^Property .*: Result: \(YES\|NO\)' "$tmp.e" | sed 's/\.$//' | sort >"$tmp.e1"
        grep '^Property .*: Result: \(YES\|NO\)' "$tmp.r" | sed 's/\.$//' | sort >"$tmp.r1"
        # the properties both decided, and how many of them agree
        cut -d: -f1 "$tmp.e1" | sort >"$tmp.e2"
        cut -d: -f1 "$tmp.r1" | sort >"$tmp.r2"
        both=$(comm -12 "$tmp.e2" "$tmp.r2" | wc -l)
        agree=$(comm -12 "$tmp.e1" "$tmp.r1" | wc -l)
        decided=$((decided + both))
        same=$((same + agree))
        if [ "$agree" -ne "$both" ]; then
            differ=$((differ + both - agree))
            echo "# $inst $exam: $(comm -3 "$tmp.e1" "$tmp.r1" | tr '\n' ' ')"
        fi
    done
done
if [ "$differ" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$decided" -ge $((files * 12)) ]; then
    echo "ok - reduce agrees with explicit on $same CTL properties of $files files, every run replays"
else
    echo "not ok - reduce against explicit: $differ of $decided differ, $errors runs do not replay"
fi
if [ "$reduced" -ge $((decided / 5)) ]; then
    echo "ok - $reduced of the properties ran on a smaller net"
else
    echo "not ok - only $reduced of $decided properties ran on a smaller net"
fi

# ---- mck mcc: the graph on the reduced net, its runs replayed ----
dir="$mcc/Railroad-PT-010"
if [ -f "$dir/model.pnml" ]; then
    BK_TIME_CONFINEMENT=30 "$MCK" mcc -v --xml "$tmp.xml" CTLCardinality "$dir" >"$tmp.out" 2>"$tmp.err"
    graph=$(grep -c "the graph on the net reduced" "$tmp.err")
    mkdir -p "$tmp"
    if python3 - "$tmp.xml" "$tmp" <<'PY'
import copy, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
n = 0
for v in root.iter('verdict'):
    if v.find('trace') is None:
        continue
    one = ET.Element(root.tag, root.attrib)
    for c in root:
        if c.tag != 'verdict':
            one.append(copy.deepcopy(c))
    one.append(copy.deepcopy(v))
    ET.ElementTree(one).write('%s/v%d.xml' % (sys.argv[2], n))
    n += 1
sys.exit(n == 0)
PY
    then
        traces=0 replayed=0
        for v in "$tmp"/v*.xml; do
            traces=$((traces + 1))
            "$MCK" simulate --run "$v" "$dir/model.pnml" >"$tmp.sim" 2>&1 &&
                grep -q '^Replayed: ' "$tmp.sim" && replayed=$((replayed + 1))
        done
        shown=$(grep -c "STRUCTURAL_REDUCTION" "$tmp.out")
        if [ "$graph" -eq 1 ] && [ "$shown" -gt 0 ] && [ "$replayed" -eq "$traces" ]; then
            echo "ok - mcc Railroad-PT-010 CTLCardinality: $shown values on reduced nets, the graph's among them; $replayed of $traces traces replay on the model"
        else
            echo "not ok - mcc Railroad-PT-010 CTLCardinality: graph on a reduced net $graph, $shown values, $replayed of $traces traces replay"
        fi
    else
        echo "not ok - mcc Railroad-PT-010 CTLCardinality: no trace in the --xml file"
    fi
else
    echo "skip - mcc Railroad-PT-010: not in $mcc"
fi

# ---- mck mcc with and without the reduction ----
values=0 clash=0
for inst in Railroad-PT-005 Dekker-PT-010 SharedMemory-PT-000005 IBM703-PT-none; do
    for exam in CTLCardinality CTLFireability; do
        dir="$mcc/$inst"
        [ -f "$dir/$exam.xml" ] || continue
        BK_TIME_CONFINEMENT=10 "$MCK" mcc "$exam" "$dir" 2>/dev/null |
            sed -n 's/^FORMULA \([^ ]*\) \([A-Z]*\) .*/\1 \2/p' | sort >"$tmp.on"
        BK_TIME_CONFINEMENT=10 "$MCK" mcc --reduce=off "$exam" "$dir" 2>/dev/null |
            sed -n 's/^FORMULA \([^ ]*\) \([A-Z]*\) .*/\1 \2/p' | sort >"$tmp.off"
        values=$((values + $(join "$tmp.on" "$tmp.off" | wc -l)))
        clash=$((clash + $(join "$tmp.on" "$tmp.off" | awk '$2 != $3' | wc -l)))
    done
done
if [ "$clash" -eq 0 ] && [ "$values" -ge 100 ]; then
    echo "ok - mcc CTL: $values values answered with and without --reduce=off, all the same"
else
    echo "not ok - mcc CTL: $clash of $values values differ with --reduce=off"
fi
