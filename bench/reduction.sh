#!/bin/sh
# Benchmark (not a test): what structural reduction (reduce/reduce.h)
# saves on the deadlock question.  For each instance, `mck check` with the
# explicit checker and with the reduce checker, and a Markdown table of the
# net's size before and after, the markings each search stored, its time
# and its answer.
#
#   bench/reduction.sh [--timeout S] [INSTANCE ...]
#
# Without instances, a fixed list of shared MCC P/T instances.  Environment:
# MCK (binary, default ./mck), SHARED (default ../shared).
top=$(cd "$(dirname "$0")/.." && pwd)
MCK=${MCK:-$top/mck}
SHARED=${SHARED:-$top/../shared}
timeout=20
while [ $# -gt 0 ]; do
    case $1 in
    --timeout) timeout=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reduction.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- DrinkVendingMachine-PT-02 Railroad-PT-005 Railroad-PT-010 \
    ParamProductionCell-PT-0 ShieldIIPs-PT-001B DES-PT-01b GPPP-PT-C0001N0000000010 \
    TCPcondis-PT-05 IBM703-PT-none IBM5964-PT-none ARMCacheCoherence-PT-none \
    AirplaneLD-PT-0010 Dekker-PT-010
tmp="${TMPDIR:-/tmp}/mck_bench_red.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

# one run: "result|states|seconds|note"
run() {
    "$MCK" check -v --timeout "$timeout" "$@" >"$tmp.out" 2>"$tmp.err"
    res=$(sed -n 's/^Result: \([A-Z]*\).*/\1/p' "$tmp.out")
    st=$(sed -n 's/^states: //p' "$tmp.err")
    sec=$(sed -n 's/^search time: \([0-9.]*\).*/\1/p' "$tmp.err")
    note=$(sed -n 's/^net: reduced to \([0-9]*\) of \([0-9]*\) places and \([0-9]*\) of \([0-9]*\) transitions/\2 → \1 | \4 → \3/p' "$tmp.err")
    echo "$res|$st|$sec|$note"
}

echo "| instance | places | transitions | explicit: states | s | answer | reduce: states | s | answer |"
echo "|---|---:|---:|---:|---:|---|---:|---:|---|"
for inst in "$@"; do
    m="$SHARED/mcc/$inst/model.pnml"
    [ -f "$m" ] || { echo "| $inst | (no model) |||||||"; continue; }
    e=$(run "$m")
    r=$(run -c reduce "$m")
    IFS='|' read -r eres est esec enote <<X
$e
X
    IFS='|' read -r rres rst rsec rp rt <<X
$r
X
    echo "| $inst | $rp | $rt | $est | $esec | $eres | $rst | $rsec | $rres |"
done
