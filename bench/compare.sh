#!/bin/sh
# Benchmark (not a test): mck and, with --peer, other MCC tools on the same
# instances and examinations, scored by ../shared/tools/mcc-score, then a
# side-by-side table (bench/sidebyside.py).  Every tool is called as
# `TOOL mcc EXAMINATION` in the instance folder, the contest's convention.
#
#   bench/compare.sh [--peer LABEL=PATH ...] [--exams RC,RF,...] [--timeout S]
#                    [--jobs N] [--instances REGEX] [--kinds PT|COL|all]
#
# A peer that is no `mcc` front end (e.g. a tool's BenchKit script) is
# wrapped by a two-line shell script that takes `mcc EXAMINATION`.
# Environment: MCK (binary, default ./mck), SHARED (default ../shared), OUT
# (folder for JSON, outputs and the table; default $TMPDIR/mck-compare-DATE).
top=$(cd "$(dirname "$0")/.." && pwd)
MCK=${MCK:-$top/mck}
SHARED=${SHARED:-$top/../shared}
OUT=${OUT:-${TMPDIR:-/tmp}/mck-compare-$(date +%Y%m%d-%H%M%S)}
exams=RC,RF,UB,CTLC,LTLC,RD timeout=60 jobs=1 kinds=PT instances=.
peers=
while [ $# -gt 0 ]; do
    case $1 in
    --peer) peers="$peers $2"; shift 2 ;;
    --exams) exams=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --instances) instances=$2; shift 2 ;;
    --kinds) kinds=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$MCK" ] && [ -f "$SHARED/tools/mcc-score" ] || {
    echo "compare.sh: need an mck binary ($MCK) and $SHARED/tools/mcc-score" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
cp "$MCK" "$OUT/mck" || exit 2
tables=
for entry in "mck=$OUT/mck" $peers; do
    label=${entry%%=*} bin=${entry#*=}
    case $entry in *=*) ;; *) echo "compare.sh: --peer wants LABEL=PATH" >&2; exit 2 ;; esac
    [ -x "$bin" ] || { echo "compare.sh: $bin is not executable" >&2; exit 2; }
    echo "== $label ($bin)" >&2
    python3 "$SHARED/tools/mcc-score" --bin "$bin" --kinds "$kinds" --exams "$exams" \
        --timeout "$timeout" --jobs "$jobs" --instances "$instances" --quiet --show-wrong \
        --json "$OUT/$label.json" --save-output "$OUT/$label-runs" >"$OUT/$label.txt" 2>&1
    tables="$tables $label=$OUT/$label.json"
done
# shellcheck disable=SC2086
python3 "$top/bench/sidebyside.py" $tables | tee "$OUT/table.txt"
echo "results in $OUT" >&2
