#!/bin/sh
# mck convert: every PEP example (examples/pep/, ../shared/examples/pep/)
# and ten small MCC P/T instances, converted to APNN, PNML and PEP and each
# back to the source's own format, keep their places, transitions, arcs and
# reachable markings.  The markings are counted by an exhaustive search for
# a state satisfying `false` (nothing stops it early).  APNN and PNML have
# no read arcs: there each read arc becomes a self-loop, one arc each way.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_convert.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
printf 'false\n' >"$tmp/false.form"

# "P T PT TP READ STATES" of a model, or "error"
shape() {
    "$MCK" info "$1" >"$tmp/info" 2>"$tmp/err" || { echo error; return; }
    "$MCK" check -q -v -k reach "$1" "$tmp/false.form" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 1 ] || { echo error; return; }
    p=$(sed -n 's/^places: //p' "$tmp/info")
    t=$(sed -n 's/^transitions: //p' "$tmp/info")
    a=$(sed -n 's/^arcs: [0-9]* (place->transition \([0-9]*\), transition->place \([0-9]*\), read \([0-9]*\))$/\1 \2 \3/p' "$tmp/info")
    s=$(sed -n 's/^states: //p' "$tmp/err")
    echo "$p $t $a $s"
}

# The shape a format without read arcs must show: read arcs as self-loops.
folded() {
    set -- $1
    echo "$1 $2 $(($3 + $5)) $(($4 + $5)) 0 $6"
}

roundtrip() {   # MODEL SOURCE-SUFFIX [NAME]
    model=$1 src=$2 name=${3:-$(basename "$1")}
    want=$(shape "$model")
    case "$want" in error|*"  "*) echo "not ok - convert $name: cannot read the source"; return;; esac
    for fmt in apnn pnml ll_net; do
        out="$tmp/x.$fmt" back="$tmp/back.$src"
        if ! "$MCK" convert "$model" -o "$out" 2>"$tmp/cerr" ||
           ! "$MCK" convert "$out" -o "$back" 2>>"$tmp/cerr"; then
            echo "not ok - convert $name to $fmt and back: $(head -n 1 "$tmp/cerr")"
            continue
        fi
        expect=$want
        [ "$fmt" = ll_net ] || expect=$(folded "$want")
        got=$(shape "$out") again=$(shape "$back")
        if [ "$got" = "$expect" ] && [ "$again" = "$expect" ]; then
            echo "ok - convert $name to $fmt and back: P T PT TP RA states = $expect"
        else
            echo "not ok - convert $name to $fmt and back: want $expect, $fmt $got, back $again"
        fi
    done
}

for m in "$TOP"/examples/pep/*.ll_net; do
    roundtrip "$m" ll_net
done
if [ -d "$SHARED/examples/pep" ]; then
    for m in "$SHARED"/examples/pep/*.ll_net; do
        roundtrip "$m" ll_net
    done
else
    echo "skip - convert shared PEP examples: $SHARED/examples/pep is absent"
fi
# ten small P/T instances (2 to 59050 reachable markings; weights, many
# arcs per transition, several initial tokens per place)
for i in Sudoku-PT-AN01 Eratosthenes-PT-010 ERK-PT-000001 DoubleExponent-PT-001 \
         ShieldRVs-PT-001A CircularTrains-PT-012 ShieldPPPt-PT-001A NeighborGrid-PT-d2n3m1c12 \
         RefineWMG-PT-002002 Referendum-PT-0010; do
    if [ -f "$SHARED/mcc/$i/model.pnml" ]; then
        roundtrip "$SHARED/mcc/$i/model.pnml" pnml "$i"
    else
        echo "skip - convert $i: $SHARED/mcc/$i/model.pnml is absent"
    fi
done

# The APNN examples: a capacity place is an ordinary place once written.
roundtrip "$TOP/examples/apnn/mutex.apnn" apnn
roundtrip "$TOP/examples/apnn/forks.apnn" apnn

# Names survive where the format can carry them; a run reads the same.
"$MCK" convert "$TOP/examples/apnn/forks.apnn" -o "$tmp/f.pnml" 2>/dev/null
"$MCK" check -k dl "$tmp/f.pnml" >"$tmp/run" 2>&1
if grep -q '^A_takes_f1 (ta1)$' "$tmp/run" && grep -q '^B_takes_f2 (tb1)$' "$tmp/run"; then
    echo "ok - convert forks.apnn to pnml: ids and names kept, same deadlock run"
else
    echo "not ok - convert forks.apnn to pnml: run $(tr '\n' ' ' <"$tmp/run")"
fi

# Errors: no output file is left behind, status 2, one line.
"$MCK" convert "$TOP/examples/apnn/forks.apnn" -o "$tmp/f.txt" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/f.txt" ] && grep -qxF "mck convert: cannot tell the format of '$tmp/f.txt' from its suffix (.apnn, .pnml, .ll_net, .ll, .mci); use --to FORMAT" "$tmp/err"; then
    echo "ok - convert refuses an unknown suffix"
else
    echo "not ok - convert unknown suffix: status $rc"
fi
"$MCK" convert -t apnn "$TOP/tests/data/apnn/bad_weight0.apnn" -o "$tmp/w.pnml" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/w.pnml" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    echo "ok - convert of a bad model: status 2, one message, no file"
else
    echo "not ok - convert of a bad model: status $rc"
fi

# Names and ids no format carries as they are (names.pnml): ids with a
# blank make every node renamed p1.., t1..; names stay where the format can
# hold them (PNML escapes, PEP switches quotes), APNN leaves out names with
# % or a backslash, with a warning, and the net stays the same.
names="$TOP/tests/data/convert/names.pnml"
roundtrip "$names" pnml names.pnml
"$MCK" convert -v "$names" -o "$tmp/n.apnn" 2>"$tmp/err"
"$MCK" convert "$names" -o "$tmp/n.ll_net" 2>/dev/null
"$MCK" convert "$names" -o "$tmp/n.pnml" 2>/dev/null
"$MCK" info -v "$tmp/n.apnn" >"$tmp/a" 2>&1
"$MCK" info -v "$tmp/n.ll_net" >"$tmp/l" 2>&1
"$MCK" info -v "$tmp/n.pnml" >"$tmp/p" 2>&1
if grep -q "renamed p1.., t1.." "$tmp/err" && grep -q "the name '50% {full}' cannot be written" "$tmp/err" &&
   grep -q '^place p2 "say "hi""$' "$tmp/a" && grep -q '^transition t1 "it'"'"'s"$' "$tmp/a" &&
   grep -q '^place 2 "say "hi""$' "$tmp/l" && grep -q '^place p3 "back\\slash & <tag>"$' "$tmp/p" &&
   grep -q '^place p1 "50% {full}" tokens 2$' "$tmp/p"; then
    echo "ok - convert names.pnml: names kept where the format allows, ids renamed"
else
    echo "not ok - convert names.pnml: $(cat "$tmp/err" "$tmp/a" "$tmp/l" "$tmp/p" | tr '\n' ' ')"
fi

# A PEP name cannot hold both quote characters (pep-format.md §12).
"$MCK" convert "$TOP/tests/data/convert/quotes.pnml" -o "$tmp/q.ll_net" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$tmp/q.ll_net" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "cannot be written in PEP" "$tmp/err"; then
    echo "ok - convert refuses a PEP name with both quotes: status 2, no file"
else
    echo "not ok - convert PEP name with both quotes: status $rc, $(cat "$tmp/err")"
fi
# -o - writes to standard output, the format named by --to.
"$MCK" convert --to apnn "$TOP/tests/data/convert/quotes.pnml" -o - >"$tmp/q.apnn" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^  \\transition{t}{\\name{it'"'"'s "t"}}$' "$tmp/q.apnn" &&
   [ "$(shape "$tmp/q.apnn")" = "1 1 1 0 0 2" ]; then
    echo "ok - convert --to apnn -o -: the net on standard output"
else
    echo "not ok - convert --to apnn -o -: status $rc"
fi

# Languages mck cannot write back (CFA, B(PN)²): their nets go out in every
# format and come back from it unchanged.
oneway() {   # MODEL
    model=$1 name=$(basename "$1")
    want=$(shape "$model")
    case "$want" in error|*"  "*) echo "not ok - convert $name: cannot read the source"; return;; esac
    for fmt in apnn pnml ll_net; do
        if ! "$MCK" convert "$model" -o "$tmp/o.$fmt" 2>"$tmp/cerr" ||
           ! "$MCK" convert "$tmp/o.$fmt" -o "$tmp/o2.$fmt" 2>>"$tmp/cerr"; then
            echo "not ok - convert $name to $fmt: $(head -n 1 "$tmp/cerr")"
            continue
        fi
        expect=$want
        [ "$fmt" = ll_net ] || expect=$(folded "$want")
        got=$(shape "$tmp/o.$fmt") again=$(shape "$tmp/o2.$fmt")
        if [ "$got" = "$expect" ] && [ "$again" = "$expect" ]; then
            echo "ok - convert $name to $fmt and again: P T PT TP RA states = $expect"
        else
            echo "not ok - convert $name to $fmt: want $expect, got $got, again $again"
        fi
    done
}
oneway "$TOP/examples/cfa/peterson.cfa"
oneway "$TOP/examples/bpn2/features.bpn2"
oneway "$TOP/examples/bpn2/prodcons.bpn2"

# PNML is XML: UTF-8, no control characters but tab and line ends, and
# its readers drop white space around a name (issue #40: a name that was
# not UTF-8 went into the file, which nothing could read back, with exit
# 0).  A name PNML cannot carry is an error (status 2, one line, no file);
# every other name comes back byte for byte.  The PEP models are written
# here with printf, for the bytes.
pep_with() {   # FILE PLACE-NAME: a PEP net whose one place has that name (printf escapes)
    printf "PEP\\nPTNet\\nFORMAT_N2\\nPL\\n1\"$2\"M1\\nTR\\n1\"t\"\\nTP\\n1<1\\nPT\\n1>1\\n" >"$1"
}
for case in 'not UTF-8|p\377x|it is not UTF-8 (byte 0xFF)' \
            'a truncated UTF-8 sequence|caf\303|it is not UTF-8 (byte 0xC3)' \
            'a surrogate|x\355\240\200|it is not UTF-8 (byte 0xED)' \
            'a control character|a\001b|it holds U+0001' \
            'a leading blank| lead|it starts or ends with white space'; do
    what=${case%%|*} rest=${case#*|}
    name=${rest%%|*} why=${rest#*|}
    pep_with "$tmp/bad.ll_net" "$name"
    rm -f "$tmp/bad.pnml"
    "$MCK" convert "$tmp/bad.ll_net" -o "$tmp/bad.pnml" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -e "$tmp/bad.pnml" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
       grep -qF "place 1: the name '" "$tmp/err" && grep -qF "cannot be written in PNML: $why" "$tmp/err"; then
        echo "ok - convert to PNML refuses a name with $what: status 2, one line, no file"
    else
        echo "not ok - convert to PNML, a name with $what: status $rc, $(cat "$tmp/err")"
    fi
done
# What PNML can carry reads back as it was: XML's specials, a carriage
# return and a tab inside, UTF-8 beyond ASCII, both quote characters.
printf 'PEP\nPTNet\nFORMAT_N2\nPL\n1"a <&> b"M1\n2"c\rd"\n3"tab\there"\n4"caf\303\251 \342\202\254 \360\237\230\200"\nTR\n1'"'"'say "hi"'"'"'\nTP\n1<2\nPT\n1>1\n3>1\n4>1\n' >"$tmp/names.ll_net"
names_of() { "$MCK" info -v "$1" | sed -n -E 's/ tokens [0-9]+$//; s/^(place|transition) [^ ]+ /\1 /p'; }
if "$MCK" convert "$tmp/names.ll_net" -o "$tmp/names.pnml" 2>"$tmp/err" &&
   "$MCK" convert "$tmp/names.pnml" -o "$tmp/names2.pnml" 2>>"$tmp/err" &&
   names_of "$tmp/names.ll_net" >"$tmp/n0" && names_of "$tmp/names.pnml" >"$tmp/n1" &&
   names_of "$tmp/names2.pnml" >"$tmp/n2" && [ "$(wc -l <"$tmp/n0")" -eq 5 ] &&
   cmp -s "$tmp/n0" "$tmp/n1" && cmp -s "$tmp/n0" "$tmp/n2"; then
    echo "ok - convert to PNML, and PNML to PNML, keeps every name it writes, byte for byte"
else
    echo "not ok - convert names to PNML and back: $(cat "$tmp/err" "$tmp/n0" "$tmp/n1" "$tmp/n2" 2>&1 | od -c | head -20)"
fi
