#!/bin/sh
# Benchmark (not a test) of the distributed search (engine/dist/, mck
# check --mpi): full exploration of deadlock-free MCC nets by one process
# (the breadth-first search of mck check -j 1) and by mpirun with 1, 2 and
# 3 ranks, in alternating runs so that all share the machine's load.
# Prints per net and per setting the fastest and median `search time:`,
# states/s at the median, bytes a state (every rank's peak together, from
# -v's memory line) and bytes sent to other ranks a state (-v's dist
# line); the states and edges must be the same in every setting.
# Usage: bench/dist.sh [MODEL-DIR-NAME...]
#   MCK=path/to/mck (default ./mck), MCC=dir of MCC models (default
#   /work/shared/mcc), RANKS="1 2 3", ROUNDS=R (default 3).
# mpirun gets --mca mpi_yield_when_idle 1: a rank waiting in a collective
# then gives its core away instead of spinning, which on a machine with
# fewer free cores than ranks is the difference between 2x slower and
# faster (see bench/README.md).
MCK=${MCK:-./mck}
MCC=${MCC:-/work/shared/mcc}
RANKS=${RANKS:-"1 2 3"}
R=${ROUNDS:-3}
MODELS=${*:-"Kanban-PT-00005 RwMutex-PT-r0020w0010"}
tmp=${TMPDIR:-/tmp}/mck_dist.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

stat() {   # FILE: fastest and median of the numbers in it
    sort -n "$1" | awk '{ t[NR] = $1 } END { printf "%.3f %.3f", t[1], t[int((NR + 1) / 2)] }'
}

printf '%-26s %-8s %10s %11s %15s %10s %9s %9s\n' model setting states edges \
    "fast/median s" "states/s" "B/state" "sent B/st"
for m in $MODELS; do
    model=$MCC/$m/model.pnml
    if [ ! -f "$model" ]; then
        echo "$m: no $model" >&2
        continue
    fi
    for s in one $RANKS; do : >"$tmp.$s"; done
    for _ in $(seq "$R"); do
        for s in one $RANKS; do
            if [ "$s" = one ]; then
                "$MCK" check -v -q -j 1 "$model" 2>"$tmp.err" >/dev/null
            else
                mpirun -np "$s" --oversubscribe --mca mpi_yield_when_idle 1 \
                    "$MCK" check --mpi -v -q "$model" 2>"$tmp.err" >/dev/null
            fi
            awk '/^states:/ {s = $2} /^edges:/ {e = $2} /^speed:/ {v = $2}
                 /^memory:/ {b = substr($4, 2)}
                 /^dist: sent/ {for (i = 1; i <= NF; i++) if ($i == "state)") x = $(i - 2)}
                 END {printf "%.4f %s %s %s %s\n", s / v, s, e, b, x == "" ? 0 : x}' \
                "$tmp.err" >>"$tmp.$s"
        done
    done
    for s in one $RANKS; do
        cut -d' ' -f1 "$tmp.$s" >"$tmp.t"
        set -- $(stat "$tmp.t") $(tail -n 1 "$tmp.$s" | cut -d' ' -f2-)
        [ "$(cut -d' ' -f2,3 "$tmp.$s" | sort -u | wc -l)" = 1 ] ||
            echo "$m $s: counts differ between runs" >&2
        label=$([ "$s" = one ] && echo "1 proc" || echo "$s ranks")
        printf '%-26s %-8s %10d %11d %7.3f/%-7.3f %10.3g %9.1f %9.1f\n' "$m" "$label" "$3" "$4" \
            "$1" "$2" "$(echo "$3 $2" | awk '{print $1 / $2}')" "$5" "$6"
    done
done
