#!/bin/sh
# Benchmark (not a test): the stubborn checker's partial-order reduction
# for action-based LTL (docs/por-actions.md) against the explicit search,
# on the RERS parallel problems.  Each checker gets a budget per problem
# (default 60 s of wall clock for its 20 properties), spent in two rounds:
# first every property with an equal share, then the properties left open
# share what is left.  Each run is niced, one at a time.
#
#   bench/rers-por.sh [--budget S] [--year 2016|2017] [--checkers "explicit stubborn"] [PROBLEM ...]
#
# PROBLEM is a number, 101 to 115 (default: all of the year's).  Output: a
# Markdown table on stdout, per problem and checker the properties
# answered, the wall clock used, the product states stored summed over
# the answered properties and the largest of them; then the answers both
# checkers gave that differ (there must be none).  $OUT (default
# $TMPDIR/mck-rers-por-DATE) keeps details.txt: one line per property and
# checker, "problem checker #N answer states search-seconds round".
# Environment: MCK (binary, default <top>/mck), SHARED (default ../shared).
top=$(cd "$(dirname "$0")/.." && pwd)
MCK=${MCK:-$top/mck}
SHARED=${SHARED:-$top/../shared}
budget=60 year=2017 checkers="explicit stubborn"
while [ $# -gt 0 ]; do
    case $1 in
    --budget) budget=$2; shift 2 ;;
    --year) year=$2; shift 2 ;;
    --checkers) checkers=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "rers-por.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
dir="$SHARED/rers/rers$year"
[ $# -gt 0 ] || set -- $(ls "$dir" | sed -n 's/^problem\([0-9]*\)\.dot$/\1/p' | sort -n)
OUT=${OUT:-${TMPDIR:-/tmp}/mck-rers-por-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
details="$OUT/details.txt"
: >"$details"

now() { date +%s.%N; }

# props FILE NUMBERS...: the property blocks #N of FILE for the numbers given
props() {
    f=$1; shift
    awk -v keep=" $* " '/^#[0-9]+:/ { n = substr($1, 2); sub(/:.*/, "", n); on = index(keep, " " n " ") > 0 }
                        on' "$f"
}

# run ROUND TIMEOUT DOT PROPS: one line per property, "#N answer states seconds"
run() {
    nice -n 10 "$MCK" check -v -q --timeout "$2" -c "$checker" "$3" "$4" 2>&1 |
        awk -v r="$1" 'function out() { if (p != "") print p, a, s, t, r; s = 0; t = 0 }
             /^Property #/ { out(); p = $2; sub(/:$/, "", p); a = $4; sub(/\.$/, "", a) }
             /Result: UNKNOWN/ { a = "UNKNOWN" }
             /^states:/ { s = $2 } /^search time:/ { t = $3 } END { out() }'
}

echo "| problem | LTSs | transitions | checker | answered | wall s | states (answered, sum) | largest |"
echo "|---|---:|---:|---|---:|---:|---:|---:|"
for p in "$@"; do
    dot="$dir/problem$p.dot"
    file="$dir/problem$p-properties.txt"
    [ -f "$file" ] || file="$dir/problem$p-properties-with-solution.txt"
    [ -f "$dot" ] || { echo "| $p | (no model) |||||||"; continue; }
    ltss=$(grep -c 'subgraph' "$dot")
    trans=$("$MCK" info "$dot" 2>/dev/null | sed -n 's/^transitions: //p')
    all=$(sed -n 's/^#\([0-9]*\):.*/\1/p' "$file")
    nall=$(echo $all | wc -w)
    for checker in $checkers; do
        t0=$(now)
        share=$(echo "$budget $nall" | awk '{ printf "%.3f", $1 / $2 }')
        run 1 "$share" "$dot" "$file" >"$OUT/r1"
        open=$(awk '$2 == "UNKNOWN" { sub(/^#/, "", $1); print $1 }' "$OUT/r1")
        nopen=$(echo $open | wc -w)
        left=$(echo "$budget $t0 $(now)" | awk '{ printf "%.3f", $1 - ($3 - $2) }')
        : >"$OUT/r2"
        if [ "$nopen" -gt 0 ] && awk -v l="$left" 'BEGIN { exit !(l > 2) }'; then
            props "$file" $open >"$OUT/open.txt"
            share=$(echo "$left $nopen" | awk '{ printf "%.3f", ($1 - 1) / $2 }')
            run 2 "$share" "$dot" "$OUT/open.txt" >"$OUT/r2"
        fi
        wall=$(echo "$t0 $(now)" | awk '{ printf "%.1f", $2 - $1 }')
        # a property's final line: round 2's if it ran there
        awk -v p="$p" -v c="$checker" -v second="$OUT/r2" '
             BEGIN { while ((getline l < second) > 0) { split(l, f, " "); r2[f[1]] = l } }
             { print p, c, ($1 in r2 ? r2[$1] : $0) }' "$OUT/r1" >>"$details"
        awk -v p="$p" -v c="$checker" -v lts="$ltss" -v tr="$trans" -v w="$wall" -v n="$nall" '
             $1 == p && $2 == c && $4 != "UNKNOWN" { a++; s += $5; if ($5 > m) m = $5 }
             END { printf "| %s | %d | %s | %s | %d/%d | %s | %d | %d |\n", p, lts, tr, c, a, n, w, s, m }' "$details"
    done
done
echo
echo "Answers that differ between the checkers (both decided):"
awk '$4 != "UNKNOWN" { k = $1 " " $3; if (k in a && a[k] != $4) { print "  problem " $1 " " $3 ": " a[k] " / " $4; d++ } a[k] = $4 }
     END { if (!d) print "  none" }' "$details"
echo "(details: $details)"
