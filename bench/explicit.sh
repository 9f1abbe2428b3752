#!/bin/sh
# Benchmark (not a test) of the explicit engine: full breadth-first
# exploration of deadlock-free MCC nets with 10^6..10^7 reachable markings,
# through `mck check -v -q -k dl`.  Prints states, edges, time, states/s,
# the packed key's bytes, the peak bytes/state of the whole search and the
# bytes/state of the store's table at the end, per model, and checks the
# state count against the StateSpace oracle.
# Usage: bench/explicit.sh [MODEL-DIR-NAME...]; MCK_FLAGS are passed on
# (e.g. MCK_FLAGS=--compact=off).  REPEAT=N runs each model N times and
# reports the fastest run, the others' times in brackets: on a shared
# virtual machine one run's time can be a third off.
#   MCK=path/to/mck (default ./mck), MCC=dir of MCC models (default
#   /work/shared/mcc), ORACLE=dir of *-SS.out files (default $MCC/oracle).
MCK=${MCK:-./mck}
MCC=${MCC:-/work/shared/mcc}
ORACLE=${ORACLE:-$MCC/oracle}
# safe (1-bit keys), small counts, and counts up to 64 with many states
MODELS=${*:-"Railroad-PT-010 Kanban-PT-00005 SmallOperatingSystem-PT-MT0064DC0032"}

printf '%-40s %10s %11s %8s %11s %4s %8s %8s %s\n' model states edges seconds states/s key \
    B/state table oracle
for m in $MODELS; do
    model=$MCC/$m/model.pnml
    if [ ! -f "$model" ]; then
        echo "$m: no $model" >&2
        continue
    fi
    err='' all=''
    for _ in $(seq "${REPEAT:-1}"); do
        # shellcheck disable=SC2086
        run=$("$MCK" check -v -q -k dl $MCK_FLAGS "$model" 2>&1 >/dev/null)
        t=$(echo "$run" | awk '/^search time:/ {print $3}')
        all="$all${all:+ }$t"
        best=$(echo "$err" | awk '/^search time:/ {print $3}')
        if [ -z "$err" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            err=$run
        fi
    done
    states=$(echo "$err" | awk '/^states:/ {print $2}')
    edges=$(echo "$err" | awk '/^edges:/ {print $2}')
    secs=$(echo "$err" | awk '/^search time:/ {print $3}')
    mem=$(echo "$err" | awk '/^memory:/ {print $2}')
    key=$(echo "$err" | sed -n 's/^store: \([0-9]*\)-byte keys.*/\1/p')
    table=$(echo "$err" | sed -n 's/^store: .*(\([0-9.]*\) bytes\/state).*/\1/p')
    want=$(awk '/STATE_SPACE STATES/ {print $3}' "$ORACLE/$m-SS.out" 2>/dev/null)
    verdict=ok
    [ "$states" = "$want" ] || verdict="MISMATCH (oracle $want)"
    awk -v m="$m" -v s="$states" -v e="$edges" -v t="$secs" -v mb="$mem" -v v="$verdict" \
        -v k="${key:--}" -v tb="${table:--}" 'BEGIN {
        printf "%-40s %10d %11d %8.2f %11.3g %4s %8.1f %8s %s\n", m, s, e, t,
               (t > 0 ? s / t : 0), k, (s > 0 ? mb * 1048576 / s : 0), tb, v }'
    [ "${REPEAT:-1}" -gt 1 ] && echo "    (all runs: $all s)"
done
