#!/bin/sh
# Fixed-width keys (--pack, checkers/placebits.h, store_new_packed): on
# nets whose places all get a proven bound the explicit search says it
# stores markings as bit fields, and gives exactly what it gives with
# variable-length keys: the answer, the run, the numbers of states and
# edges.  A net with an unbounded place keeps variable-length keys, and a
# bad --pack value is a usage error.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_pack.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

# keys LABEL KIND ARGS...: both ways, expecting -v to name KIND keys when on
keys() {
    label=$1 want=$2
    shift 2
    "$MCK" check -v --timeout 60 "$@" >"$tmp.on" 2>"$tmp.eon"
    on=$?
    "$MCK" check -v --timeout 60 --pack=off "$@" >"$tmp.off" 2>"$tmp.eoff"
    off=$?
    used=$(sed -n 's/^explore: \([a-z-]*\) keys.*/\1/p' "$tmp.eon" | head -n 1)
    grep -v '^Time needed' "$tmp.on" >"$tmp.on2"
    grep -v '^Time needed' "$tmp.off" >"$tmp.off2"
    grep -E '^(states|edges):' "$tmp.eon" >"$tmp.son"
    grep -E '^(states|edges):' "$tmp.eoff" >"$tmp.soff"
    states=$(sed -n 's/^states: //p' "$tmp.son")
    if [ "$used" != "$want" ]; then
        echo "not ok - $label: $want keys expected, -v says '$used'"
    elif ! grep -q '^explore: variable-length keys' "$tmp.eoff"; then
        echo "not ok - $label: --pack=off does not use variable-length keys"
    elif [ "$on" -ne "$off" ] || [ "$on" -eq 2 ] || ! cmp -s "$tmp.on2" "$tmp.off2" ||
         ! cmp -s "$tmp.son" "$tmp.soff" || [ -z "$states" ]; then
        echo "not ok - $label: exit $on/$off, output or counts differ: $(head -n 2 "$tmp.on2" | tr '\n' ' ')"
    else
        echo "ok - $label: $want keys, exit $on, $states states, same answer, run and counts as --pack=off"
    fi
}

keys "philo4 dl (safe)" fixed-width -k dl "$TOP/examples/pep/philo4.ll_net"
keys "philo4 all-hungry" fixed-width "$TOP/examples/pep/philo4.ll_net" "$TOP/examples/pep/all-hungry.form"
keys "weights dl (counts up to 3)" fixed-width -k dl "$TOP/tests/data/check/weights.ll_net"
keys "weights full >= 2 (witness)" fixed-width "$TOP/tests/data/check/weights.ll_net" \
    "$TOP/tests/data/check/full2.form"
keys "unbounded dl" variable-length -k dl -m 5000 "$TOP/tests/data/check/unbounded.ll_net"

if [ -d "$SHARED/mcc" ]; then
    # deadlocks with runs, counts above 1 (Kanban and TCPcondis up to 5),
    # and searches ended by the state limit
    for inst in DNAwalker-PT-03track12BlockBoth PhilosophersDyn-PT-03 GPUForwardProgress-PT-12a \
                ResAllocation-PT-R003C003 Kanban-PT-00005 TCPcondis-PT-05; do
        [ -f "$SHARED/mcc/$inst/model.pnml" ] || continue
        keys "$inst dl" fixed-width -k dl -m 20000 "$SHARED/mcc/$inst/model.pnml"
    done
else
    echo "skip - MCC instances: $SHARED/mcc not found"
fi

"$MCK" check --pack=maybe "$TOP/examples/pep/philo4.ll_net" >/dev/null 2>"$tmp.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "pack takes 'on' or 'off'" "$tmp.err"; then
    echo "ok - --pack=maybe: exit 2, $(head -n 1 "$tmp.err")"
else
    echo "not ok - --pack=maybe: exit $rc, $(head -n 1 "$tmp.err")"
fi
