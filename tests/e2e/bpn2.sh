#!/bin/sh
# B(PN)² (bpn2-format.md): the examples of §5 read with the places,
# transitions and reachable markings §5 states and give its answers; each
# construct §6 leaves out, and each error of §2-§3, is refused with exactly
# one "FILE:LINE: text" and status 2.  (tests/unit/test_bpn2.c replays the
# printed runs with an interpreter of its own.)
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/bpn2"
ex="$TOP/examples/bpn2"
tmp="${TMPDIR:-/tmp}/mck_bpn2.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM
. "$TOP/tests/lib/one_error.sh"

# fixture (tests/data/bpn2/bad_NAME.bpn2) | line | expected text
while IFS='|' read -r name line text; do
    expect_one_error "bpn2" "$name" "$data/bad_$name.bpn2" "$data/bad_$name.bpn2:$line: " "$text"
done <<'TABLE'
plain_post|3|plain x next to x' or 'x: use 'x for the old value
init_range|2|init 4 is outside the range {0..3}
undeclared|3|undeclared variable 'y'
procedure|2|'procedure': procedures are not supported in mck's B(PN)² fragment
array|3|arrays are not supported in mck's B(PN)² fragment
same_channel|3|c! and c? in one action: not supported
two_sends|3|a second send in one action (d!): not supported
two_sync|3|an action with ends of two synchronous channels: not supported
handshake_shared|4|both use x: not supported
par_loop|2|a loop clause that starts and ends with a parallel composition
loop_start|4|a loop at the start of a loop clause needs a silent step
choice_loop|4|a loop at the start of an alternative of a choice needs a silent step
long_channel|4|action <y' = q?> at line 4 may need more than 4000000 net transitions
too_many|3|action <a' + b' + c' + d' = 'a> at line 3: 10000000000000000 assignments to try, more than 1000000
no_begin|1|a program is a block: 'begin' expected
after_end|4|text after the program's 'end'
comment|2|comment not closed
chan_value|3|'c' is a channel: write c!
number_action|3|an action is a condition
empty_block|2|an empty block
no_repeat|2|'repeat' or 'exit' expected before 'od'
unclosed_action|3|'>' closing the action expected, not ';'
twice|3|'x' is declared twice in this block
empty_range|2|empty range {3..1}
char|2|unexpected character '$'
TABLE

run() { "$MCK" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?; }
# sizes NAME PLACES ACTION-TRANSITIONS TERMINATION STATES [INITIAL-VALUE-TRANSITIONS]
sizes() {
    run info -v "$ex/$1.bpn2"
    i=${6:-0}
    t=$(($3 + $4 + i))
    if grep -q "^places: $2$" "$tmp.out" && grep -q "^transitions: $t$" "$tmp.out" &&
       grep -q ": $2 places .*, $3 transitions for actions, $i for initial values, $4 for termination" "$tmp.err"; then
        echo "ok - bpn2 $1: $2 places, $3 transitions for actions (+$4 for termination)"
    else
        echo "not ok - bpn2 $1: sizes: $(grep -E '^(places|transitions)' "$tmp.out" | tr '\n' ' ') $(cat "$tmp.err")"
    fi
    printf 'false\n' >"$tmp.false"
    run check -q -v -k reach "$ex/$1.bpn2" "$tmp.false"
    if [ "$rc" -eq 1 ] && grep -q "^states: $5$" "$tmp.err"; then
        echo "ok - bpn2 $1: $5 reachable markings"
    else
        echo "not ok - bpn2 $1: reachable markings: $(grep '^states' "$tmp.err")"
    fi
}
answer() {   # NAME ARGS... : expects status $want and first line $first
    name=$1; shift
    run "$@"
    if [ "$rc" -eq "$want" ] && [ "$(head -n 1 "$tmp.out")" = "$first" ]; then
        echo "ok - bpn2 $name"
    else
        echo "not ok - bpn2 $name: status $rc, '$(head -n 1 "$tmp.out")'"
    fi
}

# §5.1: 8 places, 8 transitions, 7 states, no deadlock (the dead marking
# with both branches exited is termination)
sizes incr 8 8 1 7
want=1 first="Result: NO." answer "incr dl: no deadlock" check bpn2:explicit-dl "$ex/incr.bpn2"
want=0 first="Result: YES." answer "incr reach x = 2 at 5" check "$ex/incr.bpn2" "$ex/x2-at5.form"
want=0 first="Result: YES." answer "incr ctl AF x = 3" check -k ctl "$ex/incr.bpn2" "$ex/eventually-3.form"
# the variant without exit: 4 states, x = 3 is a deadlock
sizes incr-noexit 6 6 0 4
run check bpn2:explicit-dl "$ex/incr-noexit.bpn2"
printf '%s\n' "Result: YES." "Witness:" "*** initial state: x = 0 ***" \
    "step 1  [1]  line 3  <x' = 'x + 1>  x: 0 -> 1" \
    "step 2  [1]  line 3  <x' = 'x + 1>  x: 1 -> 2" \
    "step 3  [1]  line 3  <x' = 'x + 1>  x: 2 -> 3" \
    "*** final state: x = 3 ***" "deadlock: no action enabled" \
    "  waiting: [1]  line 3  <x' = 'x + 1>" "  waiting: [2]  line 5  <x' = 'x + 1>" >"$tmp.want"
if [ "$rc" -eq 0 ] && head -n 10 "$tmp.out" | cmp -s - "$tmp.want"; then
    echo "ok - bpn2 incr-noexit dl: the deadlock as program steps"
else
    echo "not ok - bpn2 incr-noexit dl: status $rc"; cat "$tmp.out"
fi

# §5.2: 10 places, 8 transitions, 11 states, no deadlock, no termination
sizes prodcons 10 8 0 11
want=1 first="Result: NO." answer "prodcons dl: no deadlock" check -k dl "$ex/prodcons.bpn2"
want=0 first="Result: YES." answer "prodcons reach w = 1" check "$ex/prodcons.bpn2" "$ex/got-one.form"
want=0 first="Result: YES." answer "prodcons ltl GF c=0 | GF c=1 (the producer is never stuck)" \
    check -k ltl "$ex/prodcons.bpn2" "$ex/busy.form"
printf 'F G "v = 0"\n' >"$tmp.f"
run check -k ltl "$ex/prodcons.bpn2" "$tmp.f"
if [ "$rc" -eq 1 ] && grep -q '^\*\*\* loop starts here \*\*\*$' "$tmp.out" &&
   grep -q "^step [0-9]*  \[1\]  line 4  <v' = 1 - 'v>  v: 1 -> 0$" "$tmp.out"; then
    echo "ok - bpn2 prodcons ltl FG v = 0: NO, a lasso of program steps"
else
    echo "not ok - bpn2 prodcons ltl FG v = 0: status $rc"; cat "$tmp.out"
fi

# features.bpn2: a handshake, a channel of two slots, a variable without
# init, choice, nested branches, a second x
sizes features 24 34 1 76 3
run info -v "$ex/features.bpn2"
if grep -q "3 for initial values" "$tmp.err" && grep -q "^place x@11=0 tokens 1$" "$tmp.out" &&
   grep -q "^place q\[2\]=empty tokens 1$" "$tmp.out" && grep -q "^place n.init tokens 1$" "$tmp.out"; then
    echo "ok - bpn2 features: value places, slots, initial choices"
else
    echo "not ok - bpn2 features: places"
fi
# two hiding declarations of x on one line keep distinct names
printf '%s\n' "begin var x : {0..1} init 0; begin var x : {0..1} init 1; <x' = 0> end ||" \
    "begin var x : {0..1} init 0; begin var x : {0..1} init 1; <x' = 0> end || begin var x : {0..1} init 0; <x' = 1> end end end" >"$tmp.same.bpn2"
run info -v "$tmp.same.bpn2"
if [ "$rc" -eq 0 ] && [ "$(grep -c '^place x' "$tmp.out")" -eq 10 ] &&
   grep -q "^place x@1=1 tokens 1$" "$tmp.out" && grep -q "^place x@2=0 tokens 1$" "$tmp.out" &&
   grep -q "^place x@2.2=1 tokens 1$" "$tmp.out" && grep -q "^place x@2.3=0 tokens 1$" "$tmp.out" &&
   [ -z "$(grep '^place x' "$tmp.out" | cut -d' ' -f2 | sort | uniq -d)" ]; then
    echo "ok - bpn2 declarations hiding x twice on one line: x@2, x@2.2, x@2.3"
else
    echo "not ok - bpn2 same-line declarations: $(grep '^place x' "$tmp.out" | tr '\n' ' ')"
fi
run check -k dl "$ex/features.bpn2"
if [ "$rc" -eq 0 ] && grep -q "^step 1  init n = 0$" "$tmp.out" &&
   grep -q "^step 2  \[1\]  line 8  <h! = 'x + 1>  ||  \[2\]  line 12  <x' = h?>  x@11: 0 -> 2$" "$tmp.out" &&
   grep -q "^  waiting: \[2.2\]  line 13  <'n = 2>$" "$tmp.out"; then
    echo "ok - bpn2 features dl: initial value, handshake and nested branch in the run"
else
    echo "not ok - bpn2 features dl: status $rc"; cat "$tmp.out"
fi
printf '"at 99"\n' >"$tmp.f"
run check "$ex/incr.bpn2" "$tmp.f"
if [ "$rc" -eq 2 ] && grep -q "no action at line 99" "$tmp.err"; then
    echo "ok - bpn2: at L without an action at L is an error"
else
    echo "not ok - bpn2: at 99: status $rc"
fi
