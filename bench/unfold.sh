#!/bin/sh
# Benchmark (not a test): the unfold checker against explicit and stubborn
# on the scalable safe nets of bench/unfoldnets.sh (dining philosophers:
# deadlock YES; a token ring: deadlock NO), N = 10 20 50 100 200 by
# default: answer, seconds and peak RSS (/usr/bin/time -f %M) of mck
# check -k dl, and the prefix's events, cut-offs and conditions.  A
# checker that gives up (UNKNOWN at the --timeout, 60 s by default) is
# not run on the larger N of that family.  Prints CSV rows in the layout
# of bench/results.csv.  CHECKERS="unfold" (say) runs only those.
# Usage: bench/unfold.sh [TIMEOUT [N...]]
case $1 in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
mck=$top/mck
limit=${1:-60}
[ $# -gt 0 ] && shift
sizes=${*:-10 20 50 100 200}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
commit=$(git -C "$top" rev-parse --short HEAD)
today=$(date +%F)
machine="$(nproc)core-$(free -g | awk '/^Mem/ { print $2 }')G"
row() {   # MODEL METRIC VALUE UNIT NOTE
    echo "$today,$commit,$machine,unfold-scaling,$1,dl,$2,$3,$4,\"$5\""
}
for family in philo ring; do
    gave_up=""
    for n in $sizes; do
        model=$tmp/$family$n.ll_net
        "$top/bench/unfoldnets.sh" "$family" "$n" >"$model" || exit 2
        for checker in ${CHECKERS:-unfold explicit stubborn}; do
            case " $gave_up " in *" $checker "*) continue ;; esac
            /usr/bin/time -f "%e %M" -o "$tmp/time" "$mck" check -q -v -k dl -c "$checker" \
                -j 1 --timeout "$limit" "$model" >"$tmp/out" 2>"$tmp/err"
            read -r secs rss <<EOT
$(tail -n 1 "$tmp/time")
EOT
            answer=$(sed -n 's/^Result: \([A-Z]*\).*/\1/p' "$tmp/out")
            row "$family-$n" "${checker}_seconds" "$secs" s "$answer; --timeout $limit"
            row "$family-$n" "${checker}_peak_rss" "$rss" KiB "/usr/bin/time -f %M"
            if [ "$checker" = unfold ]; then
                sed -n 's/^unfold: prefix of \([0-9]*\) events (\([0-9]*\) cut-offs), \([0-9]*\) conditions.*/\1 \2 \3/p' \
                    "$tmp/err" >"$tmp/size"
                read -r ev cut co <"$tmp/size"
                row "$family-$n" prefix_events "$ev" events "$cut cut-offs, $co conditions"
            else
                states=$(sed -n 's/^states: \([0-9]*\).*/\1/p' "$tmp/err")
                row "$family-$n" "${checker}_states" "$states" states ""
            fi
            [ "$answer" = UNKNOWN ] && gave_up="$gave_up $checker"
        done
    done
done
