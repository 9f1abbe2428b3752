#!/bin/sh
# Plugins as a third party builds them (docs/adding-a-language.md): mck is
# installed into a scratch folder, the guide's language is compiled as a
# shared object against the installed headers only, and mck loads it with
# --plugin and from $MCK_PLUGIN_PATH.  A plugin built for another API
# version, and a library that is no plugin, are refused with a message.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
tmp="${TMPDIR:-/tmp}/mck_plugin.$$"
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/src" "$tmp/dir"
cc=${CC:-cc}

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "skip - plugins: no C compiler ($cc) to build one"
    exit 0
fi
if [ ! -f "$TOP/tests/tmp/guide_lang.c" ]; then
    echo "skip - plugins: tests/tmp/guide_lang.c, the guide's language, is not extracted (make check does it)"
    exit 0
fi
# the sanitizer pass builds mck with ASan; a plugin then needs no flags of
# its own, but make install must not rebuild anything: it only copies
if ! env -u MAKEFLAGS -u MFLAGS make -s -C "$TOP" install DESTDIR="$tmp/inst" \
        PREFIX=/usr/local >"$tmp/install.log" 2>&1; then
    echo "not ok - plugins: make install failed: $(tail -n 1 "$tmp/install.log")"
    exit 0
fi
inc="$tmp/inst/usr/local/include/mck"
[ -f "$inc/plugin/plugin.h" ] && [ -d "$tmp/inst/usr/local/lib/mck/plugins" ] &&
    echo "ok - plugins: make install puts the API headers and the plugin folder" ||
    echo "not ok - plugins: no installed plugin.h or plugin folder"

# the guide's fragments, in order, are the plugin's source
cp "$TOP/tests/tmp/guide_lang.c" "$tmp/src/toy.c"
if (cd "$tmp/src" && $cc -shared -fPIC -I"$inc" -o toy.so toy.c) 2>"$tmp/cc.log"; then
    echo "ok - plugins: the guide's toy language builds outside the tree from the installed headers"
else
    echo "not ok - plugins: toy.so does not build: $(head -n 3 "$tmp/cc.log" | tr '\n' ' ')"
    exit 0
fi
awk '/^```toy$/ { on = 1; next } /^```/ { on = 0 } on' "$TOP/docs/adding-a-language.md" \
    >"$tmp/src/workers.toy"
printf '"w2.busy"\n' >"$tmp/src/busy2.form"
printf 'Result: YES.\nWitness:\n*** initial state: w1=idle, w2=idle, tool=free ***\ntake2\n*** final state: w1=idle, w2=busy, tool=used ***\n' >"$tmp/want"
(cd "$tmp/src" && "$MCK" --plugin ./toy.so toy:explicit-reach workers.toy busy2.form) \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && head -n 5 "$tmp/out" | cmp -s - "$tmp/want"; then
    echo "ok - plugins: --plugin ./toy.so toy:explicit-reach prints the run in the toy's terms"
else
    echo "not ok - plugins: toy:explicit-reach status $rc: $(head -n 3 "$tmp/out" "$tmp/err" | tr '\n' ' ')"
fi
"$MCK" --plugin "$tmp/src/toy.so" list >"$tmp/out" 2>&1
grep -q "^  toy  .*\.toy .*(plugin $tmp/src/toy.so)" "$tmp/out" &&
    echo "ok - plugins: mck list shows the plugin's language and where it came from" ||
    echo "not ok - plugins: mck list: $(grep toy "$tmp/out")"
cp "$tmp/src/toy.so" "$tmp/dir/"
(cd "$tmp/src" && MCK_PLUGIN_PATH="$tmp/dir" "$MCK" check workers.toy busy2.form) >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q "^take2$" "$tmp/out" &&
    echo "ok - plugins: loaded from \$MCK_PLUGIN_PATH, the suffix .toy chooses the language" ||
    echo "not ok - plugins: MCK_PLUGIN_PATH: $(head -n 2 "$tmp/out" | tr '\n' ' ')"
"$MCK" --plugin "$tmp/src/toy.so" --plugin "$tmp/src/toy.so" list >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "language 'toy' exists already" "$tmp/err" &&
    echo "ok - plugins: the same language twice is refused" ||
    echo "not ok - plugins: a second toy was not refused"

# another API version
printf 'const int mck_plugin_api_version = 999;\nint mck_plugin_init(void) { return 0; }\n' \
    >"$tmp/src/old.c"
(cd "$tmp/src" && $cc -shared -fPIC -o old.so old.c)
"$MCK" --plugin "$tmp/src/old.so" list >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "old.so: plugin built for mck plugin API version 999; this mck has version" "$tmp/err"; then
    echo "ok - plugins: a plugin for another API version is refused, status 2"
else
    echo "not ok - plugins: version 999: status $rc: $(cat "$tmp/err")"
fi
printf 'int unrelated(void) { return 1; }\n' >"$tmp/src/lib.c"
(cd "$tmp/src" && $cc -shared -fPIC -o lib.so lib.c)
"$MCK" --plugin "$tmp/src/lib.so" list >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "lib.so: not an mck plugin" "$tmp/err" &&
    echo "ok - plugins: a library without the plugin symbols is refused" ||
    echo "not ok - plugins: lib.so: $(cat "$tmp/err")"
"$MCK" --plugin "$tmp/src/none.so" list >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "none.so: cannot load plugin" "$tmp/err" &&
    echo "ok - plugins: a missing file is refused" ||
    echo "not ok - plugins: none.so: $(cat "$tmp/err")"
exit 0
