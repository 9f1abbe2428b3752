#!/bin/sh
# Benchmark (not a test) of the compose checker (checkers/compose) on the
# RERS 2017 parallel problems: per problem the LTSs, the properties
# answered when each gets PER seconds (20 x 3 s = 60 s a problem), YES and
# NO, the time the 20 took, and the largest product composed (the -v line
# "net: ..." of each property: largest composite, or the snowball's largest
# product).  Each answer goes to ANSWERS (problem,
# property, answer) for bench/rers_agree.sh.
# Usage: bench/rers_compose.sh [NNN...]   (default: 101 ... 115)
#   MCK=path/to/mck (default ./mck), RERS=dir (default
#   /work/shared/rers/rers2017), PER=seconds a property (default 3),
#   CHECKER=name (default compose), ANSWERS=file (default
#   /tmp/rers_answers.CHECKER.csv)
MCK=${MCK:-./mck}
RERS=${RERS:-/work/shared/rers/rers2017}
PER=${PER:-3}
CHECKER=${CHECKER:-compose}
ANSWERS=${ANSWERS:-/tmp/rers_answers.$CHECKER.csv}
PROBLEMS=${*:-"101 102 103 104 105 106 107 108 109 110 111 112 113 114 115"}
tmp=${TMPDIR:-/tmp}/mck_rers_compose.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
: >"$ANSWERS"

printf '%-8s %5s %9s %4s %4s %8s %18s\n' problem LTSs answered YES NO time largest-composite
for p in $PROBLEMS; do
    dot=$RERS/problem$p.dot props=$RERS/problem$p-properties.txt
    if [ ! -f "$dot" ]; then
        echo "problem$p: no $dot" >&2
        continue
    fi
    lts=$(grep -c '^ *subgraph' "$dot")
    start=$(date +%s.%N)
    nice -n 10 "$MCK" check -c "$CHECKER" -v --timeout "$PER" "$dot" "$props" >"$tmp.out" 2>"$tmp.err"
    end=$(date +%s.%N)
    awk -v p="$p" '/^Property #[0-9]+: Result:/ {
        n = substr($2, 2, length($2) - 2); a = $4; sub(/\.$/, "", a); print p "," n "," a }' \
        "$tmp.out" >>"$ANSWERS"
    yes=$(grep -c '^Property #[0-9]*: Result: YES' "$tmp.out")
    no=$(grep -c '^Property #[0-9]*: Result: NO' "$tmp.out")
    largest=$(sed -n 's/.*largest \(composite\|product\) \([0-9]*\) states.*/\2/p' "$tmp.err" |
              sort -n | tail -n 1)
    printf '%-8s %5d %6d/20 %4d %4d %7.1fs %18s\n' "$p" "$lts" $((yes + no)) "$yes" "$no" \
        "$(echo "$end - $start" | bc)" "${largest:--}"
done
