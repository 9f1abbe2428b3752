# mck build.  ./configure writes config.mk; everything else is here.
# Sources are found by wildcard so that a new language or checker is one
# new file, not an edit of this list.
-include config.mk

ifeq ($(wildcard config.mk),)
$(error run ./configure first (after 'autoreconf -fi' in a fresh clone))
endif

PREFIX ?= $(prefix)
DESTDIR ?=
# CI sets WERROR=-Werror on the make command line (not in configure's
# CFLAGS: autoconf's own test programs are not warning-free).
WERROR ?=
WARN = -Wall -Wextra $(WERROR)
# Plugins (plugin/plugin.h) are searched here by default.
PLUGINDIR = $(PREFIX)/lib/mck/plugins
ALL_CFLAGS = -std=c11 -pthread -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -I. -Iformula \
             $(XML_CFLAGS) $(CGRAPH_CFLAGS) $(GVC_CFLAGS) $(MPI_CFLAGS) $(CPPFLAGS) $(CFLAGS) -DMCK_VERSION='"$(VERSION)"' \
             -DMCK_PLUGIN_DIR='"$(PLUGINDIR)"'
ALL_LIBS = $(XML_LIBS) $(GVC_LIBS) $(CGRAPH_LIBS) $(GLPK_LIBS) $(BDD_LIBS) $(GMP_LIBS) $(SAT_LIBS) $(MPI_LIBS) $(LIBS) -ldl -lm
# Headers a plugin is written against (installed under include/mck/).
PUBLIC_HEADERS = base/netconv.h base/tree.h base/result.h base/budget.h base/formats.h \
                 formula/formula.h input/input.h plugin/plugin.h

YSRC := $(wildcard formula/*.y input/*.y input/*/*.y)
LSRC := $(wildcard formula/*.l input/*.l input/*/*.l)
YGEN := $(YSRC:.y=.tab.c)
LGEN := $(LSRC:.l=.lex.c)
# The layers, bottom up (docs/architecture.md); only main.c stays at the top.
LAYERS := base formula lp input writers verdicts plugin engine symbolic reduce checkers mcc cmd
CSRC := $(wildcard $(addsuffix /*.c,$(LAYERS)) $(addsuffix /*/*.c,$(LAYERS)))
CSRC := $(filter-out %.tab.c %.lex.c, $(CSRC))
LIBOBJ := $(CSRC:.c=.o) $(YGEN:.c=.o) $(LGEN:.c=.o)
TESTSRC := $(wildcard tests/unit/test_*.c)
TESTBIN := $(TESTSRC:.c=)

all: mck

# Plugins call mck's own functions: the whole library goes into the
# executable, and its symbols are exported to what dlopen loads.
mck: main.o libmck.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -rdynamic -o $@ main.o \
	    -Wl,--whole-archive libmck.a -Wl,--no-whole-archive $(ALL_LIBS)

libmck.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

%.o: %.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Generated parsers: warnings in generated code are not ours to fix, but
# -Werror builds must still pass, so they get the same flags and the
# grammars are written to compile cleanly.
%.tab.c %.tab.h: %.y
	$(BISON) -Wall -Werror --defines=$*.tab.h -o $*.tab.c $<

%.lex.c: %.l
	$(FLEX) -o $@ $<

# Every lexer includes its parser's token header.
$(LGEN:.c=.o): $(YGEN:.c=.h)
$(LIBOBJ) main.o: | $(YGEN:.c=.h)

tests/unit/%: tests/unit/%.c libmck.a $(wildcard tests/unit/*.h)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< libmck.a $(ALL_LIBS)

# The guide's C fragments, in order, are one source file that
# tests/unit/test_guide.c compiles in: the guide cannot drift from the code.
tests/tmp/guide_lang.c: docs/adding-a-language.md
	mkdir -p tests/tmp
	awk '/^```c$$/ { on = 1; next } /^```/ { on = 0 } on' $< >$@
tests/unit/test_guide: tests/tmp/guide_lang.c
# The B(PN)² test is mostly its interpreter, a header.
tests/unit/test_bpn2: tests/unit/bpn2sim.h tests/unit/runmck.h tests/unit/rnd.h

# Measures what the limit tests promise about memory (tests/e2e/limits.sh).
tests/lib/peakrss: tests/lib/peakrss.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

check: mck $(TESTBIN) tests/lib/peakrss
	@MCK=$(CURDIR)/mck sh tests/run.sh $(TESTBIN) tests/e2e/*.sh

# The tests of the code that runs threads, for a ThreadSanitizer build
# (.ci/run): a report ends mck with status 66, which fails its check.
THREAD_TESTS = tests/unit/test_parallel
check-threads: mck $(THREAD_TESTS)
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66 $${TSAN_OPTIONS:-}" MCK=$(CURDIR)/mck \
	    sh tests/run.sh $(THREAD_TESTS)

# make install [PREFIX=/usr] [DESTDIR=/tmp/stage]: the program, its man page,
# the plugin API's headers (under include/mck/), its pkg-config file and the
# plugin folder.  It only copies: tests install into scratch folders from
# sanitizer builds and must not trigger a rebuild.
install: mck
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PLUGINDIR)
	install -m 755 mck $(DESTDIR)$(PREFIX)/bin/mck
	install -m 644 docs/mck.1 $(DESTDIR)$(PREFIX)/share/man/man1/mck.1
	for h in $(PUBLIC_HEADERS); do \
	  install -d $(DESTDIR)$(PREFIX)/include/mck/$$(dirname $$h) && \
	  install -m 644 $$h $(DESTDIR)$(PREFIX)/include/mck/$$h || exit 1; done
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PLUGINDIR@|$(PLUGINDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' mck.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/mck.pc

# Removes what install put there; the plugin folder only when empty (a
# user's plugins are not ours to delete).
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/mck $(DESTDIR)$(PREFIX)/share/man/man1/mck.1 \
	      $(DESTDIR)$(PREFIX)/lib/pkgconfig/mck.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/mck
	-rmdir $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(PREFIX)/lib/mck 2>/dev/null

clean:
	rm -f mck libmck.a main.o main.d $(LIBOBJ) $(LIBOBJ:.o=.d) $(YGEN) $(YGEN:.c=.h) \
	      $(LGEN) $(TESTBIN) $(TESTBIN:=.d) tests/lib/peakrss
	rm -rf tests/tmp

# configure stays: a tarball's user has no autoconf to make it again.
distclean: clean
	rm -rf config.mk config.log config.status autom4te.cache

maintainer-clean: distclean
	rm -f configure $(DIST_NAME).tar.gz

# ---- the release tarball ----
# make dist: mck-VERSION.tar.gz holds the files git tracks (as they are in
# the working tree) and the generated configure, so that building it needs
# no autoconf.  make distcheck unpacks it into a scratch folder and there
# builds it with -Werror, runs make check (with the shared MCC instances
# when ../shared exists, as here) and shows its failing tests' lines (with
# their stderr) and the summary, installs into a DESTDIR, uses the
# installed program, man page and pkg-config file, uninstalls, and checks
# that nothing is left behind.
DIST_NAME = mck-$(VERSION)
SHARED_DIR = $(abspath $(CURDIR)/../shared)

configure: configure.ac
	autoreconf -fi

dist: configure
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	  { echo "make dist: needs a git checkout (the file list is git ls-files)"; exit 1; }
	rm -f $(DIST_NAME).tar.gz
	{ git ls-files; echo configure; } | LC_ALL=C sort -u | \
	  tar -czf $(DIST_NAME).tar.gz --transform 's|^|$(DIST_NAME)/|' \
	      --owner=0 --group=0 --numeric-owner --no-recursion -T -
	@echo "$(DIST_NAME).tar.gz: $$(tar -tzf $(DIST_NAME).tar.gz | wc -l) files"

distcheck: dist
	@set -e; d=$$(mktemp -d "$${TMPDIR:-/tmp}/mck-distcheck.XXXXXX"); \
	trap 'rm -rf "$$d"' EXIT; \
	tar -xzf $(DIST_NAME).tar.gz -C "$$d"; \
	cd "$$d/$(DIST_NAME)"; \
	echo "== distcheck: configure and build in $$d/$(DIST_NAME)"; \
	./configure >/dev/null; \
	env -u MAKEFLAGS -u MFLAGS $(MAKE) -s WERROR=-Werror >build.log 2>&1 || { tail -n 20 build.log; exit 1; }; \
	echo "== distcheck: make check"; \
	if [ -d "$(SHARED_DIR)" ]; then export SHARED="$(SHARED_DIR)"; fi; \
	env -u MAKEFLAGS -u MFLAGS $(MAKE) -s check WERROR=-Werror >check.log 2>&1 || true; \
	grep -v -E '^([^ ]+: )?[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$$|^[^ ]+: skip - ' \
	  check.log || true; \
	tail -n 1 check.log; \
	tail -n 1 check.log | grep -q ' 0 failed' || \
	  { echo "distcheck: make check failed (the lines above)"; exit 1; }; \
	echo "== distcheck: install, use, uninstall"; \
	inst="$$d/inst"; env -u MAKEFLAGS -u MFLAGS $(MAKE) -s install DESTDIR="$$inst" PREFIX=/usr/local; \
	"$$inst/usr/local/bin/mck" check examples/pep/philo4.ll_net | grep -q '^Result: YES\.$$'; \
	"$$inst/usr/local/bin/mck" --version | grep -q '^mck $(VERSION)$$'; \
	PKG_CONFIG_SYSROOT_DIR="$$inst" PKG_CONFIG_PATH="$$inst/usr/local/lib/pkgconfig" \
	  pkg-config --cflags mck | grep -q "include/mck"; \
	if command -v man >/dev/null 2>&1; then \
	  MANWIDTH=80 man -l "$$inst/usr/local/share/man/man1/mck.1" 2>/dev/null | grep -q 'mck draw'; fi; \
	env -u MAKEFLAGS -u MFLAGS $(MAKE) -s uninstall DESTDIR="$$inst" PREFIX=/usr/local; \
	left=$$(find "$$inst" -type f); \
	if [ -n "$$left" ]; then echo "distcheck: uninstall left $$left"; exit 1; fi; \
	env -u MAKEFLAGS -u MFLAGS $(MAKE) -s distclean; \
	echo "$(DIST_NAME).tar.gz is ready for distribution"

# ---- fuzzing (tests/fuzz/README.md) ----
# libFuzzer targets for every reader.  Not part of all or check: it needs
# clang, and its objects carry sanitizer and coverage instrumentation, so
# the library is compiled a second time into build-fuzz/ and the normal
# build's objects are never touched.  The lowered limits keep each input at
# milliseconds (input/cfa/cfanet.c, input/bpn2/bpn2.h, formula/fyint.h): an
# input just under the formula size cap costs 0.25 s under the sanitizers
# at 100000 nodes, and such inputs came to dominate the formula campaign.
FUZZ_CC ?= clang
FUZZ_DIR = build-fuzz
FUZZ_RUNS ?= 100000
# Per-target libFuzzer options; -close_fd_mask=2 silences the readers'
# error messages (the sanitizers' reports still appear).
FUZZ_FLAGS ?= -timeout=60 -rss_limit_mb=2048 -close_fd_mask=2
FUZZ_TARGETS ?= cfa pnml pnml_colored pep senil apnn bpn2 rers formula mccxml verdicts
FUZZ_SAN = -fsanitize=address,undefined
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -I. -Iformula \
              $(XML_CFLAGS) $(CGRAPH_CFLAGS) -g -O1 $(FUZZ_SAN) \
              -DCFA_MAX_CHOICES=20000u -DCFA_MAX_NET_TRANSITIONS=10000u -DCFA_MAX_PLACES=5000u \
              -DCFA_MAX_WORK=2000000ull -DBPN2_MAX_WORK=2000000ull \
              -DRERS_MAX_TRANSITIONS=100000u -DRERS_MAX_ARCS=1000000u \
              -DPC_MAX_PLACES=100000u -DPC_MAX_TRANSITIONS=100000u -DPC_MAX_ARCS=1000000u \
              -DPC_MAX_BINDINGS=1000000ull \
              -DBPN2_MAX_ASSIGNMENTS=20000u -DBPN2_MAX_TRANSITIONS=20000u -DBPN2_MAX_PLACES=20000u \
              -DFY_MAX_NODES=10000u \
              -DMCK_VERSION='"$(VERSION)"' -DMCK_PLUGIN_DIR='"$(PLUGINDIR)"'
FUZZ_LIBOBJ := $(addprefix $(FUZZ_DIR)/,$(LIBOBJ))
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

fuzz-build: $(FUZZ_BIN)

# fuzzer-no-link: coverage instrumentation without libFuzzer's main, which
# only the targets link.
$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_LIBOBJ): | $(YGEN:.c=.h)

$(FUZZ_DIR)/libmck.a: $(FUZZ_LIBOBJ)
	rm -f $@
	ar rcs $@ $(FUZZ_LIBOBJ)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_file.h $(FUZZ_DIR)/libmck.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_DIR)/libmck.a $(ALL_LIBS)

# Each target runs FUZZ_RUNS inputs on build-fuzz/corpus/TARGET, which
# keeps what earlier runs found and gets the seeds added again.  The three
# XML readers share xml.dict, RERS uses dot.dict, the others TARGET.dict.
# Findings land in build-fuzz/artifacts/TARGET/; a failing target does not
# stop the others, but fails the run at the end.  rers runs without
# libFuzzer's per-input leak check: cgraph's lexer frees some buffers of one
# input during the next, so the malloc and free counts of many inputs differ
# and each would cost a whole-heap LeakSanitizer scan (10x slower).  A leak
# of the reader still shows in LeakSanitizer's check at exit.
fuzz: fuzz-build
	@fail=; for t in $(FUZZ_TARGETS); do \
	  c=$(FUZZ_DIR)/corpus/$$t; a=$(FUZZ_DIR)/artifacts/$$t; log=$(FUZZ_DIR)/log/$$t.log; \
	  mkdir -p $$c $$a $(FUZZ_DIR)/log && cp tests/fuzz/seeds/$$t/* $$c/ || exit 1; \
	  case $$t in pnml|pnml_colored|mccxml|verdicts) dict=xml;; rers) dict=dot;; *) dict=$$t;; esac; \
	  [ -f tests/fuzz/$$dict.dict ] && dict=-dict=tests/fuzz/$$dict.dict || dict=; \
	  case $$t in rers) leaks=-detect_leaks=0;; *) leaks=;; esac; \
	  echo "fuzz_$$t: $(FUZZ_RUNS) runs, log $$log"; \
	  if $(FUZZ_DIR)/fuzz_$$t -runs=$(FUZZ_RUNS) $(FUZZ_FLAGS) $$leaks -print_final_stats=1 \
	       $$dict -artifact_prefix=$$a/ $$c >$$log 2>&1; then \
	    grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb))' $$log | \
	      sed 's/^/  /'; \
	  else \
	    echo "  FAILED (exit $$?); artifacts in $$a:"; tail -n 40 $$log | sed 's/^/  /'; fail="$$fail $$t"; \
	  fi; \
	done; \
	if [ -n "$$fail" ]; then echo "fuzz: findings in:$$fail"; exit 1; fi

fuzz-clean:
	rm -rf $(FUZZ_DIR)

.PHONY: all check check-threads install uninstall clean distclean maintainer-clean dist distcheck fuzz fuzz-build \
        fuzz-clean
.SECONDARY: $(YGEN) $(YGEN:.c=.h) $(LGEN)

-include $(LIBOBJ:.o=.d) main.d $(FUZZ_LIBOBJ:.o=.d)
