#!/bin/sh
# Progress lines: a search that runs longer than two seconds reports on
# standard error when it is a terminal (here: a pseudo-terminal made by
# script(1)) or with -v, never when it is a file or pipe, never with -q, and
# never on standard output.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/limits"
tmp="${TMPDIR:-/tmp}/mck_progress.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM
line='^explicit: [0-9]* states, [0-9]* edges, [0-9]* MB, [0-9.e+]* states/s, queue [0-9]*'

# expect NAME PATTERN FILE yes|no
expect() {
    if grep -q "$2" "$3"; then found=yes; else found=no; fi
    if [ "$found" = "$4" ]; then
        echo "ok - progress: $1"
    else
        echo "not ok - progress: $1 (a line matching '$2': $found; $(head -c 300 "$3"))"
    fi
}

"$MCK" check -k dl --timeout 4 "$data/grow.pnml" >"$tmp.out" 2>"$tmp.err"
expect "silent when standard error is a file" "^explicit:" "$tmp.err" no
expect "never on standard output" "^explicit:" "$tmp.out" no

"$MCK" check -v -k dl --timeout 4 "$data/grow.pnml" >"$tmp.out" 2>"$tmp.err"
expect "-v: states, edges, memory, speed and queue" "$line" "$tmp.err" yes

"$MCK" check -v -q -k dl --timeout 4 "$data/grow.pnml" >"$tmp.out" 2>"$tmp.err"
expect "-q silences it even with -v" "^explicit:" "$tmp.err" no

"$MCK" check -v -k ltl --timeout 4 "$data/grow.pnml" "$data/g-not-never.form" >"$tmp.out" 2>"$tmp.err"
expect "ltl: the product's states and the stack" \
    '^ltl: [0-9]* states, [0-9]* edges, [0-9]* MB, [0-9.e+]* states/s, stack [0-9]*' "$tmp.err" yes

if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    # stdout goes to the file, so only standard error is the terminal
    script -qec "'$MCK' check -k dl --timeout 4 '$data/grow.pnml' >'$tmp.out'" /dev/null \
        >"$tmp.tty" 2>&1
    tr -d '\r' <"$tmp.tty" >"$tmp.tty2"
    expect "shown when standard error is a terminal" "$line" "$tmp.tty2" yes
    expect "... and still not on standard output" "^explicit:" "$tmp.out" no
else
    echo "skip - progress on a terminal: script(1) cannot make a pseudo-terminal here"
fi
