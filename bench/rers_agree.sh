#!/bin/sh
# Benchmark (not a test): the answers bench/rers_compose.sh recorded,
# checked again one property at a time by another checker, niced and one
# after the other (the machine is shared): each property that checker
# answers within LIMIT seconds must get the same answer.  Prints one line
# a property (same, DIFFERS, or unknown with the time) and a summary.
# Usage: bench/rers_agree.sh ANSWERS.csv
#   MCK=path/to/mck (default ./mck), RERS=dir (default
#   /work/shared/rers/rers2017), CHECKER=name (default explicit),
#   LIMIT=seconds (default 600)
MCK=${MCK:-./mck}
RERS=${RERS:-/work/shared/rers/rers2017}
CHECKER=${CHECKER:-explicit}
LIMIT=${LIMIT:-600}
answers=${1:?usage: bench/rers_agree.sh ANSWERS.csv}
tmp=${TMPDIR:-/tmp}/mck_rers_agree.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
same=0 differ=0 unknown=0
while IFS=, read -r p n a; do
    [ "$a" = YES ] || [ "$a" = NO ] || continue
    awk -v n="$n" '/^#[0-9]+:/ { on = ($0 ~ "^#" n ":") } on' "$RERS/problem$p-properties.txt" >"$tmp.prop"
    start=$(date +%s.%N)
    got=$(nice -n 10 "$MCK" check -c "$CHECKER" -q --timeout "$LIMIT" "$RERS/problem$p.dot" "$tmp.prop" 2>/dev/null |
          sed -n 's/^Property #[0-9]*: Result: \([A-Z]*\).*/\1/p')
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    if [ "$got" = "$a" ]; then
        same=$((same + 1)); verdict=same
    elif [ "$got" = YES ] || [ "$got" = NO ]; then
        differ=$((differ + 1)); verdict=DIFFERS
    else
        unknown=$((unknown + 1)); verdict=unknown
    fi
    printf '%s #%s %s: %s %s (%.1f s)\n' "$p" "$n" "$a" "$CHECKER" "$verdict" "$secs"
done <"$answers"
echo "$CHECKER: $same the same, $differ differ, $unknown not answered within $LIMIT s"
