# Sourced by the bad-input tests.  expect_one_error TAG NAME FILE PREFIX TEXT
# runs `mck info FILE` and reports "ok - TAG NAME" when it exits 2 with
# exactly one line on stderr that starts with PREFIX and contains TEXT.
# Needs $MCK and $tmp (a scratch path prefix).
expect_one_error() {
    "$MCK" info "$3" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    n=$(wc -l <"$tmp.err" | tr -d ' ')
    msg=$(head -n 1 "$tmp.err")
    why=
    [ "$rc" -eq 2 ] || why="exit status $rc, not 2"
    [ -z "$why" ] && [ "$n" -ne 1 ] && why="$n lines on stderr, not 1"
    if [ -z "$why" ]; then
        case "$msg" in
            "$4"*"$5"*) ;;
            *) why="message '$msg' is not '$4...$5'" ;;
        esac
    fi
    if [ -z "$why" ]; then
        echo "ok - $1 $2"
    else
        echo "not ok - $1 $2: $why"
    fi
}
