#!/bin/sh
# Fairness for LTL (--fair, --fair-set, #fair): the mutual-exclusion
# liveness properties that fail on an unfair run hold under fairness, in
# CFA and as PNML and PEP nets; the fair lassos mck prints are walked with
# `mck simulate`, whose lists of enabled transitions give the fairness
# condition on the loop; SPIN's weak fairness (pan -f) agrees where it says
# the same (one Promela process per net transition); bad uses are errors.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mck_fairness.XXXXXX") || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT INT TERM
ex=$TOP/examples

# NAME WANT-EXIT ARGS...: the exit status of `mck check ARGS`
expect() {
    name=$1 want=$2
    shift 2
    "$MCK" check -q "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" = "$want" ]; then
        echo "ok - fairness $name: exit $got"
    else
        echo "not ok - fairness $name: exit $got, wanted $want: $(head -n 1 "$tmp/err")"
    fi
}

# NAME PATTERN ARGS...: an error (exit 2) whose one line matches PATTERN
refused() {
    name=$1 pat=$2
    shift 2
    "$MCK" check -q "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" = 2 ] && grep -q -- "$pat" "$tmp/err"; then
        echo "ok - fairness refuses $name"
    else
        echo "not ok - fairness refuses $name: exit $got: $(head -n 1 "$tmp/err")"
    fi
}

live=$ex/cfa/dekker_live.f
expect "dekker live, no fairness" 1 cfa:explicit-ltl "$ex/cfa/dekker.cfa" "$live"
expect "dekker live, weak" 0 --fair=weak cfa:explicit-ltl "$ex/cfa/dekker.cfa" "$live"
expect "dekker live, strong" 0 --fair=strong cfa:explicit-ltl "$ex/cfa/dekker.cfa" "$live"
expect "dekker live, weak, stubborn" 0 --fair=weak cfa:stubborn-ltl "$ex/cfa/dekker.cfa" "$live"
expect "dekker live, no fairness, stubborn" 1 cfa:stubborn-ltl "$ex/cfa/dekker.cfa" "$live"
expect "peterson G F cs1, no fairness" 1 cfa:explicit-ltl "$ex/cfa/peterson.cfa" "$ex/cfa/pt_gf.f"
expect "peterson G F cs1, weak" 0 --fair=weak cfa:explicit-ltl "$ex/cfa/peterson.cfa" "$ex/cfa/pt_gf.f"
# fairness for process 1 only: process 2 may idle for ever
printf 'G F "proc2.crit"\n' >"$tmp/gf2.f"
expect "dekker G F proc2.crit, weak for proc1 only" 1 --fair=weak --fair-set 'proc1.*' \
    cfa:explicit-ltl "$ex/cfa/dekker.cfa" "$tmp/gf2.f"
expect "dekker G F proc2.crit, weak for all" 0 --fair=weak cfa:explicit-ltl \
    "$ex/cfa/dekker.cfa" "$tmp/gf2.f"

# the property file's #fair line, and the command line above it
{ echo '% Dekker: process 1, once wanting, enters (under weak fairness)'
  echo '#fair weak'
  cat "$live"; } >"$tmp/live_fair.f"
expect "#fair weak in the file" 0 cfa:explicit-ltl "$ex/cfa/dekker.cfa" "$tmp/live_fair.f"
expect "--fair=none overrides #fair" 1 --fair=none cfa:explicit-ltl "$ex/cfa/dekker.cfa" \
    "$tmp/live_fair.f"
{ echo '/* a comment'; echo '#fair weak'; echo '*/'; cat "$live"; } >"$tmp/commented.f"
expect "#fair inside a comment is no #fair" 1 cfa:explicit-ltl "$ex/cfa/dekker.cfa" \
    "$tmp/commented.f"
{ echo '#fair weak proc2.*'; cat "$live"; } >"$tmp/live_p2.f"
expect "#fair weak for proc2 only: proc1 may stay back" 1 cfa:explicit-ltl \
    "$ex/cfa/dekker.cfa" "$tmp/live_p2.f"

# the same models as nets
printf 'G ("proc1.want" -> F "proc1.crit")\n' >"$tmp/live_net.form"
for fmt in pnml pep; do
    case $fmt in pnml) out=$tmp/dekker.pnml ;; pep) out=$tmp/dekker.ll_net ;; esac
    if ! "$MCK" convert "$ex/cfa/dekker.cfa" -o "$out" 2>"$tmp/err"; then
        echo "not ok - fairness dekker as $fmt: convert failed: $(head -n 1 "$tmp/err")"
        continue
    fi
    expect "dekker as $fmt, no fairness" 1 "$out" "$tmp/live_net.form"
    expect "dekker as $fmt, weak" 0 --fair=weak "$out" "$tmp/live_net.form"
done
# a lock: process 1 waits while process 2 takes the lock again and again;
# enter1 is enabled only now and then, so only strong fairness helps
printf 'G ("wait1" -> F "crit1")\n' >"$tmp/wait1.form"
expect "mutex.pnml wait1 -> F crit1, no fairness" 1 "$ex/pnml/mutex.pnml" "$tmp/wait1.form"
expect "mutex.pnml wait1 -> F crit1, weak" 1 --fair=weak "$ex/pnml/mutex.pnml" "$tmp/wait1.form"
expect "mutex.pnml wait1 -> F crit1, strong" 0 --fair=strong "$ex/pnml/mutex.pnml" "$tmp/wait1.form"

# MODE SET STEPS WALK: "fair" when the loop of the steps (a LOOP line
# before its first step) is MODE-fair for the transitions whose names match
# the regular expression SET, judged on the walk's lists of enabled
# transitions; else what is wrong
judge() {
    awk -v mode="$1" -v set="$2" '
        FNR == NR { if ($0 == "LOOP") loop = n; else step[++n] = $0; next }
        /^\*\*\* state / { s = $3; sub(":", "", s); s += 0; next }
        /^  \[[0-9]+\] / { t = $0; sub(/^  \[[0-9]+\] /, "", t); en[s, t] = 1; names[t] = 1; next }
        /^> / { a = $0; sub(/^> /, "", a); if (a != "q" && a != step[s + 1]) bad = "walk differs at step " s + 1 }
        END {
            if (bad != "") { print bad; exit }
            if (s != n) { print "the walk ended at state " s " of " n; exit }
            # the loop: states loop..n-1, steps loop+1..n (state n is state loop)
            for (i = loop + 1; i <= n; i++) fired[step[i]] = 1
            for (t in names) {
                if (t !~ set) continue
                all = 1; some = 0
                for (i = loop; i < n; i++) { if (en[i, t]) some = 1; else all = 0 }
                need = mode == "strong" ? some : all
                if (need && !fired[t]) { print "unfair: " t " enabled " (mode == "strong" ? "at some" : "at every") " loop state, never fired"; exit }
            }
            print "fair"
        }' "$3" "$4"
}

# MODE SET NAME MODEL FORMULA [ARGS...]: the printed lasso, walked by hand
# with `mck simulate`, is fair on its loop (PNML: steps are transition names)
fair_lasso() {
    mode=$1 set=$2 name=$3 model=$4 form=$5
    shift 5
    "$MCK" check --fair="$mode" "$@" "$model" "$form" >"$tmp/run" 2>"$tmp/err"
    if [ $? != 1 ]; then
        echo "not ok - fairness lasso $name: no counterexample: $(head -n 1 "$tmp/err")"
        return
    fi
    # steps: the lines after the initial state, up to "Time needed"
    awk '/^\*\*\* initial state/ {on = 1; next}
         /^Time needed/ {on = 0}
         on && /^\*\*\* loop starts here/ {print "LOOP"; next}
         on && /^\*\*\*/ {next}
         on {print}' "$tmp/run" >"$tmp/steps"
    if ! grep -q '^LOOP$' "$tmp/steps"; then
        echo "not ok - fairness lasso $name: no loop in the printed run"
        return
    fi
    { grep -v '^LOOP$' "$tmp/steps"; echo q; } |
        "$MCK" simulate "$model" >"$tmp/walk" 2>"$tmp/err"
    verdict=$(judge "$mode" "$set" "$tmp/steps" "$tmp/walk")
    if [ "$verdict" = fair ]; then
        echo "ok - fairness lasso $name: $(grep -c . "$tmp/steps") lines, the loop is $mode-fair"
    else
        echo "not ok - fairness lasso $name: $verdict"
    fi
}
fair_lasso weak . "mutex.pnml wait1, weak" "$ex/pnml/mutex.pnml" "$tmp/wait1.form"
# the judge can fail: that weakly fair loop passes a state with enter1
# enabled and never fires it, which strong fairness forbids
if [ "$(judge strong . "$tmp/steps" "$tmp/walk")" = "unfair: enter1 enabled at some loop state, never fired" ]; then
    echo "ok - fairness lasso judge: the weak lasso is not strongly fair"
else
    echo "not ok - fairness lasso judge: $(judge strong . "$tmp/steps" "$tmp/walk")"
fi
printf 'G F "crit2"\n' >"$tmp/gfcrit2.form"
fair_lasso strong '^(ask1|enter1|leave1)$' "mutex.pnml G F crit2, strong for process 1" \
    "$ex/pnml/mutex.pnml" "$tmp/gfcrit2.form" --fair-set 'ask1,enter1,leave1'
if [ -f "$tmp/dekker.pnml" ]; then
    printf 'G F "proc2.crit"\n' >"$tmp/gf2.form"
    fair_lasso weak '^proc1[.]' "dekker.pnml G F proc2.crit, weak for proc1" \
        "$tmp/dekker.pnml" "$tmp/gf2.form" --fair-set 'proc1.*'
fi

refused "a bad mode" "--fair takes" --fair=sometimes "$ex/pnml/mutex.pnml" "$tmp/wait1.form"
refused "an unknown transition" "no transition of the model is named 'nosuch'" --fair=weak \
    --fair-set nosuch "$ex/pnml/mutex.pnml" "$tmp/wait1.form"
refused "--fair-set without a mode" "needs --fair" --fair-set ask1 "$ex/pnml/mutex.pnml" \
    "$tmp/wait1.form"
{ echo '#fair often'; echo 'G F "crit1"'; } >"$tmp/badmode.form"
refused "a bad #fair line, with its place" "badmode.form:1:7: #fair takes" \
    "$ex/pnml/mutex.pnml" "$tmp/badmode.form"
{ echo '% two lines'; echo '#fair weak nosuch'; echo 'G F "crit1"'; } >"$tmp/badname.form"
refused "an unknown name on the #fair line, with its line" "badname.form:2: no transition" \
    "$ex/pnml/mutex.pnml" "$tmp/badname.form"
refused "fairness on a reachability property" "applies to ltl properties only" --fair=weak \
    "$ex/pnml/mutex.pnml" "$ex/pnml/both-critical.form"
refused "fairness with the reduce checker" "does not support fairness" --fair=weak \
    --checker reduce "$ex/pnml/mutex.pnml" "$tmp/wait1.form"

# SPIN: weak fairness (pan -f) is per process; with one process per net
# transition it is mck's weak fairness on all transitions
if ! command -v spin >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
    echo "skip - fairness spin: spin or gcc not installed (Debian packages spin, gcc)"
    exit 0
fi
# MODEL LTL NAME MCK-EXIT-WEAK
spin_weak() {
    model=$1 ltl=$2 name=$3
    dir=$tmp/spin_$name
    mkdir -p "$dir"
    if ! "$MCK" export --promela -o "$dir/one.pml" "$model" 2>"$dir/err"; then
        echo "not ok - fairness spin $name: export failed: $(head -n 1 "$dir/err")"
        return
    fi
    awk 'BEGIN { k = 0 }
         /^active proctype net\(\)/ { inproc = 1; next }
         inproc && /^\{/ { next }
         inproc && /^    do$/ { next }
         inproc && /^    :: / { if (k) print "    od\n}"; print "active proctype t" k++ "()\n{\n    do"; print; next }
         inproc && /^    od$/ { print "    od\n}"; inproc = 2; next }
         inproc == 2 && /^\}/ { inproc = 0; next }
         { print }' "$dir/one.pml" >"$dir/model.pml"
    printf 'ltl live { %s }\n' "$ltl" >>"$dir/model.pml"
    if ! (cd "$dir" && spin -a model.pml >spin.out 2>&1 &&
          gcc -O2 -DNOREDUCE -DNFAIR=16 -DVECTORSZ=4096 -o pan pan.c >gcc.out 2>&1); then
        echo "not ok - fairness spin $name: spin -a or gcc failed: $(tail -n 1 "$dir/spin.out") $(tail -n 1 "$dir/gcc.out" 2>/dev/null)"
        return
    fi
    for f in none weak; do
        flag=; [ $f = weak ] && flag=-f
        (cd "$dir" && ./pan -a $flag -m100000 -w20 -N live >"pan.$f" 2>&1)
        if grep -q 'errors: 0$' "$dir/pan.$f"; then spin=0
        elif grep -q 'errors: [1-9]' "$dir/pan.$f"; then spin=1
        else echo "not ok - fairness spin $name $f: no answer from pan: $(tail -n 1 "$dir/pan.$f")"; continue
        fi
        "$MCK" check -q --fair=$f "$model" "$4" >/dev/null 2>&1
        got=$?
        if [ "$got" = "$spin" ]; then
            echo "ok - fairness spin $name, $f: mck and SPIN agree (exit $got)"
        else
            echo "not ok - fairness spin $name, $f: mck exit $got, SPIN $spin"
        fi
    done
}
if [ -f "$tmp/dekker.pnml" ]; then
    spin_weak "$tmp/dekker.pnml" '[] (p_proc1_want >= 1 -> <> (p_proc1_crit >= 1))' dekker \
        "$tmp/live_net.form"
fi
spin_weak "$ex/pnml/mutex.pnml" '[] (p_wait1 >= 1 -> <> (p_crit1 >= 1))' mutex "$tmp/wait1.form"
