#!/bin/sh
# mck simulate: walks by hand (commands on standard input, from a script
# and on a terminal), random walks that the seed reproduces byte for byte,
# and saved runs (mck check --xml) replayed as text to the final state the
# check printed; wrong commands and runs of other models are refused with
# the step they fail at; --timeout, --mem and SIGINT end a walk with exit 3.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
ex="$TOP/examples"
tmp="${TMPDIR:-/tmp}/mck_simulate.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

ok() { echo "ok - simulate $1"; }
notok() { echo "not ok - simulate $1: $2"; }
# same NAME FILE EXPECTED-FILE: the files are equal
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else notok "$1" "$(diff "$3" "$2" | head -n 12)"; fi
}
# refused NAME RC TEXT: the last run exited 2 with one line on stderr holding TEXT
refused() {
    if [ "$2" -eq 2 ] && [ "$(wc -l <"$tmp.err")" -eq 1 ] && grep -qF -- "$3" "$tmp.err"; then
        ok "$1"
    else
        notok "$1" "exit $2, stderr '$(cat "$tmp.err")'"
    fi
}

philo="$ex/pep/philo4.ll_net"
# A choice at every other step: a or b, then c, back to the start.
printf 'SENIL\n@trans\np0 -> a -> p1\np0 -> b -> p1\np1 -> c -> p0\n@marking\np0\n' >"$tmp.choice.senil"
# 2000 transitions that are always enabled: each random step scans them
# all, so that a walk is slow enough to be stopped by a limit mid-way.
{
    echo SENIL
    echo @trans
    i=0
    while [ $i -lt 2000 ]; do echo "p0 -> t$i -> p0"; i=$((i + 1)); done
    echo @marking
    echo p0
} >"$tmp.wide.senil"

# a RERS property on which lock.dot fails: workA does not recur
echo '( G(F(workA)) )' >"$tmp.rers.ltl"

# ---- random walks ----
"$MCK" simulate --steps 100 --seed 1 "$tmp.choice.senil" >"$tmp.r1" 2>"$tmp.err"
rc=$?
"$MCK" simulate --steps 100 --seed 1 "$tmp.choice.senil" >"$tmp.r1b"
"$MCK" simulate --steps 100 --seed 2 "$tmp.choice.senil" >"$tmp.r2"
[ "$rc" -eq 0 ] && ok "random walk: exit 0" || notok "random walk: exit 0" "exit $rc"
same "random walk: the same seed, byte-identical output" "$tmp.r1b" "$tmp.r1"
# the walk itself: 100 steps between the states, a or b at odd steps, c at
# even ones, back in p0 at the end
sed -n '2,101p' "$tmp.r1" >"$tmp.steps"
if [ "$(sed -n 1p "$tmp.r1")" = "*** initial state: p0 ***" ] &&
    [ "$(sed -n 102p "$tmp.r1")" = "*** final state: p0 ***" ] &&
    [ "$(sed -n 103p "$tmp.r1")" = "Random walk: 100 steps, seed 1." ] &&
    [ "$(wc -l <"$tmp.r1")" -eq 103 ] &&
    [ "$(awk 'NR % 2 == 1 && $0 != "a" && $0 != "b" || NR % 2 == 0 && $0 != "c"' "$tmp.steps" |
        wc -l)" -eq 0 ]; then
    ok "random walk: 100 steps of the net, a|b then c"
else
    notok "random walk: 100 steps of the net" "$(head -n 4 "$tmp.r1"; tail -n 3 "$tmp.r1")"
fi
grep -qx a "$tmp.steps" && grep -qx b "$tmp.steps" && ok "random walk: both choices taken" ||
    notok "random walk: both choices taken" "$(sort "$tmp.steps" | uniq -c | tr '\n' ' ')"
if sed -n '2,101p' "$tmp.r2" | cmp -s - "$tmp.steps"; then
    notok "random walk: another seed, another walk" "seeds 1 and 2 walk alike"
else
    ok "random walk: another seed, another walk"
fi
"$MCK" simulate --steps 100 --seed 1 "$ex/cfa/dekker.cfa" >"$tmp.d1"
"$MCK" simulate --steps 100 --seed 1 "$ex/cfa/dekker.cfa" >"$tmp.d1b"
same "random walk on a CFA: reproducible" "$tmp.d1b" "$tmp.d1"
grep -q '^proc[12]: [a-z0-9]* \[.*\] [a-z0-9]*$' "$tmp.d1" &&
    ! grep -q 'proc[12]\.[0-9]' "$tmp.d1" && ok "random walk on a CFA: steps in the automata's words" ||
    notok "random walk on a CFA: automata's words" "$(sed -n 2,3p "$tmp.d1")"

# a deadlock ends the walk early and is said so: B(PN)2 counts x to 3
"$MCK" simulate --steps 100 --seed 5 "$ex/bpn2/incr-noexit.bpn2" >"$tmp.dl"
rc=$?
if [ "$rc" -eq 0 ] && grep -qx '\*\*\* final state: x = 3 \*\*\*' "$tmp.dl" &&
    grep -qx '\*\*\* run ends in a deadlock \*\*\*' "$tmp.dl" &&
    [ "$(tail -n 1 "$tmp.dl")" = "Random walk: 3 steps, seed 5, then a deadlock." ]; then
    ok "random walk: stops at a deadlock and says so"
else
    notok "random walk: stops at a deadlock" "exit $rc, $(tail -n 4 "$tmp.dl")"
fi
# without --seed the seed is told, and it repeats the walk
"$MCK" simulate --steps 30 "$tmp.choice.senil" >"$tmp.ns"
seed=$(sed -n 's/^Random walk: 30 steps, seed \([0-9]*\)\.$/\1/p' "$tmp.ns")
if [ -n "$seed" ]; then
    "$MCK" simulate --steps 30 --seed "$seed" "$tmp.choice.senil" >"$tmp.ns2"
    same "random walk without --seed: the seed told repeats it" "$tmp.ns2" "$tmp.ns"
else
    notok "random walk without --seed: the seed told" "$(tail -n 1 "$tmp.ns")"
fi

# ---- saved runs ----
# replay NAME MODEL CHECK-ARGS...: the run check printed and the run simulate
# --run prints from its XML are the same lines, down to the final state
replay() {
    name=$1 model=$2
    shift 2
    "$MCK" check --xml "$tmp.v.xml" "$@" >"$tmp.c"
    sed -n '/^\(Witness\|Counterexample\):$/,/^Time needed/p' "$tmp.c" | sed '$d' >"$tmp.cr"
    "$MCK" simulate --run "$tmp.v.xml" "$model" >"$tmp.s" 2>"$tmp.err"
    rc=$?
    sed '$d' "$tmp.s" >"$tmp.sr"
    if [ "$rc" -eq 0 ] && [ -s "$tmp.cr" ] && cmp -s "$tmp.cr" "$tmp.sr" &&
        grep -q '^Replayed: [0-9]* steps of ' "$tmp.s"; then
        ok "replays $name: $(grep -c . "$tmp.sr") lines as check printed them"
    else
        notok "replays $name" "exit $rc, $(diff "$tmp.cr" "$tmp.sr" | head -n 8) $(cat "$tmp.err")"
    fi
}
replay "philo4's deadlock" "$philo" "$philo"
replay "a PNML reachability witness" "$ex/pnml/mutex-broken.pnml" "$ex/pnml/mutex-broken.pnml" \
    "$ex/pnml/both-critical.form"
replay "a PNML LTL lasso" "$ex/pnml/mutex.pnml" -k ltl "$ex/pnml/mutex.pnml" \
    "$ex/pnml/crit1-infinitely-often.form"
replay "a CFA witness" "$ex/cfa/mutex_bad.cfa" cfa:explicit-reach "$ex/cfa/mutex_bad.cfa" \
    "$ex/cfa/bad_mutex.f"
replay "a CFA lasso" "$ex/cfa/dekker.cfa" cfa:explicit-ltl "$ex/cfa/dekker.cfa" \
    "$ex/cfa/dekker_live.f"
replay "a B(PN)2 deadlock" "$ex/bpn2/incr-noexit.bpn2" "$ex/bpn2/incr-noexit.bpn2"
replay "an APNN deadlock" "$ex/apnn/forks.apnn" "$ex/apnn/forks.apnn"
replay "a RERS counterexample" "$ex/rers/lock.dot" -k ltl "$ex/rers/lock.dot" "$tmp.rers.ltl"
# the final state of philo4's deadlock, as the net says it must be
"$MCK" check --xml "$tmp.dl.xml" "$philo" >/dev/null
"$MCK" simulate --run "$tmp.dl.xml" "$philo" >"$tmp.s"
grep -qx '\*\*\* final state: hasleft0, hasleft1, hasleft2, hasleft3 \*\*\*' "$tmp.s" &&
    ok "replays philo4's deadlock to every philosopher holding a left fork" ||
    notok "replays philo4's deadlock to its final state" "$(cat "$tmp.s")"

# runs that do not fit the model: the step they fail at
"$MCK" simulate --run "$TOP/tests/data/draw/philo4-not-enabled.xml" "$philo" >"$tmp.o" 2>"$tmp.err"
refused "a run whose first step cannot fire" $? "step 1 (takeright0) cannot fire in the initial state"
grep -qx '\*\*\* state 0: think0, think1, think2, think3, fork0, fork1, fork2, fork3 \*\*\*' "$tmp.o" &&
    ok "a run whose first step cannot fire: the state shown" ||
    notok "a run whose first step cannot fire: the state" "$(cat "$tmp.o")"
# verdict FILE STEPS [LOOP]: a hand-made verdict file of philo4's transitions
verdict() {
    {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo '<toolspecific tool="propertiesverdict" version="1.0">'
        echo '  <modelreference modelname="philo4"/>'
        echo '  <verdict category="dl" reference="deadlock" value="true">'
        echo '    <trace role="witness">'
        for t in $2; do echo "      <step transition=\"#$t\"/>"; done
        [ -n "$3" ] && echo '      <loop/>'
        echo '    </trace>'
        echo '  </verdict>'
        echo '</toolspecific>'
    } >"$1"
}
# takeleft0 (#0) twice: the second cannot fire
verdict "$tmp.twice.xml" "0 0"
"$MCK" simulate --run "$tmp.twice.xml" "$philo" >"$tmp.o" 2>"$tmp.err"
refused "a run whose second step cannot fire" $? "step 2 (#0) cannot fire after step 1"
grep -qx 'The run fits the model up to step 1:' "$tmp.o" &&
    grep -qx '\*\*\* final state: hasleft0, think1, think2, think3, fork1, fork2, fork3 \*\*\*' "$tmp.o" &&
    ok "a run whose second step cannot fire: the part that fits shown" ||
    notok "a run whose second step cannot fire: the part that fits" "$(cat "$tmp.o")"
# takeleft0 then a deadlock the run claims: philo4 is not dead there
verdict "$tmp.notdead.xml" "0" loop
"$MCK" simulate --run "$tmp.notdead.xml" "$philo" >"$tmp.o" 2>"$tmp.err"
refused "a run claiming a deadlock that is none" $? "its trace says it ends in a deadlock"
"$MCK" check -k ltl --xml "$tmp.ltl.xml" "$ex/pnml/mutex.pnml" "$ex/pnml/crit1-infinitely-often.form" \
    >/dev/null
"$MCK" simulate --run "$tmp.ltl.xml" "$philo" >"$tmp.o" 2>"$tmp.err"
refused "a run of another model" $? "step 1: 'ask1' is not a transition of"

# ---- by hand, commands from a script ----
printf '1\n# a comment\n\ntakeleft1\nu\ns\nq\n1\n' |
    "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
rc=$?
cat >"$tmp.want" <<'EOF'
*** state 0: think0, think1, think2, think3, fork0, fork1, fork2, fork3 ***
enabled: 4
  [1] takeleft0
  [2] takeleft1
  [3] takeleft2
  [4] takeleft3
> 1
takeleft0
*** state 1: hasleft0, think1, think2, think3, fork1, fork2, fork3 ***
enabled: 4
  [1] takeright0
  [2] takeleft1
  [3] takeleft2
  [4] takeleft3
> # a comment
> 
> takeleft1
takeleft1
*** state 2: hasleft0, hasleft1, think2, think3, fork2, fork3 ***
enabled: 3
  [1] takeright1
  [2] takeleft2
  [3] takeleft3
> u
undo: takeleft1
*** state 1: hasleft0, think1, think2, think3, fork1, fork2, fork3 ***
enabled: 4
  [1] takeright0
  [2] takeleft1
  [3] takeleft2
  [4] takeleft3
> s
*** state 1: hasleft0, think1, think2, think3, fork1, fork2, fork3 ***
enabled: 4
  [1] takeright0
  [2] takeleft1
  [3] takeleft2
  [4] takeleft3
> q
EOF
[ "$rc" -eq 0 ] && [ ! -s "$tmp.err" ] && ok "scripted session: exit 0, nothing on stderr" ||
    notok "scripted session: exit 0" "exit $rc, $(cat "$tmp.err")"
same "scripted session: choose by number and name, undo, show, quit" "$tmp.o" "$tmp.want"

# the path so far, printed as check prints a run; the end of input ends the walk
printf 'takeleft0\ntakeleft1\ntakeleft2\ntakeleft3\np\n' | "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
rc=$?
sed -n '/^> p$/,$p' "$tmp.o" | sed 1d >"$tmp.path"
sed -n '/^\*\*\* initial state/,/^\*\*\* final state/p' "$tmp.s" >"$tmp.want"
[ "$rc" -eq 0 ] && same "scripted session: the path is the deadlock check found" "$tmp.path" "$tmp.want" ||
    notok "scripted session: the path" "exit $rc, $(cat "$tmp.err")"
grep -qx 'enabled: none (a deadlock)' "$tmp.o" && ok "scripted session: a deadlock is said so" ||
    notok "scripted session: a deadlock is said so" "$(tail -n 3 "$tmp.o")"

# words of the model: a CFA step chosen by a part of its words
printf 'proc2: idle\nproc1\n' | "$MCK" simulate "$ex/cfa/mutex_bad.cfa" >"$tmp.o" 2>"$tmp.err"
rc=$?
if [ "$rc" -eq 0 ] &&
    grep -qx '\*\*\* state 1: proc1.idle, proc2.want, flag1=0, flag2=0 \*\*\*' "$tmp.o" &&
    grep -qx '\*\*\* state 2: proc1.want, proc2.want, flag1=0, flag2=0 \*\*\*' "$tmp.o" &&
    grep -qx '  \[2\] proc2: want \[ flag2=0 --> flag2=1 \] crit' "$tmp.o"; then
    ok "scripted session on a CFA: states and steps in the automata's words"
else
    notok "scripted session on a CFA" "exit $rc, $(cat "$tmp.err") $(tail -n 6 "$tmp.o")"
fi

# wrong commands from a script: one message with the line, exit 2
printf '1\n9\n1\n' | "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
refused "scripted: a number not listed" $? "stdin:2: there is no [9] here: choose 1 to 4"
grep -q '^\*\*\* state 2' "$tmp.o" && notok "scripted: a wrong command ends the walk" "went on" ||
    ok "scripted: a wrong command ends the walk"
printf 'u\n' | "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
refused "scripted: nothing to undo" $? "stdin:1: nothing to undo: this is the initial state"
printf 'takeleft\n' | "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
refused "scripted: words that fit several" $? "4 enabled transitions fit 'takeleft'"
printf 'eat9\n' | "$MCK" simulate "$philo" >"$tmp.o" 2>"$tmp.err"
refused "scripted: words that fit none" $? "no enabled transition fits 'eat9'"
printf '1\n1\n1\n1\n1\n' | "$MCK" simulate "$ex/bpn2/incr-noexit.bpn2" >"$tmp.o" 2>"$tmp.err"
refused "scripted: a choice at a deadlock" $? "stdin:4: no transition is enabled here (a deadlock)"

# ---- by hand, on a terminal (script(1) gives one) ----
if command -v script >/dev/null 2>&1 &&
    script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    printf '9\n1\n' | script -qec "\"$MCK\" simulate \"$philo\"" /dev/null >"$tmp.o" 2>&1
    rc=$?
    tr -d '\r' <"$tmp.o" >"$tmp.t"
    if [ "$rc" -eq 0 ] && grep -q 'stdin:1: there is no \[9\] here' "$tmp.t" &&
        grep -qx '\*\*\* state 1: hasleft0, think1, think2, think3, fork1, fork2, fork3 \*\*\*' "$tmp.t"
    then
        ok "on a terminal: a wrong choice is told and the walk goes on"
    else
        notok "on a terminal: a wrong choice is told" "exit $rc, $(tail -n 8 "$tmp.t")"
    fi
else
    echo "skip - simulate on a terminal: script(1) cannot give mck a terminal here"
fi

# ---- limits ----
now() { date +%s.%N; }
# waiting for a command that does not come
rm -f "$tmp.fifo"
mkfifo "$tmp.fifo"
start=$(now)
"$MCK" simulate --timeout 1 "$philo" <"$tmp.fifo" >"$tmp.o" 2>"$tmp.err" &
pid=$!
exec 3>"$tmp.fifo"
wait "$pid"
rc=$?
exec 3>&-
took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" -eq 3 ] && grep -qx 'Simulation stopped (time limit reached) after 0 steps.' "$tmp.o" &&
    awk -v t="$took" 'BEGIN { exit !(t < 3) }'; then
    ok "--timeout 1 while waiting for a command: exit 3 after ${took} s"
else
    notok "--timeout while waiting" "exit $rc after $took s, $(tail -n 1 "$tmp.o") $(cat "$tmp.err")"
fi
"$MCK" simulate "$philo" <"$tmp.fifo" >"$tmp.o" 2>"$tmp.err" &
pid=$!
exec 3>"$tmp.fifo"
printf '1\n' >&3
# mck flushes its output before it waits for a command
i=0
while [ $i -lt 100 ] && ! grep -q '^\*\*\* state 1' "$tmp.o"; do sleep 0.1; i=$((i + 1)); done
kill -INT "$pid"
wait "$pid"
rc=$?
exec 3>&-
[ "$rc" -eq 3 ] && grep -qx 'Simulation stopped (interrupted) after 1 step.' "$tmp.o" &&
    ok "SIGINT while waiting for a command: exit 3, interrupted" ||
    notok "SIGINT while waiting" "exit $rc, $(tail -n 1 "$tmp.o") $(cat "$tmp.err")"

# a random walk longer than its time
start=$(now)
"$MCK" simulate --timeout 1 --steps 1000000000000 --seed 3 "$tmp.wide.senil" >"$tmp.o" 2>"$tmp.err"
rc=$?
took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
last=$(tail -n 1 "$tmp.o")
case "$rc:$last" in
    "3:Random walk stopped (time limit reached) after "*" of 1000000000000 steps, seed 3.")
        awk -v t="$took" 'BEGIN { exit !(t < 4) }' &&
            ok "--timeout 1 on a random walk: exit 3 after ${took} s" ||
            notok "--timeout on a random walk" "$took s" ;;
    *) notok "--timeout on a random walk" "exit $rc, '$last' $(cat "$tmp.err")" ;;
esac
"$MCK" simulate --steps 1000000000000 --seed 3 "$tmp.wide.senil" >"$tmp.o" 2>"$tmp.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
last=$(tail -n 1 "$tmp.o")
case "$rc:$last" in
    "3:Random walk stopped (interrupted) after "*) ok "SIGINT on a random walk: exit 3, interrupted" ;;
    *) notok "SIGINT on a random walk" "exit $rc, '$last' $(cat "$tmp.err")" ;;
esac
# the path's memory: 1 MiB holds 262144 steps, no more
"$MCK" simulate --mem 1 --steps 1000000000000 --seed 3 "$tmp.choice.senil" >"$tmp.o" 2>"$tmp.err"
rc=$?
k=$(tail -n 1 "$tmp.o" | sed -n 's/^Random walk stopped (memory budget exhausted) after \([0-9]*\) of .*/\1/p')
[ "$rc" -eq 3 ] && [ -n "$k" ] && [ "$k" -le 262144 ] && [ "$k" -gt 100000 ] &&
    ok "--mem 1 on a random walk: exit 3 after $k steps" ||
    notok "--mem on a random walk" "exit $rc, $(tail -n 1 "$tmp.o") $(cat "$tmp.err")"

# ---- usage ----
"$MCK" simulate --seed 1 "$philo" >"$tmp.o" 2>"$tmp.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--seed is the seed of a random walk' "$tmp.err" &&
    ok "usage: --seed without --steps" || notok "usage: --seed without --steps" "exit $rc"
"$MCK" simulate --steps 3 --run "$tmp.dl.xml" "$philo" >"$tmp.o" 2>"$tmp.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'choose one' "$tmp.err" && ok "usage: --steps and --run" ||
    notok "usage: --steps and --run" "exit $rc"
"$MCK" simulate --steps 3 "$tmp.nosuch.pnml" >"$tmp.o" 2>"$tmp.err"
refused "a missing model" $? "nosuch.pnml"
