#!/bin/sh
# mck draw: the Graphviz picture of a net.  The .dot output (the graph
# before layout) is checked for its structure: places as circles with their
# tokens, transitions as boxes, weights and read arcs, one cluster per unit
# of the partition, and a run's steps numbered on the transitions with a
# lasso's loop in red.  SVG and PNG go through the layout and are checked
# for being such files; bad requests end in one message and exit 2.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
ex="$TOP/examples"
data="$TOP/tests/data"
tmp="${TMPDIR:-/tmp}/mck_draw.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

ok() { echo "ok - draw $1"; }
notok() { echo "not ok - draw $1: $2"; }
# has NAME FILE PATTERN...: every fixed string occurs in FILE
has() {
    name=$1 file=$2
    shift 2
    for pat in "$@"; do
        if ! grep -qF -- "$pat" "$file"; then
            notok "$name" "'$pat' missing from $(basename "$file")"
            return
        fi
    done
    ok "$name"
}

# ---- the net ----
"$MCK" draw -o "$tmp.philo.dot" "$ex/pep/philo4.ll_net"
rc=$?
[ "$rc" -eq 0 ] && ok "philo4 .dot: exit 0" || notok "philo4 .dot" "exit $rc"
has "philo4: 16 places as circles" "$tmp.philo.dot" 'p15	[' 'xlabel=think0'
[ "$(grep -c 'shape=circle' "$tmp.philo.dot")" -eq 16 ] && ok "philo4: every place a circle" ||
    notok "philo4: every place a circle" "$(grep -c 'shape=circle' "$tmp.philo.dot") circles"
[ "$(grep -c 'shape=box' "$tmp.philo.dot")" -eq 12 ] && ok "philo4: every transition a box" ||
    notok "philo4: every transition a box" "$(grep -c 'shape=box' "$tmp.philo.dot") boxes"
# think0 holds one token, hasleft0 none
grep -A2 'p0	\[' "$tmp.philo.dot" | grep -q 'label=1,' && grep -A1 'p1	\[' "$tmp.philo.dot" |
    grep -q 'label="",' && ok "philo4: token counts in the circles" ||
    notok "philo4: token counts in the circles" "$(grep -A2 'p[01]	\[' "$tmp.philo.dot")"
[ "$(grep -c ' -> ' "$tmp.philo.dot")" -eq 40 ] && ok "philo4: 40 arcs" ||
    notok "philo4: 40 arcs" "$(grep -c ' -> ' "$tmp.philo.dot") arcs"
grep -q cluster "$tmp.philo.dot" && notok "philo4: no partition, no cluster" "a cluster" ||
    ok "philo4: no partition, no cluster"

"$MCK" draw -o "$tmp.w.dot" "$data/check/weights.ll_net" &&
    has "weights: arc weights on the arcs" "$tmp.w.dot" 'p0 -> t0	[label=2]' 't0 -> p1	[label=2]'
"$MCK" draw -o "$tmp.u.dot" "$data/check/unbounded.ll_net" &&
    has "read arcs dashed, without arrow" "$tmp.u.dot" 'p1 -> t1	[dir=none,' 'style=dashed'

# the partition: one cluster per unit, named after it
"$MCK" draw -o "$tmp.cfa.dot" "$ex/cfa/peterson.cfa" &&
    has "peterson.cfa: automata and variables as clusters" "$tmp.cfa.dot" \
        'subgraph cluster_u0 {' 'label=proc1' 'label=proc2' 'label=flag1' 'label=turn'
[ "$(grep -c 'subgraph cluster_' "$tmp.cfa.dot")" -eq 5 ] &&
    ok "peterson.cfa: 5 units, 5 clusters" ||
    notok "peterson.cfa: 5 units, 5 clusters" "$(grep -c 'subgraph cluster_' "$tmp.cfa.dot")"
# RERS: one cluster per LTS, named by its subgraph (or lts2 without a name)
"$MCK" draw -o "$tmp.rers.dot" "$data/rers/handwritten.dot" &&
    has "RERS: one cluster per LTS" "$tmp.rers.dot" 'label=cluster_producer' 'label=buffer' \
        'label=lts2'
# nested NUPN units (a root with subunits left and right): clusters in a cluster
"$MCK" draw -o "$tmp.n.dot" "$data/pnml/nupn.pnml" &&
    awk '/subgraph cluster_/ { d++; if (d > max) max = d } /^[ \t]*}/ { if (d) d-- }
         END { exit !(max >= 2) }' "$tmp.n.dot" && ok "nested NUPN units: nested clusters" ||
    notok "nested NUPN units: nested clusters" "no cluster inside a cluster"

# ---- a run over the net ----
"$MCK" check --xml "$tmp.dl.xml" "$ex/pep/philo4.ll_net" >/dev/null
"$MCK" draw --run "$tmp.dl.xml" -o "$tmp.dl.dot" "$ex/pep/philo4.ll_net" &&
    has "philo4 deadlock witness: steps numbered" "$tmp.dl.dot" \
        'label="philo4: witness, 4 steps"' 'label="takeleft0\n1"' 'label="takeleft3\n4"'
grep -q 'd01c1c' "$tmp.dl.dot" && notok "finite witness: no loop colour" "red found" ||
    ok "finite witness: no loop colour"

"$MCK" check -k ltl --xml "$tmp.ltl.xml" "$ex/pnml/mutex.pnml" "$ex/pnml/crit1-infinitely-often.form" \
    >/dev/null
"$MCK" draw --run "$tmp.ltl.xml" -o "$tmp.ltl.dot" "$ex/pnml/mutex.pnml" &&
    has "mutex lasso: steps numbered, loop named" "$tmp.ltl.dot" \
        'steps 8 to 10 (red) repeat forever' 'label="leave2\n7, 10"' 'label="ask1\n1, 5"'
# leave2 fires in the loop: red; enter1 only before it: blue
grep -A3 '	t5	\[' "$tmp.ltl.dot" | grep -q 'color="#d01c1c"' &&
    grep -A3 '	t1	\[' "$tmp.ltl.dot" | grep -q 'color="#1f5fbf"' &&
    ok "mutex lasso: the loop's transitions red, the prefix's blue" ||
    notok "mutex lasso: loop colours" "$(grep -A3 '	t[15]	\[' "$tmp.ltl.dot")"

# ---- rendered formats ----
"$MCK" draw --run "$tmp.dl.xml" -o "$tmp.svg" "$ex/pep/philo4.ll_net" &&
    head -c 200 "$tmp.svg" | grep -q '<svg\|<?xml' && grep -q '>takeleft0<' "$tmp.svg" &&
    ok "SVG by suffix" || notok "SVG by suffix" "$(head -c 100 "$tmp.svg")"
"$MCK" draw "$ex/pep/philo4.ll_net" >"$tmp.out.svg" && grep -q '<svg' "$tmp.out.svg" &&
    ok "SVG on standard output by default" || notok "SVG on standard output" "no <svg"
"$MCK" draw -o "$tmp.png" "$ex/pep/philo4.ll_net" &&
    [ "$(head -c 4 "$tmp.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
    ok "PNG by suffix" || notok "PNG by suffix" "$(head -c 4 "$tmp.png" | od -An -c)"

# ---- refusals: one message, exit 2 ----
# refuse NAME EXPECTED-TEXT ARGS...
refuse() {
    name=$1 text=$2
    shift 2
    "$MCK" draw "$@" >"$tmp.o" 2>"$tmp.e"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp.e")" -eq 1 ] && grep -qF -- "$text" "$tmp.e"; then
        ok "$name"
    else
        notok "$name" "exit $rc, stderr '$(cat "$tmp.e")'"
    fi
}
refuse "too large a net" "philo4.ll_net: 28 places and transitions are too many to draw" \
    --max-nodes 20 -o "$tmp.x.svg" "$ex/pep/philo4.ll_net"
[ -e "$tmp.x.svg" ] && notok "too large: no file" "file written" || ok "too large: no file"
refuse "a run of another model" "step 1: 'ask1' is not a transition of" \
    --run "$tmp.ltl.xml" -o "$tmp.x.dot" "$ex/pep/philo4.ll_net"
refuse "a run that does not replay" "the run does not replay on" \
    --run "$TOP/tests/data/draw/philo4-not-enabled.xml" -o "$tmp.x.dot" "$ex/pep/philo4.ll_net"
refuse "a verdict file without a trace" "no verdict in this file has a trace" \
    --run "$TOP/tests/data/draw/philo4-no-trace.xml" -o "$tmp.x.dot" "$ex/pep/philo4.ll_net"
refuse "an unknown suffix" "cannot tell the format of" -o "$tmp.x.bmpx" "$ex/pep/philo4.ll_net"
refuse "a missing model" "nosuch.ll_net" -o "$tmp.x.dot" "$tmp.nosuch.ll_net"
