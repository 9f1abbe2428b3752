#!/bin/sh
# Benchmark (not a test) of the parallel search (engine/parallel.h): full
# exploration of deadlock-free MCC nets through `mck check -v -q -k dl`,
# on 1 thread and on N, in alternating runs (1, N, 1, N, ...) so that both
# share the machine's load.  Prints per net the cores mck may use, the
# states and edges (which must be equal), each thread count's fastest and
# median `search time:`, its states/s at the median, the speed-up of the
# medians and the speed-up per thread.
# Usage: bench/threads.sh [MODEL-DIR-NAME...]
#   MCK=path/to/mck (default ./mck), MCC=dir of MCC models (default
#   /work/shared/mcc), THREADS=N (default: nproc), ROUNDS=R (default 5),
#   MCK_FLAGS passed on to both.
MCK=${MCK:-./mck}
MCC=${MCC:-/work/shared/mcc}
N=${THREADS:-$(nproc)}
R=${ROUNDS:-5}
MODELS=${*:-"SmallOperatingSystem-PT-MT0064DC0032 Kanban-PT-00005 Railroad-PT-010"}
tmp=${TMPDIR:-/tmp}/mck_threads.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

stat() {   # FILE: fastest and median of the numbers in it
    sort -n "$1" | awk '{ t[NR] = $1 } END { printf "%.3f %.3f", t[1], t[int((NR + 1) / 2)] }'
}

printf '%-38s %5s %10s %11s %15s %15s %9s %9s %7s %9s\n' model cores states edges \
    "1: fast/median" "$N: fast/median" "1: st/s" "$N: st/s" speedup per-thread
for m in $MODELS; do
    model=$MCC/$m/model.pnml
    if [ ! -f "$model" ]; then
        echo "$m: no $model" >&2
        continue
    fi
    : >"$tmp.1"
    : >"$tmp.n"
    counts1='' countsn=''
    for _ in $(seq "$R"); do
        for j in 1 "$N"; do
            # shellcheck disable=SC2086
            out=$("$MCK" check -v -q -k dl -j "$j" $MCK_FLAGS "$model" 2>&1 >/dev/null)
            c=$(echo "$out" | awk '/^states:/ {s = $2} /^edges:/ {e = $2} END {print s, e}')
            t=$(echo "$out" | awk '/^states:/ {s = $2} /^speed:/ {v = $2} END {printf "%.4f", s / v}')
            if [ "$j" = 1 ]; then
                echo "$t" >>"$tmp.1"
                counts1=$c
            else
                echo "$t" >>"$tmp.n"
                [ -n "$countsn" ] && [ "$countsn" != "$c" ] && countsn="DIFFERS"
                [ "$countsn" = "DIFFERS" ] || countsn=$c
            fi
        done
    done
    s1=$(stat "$tmp.1")
    sn=$(stat "$tmp.n")
    [ "$counts1" = "$countsn" ] || echo "$m: counts differ: 1 thread $counts1, $N threads $countsn" >&2
    set -- $counts1
    echo "$m $(nproc) $1 $2 $s1 $sn $N" | awk '{
        printf "%-38s %5d %10d %11d %7.3f/%-7.3f %7.3f/%-7.3f %9.3g %9.3g %7.2f %9.2f\n",
               $1, $2, $3, $4, $5, $6, $7, $8, $3 / $6, $3 / $8, $6 / $8, $6 / $8 / $9 }'
done
