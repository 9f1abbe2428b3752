#!/bin/sh
# The man page is complete: every command and every long option that
# 'mck --help' and the commands' own --help print is documented in
# docs/mck.1, and so is each exit status of mck check.  A new option
# without a line in the man page fails here.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp="${TMPDIR:-/tmp}/mck_man.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM
# the page's text with roff escapes dropped: \-\-mem reads --mem
sed -e 's/\\f[BIRP]//g' -e 's/\\//g' "$TOP/docs/mck.1" >"$tmp.man"

{
    "$MCK" --help
    for c in mcc properties export draw simulate; do "$MCK" "$c" --help; done
    "$MCK" verdicts --help
} >"$tmp.help" 2>&1

for opt in $(grep -oE -- '--[a-z][a-z-]*' "$tmp.help" | sort -u); do
    if grep -qF -- "$opt" "$tmp.man"; then
        echo "ok - man page documents $opt"
    else
        echo "not ok - man page documents $opt: not in docs/mck.1"
    fi
done
for cmd in $(sed -n 's/^ *\(usage: \)\{0,1\}mck \([a-z][a-z]*\).*/\2/p' "$tmp.help" | sort -u); do
    if grep -qE "^\.B(R)? mck $cmd|^mck $cmd" "$tmp.man" || grep -qF "B mck $cmd" "$TOP/docs/mck.1"; then
        echo "ok - man page has a synopsis line for mck $cmd"
    else
        echo "not ok - man page has a synopsis line for mck $cmd"
    fi
done
for st in 0 1 2 3; do
    if awk -v st="$st" '/^\.SH EXIT STATUS/ { on = 1 } /^\.SH/ && !/EXIT/ { on = 0 }
                        on && $0 == ".B " st { found = 1 } END { exit !found }' "$TOP/docs/mck.1"; then
        echo "ok - man page explains exit status $st"
    else
        echo "not ok - man page explains exit status $st"
    fi
done
for sec in "PROGRESS AND SIGNALS" "DRAWING" "ENVIRONMENT" "FILES" "CTL SEMANTICS" "LTL SEMANTICS"; do
    grep -q "^\.SH $sec\$" "$TOP/docs/mck.1" && echo "ok - man page section $sec" ||
        echo "not ok - man page section $sec"
done
