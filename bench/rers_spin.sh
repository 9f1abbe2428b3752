#!/bin/sh
# Benchmark (not a test): the answers bench/rers_compose.sh recorded,
# checked again by SPIN through `mck export --promela` (the encoding
# tests/e2e/rers_spin.sh tests), property by property, one pan run at a
# time, niced.  Prints one line a property (same, DIFFERS, or no answer)
# and a summary.
# Usage: bench/rers_spin.sh ANSWERS.csv [NNN...]   (default: 101 102 103)
#   MCK=path/to/mck (default ./mck), RERS=dir (default
#   /work/shared/rers/rers2017), DEPTH=pan -m (default 10000000),
#   LIMIT=seconds a pan run (default 600)
MCK=${MCK:-./mck}
RERS=${RERS:-/work/shared/rers/rers2017}
DEPTH=${DEPTH:-10000000}
LIMIT=${LIMIT:-600}
answers=${1:?usage: bench/rers_spin.sh ANSWERS.csv [NNN...]}
shift
PROBLEMS=${*:-"101 102 103"}
command -v spin >/dev/null 2>&1 || { echo "spin is not installed" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/mck_rers_spin.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
same=0 differ=0 none=0
for p in $PROBLEMS; do
    "$MCK" export --promela -o "$dir/model.pml" "$RERS/problem$p.dot" "$RERS/problem$p-properties.txt" ||
        { echo "problem$p: export failed" >&2; continue; }
    (cd "$dir" && spin -a model.pml >/dev/null 2>&1 &&
     gcc -O2 -DNOSTUTTER -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c >/dev/null 2>&1) ||
        { echo "problem$p: spin -a or gcc failed" >&2; continue; }
    grep "^$p," "$answers" | while IFS=, read -r _ n a; do
        [ "$a" = YES ] || [ "$a" = NO ] || continue
        out=$(cd "$dir" && timeout "$LIMIT" nice -n 10 ./pan -a -m"$DEPTH" -w24 -N "p$n" 2>&1)
        if echo "$out" | grep -q 'max search depth too small'; then
            got=depth
        elif echo "$out" | grep -q 'errors: 0$'; then
            got=YES
        elif echo "$out" | grep -q 'errors: [1-9]'; then
            got=NO
        else
            got=none
        fi
        if [ "$got" = "$a" ]; then verdict=same; elif [ "$got" = YES ] || [ "$got" = NO ]; then verdict=DIFFERS; else verdict="no answer ($got)"; fi
        echo "$p #$n $a: spin $verdict"
    done
done | tee "$dir/lines"
echo "spin: $(grep -c ': spin same$' "$dir/lines") the same, $(grep -c 'DIFFERS' "$dir/lines") differ, $(grep -c 'no answer' "$dir/lines") not answered"
