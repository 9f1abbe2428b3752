#!/bin/sh
# Benchmark (not a test): the explicit search of a reference checker on
# the nets of bench/explicit.sh, as a yardstick for its states/s on the
# same machine.  Each net becomes a Promela model (bench/pnml2promela.py);
# Spin's verifier is compiled without partial-order reduction, checking
# safety only, breadth-first as mck searches, and run to the end.  Prints
# states, edges (Spin's stored + matched, less the initial state),
# seconds, states/s and the verifier's memory, and checks the states
# against the StateSpace oracle.
# Usage: bench/spin.sh [MODEL-DIR-NAME...]
#   SPIN (default spin), CC (default cc), MCC (default /work/shared/mcc),
#   ORACLE (default $MCC/oracle), TYPE (Promela type of a place, byte),
#   SEARCH (bfs or dfs, default bfs), KEEP (folder kept for the files).
case $1 in -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
SPIN=${SPIN:-spin}
CC=${CC:-cc}
MCC=${MCC:-/work/shared/mcc}
ORACLE=${ORACLE:-$MCC/oracle}
MODELS=${*:-"Railroad-PT-010 Kanban-PT-00005 SmallOperatingSystem-PT-MT0064DC0032"}
command -v "$SPIN" >/dev/null || { echo "spin.sh: no $SPIN (Debian package spin)" >&2; exit 2; }
case ${SEARCH:-bfs} in
bfs) search=-DBFS ;;
dfs) search= ;;
*) echo "spin.sh: SEARCH is bfs or dfs" >&2; exit 2 ;;
esac
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work" || exit 2

printf '%-40s %10s %11s %8s %11s %9s %s\n' model states edges seconds states/s memory oracle
for m in $MODELS; do
    model=$MCC/$m/model.pnml
    [ -f "$model" ] || { echo "$m: no $model" >&2; continue; }
    dir=$work/$m
    mkdir -p "$dir"
    python3 "$top/bench/pnml2promela.py" "$model" "${TYPE:-byte}" > "$dir/model.pml" || continue
    # -m: a depth-first search may go as deep as there are states
    (cd "$dir" && "$SPIN" -a model.pml >/dev/null &&
        $CC -O2 -DNOREDUCE -DSAFETY -DNOFAIR $search -DMEMLIM=16384 -o pan pan.c &&
        ./pan -n -m100000000 -w26 > run.out 2>&1) || { echo "$m: spin failed" >&2; continue; }
    out=$dir/run.out
    states=$(awk '/states, stored/ {print $1}' "$out")
    matched=$(awk '/states, matched/ {print $1}' "$out")
    secs=$(awk '/elapsed time/ {print $4}' "$out")
    mem=$(awk '/total actual memory usage/ {print $1}' "$out")
    want=$(awk '/STATE_SPACE STATES/ {print $3}' "$ORACLE/$m-SS.out" 2>/dev/null)
    verdict=ok
    [ "$states" = "$want" ] || verdict="MISMATCH (oracle $want)"
    awk -v m="$m" -v s="$states" -v e="$matched" -v t="$secs" -v mb="$mem" -v v="$verdict" 'BEGIN {
        printf "%-40s %10d %11d %8.2f %11.3g %6.0f MB %s\n", m, s, s + e - 1, t,
               (t > 0 ? s / t : 0), mb, v }'
done
[ -n "$KEEP" ] || rm -rf "$work"
