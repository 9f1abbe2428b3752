#!/bin/sh
# The house's layers (docs/architecture.md): every include and every call
# points down.  A folder may use itself and the folders listed for it here,
# nothing else; input/ and checkers/ never see each other.  Includes are
# read from the sources, calls from the objects' undefined symbols, so a
# call through a declaration written by hand is caught too.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$TOP" || exit 1
export LC_ALL=C

allowed() {
    case "$1" in
        base) echo "" ;;
        formula) echo "base" ;;
        lp) echo "base" ;;
        input) echo "base formula" ;;
        writers) echo "base" ;;
        verdicts) echo "base" ;;
        plugin) echo "base formula input" ;;
        engine) echo "base lp" ;;
        symbolic) echo "base lp" ;;
        reduce) echo "base lp" ;;
        checkers) echo "base lp engine symbolic reduce" ;;
        mcc) echo "base formula lp input verdicts engine symbolic reduce checkers" ;;
        cmd) echo "base formula lp input writers verdicts plugin engine symbolic reduce checkers mcc" ;;
        *) echo "?" ;;
    esac
}
layers="base formula lp input writers verdicts plugin engine symbolic reduce checkers mcc cmd"

loose=$(ls ./*.c 2>/dev/null | grep -v '^./main.c$')
if [ -z "$loose" ]; then
    echo "ok - layers: main.c is the only source at the top"
else
    echo "not ok - layers: sources at the top besides main.c:" $loose
fi

# includes: "folder/..." names a layer; a bare name is the file's own folder
bad=0
for layer in $layers; do
    ok=$(allowed "$layer")
    for f in $(find "$layer" -name '*.[chyl]' ! -name '*.tab.[ch]' ! -name '*.lex.c'); do
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            case "$inc" in */*) ;; *) continue ;; esac
            to=${inc%%/*}
            [ "$to" = "$layer" ] && continue
            case " $ok " in *" $to "*) continue ;; esac
            echo "not ok - layers: $f includes $inc ($layer may use: ${ok:-nothing})"
            bad=1
        done
    done
done
[ "$bad" = 0 ] && echo "ok - layers: every include points down"

# calls: which folder defines each symbol, and who calls it
objs=$(find $layers -name '*.o' 2>/dev/null)
if [ -z "$objs" ]; then
    echo "not ok - layers: no objects to read calls from (build first)"
    exit 0
fi
defs=$(mktemp) uses=$(mktemp)
trap 'rm -f "$defs" "$uses"' EXIT INT TERM
for o in $objs; do
    layer=${o%%/*}
    nm --defined-only -g "$o" | awk -v l="$layer" 'NF == 3 { print $3, l }'
done | sort -u >"$defs"
for o in $objs; do
    layer=${o%%/*}
    nm -u "$o" | awk -v l="$layer" -v o="$o" '{ print $NF, l, o }'
done | sort >"$uses"
bad=0
join "$uses" "$defs" | while read -r sym from obj to; do
    [ "$from" = "$to" ] && continue
    ok=$(allowed "$from")
    case " $ok " in *" $to "*) continue ;; esac
    echo "not ok - layers: $obj calls $sym of $to/ ($from may use: ${ok:-nothing})"
done >"$defs.bad"
if [ -s "$defs.bad" ]; then
    cat "$defs.bad"
else
    echo "ok - layers: every call points down"
fi
rm -f "$defs.bad"
