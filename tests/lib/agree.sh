# Sourced by the end-to-end tests of a checker that must give the explicit
# checker's answers (reduce.sh, symbolic.sh).  The caller sets MCK, TOP
# and tmp (a path prefix for scratch files).  mck check replays every run
# on the model before printing it and reports an internal error when one
# does not replay, so an agreeing answer also means a replaying witness.
#
# Counters: pass (same answer), fail (another answer, or an internal
# error), skipped (a kind or formula the checker refuses, or a property
# file of another model: an error for both), unknown (a limit on either
# side decides nothing).

pass=0 fail=0 skipped=0 unknown=0

agree() {   # CHECKER LABEL, then the check's arguments
    agree_checker=$1 agree_label=$2
    shift 2
    "$MCK" check -q --timeout 20 "$@" >"$tmp.e" 2>&1
    e=$?
    "$MCK" check -c "$agree_checker" --timeout 20 "$@" >"$tmp.c" 2>&1
    c=$?
    if grep -q "does not support kind\|$agree_checker checker:" "$tmp.c" || [ "$e" -eq 2 ]; then
        skipped=$((skipped + 1))
        return
    fi
    if [ "$e" -eq 3 ] || [ "$c" -eq 3 ]; then
        unknown=$((unknown + 1))
        return
    fi
    if [ "$e" -eq "$c" ] && [ "$c" -le 1 ] && ! grep -q "internal error" "$tmp.c"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "not ok - $agree_label: explicit exit $e, $agree_checker exit $c:" \
            "$(head -n 3 "$tmp.c" | tr '\n' ' ')"
    fi
}

# Deadlock and every property file beside each model of examples/.
agree_on_examples() {   # CHECKER
    for model in "$TOP"/examples/*/*.*; do
        case $model in *.md|*.f|*.form) continue ;; esac
        dir=$(dirname "$model")
        agree "$1" "$(basename "$model") dl" "$model"
        for prop in "$dir"/*.f "$dir"/*.form; do
            [ -f "$prop" ] || continue
            agree "$1" "$(basename "$model") $(basename "$prop")" "$model" "$prop"
        done
    done
}
