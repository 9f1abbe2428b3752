#!/bin/sh
# Benchmark (not a test): builds and runs bench/memfloor.c, the cost of a
# prefetched random access into tables of 1 MB (in the caches), 26 MB and
# 96 MB (the compact stores of Railroad-PT-010 and
# SmallOperatingSystem-PT-MT0064DC0032 at the end of their searches), with
# 0, 20 or 50 dependent multiplications of work between two accesses.
# Usage: bench/memfloor.sh [ACCESSES]   (CC, default cc)
case $1 in -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp) || exit 2
trap 'rm -f "$bin"' EXIT
${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$bin" "$top/bench/memfloor.c" || exit 2
"$bin" "$@"
