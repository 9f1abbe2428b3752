#!/bin/sh
# Malformed CFA models (docs/cfa-format.md §8): `mck info FILE` and
# `mck check cfa:explicit-dl FILE` must both exit 2 with exactly one line on
# stderr, "FILE:LINE: text", naming the right line. Then the warnings of §8
# (shown with -v only) and the answers of the added examples in
# examples/cfa (peterson.cfa, buffer_stack.cfa; see examples/cfa/README.md).
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/cfa"
ex="$TOP/examples/cfa"
tmp="${TMPDIR:-/tmp}/mck_cfa_bad.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

# fixture (tests/data/cfa/bad_NAME.cfa) | line | expected text
table() {
    cat <<'TABLE'
header|2|a CFA file starts with the keyword 'CFA'
empty|1|a CFA file starts with the keyword 'CFA'
no_automaton|1|a CFA model needs at least one @automaton
keyword|7|unknown keyword '@final'
decl_outside|6|a declaration inside automaton 'A': variables, channels and stacks are declared after @global, before the automata
decl_before_global|2|a declaration outside @global (write @global before it)
global_late|9|@global after an automaton: declarations come before the automata
reserved|4|'mod' is a reserved word and cannot be used as a name
reserved_state|7|'of' is a reserved word and cannot be used as a name
twice|5|'x' is declared twice (first as a variable at line 3)
aut_var|9|automaton 'x' has the name of the variable declared at line 3
aut_twice|9|two automata named 'A' (the first at line 5)
range|4|the range {3..2} of 'y' is empty (lower bound above upper)
init_range|4|the init value 3 of 'y' lies outside {-2..2}
init_buffer|4|'init' is not allowed for a channel (it starts empty)
capacity|4|the capacity 0 of stack 'st' is below 1
no_start|9|automaton 'B' has no @start state
two_start|8|automaton 'A' has two @start states ('s' at line 6 and 't')
undeclared|8|undeclared variable 'y'
recv_target|9|undeclared variable 'z'
chan_value|9|'ch' is a channel, not a value (receive with ch?x, send with ch!e)
chan_ne|9|'ch' is a channel, not a value (receive with ch?x, send with ch!e)
send_var|9|'y' is a variable, not a channel or stack: '!' sends to a buffer
recv_var|9|'y' is a variable, not a channel or stack: '?' receives from a buffer
recv_buffer|10|'?' must be followed by a variable; 'st' is a stack
plain_post|8|x used both unchanged and as post-value; write 'x for the old value
plain_recv|9|x used both unchanged and as receive target; write 'x for the old value
two_ops|9|two operations on stack 'st' in one transition
semicolon|7|';' expected at the end of the line
paren|7|unbalanced parentheses: ')' expected before ';'
paren_close|7|unbalanced parentheses: ')' without '('
quote|7|a quote must touch its variable name: write 'x for the old value or x' for the new one
quote_post|7|a quote must touch its variable name: write 'x for the old value or x' for the new one
chain|9|unexpected '<' (comparisons do not chain: write a < b & b < c)
char|7|illegal character '$'
bigint|4|the number 18446744073709551616 is too large (at most 9223372036854775807)
bigint_expr|7|the number 99999999999999999999 is too large (at most 9223372036854775807)
TABLE
}

if [ ! -x "$MCK" ]; then
    table | while IFS='|' read -r name line text; do
        echo "skip - cfa_bad $name: no mck binary at $MCK"
    done
    exit 0
fi

. "$TOP/tests/lib/one_error.sh"
# expect_one_error runs `$MCK info FILE`; through this function the same
# check runs `mck check cfa:explicit-dl FILE`.
real_mck=$MCK
check_dl() { shift; "$real_mck" check cfa:explicit-dl "$@"; }
both() {   # NAME FILE PREFIX TEXT
    MCK=$real_mck
    expect_one_error cfa_bad "$1" "$2" "$3" "$4"
    MCK=check_dl
    expect_one_error cfa_bad_dl "$1" "$2" "$3" "$4"
    MCK=$real_mck
}

table | while IFS='|' read -r name line text; do
    file="$data/bad_$name.cfa"
    both "$name" "$file" "$file:$line: " "$text"
done
both missing_file "$data/no_such_file.cfa" "$data/no_such_file.cfa: cannot open: " ""

# run ARGS... : stdout in $tmp.out, stderr in $tmp.err, status in $rc
run() { "$MCK" "$@" >"$tmp.out" 2>"$tmp.err"; rc=$?; }

# Accepted files: nothing on stderr without -v.
for f in good_all warn_noinit warn_nonet warn_unreachable; do
    run check cfa:explicit-dl "$data/$f.cfa"
    if [ "$rc" -le 1 ] && [ ! -s "$tmp.err" ]; then
        echo "ok - cfa_good $f: read, silent without -v"
    else
        echo "not ok - cfa_good $f: exit status $rc, stderr: $(head -n 1 "$tmp.err")"
    fi
done

# good_all.cfa uses every form of the grammar once; its net (29 places,
# 419 transitions) and its 26 reachable markings were computed with an
# independent prototype of §4-§5 that reproduces every size given in §9.
run info "$data/good_all.cfa"
if grep -q "^places: 29$" "$tmp.out" && grep -q "^transitions: 419$" "$tmp.out"; then
    echo "ok - cfa_good good_all: 29 places, 419 transitions"
else
    echo "not ok - cfa_good good_all: $(grep -E '^(places|transitions):' "$tmp.out" | tr '\n' ' ')"
fi
run check -v cfa:explicit-dl "$data/good_all.cfa"
if [ "$rc" -eq 1 ] && grep -q "^states: 26$" "$tmp.err"; then
    echo "ok - cfa_good good_all dl: NO after 26 reachable markings"
else
    echo "not ok - cfa_good good_all dl: status $rc, $(grep '^states:' "$tmp.err")"
fi

# Warnings of §8, shown with -v: file | line | text
while IFS='|' read -r name line text; do
    file="$data/warn_$name.cfa"
    run check -v cfa:explicit-dl "$file"
    if [ "$rc" -le 1 ] && grep -F -q -- "$file:$line: $text" "$tmp.err"; then
        echo "ok - cfa_warn $name"
    else
        echo "not ok - cfa_warn $name: exit status $rc, no '$file:$line: $text' in: $(head -n 3 "$tmp.err" | tr '\n' '|')"
    fi
done <<'WARN'
noinit|5|warning: x: no init value, using 2
nonet|10|warning: the transition t -> s of automaton 'A' can never fire
unreachable|10|warning: state 'u' of automaton 'A' is never entered
WARN

# The answers of examples/cfa/README.md for the added models:
# model | property file (- for dl) | kind | exit status | result line
while IFS='|' read -r model prop kind status result; do
    if [ "$prop" = - ]; then
        run check "cfa:explicit-$kind" "$ex/$model.cfa"
    else
        run check "cfa:explicit-$kind" "$ex/$model.cfa" "$ex/$prop"
    fi
    first=$(head -n 1 "$tmp.out")
    if [ "$rc" -eq "$status" ] && [ "$first" = "$result" ]; then
        echo "ok - cfa $model $kind $prop: $result"
    else
        echo "not ok - cfa $model $kind $prop: status $rc, '$first', expected $status, '$result'"
    fi
done <<'ANSWERS'
peterson|-|dl|1|Result: NO.
peterson|pt_mutex.f|reach|1|Result: NO.
peterson|pt_both_wait.f|reach|0|Result: YES.
peterson|pt_bypass.f|ctl|0|Result: YES.
peterson|pt_live.f|ltl|0|Result: YES.
peterson|pt_gf.f|ltl|1|Result: NO.
buffer_stack|-|dl|0|Result: YES.
buffer_stack|bs_finish.f|reach|1|Result: NO.
buffer_stack|bs_lifo.f|reach|0|Result: YES.
buffer_stack|bs_doom.f|ctl|0|Result: YES.
buffer_stack|bs_af.f|ctl|1|Result: NO.
buffer_stack|bs_fdl.f|ltl|1|Result: NO.
buffer_stack|bs_busy.f|ltl|0|Result: YES.
ANSWERS
exit 0
