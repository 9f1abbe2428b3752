#!/bin/sh
# `mck properties` on small contest instances, held against the MCC's
# GenericPropertiesVerdict.xml with `mck verdicts compare`: no property may
# be true on one side and false on the other, and every file must validate
# against the verdict grammar.  The MCC's values are for the model (all its
# instances, coloured ones included), not this instance, so a contradiction
# is accepted only where the instance's own contest oracle sides with mck:
# SAFE ~ OneSafe, DEADLOCK ~ ReachabilityDeadlock, LIVE ~ Liveness,
# DEAD_TRANSITIONS ~ not QuasiLiveness.  REVERSIBLE has no oracle: there
# the CTL checker, a different algorithm (fixpoints, not components), must
# agree on AG EF (the initial marking).  Then `mck verdicts compare` itself: a file
# agrees with itself, and a flipped value is reported with exit status 1.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
mcc="$SHARED/mcc"
tmp="${TMPDIR:-/tmp}/mck_generic.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

if [ ! -x "$MCK" ]; then
    echo "skip - generic properties: no mck binary at $MCK"
    exit 0
fi
if [ ! -d "$mcc" ]; then
    echo "skip - generic properties: $mcc not found (the contest instances)"
    exit 0
fi

# AG EF of the initial marking, in the Kit's syntax, from the places mck
# lists ("place ID ["NAME"] [tokens N]"; PNML ids hold no blank).  Only
# POSIX tools: the test runs on a machine without Python.
initial_formula() {
    "$MCK" info -v "$1" | awk '
        $1 == "place" {
            n = ($(NF - 1) == "tokens" && $NF ~ /^[0-9]+$/) ? $NF : 0
            terms = terms (terms == "" ? "" : " & ") "\"" $2 "\" = " n
        }
        END { if (terms == "") exit 1; print "AG EF (" terms ")" }'
}

# GENERIC_INSTANCES=all runs every P/T instance (the acceptance sweep,
# with GENERIC_TIMEOUT=60); make check runs these small ones.
: "${GENERIC_TIMEOUT:=20}"
INSTANCES="Eratosthenes-PT-010 Sudoku-PT-AN01 ERK-PT-000001 CircularTrains-PT-012
    DatabaseWithMutex-PT-02 ResAllocation-PT-R003C003 NQueens-PT-05 PhilosophersDyn-PT-03
    Dekker-PT-010 IBM319-PT-none SimpleLoadBal-PT-02 Railroad-PT-005 SharedMemory-PT-000005
    HexagonalGrid-PT-110 HypertorusGrid-PT-d2k1p8b00"
[ "${GENERIC_INSTANCES:-}" = all ] &&
    INSTANCES=$(cd "$mcc" && ls -d *-PT-* | tr '\n' ' ')

for i in $INSTANCES; do
    mccfile="$mcc/$i/GenericPropertiesVerdict.xml"
    [ -f "$mccfile" ] || { echo "skip - $i: no GenericPropertiesVerdict.xml"; continue; }
    if ! "$MCK" properties --timeout "$GENERIC_TIMEOUT" -o "$tmp.$i.xml" "$mcc/$i/model.pnml" \
         2>"$tmp.err"; then
        echo "not ok - $i: mck properties failed: $(head -n 1 "$tmp.err")"
        continue
    fi
    out=$("$MCK" verdicts compare "$tmp.$i.xml" "$mccfile")
    rc=$?
    bad="" justified=""
    for prop in $(echo "$out" | grep " says " | cut -d: -f1 | cut -d' ' -f2); do
        mine=$(echo "$out" | grep "^GENERIC $prop:" | sed 's/.* says \(true\|false\), .*/\1/')
        case $prop in
            SAFE) suf=OS want=$mine ;;
            DEADLOCK) suf=RD want=$mine ;;
            LIVE) suf=L want=$mine ;;
            DEAD_TRANSITIONS) suf=QL; [ "$mine" = true ] && want=false || want=true ;;
            REVERSIBLE)
                suf=""
                if initial_formula "$mcc/$i/model.pnml" >"$tmp.rev.form"; then
                    "$MCK" check -q -k ctl "$mcc/$i/model.pnml" "$tmp.rev.form" >/dev/null 2>&1
                    ctl=$?
                    if { [ $ctl -eq 0 ] && [ "$mine" = true ]; } ||
                       { [ $ctl -eq 1 ] && [ "$mine" = false ]; }; then
                        justified="$justified $prop(ctl)"
                        continue
                    fi
                fi ;;
            *) suf="" ;;
        esac
        oracle="$mcc/oracle/$i-$suf.out"
        if [ -n "$suf" ] && [ -f "$oracle" ] &&
           grep -qi "^FORMULA [A-Za-z]* $want " "$oracle"; then
            justified="$justified $prop($suf oracle)"
            continue
        fi
        bad="$bad $prop"
    done
    undecided=$(grep -c 'value="unknown"' "$tmp.$i.xml")
    if [ -z "$bad" ]; then
        echo "ok - $i: mck leaves $undecided of 22 unknown; $(echo "$out" | tail -n 1 | cut -d';' -f1)${justified:+; the MCC's model-level value differs on$justified, which side with mck here}"
    else
        echo "not ok - $i: contradicts the MCC on$bad: $(echo "$out" | head -n 3 | tr '\n' ';')"
    fi
    if command -v xmllint >/dev/null 2>&1; then
        if xmllint --noout --relaxng "$TOP/verdicts/propertiesverdict.rng" "$tmp.$i.xml" 2>/dev/null; then
            echo "ok - $i: the file validates"
        else
            echo "not ok - $i: the file does not validate"
        fi
    fi
done

f="$tmp.Eratosthenes-PT-010.xml"
if [ -f "$f" ]; then
    "$MCK" verdicts compare "$f" "$f" >/dev/null
    [ $? -eq 0 ] && echo "ok - compare: a file agrees with itself" ||
        echo "not ok - compare: a file disagrees with itself"
    # flip the first true into false
    awk '!done && /value="true"/ { sub(/value="true"/, "value=\"false\""); done = 1 } { print }' \
        "$f" >"$tmp.flip.xml"
    out=$("$MCK" verdicts compare "$f" "$tmp.flip.xml")
    rc=$?
    if [ $rc -eq 1 ] && echo "$out" | grep -q "says true,.* says false"; then
        echo "ok - compare: a flipped value is reported, status 1"
    else
        echo "not ok - compare: flipped value not reported (status $rc)"
    fi
    "$MCK" verdicts compare "$f" "$tmp.missing.xml" 2>/dev/null
    [ $? -eq 2 ] && echo "ok - compare: a missing file is an error, status 2" ||
        echo "not ok - compare: a missing file is not status 2"
fi
exit 0
