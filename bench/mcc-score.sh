#!/bin/sh
# Scores `mck mcc` on every P/T instance of the shared MCC sample for the
# examinations mck answers, the way the acceptance run does it.  A
# benchmark, not a test: with the default 60 s per run it takes hours.
#
#   bench/mcc-score.sh [mcc-score options...]
#
# Extra options go to mcc-score after the defaults, so they override them:
#   bench/mcc-score.sh --timeout 10 --instances '^Dekker'
# The binary is copied first, so a rebuild during the run cannot mix two
# versions.  Environment: MCK (binary), SHARED (the shared folder),
# JOBS (parallel runs, default 2), OUT (folder for the table, JSON and
# outputs; default $TMPDIR/mck-mcc-score-DATE).
top=$(cd "$(dirname "$0")/.." && pwd)
MCK=${MCK:-$top/mck}
SHARED=${SHARED:-$top/../shared}
JOBS=${JOBS:-2}
OUT=${OUT:-${TMPDIR:-/tmp}/mck-mcc-score-$(date +%Y%m%d-%H%M%S)}
EXAMS=StateSpace,UpperBounds,ReachabilityDeadlock,ReachabilityCardinality,ReachabilityFireability,OneSafe,QuasiLiveness,StableMarking,Liveness

if [ ! -x "$MCK" ] || [ ! -f "$SHARED/tools/mcc-score" ]; then
    echo "need an mck binary ($MCK) and $SHARED/tools/mcc-score" >&2
    exit 2
fi
mkdir -p "$OUT" || exit 2
cp "$MCK" "$OUT/mck" || exit 2
echo "results in $OUT" >&2
python3 "$SHARED/tools/mcc-score" --bin "$OUT/mck" --kinds PT --exams "$EXAMS" \
    --timeout 60 --jobs "$JOBS" --show-wrong --json "$OUT/score.json" \
    --save-output "$OUT/runs" "$@" | tee "$OUT/score.txt"
