#!/bin/sh
# `mck mcc` on a handful of small contest instances, scored by
# $SHARED/tools/mcc-score against the contest's agreed answers: every run
# must give no wrong value, and on these instances (a few thousand markings
# at most) every known value of the state-space, bounds, reachability and
# global examinations must be answered (CTL and LTL: no wrong value).  One
# line per instance and examination.  Also runs mck the way BenchKit does:
# inside the instance folder, examination from BK_EXAMINATION only.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
score="$SHARED/tools/mcc-score"
mcc="$SHARED/mcc"
tmp="${TMPDIR:-/tmp}/mck_mcc_conf.$$"
trap 'rm -rf "$tmp" "$tmp".*' EXIT INT TERM

EXAMS=StateSpace,UpperBounds,ReachabilityDeadlock,ReachabilityCardinality,ReachabilityFireability,OneSafe,QuasiLiveness,StableMarking,Liveness,CTLCardinality,CTLFireability,LTLCardinality,LTLFireability
INSTANCES='^(Eratosthenes-PT-010|Sudoku-PT-AN01|ERK-PT-000001|CircularTrains-PT-012|DatabaseWithMutex-PT-02|ResAllocation-PT-R003C003|NQueens-PT-05|DoubleExponent-PT-001|PhilosophersDyn-PT-03|ShieldRVs-PT-001A|IOTPpurchase-PT-C01M01P01D01|RwMutex-PT-r0010w0010|Dekker-PT-010|IBM319-PT-none|IBM703-PT-none|SimpleLoadBal-PT-02|QuasiCertifProtocol-PT-02|Railroad-PT-005|SharedMemory-PT-000005|DNAwalker-PT-03track12BlockBoth|CloudOpsManagement-PT-00002by00001)$'

if [ ! -x "$MCK" ]; then
    echo "skip - mcc conformance: no mck binary at $MCK"
    exit 0
fi
# the data first: without it python3 is not what is missing
if [ ! -d "$mcc" ]; then
    echo "skip - mcc conformance: $mcc not found (the contest instances)"
    exit 0
fi
if [ ! -f "$score" ]; then
    echo "skip - mcc conformance: $score not found (the scorer)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "skip - mcc conformance: python3 not installed (the scorer $score is a Python program)"
    exit 0
fi

# BenchKit's way: the current folder is the instance, nothing on the
# command line but the examination's absence.
harness() {
    inst=$1 exam=$2 want=$3
    mkdir -p "$tmp/h" && cp "$mcc/$inst/model.pnml" "$mcc/$inst/iscolored" "$tmp/h/" &&
        cp "$mcc/$inst/"*.xml "$tmp/h/" 2>/dev/null
    got=$(cd "$tmp/h" && BK_EXAMINATION=$exam BK_TIME_CONFINEMENT=20 "$MCK" mcc 2>/dev/null |
          grep -c "$want")
    if [ "$got" -ge 1 ]; then
        echo "ok - harness style: BK_EXAMINATION=$exam in $inst"
    else
        echo "not ok - harness style: BK_EXAMINATION=$exam in $inst printed no '$want' line"
    fi
    rm -rf "$tmp/h"
}
harness Eratosthenes-PT-010 UpperBounds "^FORMULA Eratosthenes-PT-010-UpperBounds-00 [0-9]* TECHNIQUES "
harness Eratosthenes-PT-010 StateSpace "^STATE_SPACE STATES 32 TECHNIQUES "

"$score" --bin "$MCK" --kinds PT --exams "$EXAMS" --instances "$INSTANCES" \
    --timeout 20 --grace 5 --jobs 2 --quiet --json "$tmp.json" >"$tmp.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] || [ ! -s "$tmp.json" ]; then
    echo "not ok - mcc conformance: mcc-score failed to run (status $rc)"
    sed 's/^/    /' "$tmp.out" | tail -n 5
    exit 0
fi

python3 - "$tmp.json" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
runs = {}
for v in data["values"]:
    key = (v["instance"], v["exam"])
    runs.setdefault(key, []).append(v)
if not runs:
    print("not ok - mcc conformance: no value scored")
for (inst, exam), vals in sorted(runs.items()):
    wrong = [v for v in vals if v["verdict"] == "wrong"]
    missing = [v for v in vals if v["verdict"] == "missing" and v["oracle_known"]]
    name = "%s %s" % (inst, exam)
    if wrong:
        for v in wrong:
            print("not ok - %s: %s expected %s, got %s" % (name, v["id"], v["expected"], v["got"]))
    elif missing and not exam.startswith(("CTL", "LTL")):
        print("not ok - %s: %d of %d values not answered (%s...)"
              % (name, len(missing), len(vals), missing[0]["id"]))
    else:
        # temporal logics: a product that does not fit the time on a loaded
        # machine may leave a value open; only wrong values fail
        print("ok - %s: %d values, %d unanswered" % (name, len(vals), len(missing)))
EOF
exit 0
