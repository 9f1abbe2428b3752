#!/bin/sh
# Colored nets (PNML symmetric nets) unfolded to P/T.
#
# 1. The fixtures of tests/data/pnml-colored: the philosophers read with
#    the documented names, their state space and MCC answers that name
#    colored places and transitions; each bad file refused with one
#    "FILE:LINE: message".
# 2. Every colored instance of the shared MCC folder is read.
# 3. For every shared colored instance whose family also has a P/T
#    instance, the colored model is scaled to the P/T instance's parameter
#    (tests/lib/scale_colored.py), unfolded, and its reachable states and
#    edges compared with the P/T instance's StateSpace oracle (or, where
#    there is no oracle, with mck's own count on the P/T instance: the
#    unfolding must be the contest's net up to names).
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
data="$TOP/tests/data/pnml-colored"
mcc="$SHARED/mcc"
tmp="${TMPDIR:-/tmp}/mck_colored.$$"
trap 'rm -rf "$tmp" "$tmp.out" "$tmp.err"' EXIT INT TERM

if [ ! -x "$MCK" ]; then
    echo "skip - colored: no mck binary at $MCK"
    exit 0
fi
mkdir -p "$tmp"

ok() { echo "ok - colored $1"; }
notok() { echo "not ok - colored $1: $2"; }

# ---- 1. fixtures ----

"$MCK" info -v "$data/philo.pnml" >"$tmp.out" 2>"$tmp.err"
for want in "colored: 5 places, 3 transitions, 10 arcs (unfolded below)" "places: 19" \
    "transitions: 8" "place Fork_3 tokens 1" "place Talked_(2,3)" "place Bell tokens 1" \
    "transition Take_2  % x=2" "transition Talk_(1,2)  % x=1 y=2" \
    "transition Talk_(2,3)  % x=2 y=3"; do
    if grep -qxF "$want" "$tmp.out"; then ok "philo info: $want"; else notok "philo info" "no line '$want'"; fi
done
# the guard y = x++1 and x != 3 leaves two of the nine bindings of Talk
n=$(grep -c '^transition Talk_' "$tmp.out")
[ "$n" -eq 2 ] && ok "philo: guard keeps 2 bindings" || notok "philo: guard" "$n Talk copies"

mkdir -p "$tmp/philo"
cp "$data/philo.pnml" "$tmp/philo/model.pnml"
echo TRUE >"$tmp/philo/iscolored"
prop() {   # id formula
    printf '<property><id>%s</id><description>x</description><formula>%s</formula></property>\n' "$1" "$2"
}
{
    echo '<?xml version="1.0"?><property-set xmlns="http://mcc.lip6.fr/">'
    prop philo-UpperBounds-00 '<place-bound><place>Eat</place></place-bound>'
    prop philo-UpperBounds-01 '<place-bound><place>Think</place></place-bound>'
    prop philo-UpperBounds-02 '<place-bound><place>Talked</place><place>Bell</place></place-bound>'
    echo '</property-set>'
} >"$tmp/philo/UpperBounds.xml"
{
    echo '<?xml version="1.0"?><property-set xmlns="http://mcc.lip6.fr/">'
    prop philo-ReachabilityFireability-00 \
        '<exists-path><finally><is-fireable><transition>Talk</transition></is-fireable></finally></exists-path>'
    prop philo-ReachabilityFireability-01 \
        '<exists-path><finally><conjunction><is-fireable><transition>Release</transition></is-fireable><is-fireable><transition>Talk</transition></is-fireable></conjunction></finally></exists-path>'
    echo '</property-set>'
} >"$tmp/philo/ReachabilityFireability.xml"
(cd "$tmp/philo" && for exam in StateSpace UpperBounds ReachabilityFireability \
    ReachabilityDeadlock OneSafe QuasiLiveness StableMarking Liveness; do
    "$MCK" mcc $exam || exit 1
done) >"$tmp.out" 2>"$tmp.err"
# 12 markings: no one, or one of three philosophers, eating, times
# nobody / (1,2) / (2,3) having talked; Talk_(1,2) and Release_3 together
# make 01 true.  The global properties are about colored places and
# transitions: Think holds three tokens (each copy at most one), every
# colored place changes its count (the copy Talked_(1,1) never does), and
# Talk fires once only.
for want in "STATE_SPACE STATES 12" "STATE_SPACE TRANSITIONS 22" \
    "FORMULA philo-UpperBounds-00 1" "FORMULA philo-UpperBounds-01 3" \
    "FORMULA philo-UpperBounds-02 1" "FORMULA philo-ReachabilityFireability-00 TRUE" \
    "FORMULA philo-ReachabilityFireability-01 TRUE" "FORMULA ReachabilityDeadlock FALSE" \
    "FORMULA OneSafe FALSE" "FORMULA QuasiLiveness TRUE" "FORMULA StableMarking FALSE" \
    "FORMULA Liveness FALSE"; do
    if grep -q "^$want TECHNIQUES UNFOLDING_TO_PT " "$tmp.out"; then
        ok "philo mcc: $want"
    else
        notok "philo mcc" "no '$want TECHNIQUES UNFOLDING_TO_PT ...' ($(grep "^${want% *}" "$tmp.out" | head -n 1))"
    fi
done

. "$TOP/tests/lib/one_error.sh"
check() { expect_one_error colored "$@"; }
# fixture | line | expected text
while IFS='|' read -r name line text; do
    file="$data/$name.pnml"
    check "$name" "$file" "$file:$line: " "$text"
done <<'EOF'
entity|2|DOCTYPE declares entities
huge-multiplicity|13|multiplicity '99999999999999999999' is not a number up to 9223372036854775807
multiplicity-overflow|13|multiplicity larger than 9223372036854775807
partition-used|13|partition element 'left' in a term is not supported
sort-mismatch|15|color of sort 'Philo' where sort 'Pair' is expected
subtract-below|15|<subtract> removes a color the multiset does not hold
successor-range|13|<successor> of a color that is not of a cyclic enumeration
too-many-bindings|13|the unfolding would try up to 1000000000000000000 bindings
too-many-places|13|the unfolding would have 20000000 places (limit 10000000): refused
unknown-variable|15|unknown variable 'nope'
unsupported-color|15|<stringconstant> as a color is not supported
unsupported-sort|12|<string> as a sort is not supported
variable-initial|13|a variable in <hlinitialMarking>: an initial marking has no binding
EOF

# ---- 2. every shared colored instance is read ----

if [ ! -d "$mcc" ]; then
    echo "skip - colored: $mcc not found"
    exit 0
fi
for dir in "$mcc"/*-COL-*; do
    [ -f "$dir/model.pnml" ] || continue
    name=$(basename "$dir")
    if "$MCK" info "$dir/model.pnml" >"$tmp.out" 2>"$tmp.err" && grep -q '^colored: ' "$tmp.out"; then
        ok "read $name"
    else
        notok "read $name" "$(head -n 1 "$tmp.err")"
    fi
done

# ---- 3. state counts against the P/T instances ----

if ! command -v python3 >/dev/null 2>&1; then
    echo "skip - colored state counts: python3 not installed (tests/lib/scale_colored.py scales the instances)"
    exit 0
fi
# colored instance | P/T instance | scaling (SORT=K keeps K constants, OLD:NEW renames)
while IFS='|' read -r col pt scale; do
    [ -f "$mcc/$col/model.pnml" ] || continue
    if [ ! -f "$mcc/$pt/model.pnml" ]; then
        echo "skip - colored states $col: no $pt"
        continue
    fi
    mkdir -p "$tmp/$pt"
    # shellcheck disable=SC2086
    if ! python3 "$TOP/tests/lib/scale_colored.py" "$mcc/$col/model.pnml" \
        "$tmp/$pt/model.pnml" $scale 2>"$tmp.err"; then
        notok "states $pt" "scaling failed: $(head -n 1 "$tmp.err")"
        continue
    fi
    oracle="$mcc/oracle/$pt-SS.out"
    if [ -f "$oracle" ]; then
        want=$(grep -E '^STATE_SPACE (STATES|TRANSITIONS) ' "$oracle" | cut -d' ' -f2,3)
        source="oracle"
    else
        mkdir -p "$tmp/$pt-pt"
        cp "$mcc/$pt/model.pnml" "$tmp/$pt-pt/"
        want=$("$MCK" mcc StateSpace "$tmp/$pt-pt" | grep -E '^STATE_SPACE (STATES|TRANSITIONS) ' |
            cut -d' ' -f2,3)
        source="mck on the P/T instance (no oracle)"
    fi
    got=$("$MCK" mcc StateSpace "$tmp/$pt" 2>"$tmp.err" |
        grep -E '^STATE_SPACE (STATES|TRANSITIONS) ' | cut -d' ' -f2,3)
    if [ -n "$want" ] && [ "$want" = "$got" ]; then
        ok "states $col scaled to $pt: $(echo $got) as $source"
    else
        notok "states $col scaled to $pt" "want '$(echo $want)' ($source), got '$(echo $got)' $(head -n 1 "$tmp.err")"
    fi
done <<'EOF'
AirplaneLD-COL-0050|AirplaneLD-PT-0010|Speed=10 Altitude=20 Speed25:Speed5 Speed50:Speed10 Altitude50:Altitude10 Altitude100:Altitude20
DatabaseWithMutex-COL-02|DatabaseWithMutex-PT-02|
DrinkVendingMachine-COL-10|DrinkVendingMachine-PT-02|Quality=8 Options=2 Products=2 Quality10:Quality2 Quality20:Quality4 Quality30:Quality6 Quality40:Quality8
PhilosophersDyn-COL-80|PhilosophersDyn-PT-03|Philosopher=3
QuasiCertifProtocol-COL-02|QuasiCertifProtocol-PT-02|
Referendum-COL-0020|Referendum-PT-0010|Voters=10
SharedMemory-COL-000050|SharedMemory-PT-000005|pclass=5
Sudoku-COL-AN06|Sudoku-PT-AN01|N=1
UtilityControlRoom-COL-Z2T4N06|UtilityControlRoom-PT-Z2T4N02|Cli=2
EOF
exit 0
