#!/bin/sh
# Limits from the first byte (issue #40, item 2): --timeout, --mem, SIGINT
# and SIGTERM hold while a model is read, unfolded and compiled, not only
# during the search.  The inputs are made here, in $TMPDIR: a P/T PNML of
# about 190 MB (awk writes it in about a second), whose reading takes
# seconds and a few hundred MB, and a colored net of 2 KB whose unfolding
# has two million places.
#
# - --timeout: UNKNOWN (time limit reached while reading), exit 3, and an
#   unknown verdict under --xml, within a second of the limit (--timeout 0.5 on reading, --timeout 2 on the
#   whole run: at most 3 s, as the issue asks; --timeout 1 on unfolding);
# - --mem 50: UNKNOWN (memory budget exhausted while reading/unfolding),
#   peak RSS (tests/lib/peakrss) under 50 MiB plus the fixed overhead the
#   man page states (16 MiB);
# - SIGINT half a second into the reading: UNKNOWN (interrupted while
#   reading) within a second of the signal; `mck info` ends at once on
#   SIGTERM (it has no answer to give);
# - mck mcc: BenchKit's confinements the same way (CANNOT_COMPUTE, the
#   reason on stderr, exit 0, within the confinements), and SIGTERM;
# - mck properties --timeout 1: exit 3 with the reason.
#
# Under AddressSanitizer (config.mk) the process starts larger (its
# runtime and shadow memory): the RSS bound adds what a check of a
# ten-line net peaks at, and ASan's quarantine is off as in limits.sh;
# time bounds get 50 % more.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
peakrss="$TOP/tests/lib/peakrss"
tmp="${TMPDIR:-/tmp}/mck_readlimits.$$"
trap 'rm -rf "$tmp".*' EXIT INT TERM

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1: $2"; }

if [ ! -x "$MCK" ] || [ ! -x "$peakrss" ]; then
    echo "skip - readlimits: no mck or tests/lib/peakrss (make check builds both)"
    exit 0
fi
OVERHEAD_MIB=16   # docs/mck.1, --mem
slack=1.0
asan=
if grep -q 'fsanitize=address' "$TOP/config.mk" 2>/dev/null; then
    asan=1
    slack=1.5
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
fi

# ---- the inputs ----
pnml="$tmp.big.pnml"
awk -v n=500000 'BEGIN {
    print "<?xml version=\"1.0\"?>"
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"
    print "<net id=\"ring\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"pg\">"
    for (i = 0; i < n; i++) {
        printf "<place id=\"p%d\"><name><text>p%d</text></name><initialMarking><text>%d</text></initialMarking></place>\n", i, i, i == 0
        printf "<transition id=\"t%d\"><name><text>t%d</text></name></transition>\n", i, i
        printf "<arc id=\"a%d\" source=\"p%d\" target=\"t%d\"><inscription><text>1</text></inscription></arc>\n", i, i, i
        printf "<arc id=\"b%d\" source=\"t%d\" target=\"p%d\"><inscription><text>1</text></inscription></arc>\n", i, i, (i + 1) % n
    }
    print "</page></net></pnml>"
}' >"$pnml" || { notok "generate" "awk could not write $pnml"; exit 0; }
size=$(wc -c <"$pnml")
if [ "$size" -lt 150000000 ]; then
    notok "generate" "$pnml has $size bytes, not the 190 MB meant"
    exit 0
fi

colored="$tmp.wide.pnml"
term='<numberof><subterm><numberconstant value="1"><positive/></numberconstant></subterm><subterm><variable refvariable="x"/></subterm></numberof>'
cat >"$colored" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="wide" type="http://www.pnml.org/version-2009/grammar/symmetricnet">
<page id="page">
<declaration><structure><declarations>
<namedsort id="num" name="Num"><finiteintrange start="1" end="2000000"/></namedsort>
<variabledecl id="x" name="x"><usersort declaration="num"/></variabledecl>
</declarations></structure></declaration>
<place id="P"><type><structure><usersort declaration="num"/></structure></type></place>
<place id="Q"><type><structure><usersort declaration="num"/></structure></type></place>
<transition id="t"/>
<arc id="a" source="P" target="t"><hlinscription><structure>$term</structure></hlinscription></arc>
<arc id="b" source="t" target="Q"><hlinscription><structure>$term</structure></hlinscription></arc>
</page>
</net>
</pnml>
EOF

tiny="$tmp.tiny.pnml"
cp "$TOP/examples/pnml/mutex.pnml" "$tiny"
# the process's own size: what a check of a ten-line net peaks at
"$peakrss" "$tmp.rss" "$MCK" check -q "$tiny" >/dev/null 2>&1
base_kb=$(cut -d' ' -f1 "$tmp.rss")
rss_max_kb=$(((50 + OVERHEAD_MIB) * 1024))
[ -n "$asan" ] && rss_max_kb=$((rss_max_kb + base_kb))

# result NAME REASON: exit 3 and "Result: UNKNOWN (REASON)."
result() {
    line=$(grep '^Result:' "$tmp.out")
    if [ "$rc" -eq 3 ] && [ "$line" = "Result: UNKNOWN ($2)." ]; then
        ok "$1: exit 3, $line"
    else
        notok "$1" "exit $rc, '$line' (stderr: $(head -c 300 "$tmp.err"))"
    fi
}

# within NAME SECONDS LIMIT: SECONDS <= LIMIT (times slack)
within() {
    if awk -v s="$2" -v l="$3" -v k="$slack" 'BEGIN { exit !(s <= k * l) }'; then
        ok "$1: done in $2 s (at most $3 s)"
    else
        notok "$1" "took $2 s, more than $3 s"
    fi
}

# rss NAME: the last run's peak RSS under 50 MiB plus the overhead
rss() {
    kb=$(cut -d' ' -f1 "$tmp.rss")
    if [ "$kb" -lt "$rss_max_kb" ]; then
        ok "$1: peak RSS $((kb / 1024)) MiB < $((rss_max_kb / 1024)) MiB${asan:+ (ASan: $((base_kb / 1024)) MiB of its own)}"
    else
        notok "$1" "peak RSS $((kb / 1024)) MiB, not < $((rss_max_kb / 1024)) MiB"
    fi
}

secs() { cut -d' ' -f2 "$tmp.rss"; }

# (a --timeout or a time confinement on every run: a regression fails in a
# minute instead of hanging the test for the default hour)

# ---- --timeout ----
"$peakrss" "$tmp.rss" "$MCK" check --timeout 0.5 --xml "$tmp.xml" "$pnml" >"$tmp.out" 2>"$tmp.err"
rc=$?
result "--timeout 0.5, 190 MB PNML" "time limit reached while reading"
within "--timeout 0.5, 190 MB PNML" "$(secs)" 1.5
# the verdict names the model by its file, the net never having been read
if grep -q '<modelreference modelname="mck_readlimits\.[0-9]*\.big"/>' "$tmp.xml" &&
   grep -q '<verdict category="dl" reference="deadlock" value="unknown">' "$tmp.xml" &&
   grep -q '<explanation>time limit reached while reading</explanation>' "$tmp.xml"; then
    ok "--timeout 0.5 --xml: an unknown dl verdict with the reason"
else
    notok "--timeout 0.5 --xml" "$(head -c 400 "$tmp.xml" 2>&1)"
fi

# the issue's case: the whole run, whatever stage the deadline falls in
"$peakrss" "$tmp.rss" "$MCK" check --timeout 2 "$pnml" >"$tmp.out" 2>"$tmp.err"
rc=$?
line=$(grep '^Result:' "$tmp.out")
case "$rc:$line" in
    "3:Result: UNKNOWN (time limit reached"*) ok "--timeout 2, 190 MB PNML: exit 3, $line" ;;
    *) notok "--timeout 2, 190 MB PNML" "exit $rc, '$line' (stderr: $(head -c 300 "$tmp.err"))" ;;
esac
within "--timeout 2, 190 MB PNML" "$(secs)" 3

"$peakrss" "$tmp.rss" "$MCK" check --timeout 1 "$colored" >"$tmp.out" 2>"$tmp.err"
rc=$?
result "--timeout 1, 2 KB colored net of 2e6 colors" "time limit reached while unfolding"
within "--timeout 1, colored net" "$(secs)" 2

# ---- --mem ----
"$peakrss" "$tmp.rss" "$MCK" check --mem 50 --timeout 60 "$pnml" >"$tmp.out" 2>"$tmp.err"
rc=$?
result "--mem 50, 190 MB PNML" "memory budget exhausted while reading"
rss "--mem 50, 190 MB PNML"

"$peakrss" "$tmp.rss" "$MCK" check --mem 50 --timeout 60 "$colored" >"$tmp.out" 2>"$tmp.err"
rc=$?
result "--mem 50, colored net" "memory budget exhausted while unfolding"
rss "--mem 50, colored net"

# ---- signals ----
# after_signal SIGNAL CMD...: the signal half a second into CMD; its
# status in rc, the seconds from the signal to its end in gone.  A CMD
# that does not end within 10 s of it is killed (status 137), so that a
# regression fails the test instead of hanging it.
after_signal() {
    sig=$1
    shift
    "$@" >"$tmp.out" 2>"$tmp.err" &
    pid=$!
    sleep 0.5
    t0=$(date +%s.%N)
    kill -"$sig" "$pid"
    i=0
    while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    gone=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}

after_signal INT "$MCK" check "$pnml"
result "SIGINT while reading" "interrupted while reading"
within "SIGINT while reading" "$gone" 1

# a command with no answer to give ends the default way (SIGTERM: a
# background job of a script ignores SIGINT, as POSIX has it)
after_signal TERM "$MCK" info "$pnml"
if [ "$rc" -eq 143 ]; then
    ok "mck info, SIGTERM while reading: ended by it (status 143)"
else
    notok "mck info, SIGTERM while reading" "status $rc"
fi
within "mck info, SIGTERM while reading" "$gone" 1

# ---- mck mcc ----
mkdir -p "$tmp.inst"
ln -s "$pnml" "$tmp.inst/model.pnml"
# mcc_stopped NAME REASON: exit 0, CANNOT_COMPUTE, the reason on stderr
mcc_stopped() {
    if [ "$rc" -eq 0 ] && [ "$(cat "$tmp.out")" = "CANNOT_COMPUTE" ] &&
       grep -q "^mck mcc: StateSpace: $2\$" "$tmp.err"; then
        ok "$1: CANNOT_COMPUTE, $2"
    else
        notok "$1" "exit $rc, '$(head -c 200 "$tmp.out")', stderr '$(head -c 300 "$tmp.err")'"
    fi
}
# 2.5 s of confinement leave 1.7 s for the run (the margin is at least 0.8 s),
# less than reading this file takes: it ends while reading, inside the confinement
BK_TIME_CONFINEMENT=2.5 "$peakrss" "$tmp.rss" "$MCK" mcc StateSpace "$tmp.inst" \
    >"$tmp.out" 2>"$tmp.err"
rc=$?
mcc_stopped "mcc, BK_TIME_CONFINEMENT=2.5" "time limit reached while reading"
within "mcc, BK_TIME_CONFINEMENT=2.5" "$(secs)" 2.5
# 100 MiB of confinement: three quarters for the model and the search
BK_MEMORY_CONFINEMENT=100 BK_TIME_CONFINEMENT=60 "$peakrss" "$tmp.rss" "$MCK" mcc StateSpace "$tmp.inst" \
    >"$tmp.out" 2>"$tmp.err"
rc=$?
mcc_stopped "mcc, BK_MEMORY_CONFINEMENT=100" "memory budget exhausted while reading"
kb=$(cut -d' ' -f1 "$tmp.rss")
cap_kb=$((100 * 1024))
[ -n "$asan" ] && cap_kb=$((cap_kb + base_kb))
if [ "$kb" -lt "$cap_kb" ]; then
    ok "mcc, BK_MEMORY_CONFINEMENT=100: peak RSS $((kb / 1024)) MiB, within the confinement"
else
    notok "mcc, BK_MEMORY_CONFINEMENT=100" "peak RSS $((kb / 1024)) MiB"
fi
after_signal TERM env BK_TIME_CONFINEMENT=60 "$MCK" mcc StateSpace "$tmp.inst"
mcc_stopped "mcc, SIGTERM while reading" "interrupted while reading"
within "mcc, SIGTERM while reading" "$gone" 1

# ---- mck properties ----
"$peakrss" "$tmp.rss" "$MCK" properties --timeout 1 "$pnml" >"$tmp.out" 2>"$tmp.err"
rc=$?
if [ "$rc" -eq 3 ] &&
   grep -qxF "mck properties: $pnml: time limit reached while reading: no properties" "$tmp.err"; then
    ok "properties --timeout 1: exit 3, $(cat "$tmp.err")"
else
    notok "properties --timeout 1" "exit $rc, stderr '$(head -c 300 "$tmp.err")'"
fi
within "properties --timeout 1" "$(secs)" 2
