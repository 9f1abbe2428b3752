#!/bin/sh
# Benchmark (not a test): builds bench/symbolic.c against libmck.a (run
# make first) and times the symbolic engine's chaining against its
# breadth-first images, FORCE's order, chaining without closures or with
# them from the start, and the bits side by side or interleaved, on MCC
# nets: seconds, markings, nodes of the set.
# Usage: bench/symbolic.sh SECONDS MODEL.pnml...
case $1 in -h|--help|'') sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp) || exit 2
trap 'rm -f "$bin"' EXIT
. "$top/config.mk" 2>/dev/null
make -s -C "$top" libmck.a || exit 2
flags=$(make -s -C "$top" -f - print <<'MK'
include Makefile
print:
	@echo $(ALL_CFLAGS) '|' $(ALL_LIBS)
MK
)
cc_flags=${flags%%|*}
libs=${flags#*|}
cd "$top" && ${CC:-cc} $cc_flags -o "$bin" bench/symbolic.c libmck.a $libs || exit 2
"$bin" "$@"
