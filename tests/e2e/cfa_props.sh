#!/bin/sh
# CFA atomic propositions (cfa-format.md §6), size limits, overflow and
# verdict traces: each proposition form is checked with an answer that is
# YES and one that is NO on the models of §9, so that a form resolved to
# "always true" or "always false" fails here.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
ex="$TOP/examples/cfa"
tmp="${TMPDIR:-/tmp}/mck_cfa_props.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

# model | formula | expected exit status (0 YES, 1 NO, 2 error) | stderr text
while IFS='|' read -r model formula status text; do
    printf '%s\n' "$formula" >"$tmp.f"
    "$MCK" check -q "cfa:explicit" "$ex/$model.cfa" "$tmp.f" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ "$rc" -eq "$status" ] && { [ -z "$text" ] || grep -qF -- "$text" "$tmp.err"; }; then
        echo "ok - cfa prop $model: $formula"
    else
        echo "not ok - cfa prop $model: $formula: status $rc, $(head -n 1 "$tmp.out") $(head -n 1 "$tmp.err")"
    fi
done <<'TABLE'
dekker|"proc1.crit"|0|
dekker|"proc1.crit" & "proc2.crit"|1|
dekker|"proc1.nowhere"|2|.f:1:1: unknown atomic proposition "proc1.nowhere"
dekker|"turn = 2" & "proc1.crit"|0|
dekker|"turn == 2" & "flag1 = 0" & "proc1.crit"|1|
dekker|"turn>2"|1|
dekker|"turn <= -1"|1|
dekker|"  turn  !=  1 "|0|
prodcons|"ch.empty"|0|
prodcons|"ch.full"|0|
prodcons|"ch.full" & "producer.p" & "next = 1" & "consumer.check"|0|
prodcons|"ch.len = 2"|0|
prodcons|"ch.len > 2"|1|
prodcons|"ch.head = 3" & "ch.len = 1"|0|
prodcons|"ch.head = 2" & "next = 2"|1|
prodcons|"ch.top = 1"|2|'ch' is a channel: its front is .head, not .top
stack|"st.top = 2"|0|
stack|"st.top = 1" & "st.len = 2"|1|
stack|"st.top=1"&"st.len=1"|0|
stack|"st.head = 1"|2|'st' is a stack: its front is .top, not .head
dekker|"critical"|0|
dekker|"cs1" & "cs2"|1|
prodcons|"error"|1|
prodcons|"ch[1]=3"|0|
prodcons|"ch[1]=1" & "ch[0]=1"|1|
prodcons|"ch[1]=1" & "ch[0]=3"|0|
prodcons|"ch" + "next" >= 5|0|
prodcons|"ch" + "next" >= 6|1|
stack|"a" - "b" = 1 & "popper.done"|0|
stack|"a" - "b" = -1 & "popper.done"|1|
dekker|"proc1.crit" + "proc2.crit" >= 2|1|
dekker|"nosuch" > 0|2|"nosuch" has no number
dekker|fireable("proc1.want->crit")|0|
dekker|fireable("proc1.want -> crit") & "proc1.want"|0|
dekker|fireable("proc1.want->crit") & "proc1.idle"|1|
dekker|fireable("proc1.want->crit") & fireable("proc2.want->crit")|1|
dekker|fireable("proc1.2") & "proc2.crit"|1|
dekker|fireable("proc1.3")|0|
dekker|fireable("proc1.2.1")|0|
dekker|fireable("proc1.9")|2|unknown transition "proc1.9"
dekker|fireable("proc1.idle->crit")|2|unknown transition "proc1.idle->crit"
stack|fireable("popper.2") & "st.len=1"|1|
stack|fireable("popper.pop1->pop2")|0|
prodcons|AG "ch.len <= 2"|0|
prodcons|AG "ch.len <= 1"|1|
TABLE

# A model too large to expand is refused with its size, not by running out
# of memory; arithmetic beyond 64 bits is an error, not a wrap-around.
expect_refused() {   # NAME TEXT  (model in $tmp.cfa)
    "$MCK" check cfa:explicit-dl "$tmp.cfa" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp.err")" -eq 1 ] && grep -qF -- "$2" "$tmp.err"; then
        echo "ok - cfa refuses $1"
    else
        echo "not ok - cfa refuses $1: status $rc, $(cat "$tmp.err")"
    fi
}
printf 'CFA\n@global\nvar x: {0..2000000} init 0;\n@automaton A\n@start s;\ns -> s : x'"'"' = '"'"'x + 1;\n' >"$tmp.cfa"
expect_refused "a range of 2000001 values" "would have 2000002 places (limit 1000000); 'x' alone needs 2000001"
printf 'CFA\n@global\nvar x: {-9223372036854775807..9223372036854775807} init 0;\n@automaton A\n@start s;\n' >"$tmp.cfa"
expect_refused "a 64-bit range" "2^64 places or more"
printf 'CFA\n@global\nvar c: chan 8 of {0..99};\nvar y: {0..99} init 0;\n@automaton A\n@start s;\ns -> s : c?y;\n' >"$tmp.cfa"
expect_refused "a receive with 100^8 contents" ".cfa:7: expanding this transition means trying 2^64 or more choices"
printf 'CFA\n@global\nvar c: chan 3 of {0..99};\nvar y: {0..99} init 0;\n@automaton A\n@start s;\ns -> s : c?y;\n' >"$tmp.cfa"
expect_refused "a receive with 10^10 choices" "trying 10101000000 choices of values"
printf 'CFA\n@global\nvar x: {0..1} init 0;\n@automaton A\n@start s;\ns -> t : x'"'"' = '"'"'x * 9223372036854775807 * 9223372036854775807 * 4;\n' >"$tmp.cfa"
expect_refused "128-bit overflow" ".cfa:6: arithmetic overflow (beyond 128 bits)"

# Beyond 64 bits but within 128, arithmetic is exact (§4: unbounded
# integers); the smallest 64-bit number is a literal in ranges and init.
printf 'CFA\n@global\nvar x: {-9223372036854775808..-9223372036854775807} init -9223372036854775808;\nvar y: {-1..1} init 1;\n@automaton A\n@start s;\ns -> t : x'"'"' = '"'"'x + 1 & y'"'"' = ('"'"'x * 4) / 9223372036854775807 / 5;\n' >"$tmp.cfa"
printf '"A.t"\n' >"$tmp.f"
"$MCK" check cfa:explicit-reach "$tmp.cfa" "$tmp.f" >"$tmp.out" 2>"$tmp.err"
if [ $? -eq 0 ] && grep -q '^A: s \[ x=-9223372036854775808 --> x=-9223372036854775807, y=1 --> y=0 \] t$' "$tmp.out"; then
    echo "ok - cfa arithmetic beyond 64 bits is exact"
else
    echo "not ok - cfa arithmetic beyond 64 bits: $(cat "$tmp.out" "$tmp.err")"
fi

# Division by zero disables a choice (§4): z is 0 initially, so the only
# step needs z = 1 first.
printf 'CFA\n@global\nvar x: {0..3} init 0;\nvar z: {0..1} init 0;\n@automaton A\n@start s;\ns -> t : x = 0 / z;\ns -> s : z'"'"' = 1;\n' >"$tmp.cfa"
printf '"A.t"\n' >"$tmp.f"
"$MCK" check cfa:explicit-reach "$tmp.cfa" "$tmp.f" >"$tmp.out" 2>"$tmp.err"
if [ $? -eq 0 ] && grep -q '^A: s \[ z=0 --> z=1 \] s$' "$tmp.out" &&
   grep -q '^A: s \[ x=0 --> x=0, z=1 --> z=1 \] t$' "$tmp.out"; then
    echo "ok - cfa division by zero disables the choice"
else
    echo "not ok - cfa division by zero: $(cat "$tmp.out" "$tmp.err")"
fi

# Verdict traces carry the step in the automata's terms.
"$MCK" check --xml "$tmp.xml" cfa:explicit-reach "$ex/prodcons.cfa" "$ex/pc_full.f" >/dev/null 2>"$tmp.err"
if grep -q '<step transition="producer.1.1" name="producer.1.1" automaton="producer" source="p" target="p" changes="ch=() --&gt; ch=(1), next=1 --&gt; next=2"/>' "$tmp.xml" &&
   grep -q 'automaton="producer" source="p" target="p" changes="ch=(1) --&gt; ch=(1,2), next=2 --&gt; next=3"' "$tmp.xml"; then
    echo "ok - cfa verdict trace steps carry automaton, states and changes"
else
    echo "not ok - cfa verdict trace: $(cat "$tmp.xml" "$tmp.err")"
fi
