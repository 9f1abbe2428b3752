#!/bin/sh
# Runs every test program and script given as arguments and adds up their
# checks.  A test prints one line per check: "ok - NAME", "not ok - NAME",
# or "skip - NAME: why".  A test that exits non-zero without reporting a
# failure counts as one failure, so a crash is never silent.
# Ends with the line "N passed, N failed, N skipped".
pass=0 fail=0 skip=0
top=$(cd "$(dirname "$0")/.." && pwd)
export MCK="${MCK:-$top/mck}" TOP="$top"
export SHARED="${SHARED:-$top/../shared}"
# Under ASan: leaks of the libraries Graphviz loads are not mck's (lsan.supp).
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
mkdir -p "$top/tests/tmp"
for t in "$@"; do
    [ -e "$t" ] || continue
    case "$t" in
        *.sh) cmd="sh $t" ;;
        *) cmd="$t" ;;
    esac
    out="$top/tests/tmp/$(basename "$t").out"
    $cmd >"$out" 2>"$out.err"
    rc=$?
    p=$(grep -c '^ok - ' "$out")
    f=$(grep -c '^not ok - ' "$out")
    s=$(grep -c '^skip - ' "$out")
    grep '^not ok - ' "$out" | sed "s|^|$(basename "$t"): |"
    grep '^skip - ' "$out" | sed "s|^|$(basename "$t"): |"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$(basename "$t"): not ok - exited with status $rc"
        tail -n 5 "$out.err" | sed 's/^/    /'
        f=1
    fi
    if [ "$f" -gt 0 ]; then
        tail -n 20 "$out.err" | sed 's/^/    stderr: /'
    fi
    echo "$(basename "$t"): $p passed, $f failed, $s skipped"
    pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
