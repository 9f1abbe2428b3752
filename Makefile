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
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -I. -Iformula \
             $(XML_CFLAGS) $(CGRAPH_CFLAGS) $(GVC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -DMCK_VERSION='"$(VERSION)"' \
             -DMCK_PLUGIN_DIR='"$(PLUGINDIR)"'
ALL_LIBS = $(XML_LIBS) $(GVC_LIBS) $(CGRAPH_LIBS) $(GLPK_LIBS) $(LIBS) -ldl -lm
# Headers a plugin is written against (installed under include/mck/).
PUBLIC_HEADERS = netconv.h tree.h result.h formats.h formula/formula.h input/input.h \
                 plugin/plugin.h

YSRC := $(wildcard formula/*.y input/*.y input/*/*.y)
LSRC := $(wildcard formula/*.l input/*.l input/*/*.l)
YGEN := $(YSRC:.y=.tab.c)
LGEN := $(LSRC:.l=.lex.c)
CSRC := $(filter-out main.c, $(wildcard *.c input/*.c input/*/*.c formula/*.c \
          checkers/*.c checkers/*/*.c verdicts/*.c mcc/*.c plugin/*.c))
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

tests/unit/%: tests/unit/%.c libmck.a tests/unit/unit.h
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< libmck.a $(ALL_LIBS)

# The guide's C fragments, in order, are one source file that
# tests/unit/test_guide.c compiles in: the guide cannot drift from the code.
tests/tmp/guide_lang.c: docs/adding-a-language.md
	mkdir -p tests/tmp
	awk '/^```c$$/ { on = 1; next } /^```/ { on = 0 } on' $< >$@
tests/unit/test_guide: tests/tmp/guide_lang.c

# Measures what the limit tests promise about memory (tests/e2e/limits.sh).
tests/lib/peakrss: tests/lib/peakrss.c
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

check: mck $(TESTBIN) tests/lib/peakrss
	@MCK=$(CURDIR)/mck sh tests/run.sh $(TESTBIN) tests/e2e/*.sh

install: mck
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 mck $(DESTDIR)$(PREFIX)/bin/mck
	if [ -f docs/mck.1 ]; then install -d $(DESTDIR)$(PREFIX)/share/man/man1 && \
	  install -m 644 docs/mck.1 $(DESTDIR)$(PREFIX)/share/man/man1/mck.1; fi
	for h in $(PUBLIC_HEADERS); do \
	  install -d $(DESTDIR)$(PREFIX)/include/mck/$$(dirname $$h) && \
	  install -m 644 $$h $(DESTDIR)$(PREFIX)/include/mck/$$h || exit 1; done
	install -d $(DESTDIR)$(PLUGINDIR)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/mck $(DESTDIR)$(PREFIX)/share/man/man1/mck.1
	rm -rf $(DESTDIR)$(PREFIX)/include/mck

clean:
	rm -f mck libmck.a main.o main.d $(LIBOBJ) $(LIBOBJ:.o=.d) $(YGEN) $(YGEN:.c=.h) \
	      $(LGEN) $(TESTBIN) $(TESTBIN:=.d) tests/lib/peakrss
	rm -rf tests/tmp

distclean: clean
	rm -rf config.mk config.log config.status autom4te.cache configure

# ---- fuzzing (tests/fuzz/README.md) ----
# libFuzzer targets for every reader.  Not part of all or check: it needs
# clang, and its objects carry sanitizer and coverage instrumentation, so
# the library is compiled a second time into build-fuzz/ and the normal
# build's objects are never touched.  The lowered CFA limits keep each input
# at milliseconds (input/cfa/cfanet.c).
FUZZ_CC ?= clang
FUZZ_DIR = build-fuzz
FUZZ_RUNS ?= 100000
# Per-target libFuzzer options; -close_fd_mask=2 silences the readers'
# error messages (the sanitizers' reports still appear).
FUZZ_FLAGS ?= -timeout=60 -rss_limit_mb=2048 -close_fd_mask=2
FUZZ_TARGETS ?= cfa pnml pep senil rers formula mccxml verdicts
FUZZ_SAN = -fsanitize=address,undefined
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra -I. -Iformula \
              $(XML_CFLAGS) $(CGRAPH_CFLAGS) -g -O1 $(FUZZ_SAN) \
              -DCFA_MAX_CHOICES=200000u -DCFA_MAX_NET_TRANSITIONS=100000u -DCFA_MAX_PLACES=20000u \
              -DRERS_MAX_TRANSITIONS=100000u -DRERS_MAX_ARCS=1000000u \
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
# stop the others, but fails the run at the end.
fuzz: fuzz-build
	@fail=; for t in $(FUZZ_TARGETS); do \
	  c=$(FUZZ_DIR)/corpus/$$t; a=$(FUZZ_DIR)/artifacts/$$t; log=$(FUZZ_DIR)/log/$$t.log; \
	  mkdir -p $$c $$a $(FUZZ_DIR)/log && cp tests/fuzz/seeds/$$t/* $$c/ || exit 1; \
	  case $$t in pnml|mccxml|verdicts) dict=xml;; rers) dict=dot;; *) dict=$$t;; esac; \
	  [ -f tests/fuzz/$$dict.dict ] && dict=-dict=tests/fuzz/$$dict.dict || dict=; \
	  echo "fuzz_$$t: $(FUZZ_RUNS) runs, log $$log"; \
	  if $(FUZZ_DIR)/fuzz_$$t -runs=$(FUZZ_RUNS) $(FUZZ_FLAGS) -print_final_stats=1 \
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

.PHONY: all check install uninstall clean distclean fuzz fuzz-build fuzz-clean
.SECONDARY: $(YGEN) $(YGEN:.c=.h) $(LGEN)

-include $(LIBOBJ:.o=.d) main.d $(FUZZ_LIBOBJ:.o=.d)
