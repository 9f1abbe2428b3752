# Sourced by the tests of fenced children (tests/e2e/symbolic.sh,
# tests/e2e/unfold-fence.sh).
# Waits (up to 10 s) for the child process of $1 and stops it with
# SIGSTOP, so that only its parent's kill can end it; prints its pid.
# /proc, not procps: a bare Debian has no pgrep.
stop_child_of() {
    kid=
    for _ in $(seq 1 100); do
        for st in /proc/[0-9]*/status; do
            if grep -q "^PPid:[[:space:]]*$1\$" "$st" 2>/dev/null; then
                kid=${st#/proc/}
                kid=${kid%/status}
            fi
        done
        [ -n "$kid" ] && break
        sleep 0.1
    done
    [ -n "$kid" ] && kill -STOP "$kid" 2>/dev/null
    echo "$kid"
}
