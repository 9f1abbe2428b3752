#!/bin/sh
# The unfold checker answers from a prefix that is not complete: every
# configuration of the events built so far is one of the unfolding, so a
# deadlock or a goal found there is reachable (YES, its run replayed by
# mck check before it is printed), and finding none says nothing (UNKNOWN,
# never NO).  A generated net whose deadlock lies 8 steps deep while
# counters running beside it make the complete prefix thousands of events
# long: -m cuts the prefix below that and the answer is still YES; a limit
# below the deadlock's events gives UNKNOWN with the reason; a goal that is
# unreachable stays UNKNOWN under the limit and is NO on the complete
# prefix.  Solitaire-PT-SqrNC5x5's complete prefix has more than 19
# million events (docs/unfolding.md): its deadlock can only come from a
# look at a partial one, in mck check and in mck mcc.  mck mcc's
# reachability pre-pass answers from looks as well (a generated net).
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_unfold_partial.$$"
trap 'rm -rf "$tmp".*' EXIT INT TERM

# deep K C L: a line of L steps whose last takes the token "run", and K
# counters of C states that each step on while "run" is there; the only
# deadlock is the line's end (run gone, the counters stuck)
deep() {
    awk -v K="$1" -v C="$2" -v L="$3" 'BEGIN {
        print "\\beginnet{deep}"
        print "  \\place{r}{\\name{run} \\init{1}}"
        for (i = 0; i <= L; i++)
            printf "  \\place{a%d}{\\name{a%d}%s}\n", i, i, i ? "" : " \\init{1}"
        for (i = 0; i < L; i++) {
            printf "  \\transition{s%d}{\\name{step%d}}\n", i, i
            printf "  \\arc{x%d}{\\from{a%d} \\to{s%d}}\n", i, i, i
            printf "  \\arc{y%d}{\\from{s%d} \\to{a%d}}\n", i, i, i + 1
        }
        printf "  \\arc{rl}{\\from{r} \\to{s%d}}\n", L - 1
        for (k = 0; k < K; k++)
            for (v = 0; v < C; v++) {
                printf "  \\place{n%d_%d}{\\name{c%d_%d}%s}\n", k, v, k, v, v ? "" : " \\init{1}"
                printf "  \\transition{f%d_%d}{\\name{count%d_%d}}\n", k, v, k, v
                printf "  \\arc{p%d_%d}{\\from{n%d_%d} \\to{f%d_%d}}\n", k, v, k, v, k, v
                printf "  \\arc{q%d_%d}{\\from{f%d_%d} \\to{n%d_%d}}\n", k, v, k, v, k, (v + 1) % C
                printf "  \\arc{r%d_%d}{\\from{r} \\to{f%d_%d}}\n", k, v, k, v
                printf "  \\arc{w%d_%d}{\\from{f%d_%d} \\to{r}}\n", k, v, k, v
            }
        print "\\endnet"
    }'
}

deep 5 4 8 >"$tmp.apnn"
events=$("$MCK" info --prefix "$tmp.apnn" 2>&1 | sed -n 's/^prefix: \([0-9]*\) events.*/\1/p')
if [ -n "$events" ] && [ "$events" -gt 3000 ]; then
    echo "ok - the generated net's complete prefix: $events events, more than -m 3000 lets build"
else
    echo "not ok - the generated net's complete prefix: '$events' events, want more than 3000"
fi

"$MCK" check -q -k dl "$tmp.apnn" >"$tmp.e" 2>&1
st=$?
"$MCK" check -v -c unfold -k dl -m 3000 "$tmp.apnn" >"$tmp.u" 2>&1
su=$?
if [ "$st" -eq 0 ] && [ "$su" -eq 0 ] && grep -q '^Result: YES' "$tmp.u" &&
   grep -q '^unfold: partial prefix of 3000 events' "$tmp.u" && grep -q 'step7' "$tmp.u" &&
   ! grep -q 'internal error' "$tmp.u"; then
    echo "ok - -m 3000: the deadlock from the partial prefix, as explicit finds it, its run replayed"
else
    echo "not ok - -m 3000: explicit exit $st, unfold exit $su: $(grep 'Result\|prefix of\|error' "$tmp.u" | head -n 3 | tr '\n' ' ')"
fi

"$MCK" check -c unfold -k dl -m 200 "$tmp.apnn" >"$tmp.u" 2>&1
su=$?
if [ "$su" -eq 3 ] && grep -q '^Result: UNKNOWN (event limit reached (200 events); none of the configurations of the 200 events built is a deadlock)' "$tmp.u"; then
    echo "ok - -m 200: UNKNOWN, the limit and what the events built hold"
else
    echo "not ok - -m 200: exit $su: $(grep Result "$tmp.u")"
fi

# a goal beside the deadlock, and one nothing reaches
printf '"a7" & "c0_3"\n' >"$tmp.yes.form"
printf '"a8" & "run"\n' >"$tmp.no.form"
"$MCK" check -q -k reach "$tmp.apnn" "$tmp.yes.form" >"$tmp.e" 2>&1
st=$?
"$MCK" check -c unfold -k reach -m 3000 "$tmp.apnn" "$tmp.yes.form" >"$tmp.u" 2>&1
su=$?
if [ "$st" -eq 0 ] && [ "$su" -eq 0 ] && ! grep -q 'internal error' "$tmp.u"; then
    echo "ok - -m 3000, reach a7 & c0_3: YES from the partial prefix, as explicit, replayed"
else
    echo "not ok - -m 3000, reach a7 & c0_3: explicit exit $st, unfold exit $su: $(grep 'Result\|error' "$tmp.u" | head -n 2 | tr '\n' ' ')"
fi
"$MCK" check -q -k reach "$tmp.apnn" "$tmp.no.form" >"$tmp.e" 2>&1
st=$?
"$MCK" check -c unfold -k reach -m 3000 "$tmp.apnn" "$tmp.no.form" >"$tmp.u" 2>&1
su=$?
"$MCK" check -c unfold -k reach "$tmp.apnn" "$tmp.no.form" >"$tmp.c" 2>&1
sc=$?
if [ "$st" -eq 1 ] && [ "$su" -eq 3 ] &&
   grep -q 'none of the configurations of the 3000 events built satisfies the formula' "$tmp.u" &&
   [ "$sc" -eq 1 ]; then
    echo "ok - reach a8 & run: UNKNOWN under -m 3000, NO on the complete prefix, as explicit"
else
    echo "not ok - reach a8 & run: explicit exit $st, unfold -m 3000 exit $su, unfold exit $sc: $(grep Result "$tmp.u")"
fi

# mck mcc's reachability pre-pass looks at the prefix while it grows, at
# every open property at once: 8 counters of 6 states make the complete
# prefix far larger than the pre-pass builds, so E F (a7 and c0_3) and
# A G not (a6 and c1_2), 13 and 11 events deep, are answered TRUE and
# FALSE by looks (NET_UNFOLDING), their runs replaying on the model; once
# both are settled the construction stops (the 120 s are for a loaded
# machine: with a core it takes about a second)
mkdir -p "$tmp.mcc.d"
deep 8 6 8 >"$tmp.big.apnn"
"$MCK" convert --to pnml "$tmp.big.apnn" -o "$tmp.mcc.d/model.pnml" >/dev/null 2>&1
tc() { printf '<integer-le><integer-constant>1</integer-constant><tokens-count><place>%s</place></tokens-count></integer-le>' "$1"; }
{
    echo '<?xml version="1.0"?>'
    echo '<property-set xmlns="http://mcc.lip6.fr/">'
    echo "<property><id>deep-ReachabilityCardinality-00</id><description>x</description><formula><exists-path><finally><conjunction>$(tc a7)$(tc n0_3)</conjunction></finally></exists-path></formula></property>"
    echo "<property><id>deep-ReachabilityCardinality-01</id><description>x</description><formula><all-paths><globally><negation><conjunction>$(tc a6)$(tc n1_2)</conjunction></negation></globally></all-paths></formula></property>"
    echo '</property-set>'
} >"$tmp.mcc.d/ReachabilityCardinality.xml"
BK_TIME_CONFINEMENT=120 "$MCK" mcc -j 1 -v --lp=off --walk=off --xml "$tmp.rx.xml" \
    ReachabilityCardinality "$tmp.mcc.d" >"$tmp.rx" 2>"$tmp.rxerr"
replayed=0
for id in 00 01; do
    python3 - "$tmp.rx.xml" "deep-ReachabilityCardinality-$id" "$tmp.one.xml" <<'PY' &&
import copy, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
one = ET.Element(root.tag, root.attrib)
hit = 0
for c in root:
    if c.tag != 'verdict':
        one.append(copy.deepcopy(c))
    elif c.get('reference') == sys.argv[2] and c.find('trace') is not None:
        one.append(copy.deepcopy(c))
        hit = 1
ET.ElementTree(one).write(sys.argv[3])
sys.exit(0 if hit else 1)
PY
        "$MCK" simulate --run "$tmp.one.xml" "$tmp.mcc.d/model.pnml" 2>&1 | grep -q '^Replayed: ' &&
        replayed=$((replayed + 1))
done
if grep -q '^FORMULA deep-ReachabilityCardinality-00 TRUE TECHNIQUES .*NET_UNFOLDING' "$tmp.rx" &&
   grep -q '^FORMULA deep-ReachabilityCardinality-01 FALSE TECHNIQUES .*NET_UNFOLDING' "$tmp.rx" &&
   grep -q 'unfolding: look at the first [0-9]* events: [12] of [12] queries settled' "$tmp.rxerr" &&
   ! grep -q 'unfolding: prefix of' "$tmp.rxerr" && [ "$replayed" -eq 2 ]; then
    echo "ok - mcc ReachabilityCardinality: E F TRUE and A G FALSE from looks at the partial prefix, $replayed runs replayed"
else
    echo "not ok - mcc ReachabilityCardinality from looks: $(grep FORMULA "$tmp.rx" | tr '\n' ' ') $(grep 'unfolding' "$tmp.rxerr" | tail -n 2 | tr '\n' ' ') replayed $replayed"
fi

m="$SHARED/mcc/Solitaire-PT-SqrNC5x5/model.pnml"
if [ -f "$m" ]; then
    "$MCK" check -v -c unfold -k dl -j 1 --timeout 120 "$m" >"$tmp.s" 2>&1
    ss=$?
    if [ "$ss" -eq 0 ] && grep -q '^Result: YES' "$tmp.s" &&
       grep -q '^unfold: look [0-9]* at the first [0-9]* events .*: found' "$tmp.s" &&
       ! grep -q 'internal error' "$tmp.s"; then
        echo "ok - Solitaire-PT-SqrNC5x5 dl: YES from $(grep -o 'look [0-9]* at the first [0-9]* events' "$tmp.s" | tail -n 1), replayed"
    else
        echo "not ok - Solitaire-PT-SqrNC5x5 dl: exit $ss: $(grep '^unfold: look\|Result' "$tmp.s" | tail -n 2 | tr '\n' ' ')"
    fi
    # mck mcc: ReachabilityDeadlock's unfolding looks the same way; with
    # the state equation and the walks off, TRUE comes from it, and the
    # run --xml saves replays into the deadlock
    BK_TIME_CONFINEMENT=120 "$MCK" mcc -j 1 --lp=off --walk=off --xml "$tmp.xml" \
        ReachabilityDeadlock "$(dirname "$m")" >"$tmp.mcc" 2>"$tmp.err"
    if grep -q '^FORMULA ReachabilityDeadlock TRUE TECHNIQUES .*NET_UNFOLDING' "$tmp.mcc" &&
       "$MCK" simulate --run "$tmp.xml" "$m" 2>&1 | grep -q 'run ends in a deadlock'; then
        echo "ok - mcc ReachabilityDeadlock on Solitaire-PT-SqrNC5x5: TRUE by the unfolding, the run replays into the deadlock"
    else
        echo "not ok - mcc ReachabilityDeadlock on Solitaire-PT-SqrNC5x5: $(head -n 1 "$tmp.mcc") $(tail -n 1 "$tmp.err")"
    fi
else
    echo "skip - Solitaire-PT-SqrNC5x5: $m is absent"
fi
