#!/bin/sh
# Every P/T instance of the shared MCC folder, read by `mck info`, must
# agree with counts made independently here with xmllint's XPath: places,
# transitions, arcs (distinct source/target pairs, split by direction),
# initial tokens, syntactic safety, NUPN units and the net's name.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
mcc="$SHARED/mcc"
tmp="${TMPDIR:-/tmp}/mck_pnml_counts.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

if [ ! -d "$mcc" ]; then
    echo "skip - pnml counts: $mcc not found"
    exit 0
fi
if ! command -v xmllint >/dev/null 2>&1; then
    echo "skip - pnml counts: xmllint not installed (Debian package libxml2-utils)"
    exit 0
fi
if [ ! -x "$MCK" ]; then
    echo "skip - pnml counts: no mck binary at $MCK"
    exit 0
fi

el() { printf "*[local-name()='%s']" "$1"; }
PLACE=$(el place) TRANS=$(el transition) ARC=$(el arc) TEXT=$(el text)
MARK="//$PLACE/$(el initialMarking)/$TEXT"
INSC="//$ARC/$(el inscription)/$TEXT"
UNIT="//$(el toolspecific)[@tool='nupn']/$(el structure)/$(el unit)"
# One line: places transitions arcs units weights!=1 markings>1 tokens name.
# (No XPath union anywhere: libxml2 merges unions in quadratic time.)
SUMMARY="concat(count(//$PLACE), ' ', count(//$TRANS), ' ', count(//$ARC), ' ',
 count($UNIT), ' ', count($INSC[normalize-space(.) != '1']), ' ',
 count($MARK[number(.) > 1]), ' ', sum($MARK), ' ', string(//$(el net)/@id))"
# In document order: place ids and arc ends.
ENDS="//@*[(local-name()='id' and local-name(..)='place') or
 ((local-name()='source' or local-name()='target') and local-name(..)='arc')]"

# Reads the ENDS listing; prints "distinct pt tp".  Arcs may come before
# their places, so directions are decided at the end.
tally() {
    awk '
        /^ id="/     { split($0, q, "\""); place[q[2]] = 1; next }
        /^ source="/ { split($0, q, "\""); src = q[2]; next }
        /^ target="/ { split($0, q, "\""); pair = src "\t" q[2]
                       if (!(pair in seen)) { seen[pair] = src; n++ }
                       next }
        END { for (pair in seen) if (seen[pair] in place) pt++; else tp++
              printf "%d %d %d\n", n, pt, tp }'
}

# Exact sum of the marking texts, for totals a double cannot hold.
exact_tokens() {
    xmllint --xpath "$MARK/text()" "$1" 2>/dev/null |
        awk '{ for (i = 1; i <= NF; i++) print $i }' | {
        t=0
        while read -r v; do
            t=$((t + v))
        done
        echo "$t"
    }
}

# Reads mck's output into got_* variables, without a process per field.
read_info() {
    got_net= got_places= got_trans= got_arcs= got_tokens= got_safe= got_partition=
    while IFS= read -r line; do
        case "$line" in
            "net: "*) got_net=${line#net: } ;;
            "places: "*) got_places=${line#places: } ;;
            "transitions: "*) got_trans=${line#transitions: } ;;
            "arcs: "*) got_arcs=${line#arcs: } ;;
            "initial tokens: "*) got_tokens=${line#initial tokens: } ;;
            "syntactically safe: "*) got_safe=${line#syntactically safe: } ;;
            "partition: "*) got_partition=${line#partition: }
                            got_partition=${got_partition%% (*} ;;
        esac
    done <"$tmp.out"
}

check() {
    name=$1 model=$2
    if ! "$MCK" info "$model" >"$tmp.out" 2>"$tmp.err"; then
        echo "not ok - $name: mck info failed: $(head -n 1 "$tmp.err")"
        return
    fi
    read_info
    set -- $(xmllint --xpath "$SUMMARY" "$model" 2>/dev/null)
    places=$1 trans=$2 arcs=$3 units=$4 heavy=$5 marked=$6 tokens=$7 net=$8
    case "$tokens" in
        *[!0-9]*) tokens=$(exact_tokens "$model") ;;
    esac
    set -- $(xmllint --xpath "$ENDS" "$model" 2>/dev/null | tally)
    distinct=$1 pt=$2 tp=$3
    if [ "$distinct" -eq "$arcs" ] && [ "$heavy" -eq 0 ] && [ "$marked" -eq 0 ]; then
        safe=yes
    elif [ "$distinct" -eq "$arcs" ]; then
        safe=no
    else
        safe=$got_safe   # merged duplicates: not checked
    fi
    if [ "$units" -eq 0 ]; then
        partition=none
    else
        partition="$units units"
    fi
    want="net: $net
places: $places
transitions: $trans
arcs: $distinct (place->transition $pt, transition->place $tp, read 0)
initial tokens: $tokens
syntactically safe: $safe
partition: $partition"
    got="net: $got_net
places: $got_places
transitions: $got_trans
arcs: $got_arcs
initial tokens: $got_tokens
syntactically safe: $got_safe
partition: $got_partition"
    if [ "$want" = "$got" ]; then
        echo "ok - $name"
    else
        echo "not ok - $name: expected / got:"
        printf '%s\n' "$want" >"$tmp.want"
        printf '%s\n' "$got" | diff "$tmp.want" - | sed -n 's/^[<>]/    &/p'
    fi
}

found=0
for dir in "$mcc"/*-PT-*; do
    [ -f "$dir/model.pnml" ] || continue
    found=1
    check "$(basename "$dir")" "$dir/model.pnml"
done
[ "$found" -eq 1 ] || echo "skip - pnml counts: no P/T instance in $mcc"
exit 0
