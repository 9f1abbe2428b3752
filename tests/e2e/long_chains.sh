#!/bin/sh
# Flat chains of a million terms in every reader (issue #40): a file
# decides how long a chain is, and every reader either reads it (a chain
# is no nesting) or refuses it with exit 2 and one "FILE:LINE: message"
# that names the real limit; never a crash, and within seconds.  Real
# nesting is refused the same way.  The inputs are generated here (awk),
# up to about 20 MB each, and mck runs on a stack cut to 1 MB.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp="${TMPDIR:-/tmp}/mck_long_chains.$$"
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
N=1000000
# CPU seconds a case may take (CPU, not wall clock: the machine may be
# shared), and a stack cut to 1 MB (of 8), so that a recursion on a
# length shows at these sizes; under AddressSanitizer (CI's second pass),
# whose frames are larger, more of both
LIMIT=10 STACK_KB=1024 asan=
if grep -q 'fsanitize=address' "$TOP/config.mk" 2>/dev/null; then
    LIMIT=60 STACK_KB=4096 asan=1
fi
ulimit -s "$STACK_KB" 2>/dev/null

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1: $2"; }

if [ ! -x "$MCK" ]; then
    echo "skip - long chains: no mck binary at $MCK"
    exit 0
fi

# expect NAME RC TEXT COMMAND...: COMMAND exits with RC within LIMIT CPU
# seconds (POSIX 'times' in this shell, before and after: the second line
# is the finished children's user and system time).  With RC 2, standard error is exactly one line "FILE: message"
# (or FILE:LINE:, FILE:LINE:COL:) holding TEXT; otherwise standard output
# holds TEXT.
expect() {
    name=$1 want=$2 text=$3
    shift 3
    times >"$tmp/times0"
    timeout 300 "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    times >"$tmp/times1"
    secs=$(cat "$tmp/times0" "$tmp/times1" | awk '
        NR == 2 || NR == 4 { split($1, u, /[ms]/); split($2, s, /[ms]/);
                             t[NR] = u[1] * 60 + u[2] + s[1] * 60 + s[2] }
        END { printf "%.1f\n", t[4] - t[2] }')
    if [ "$rc" -ne "$want" ]; then
        notok "$name" "exit $rc, not $want: $(head -c 300 "$tmp/err")"
    elif [ "$want" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        notok "$name" "$(wc -l <"$tmp/err") lines on stderr, not one: $(head -c 300 "$tmp/err")"
    elif [ "$want" -eq 2 ] && ! grep -Eq '^[^:]+(:[0-9]+){0,2}: ' "$tmp/err"; then
        notok "$name" "not FILE:LINE: message: $(head -c 300 "$tmp/err")"
    elif [ "$want" -eq 2 ] && ! grep -qF -- "$text" "$tmp/err"; then
        notok "$name" "no '$text' in: $(head -c 300 "$tmp/err")"
    elif [ "$want" -ne 2 ] && ! grep -qF -- "$text" "$tmp/out"; then
        notok "$name" "no '$text' in the output: $(head -c 300 "$tmp/out")"
    elif awk -v s="$secs" -v l="$LIMIT" 'BEGIN { exit !(s > l) }'; then
        notok "$name" "took $secs s of CPU, more than $LIMIT"
    else
        ok "$name ($secs s of CPU)"
    fi
}

# ---- CFA: expressions are postfix code, evaluated in a loop ----
cfa_head='CFA
@global
var x: {0..1} init 0;
@automaton a
@start s;'
{ echo "$cfa_head"; awk -v n=$N 'BEGIN { printf "s -> s : x'"'"' = '"'"'x"; for (i = 0; i < n; i++) printf " + '"'"'x"; print ";" }'; } >"$tmp/sum.cfa"
expect "CFA: x' = 'x + 'x + ... of $N terms reads (one transition: 'x = 0)" 0 "transitions: 1" \
    "$MCK" info "$tmp/sum.cfa"
{ echo "$cfa_head"; awk -v n=$N 'BEGIN { printf "s -> s : x = 0"; for (i = 0; i < n; i++) printf " & x = 0"; print ";" }'; } >"$tmp/and.cfa"
expect "CFA: x = 0 & x = 0 & ... of $N terms reads" 0 "transitions: 1" "$MCK" info "$tmp/and.cfa"
expect "CFA: the chain of $N conditions is checked (a deadlock at x = 1? no)" 1 "Result: NO." \
    "$MCK" check "$tmp/and.cfa"
{ echo "$cfa_head"; awk -v n=$N 'BEGIN { printf "s -> s : "; for (i = 0; i < n; i++) printf "not "; print "x = 0;" }'; } >"$tmp/not.cfa"
expect "CFA: $N nested 'not' are refused with the limit" 2 \
    "expression nested too deeply (at most 10000 open parentheses" "$MCK" info "$tmp/not.cfa"
{ echo "$cfa_head"; awk -v n=$N 'BEGIN { printf "s -> s : "; for (i = 0; i < n; i++) printf "("; printf "x = 0"; for (i = 0; i < n; i++) printf ")"; print ";" }'; } >"$tmp/paren.cfa"
expect "CFA: $N nested parentheses are refused with the limit" 2 \
    "expression nested too deeply (at most 10000 open parentheses" "$MCK" info "$tmp/paren.cfa"

# the expansion chooses the values of a transition's variables one after
# the other
awk -v n=100000 'BEGIN {
    print "CFA"; print "@global"
    for (i = 0; i < n; i++) printf "var v%d: {0..0} init 0;\n", i
    print "@automaton a"; print "@start s;"
    printf "s -> s : v0'"'"' = '"'"'v0"; for (i = 1; i < n; i++) printf " & v%d'"'"' = '"'"'v%d", i, i; print ";"
}' >"$tmp/vars.cfa"
expect "CFA: a transition touching 100000 variables expands (it crashed)" 0 "transitions: 1" \
    "$MCK" info "$tmp/vars.cfa"

# ---- B(PN)²: the same code for actions; commands are n-ary ----
awk -v n=$N 'BEGIN { printf "begin var x: {0..1} init 0; <x'"'"' = '"'"'x"; for (i = 0; i < n; i++) printf " + '"'"'x"; print "> end" }' >"$tmp/sum.bpn2"
expect "B(PN)2: an action of $N terms reads" 0 "language: bpn2" "$MCK" info "$tmp/sum.bpn2"
awk -v n=$N 'BEGIN { printf "begin var x: {0..1} init 0; <"; for (i = 0; i < n; i++) printf "not "; print "x = 0> end" }' >"$tmp/not.bpn2"
expect "B(PN)2: $N nested 'not' are refused with the limit" 2 \
    "expression nested too deeply (at most 500 levels" "$MCK" info "$tmp/not.bpn2"
awk -v n=$N 'BEGIN { printf "begin var x: {0..1} init 0; "; for (i = 0; i < n; i++) printf "<x'"'"' = '"'"'x>; "; print "<x'"'"' = '"'"'x> end" }' >"$tmp/seq.bpn2"
expect "B(PN)2: a sequence of $N actions is refused by the net's size, not its depth" 2 \
    "more than 1000000 control places" "$MCK" info "$tmp/seq.bpn2"

# ---- the Kit's formulas: & and | chains are balanced trees ----
net="$TOP/examples/pep/philo4.ll_net"
awk -v n=20000 'BEGIN { printf "\"think0\""; for (i = 0; i < n; i++) printf " & \"think0\""; print "" }' >"$tmp/and20k.form"
expect "formula: 20001 conjuncts read (they were 'nested too deeply')" 0 "Result: YES." \
    "$MCK" check "$net" "$tmp/and20k.form"
awk -v n=$N 'BEGIN { printf "\"think0\""; for (i = 0; i < n; i++) printf " & \"think0\""; print "" }' >"$tmp/and.form"
expect "formula: $N conjuncts are refused by size, not depth" 2 \
    "formula too large (more than 100000 operators and atoms" "$MCK" check "$net" "$tmp/and.form"
awk -v n=$N 'BEGIN { printf "EF (\"eat0\""; for (i = 0; i < n; i++) printf " + \"eat0\""; print " >= " n + 2 ")" }' >"$tmp/sum.form"
expect "formula: a sum of $N + 1 terms reads (and is at most $N + 1)" 1 "Result: NO." \
    "$MCK" check "$net" "$tmp/sum.form"
awk -v n=$N 'BEGIN { printf "\"think0\""; for (i = 0; i < n; i++) printf " -> \"think0\""; print "" }' >"$tmp/imp.form"
expect "formula: $N implications (each nests the rest) are refused with the limit" 2 \
    "formula nested too deeply (more than 10000 levels" "$MCK" check "$net" "$tmp/imp.form"
awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) printf "!"; print "\"think0\"" }' >"$tmp/not.form"
expect "formula: $N negations are refused with the limit" 2 \
    "formula nested too deeply (more than 10000 levels" "$MCK" check "$net" "$tmp/not.form"

# <-> copies both sides into the negation normal form the LTL checker
# needs: 40 nested ones stand for 6.6e12 nodes.  The checker says so
# (UNKNOWN, exit 3) instead of filling memory, which here is capped at
# 2 GB too, so that a regression cannot take the machine (not under ASan,
# which reserves terabytes of address space).
awk 'BEGIN { printf "G ("; for (i = 0; i < 40; i++) printf "\"think0\" <-> ("; printf "\"eat0\""; for (i = 0; i < 40; i++) printf ")"; print ")" }' >"$tmp/iff.form"
if [ -z "$asan" ]; then
    expect "formula: 40 nested <-> under G: UNKNOWN with the size, not all memory" 3 \
        "formula too large in negation normal form: 6597069766652 nodes" \
        sh -c 'ulimit -v 2000000; exec "$0" "$@"' "$MCK" check "$net" "$tmp/iff.form"
else
    expect "formula: 40 nested <-> under G: UNKNOWN with the size, not all memory" 3 \
        "formula too large in negation normal form: 6597069766652 nodes" \
        "$MCK" check "$net" "$tmp/iff.form"
fi

# ---- MCC XML: a conjunction of any arity is a balanced tree ----
mkdir -p "$tmp/mcc"
cp "$TOP/examples/pnml/mutex.pnml" "$tmp/mcc/model.pnml"
{
    echo '<?xml version="1.0"?>'
    echo '<property-set xmlns="http://mcc.lip6.fr/"><property><id>chain-ReachabilityCardinality-00</id>'
    echo '<description>x</description><formula><exists-path><finally><conjunction>'
    awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print "<true/>" }'
    echo '</conjunction></finally></exists-path></formula></property></property-set>'
} >"$tmp/mcc/ReachabilityCardinality.xml"
expect "MCC XML: a conjunction of $N operands is answered" 0 \
    "FORMULA chain-ReachabilityCardinality-00 TRUE" "$MCK" mcc ReachabilityCardinality "$tmp/mcc"
mkdir -p "$tmp/deep"
cp "$TOP/examples/pnml/mutex.pnml" "$tmp/deep/model.pnml"
{
    echo '<?xml version="1.0"?>'
    echo '<property-set xmlns="http://mcc.lip6.fr/"><property><id>deep-ReachabilityCardinality-00</id>'
    echo '<description>x</description><formula><exists-path><finally>'
    awk 'BEGIN { for (i = 0; i < 300; i++) printf "<negation>"; printf "<true/>"; for (i = 0; i < 300; i++) printf "</negation>"; print "" }'
    echo '</finally></exists-path></formula></property></property-set>'
} >"$tmp/deep/ReachabilityCardinality.xml"
# mck mcc answers CANNOT_COMPUTE for a file it cannot read, and says why
timeout 300 "$MCK" mcc ReachabilityCardinality "$tmp/deep" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -lt 128 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "ReachabilityCardinality.xml:[0-9]*: elements nested more than 256 deep (the XML reader's limit)" "$tmp/err" &&
   grep -q CANNOT_COMPUTE "$tmp/out"; then
    ok "MCC XML: 300 nested negations are refused with libxml2's limit, in mck's words"
else
    notok "MCC XML: 300 nested negations" "exit $rc: $(head -c 300 "$tmp/err")"
fi

# ---- colored PNML: terms are n-ary ----
col="$TOP/tests/data/pnml-colored/philo.pnml"
awk -v n=$N '
    /<transition id="Take"><\/transition>/ {
        printf "<transition id=\"Take\"><condition><structure><and>"
        for (i = 0; i < n; i++) printf "<subterm><booleanconstant value=\"true\"/></subterm>\n"
        print "</and></structure></condition></transition>"
        next
    }
    { print }' "$col" >"$tmp/and.pnml"
expect "colored PNML: a guard of $N conjuncts reads" 0 "language: pnml" "$MCK" info "$tmp/and.pnml"
# the unfolding binds a transition's variables one after the other
awk -v n=50000 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"><net id=\"vars\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\"><page id=\"page\">"
    print "<declaration><structure><declarations><namedsort id=\"dot\" name=\"Dot\"><dot/></namedsort>"
    for (i = 0; i < n; i++) printf "<variabledecl id=\"v%d\" name=\"v%d\"><usersort declaration=\"dot\"/></variabledecl>\n", i, i
    print "</declarations></structure></declaration>"
    print "<place id=\"P\"><type><structure><usersort declaration=\"dot\"/></structure></type></place>"
    print "<transition id=\"T\"></transition>"
    printf "<arc id=\"a\" source=\"P\" target=\"T\"><hlinscription><structure><add>"
    for (i = 0; i < n; i++) printf "<subterm><numberof><subterm><numberconstant value=\"1\"><positive/></numberconstant></subterm><subterm><variable refvariable=\"v%d\"/></subterm></numberof></subterm>\n", i
    print "</add></structure></hlinscription></arc>"
    print "</page></net></pnml>"
}' >"$tmp/vars.pnml"
expect "colored PNML: a transition of 50000 variables unfolds (it crashed)" 0 "transitions: 1" \
    "$MCK" info "$tmp/vars.pnml"
# v0 = v1 & v1 = v2 & ...: each variable is computed from the next one
awk -v n=50000 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"><net id=\"eq\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\"><page id=\"page\">"
    print "<declaration><structure><declarations><namedsort id=\"dot\" name=\"Dot\"><dot/></namedsort>"
    for (i = 0; i <= n; i++) printf "<variabledecl id=\"v%d\" name=\"v%d\"><usersort declaration=\"dot\"/></variabledecl>\n", i, i
    print "</declarations></structure></declaration>"
    print "<place id=\"P\"><type><structure><usersort declaration=\"dot\"/></structure></type></place>"
    printf "<transition id=\"T\"><condition><structure><and>"
    for (i = 0; i < n; i++) printf "<subterm><equality><subterm><variable refvariable=\"v%d\"/></subterm><subterm><variable refvariable=\"v%d\"/></subterm></equality></subterm>\n", i, i + 1
    print "</and></structure></condition></transition>"
    print "<arc id=\"a\" source=\"P\" target=\"T\"><hlinscription><structure><numberof><subterm><numberconstant value=\"1\"><positive/></numberconstant></subterm><subterm><variable refvariable=\"v0\"/></subterm></numberof></structure></hlinscription></arc>"
    print "</page></net></pnml>"
}' >"$tmp/eq.pnml"
expect "colored PNML: a guard chaining 50000 variables by equalities unfolds (it crashed)" 0 \
    "transitions: 1" "$MCK" info "$tmp/eq.pnml"

# ---- NUPN units nest as deep as a file says; mck draw made the clusters
# of the outer ones first, recursively (it crashed) ----
awk -v n=100000 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"><net id=\"deep\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"page\">"
    printf "<toolspecific tool=\"nupn\" version=\"1.1\"><size places=\"1\" transitions=\"1\" arcs=\"1\"/>"
    printf "<structure units=\"%d\" root=\"u0\" safe=\"true\">\n", n
    for (i = 0; i < n; i++)
        printf "<unit id=\"u%d\"><places>%s</places><subunits>%s</subunits></unit>\n", i,
               i == n - 1 ? "p0" : "", i + 1 < n ? "u" (i + 1) : ""
    print "</structure></toolspecific>"
    print "<place id=\"p0\"/><transition id=\"t0\"/><arc id=\"a0\" source=\"p0\" target=\"t0\"/>"
    print "</page></net></pnml>"
}' >"$tmp/units.pnml"
expect "PNML: 100000 nested NUPN units read" 0 "partition: 100000 units" "$MCK" info "$tmp/units.pnml"
expect "draw: 100000 nested units count as nodes and are refused with the limit" 2 \
    "100002 places, transitions and units are too many to draw sensibly (the limit is 1000" \
    "$MCK" draw "$tmp/units.pnml" -o "$tmp/units.svg"

sed -e 's/units="100000"/units="500"/' -e 's/<unit id="u499"><places>/<unit id="u499"><places>p0/' \
    -e 's/<subunits>u500</<subunits></' "$tmp/units.pnml" | grep -v '^<unit id="u[0-9]*[0-9][0-9][0-9][0-9]"\|^<unit id="u[5-9][0-9][0-9]"' >"$tmp/units500.pnml"
# the graph before layout (.dot): 500 clusters, each inside the one before
if "$MCK" draw "$tmp/units500.pnml" -o "$tmp/units500.dot" 2>"$tmp/err" &&
   [ "$(grep -c 'subgraph cluster_u' "$tmp/units500.dot")" -eq 500 ] &&
   [ "$(awk '{ d += gsub(/{/, "{") - gsub(/}/, "}"); if (d > max) max = d } END { print max }' \
        "$tmp/units500.dot")" -eq 501 ]; then
    ok "draw: 500 nested units make 500 clusters, nested"
else
    notok "draw: 500 nested units" "$(grep -c 'subgraph cluster_u' "$tmp/units500.dot" 2>/dev/null) clusters: $(head -c 300 "$tmp/err")"
fi

# ---- RERS: Graphviz's parser has a stack, and mck says so ----
awk -v n=$N 'BEGIN { print "digraph G {"; printf "s0"; for (i = 1; i < n; i++) printf " -> s%d", i; print ";"; print "}" }' >"$tmp/chain.dot"
expect "RERS: an edge chain of $N nodes is refused with Graphviz's limit" 2 \
    "Graphviz's reader ran out of parser stack" "$MCK" info "$tmp/chain.dot"

# ---- SENIL, PEP, APNN: lists and groups ----
awk -v n=$N 'BEGIN { print "SENIL"; print "@trans"; printf "p0"; for (i = 1; i < n; i++) printf ", p%d", i; print " -> t -> q"; print "@marking"; print "p0" }' >"$tmp/list.senil"
expect "SENIL: a list of $N places is refused with the line limit" 2 \
    "line too long (at most 4095 names and symbols)" "$MCK" info "$tmp/list.senil"
{
    printf 'PEP\nPTNet\nFORMAT_N2\nPL\n'
    awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) printf "%d\"p%d\"M1\n", i, i }'
    printf 'TR\n1"t"\nTP\n1<1\nPT\n'
    awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) printf "%d>1\n", i }'
} >"$tmp/wide.ll_net"
expect "PEP: a transition with $N input places reads" 0 "transitions: 1" "$MCK" info "$tmp/wide.ll_net"
awk -v n=$N 'BEGIN { print "\\beginnet{deep}"; printf "\\place{p}{\\name{p} \\init{1} \\comment{"; for (i = 0; i < n; i++) printf "{"; for (i = 0; i < n; i++) printf "}"; print "}}"; print "\\endnet" }' >"$tmp/deep.apnn"
expect "APNN: $N nested braces are refused with the limit" 2 "braces nested more than 10000 deep" \
    "$MCK" info "$tmp/deep.apnn"
exit 0
