#!/bin/sh
# Bad PNML files (tests/data/pnml): `mck info` must exit 2 with exactly one
# line on stderr, "FILE:LINE: text", naming the right line; a missing file
# gives "FILE: cannot open: ...".  (Symmetric nets are read: colored.sh.)
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
data="$TOP/tests/data/pnml"
tmp="${TMPDIR:-/tmp}/mck_pnml_bad.$$"
trap 'rm -f "$tmp.out" "$tmp.err"' EXIT INT TERM

# fixture (tests/data/pnml/NAME.pnml) | line | expected text
table() {
    cat <<'EOF'
truncated|12|malformed XML: the file ends before the document does
malformed|7|malformed XML: Opening and ending tag mismatch
unknown-arc|8|arc 'a1': unknown target 'q'
duplicate-id|8|duplicate id 'p'
duplicate-place|6|duplicate id 'p'
negative-marking|7|place 'q': negative initial marking '-1'
overflow-marking|7|initial marking '99999999999999999999' is larger than 9223372036854775807
nonnumeric-marking|5|initial marking '1.5' is not a number
empty-marking|5|empty initial marking
zero-weight|8|arc 'a0': weight 0
negative-weight|7|arc 'a0': negative weight '-2'
overflow-weight|8|is larger than 9223372036854775807
place-place|5|arc 'a0' connects two places
transition-transition|7|arc 'a0' connects two transitions
arc-no-target|6|arc 'a0' without target
place-no-id|6|<place> without an id
nupn-unknown-place|8|NUPN unit 'u0': unknown place 'q'
nupn-unknown-subunit|8|NUPN unit 'u0': unknown subunit 'u1'
nupn-cycle|9|subunits form a cycle
nupn-place-twice|9|place already in another unit: 'p'
bomb|17|entity expansion refused
entity-decl|2|DOCTYPE declares entities
xxe|2|DOCTYPE declares entities
colored|3|high-level nets beyond symmetric nets are not supported
colored-type|6|colored elements in a P/T net (type ptnet): refused
reference-place|6|(reference nodes) is not supported
not-ptnet|3|is not a P/T net
two-nets|4|more than one <net>
no-net|4|no <net> element
not-pnml|3|root element is <html>, not <pnml>
empty|1|empty file
EOF
}

if [ ! -x "$MCK" ]; then
    echo "skip - pnml_bad: no mck binary at $MCK"
    exit 0
fi

. "$TOP/tests/lib/one_error.sh"
check() { expect_one_error pnml_bad "$@"; }

table | while IFS='|' read -r name line text; do
    file="$data/$name.pnml"
    check "$name" "$file" "$file:$line: " "$text"
done

check missing_file "$data/no_such_file.pnml" "$data/no_such_file.pnml: cannot open: " \
    "No such file or directory"

exit 0
