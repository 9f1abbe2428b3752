#!/bin/sh
# Malformed PEP nets (docs/pep-format.md §13): `mck info` must exit 2 with
# exactly one line on stderr, "FILE:LINE: text", naming the right line.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
data="$TOP/tests/data/pep"
tmp="${TMPDIR:-/tmp}/mck_pep_bad.$$"
trap 'rm -f "$tmp.out" "$tmp.err"' EXIT INT TERM

# fixture (tests/data/pep/bad_NAME.ll_net) | line | expected text
table() {
    cat <<'EOF'
magic|1|keyword 'PEP' expected
empty|1|keyword 'PEP' expected
class|3|unexpected format identifier 'PTNets'
format|3|keyword 'FORMAT_N' or 'FORMAT_N2' expected
header_eof|2|keyword 'FORMAT_N' or 'FORMAT_N2' expected
keyword|6|unknown keyword 'XY'
order|6|block 'BL' out of order
twice|6|block 'PL' out of order
skipped|8|keyword 'TP' expected
missing_pl|5|keyword 'PL' expected
entry_before_pl|5|keyword 'PL' expected
missing_tr|6|keyword 'TR' expected
truncated|7|section 'TP' not found
no_pt|9|section 'PT' not found
rs|11|reset arcs (RS) are not supported
rd|10|RD read arcs are not supported, use RA
letter|5|unknown field letter 'q'
tr_letter|7|unknown field letter 'e'
string|6|unterminated string
meaning_string|5|quoted string expected
digit|5|digit expected
coords|5|'@' expected
kw_text|4|unexpected text after keyword 'PL'
arc_place|9|arc: incorrect place identifier 9
arc_transition|11|arc: incorrect transition identifier 5
no_ends|11|arc without end points
ptp_no_ends|11|arc without end points
arc_pairs|9|arc with more than one pair of end points
dup_place|7|place identifier 2 used twice
dup_transition|9|transition identifier 2 used twice
missing_id|7|missing place identifier
id_zero|5|place identifier 0 out of range
id_range|5|place identifier 2147483648 out of range
weight0|9|arc weight must be at least 1
weight_negative|11|arc weight must be at least 1
dpt_weight|4|arc weight must be at least 1
negative|5|negative initial marking
overflow|5|number too large
dup_arc|12|given twice with different weights
dup_read_arc|15|given twice with different weights
EOF
}

if [ ! -x "$MCK" ]; then
    table | while IFS='|' read -r name line text; do
        echo "skip - pep_bad $name: no mck binary at $MCK"
    done
    exit 0
fi

. "$TOP/tests/lib/one_error.sh"
check() { expect_one_error pep_bad "$@"; }

table | while IFS='|' read -r name line text; do
    file="$data/bad_$name.ll_net"
    check "$name" "$file" "$file:$line: " "$text"
done

check missing_file "$data/no_such_file.ll_net" "$data/no_such_file.ll_net: cannot open: " ""

# The good fixtures are read without a word on stderr (warnings need -v).
for f in ex11_1 ex11_2 ex11_3 ex11_4 features autonum crlf; do
    "$MCK" info "$data/$f.ll_net" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp.err" ]; then
        echo "ok - pep_good $f"
    else
        echo "not ok - pep_good $f: exit status $rc, stderr: $(head -n 1 "$tmp.err")"
    fi
done
