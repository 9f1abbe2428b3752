#!/bin/sh
# The unfold checker's concurrency relation kept sparse
# (engine/unfold/corel.c): the prefixes are the ones the square bit matrix
# built before (sizes from `mck info --prefix` at commit 105696b, the last
# with the matrix), and PermAdmissibility-COL-01, whose matrix asked for
# 8 GiB at 131073 conditions (UNKNOWN), now gets its prefix and the
# explicit checker's deadlock answer; a budget too small for it ends in
# UNKNOWN with the reason, not in a crash.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_unfold_scale.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

mcc="$SHARED/mcc"
for pair in "Railroad-PT-005:1424 events (831 cut-offs), 3752 conditions" \
            "Dekker-PT-010:1020 events (910 cut-offs), 3040 conditions" \
            "IBM703-PT-none:836 events (64 cut-offs), 844 conditions"; do
    i=${pair%%:*} want=${pair#*:}
    if [ ! -f "$mcc/$i/model.pnml" ]; then
        echo "skip - prefix of $i: $mcc/$i/model.pnml is absent"
        continue
    fi
    got=$("$MCK" info --prefix "$mcc/$i/model.pnml" 2>&1 | sed -n 's/^prefix: //p')
    if [ "$got" = "$want" ]; then
        echo "ok - prefix of $i: $got, as the bit matrix built it"
    else
        echo "not ok - prefix of $i: '$got', the bit matrix built '$want'"
    fi
done

i=PermAdmissibility-COL-01
m="$mcc/$i/model.pnml"
if [ ! -f "$m" ]; then
    echo "skip - $i: $m is absent"
    exit 0
fi
# generous for a loaded 2-core machine: alone it takes 2 s (unfold) and 0.3 s
"$MCK" check -c explicit -k dl -j 1 --timeout 300 "$m" >"$tmp.e" 2>&1
re=$?
"$MCK" check -c unfold -k dl -v --timeout 300 "$m" >"$tmp.u" 2>&1
ru=$?
ans_e=$(grep '^Result:' "$tmp.e")
ans_u=$(grep '^Result:' "$tmp.u")
if [ "$re" -gt 1 ]; then
    echo "skip - $i: the explicit search did not decide ($ans_e)"
elif [ "$ru" = "$re" ] && [ "$ans_u" = "$ans_e" ]; then
    echo "ok - $i, dl: unfold answers as explicit ($ans_u), $(grep -o 'prefix of [0-9]* events[^,]*' "$tmp.u" | head -n 1)"
else
    echo "not ok - $i, dl: unfold exit $ru '$ans_u' ($(grep -i 'unknown\|error' "$tmp.u" | head -n 1)), explicit exit $re '$ans_e'"
fi

# (since the packed relation and queue, its prefix fits the 20 MiB carve of
# --mem 40, and its solver hits the cap instead: a 10 MiB carve is too small)
"$MCK" check -c unfold -k dl --mem 20 --timeout 300 "$m" >"$tmp.m" 2>&1
rm_=$?
if [ "$rm_" = 3 ] && grep -q 'memory budget exhausted' "$tmp.m"; then
    echo "ok - $i, --mem 20: UNKNOWN ($(grep -o 'memory budget exhausted[^)]*' "$tmp.m" | head -n 1))"
else
    echo "not ok - $i, --mem 20: exit $rm_, $(head -n 2 "$tmp.m" | tr '\n' ' ')"
fi
