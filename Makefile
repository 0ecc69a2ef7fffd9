# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# mapbench build. One rule per step: vmlinux.h -> BPF objects -> skeletons -> C objects ->
# mapbench. Outputs go to $(OUTPUT) (build/, or build-san/ with SAN=1).
#
#   make            build build/mapbench
#   make run        install missing packages, build, run the default suite
#   make test       install missing packages, build, run every test (also under ASan/UBSan)
#   make install    PREFIX=/usr/local DESTDIR=
#   V=1             show the commands;  STATIC=1  link a static binary;  SAN=1  sanitizers

VERSION		:= 0.1.0
PREFIX		?= /usr/local
DESTDIR		?=
CLANG		?= clang
LLVM_STRIP	?= llvm-strip
BPFTOOL		?= bpftool
PKG_CONFIG	?= pkg-config
STATIC		?= 0
SAN		?= 0

# The sanitizer build is also the fuzzers' build (clang, libFuzzer's coverage on every object):
# make test compiles the tree twice, not three times. FUZZ=1 is another name for it.
ifeq ($(FUZZ),1)
SAN		:= 1
endif
# make's built-in CC (cc) is not "unset": ?= would never take effect. A CC from the environment
# or the command line still wins.
ifeq ($(origin CC),default)
ifeq ($(SAN),1)
CC		:= clang
else
CC		:= gcc
endif
endif

ifeq ($(SAN),1)
OUTPUT		?= build-san
else
OUTPUT		?= build
endif

ifeq ($(V),1)
Q		:=
msg		:=
else
Q		:= @
msg		= @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

ARCH		:= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
			-e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/')
GIT_REV		:= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell \
			git diff --quiet HEAD 2>/dev/null || echo -dirty)
VMLINUX_BTF	?= /sys/kernel/btf/vmlinux

# Every folder of src/ is one layer (docs/architecture.md); a family's BPF programs
# (<name>.bpf.c) sit beside its C code. Skeletons go to $(BPF_OUT)/skel/<name>.skel.h, so BPF
# object names are unique across the tree. BPF_OUT (vmlinux.h, BPF objects, skeletons) is
# $(OUTPUT) unless given: they are the same for every build of the C code, so make test's
# sanitizer and fuzzer builds take the plain build's (BPF_OUT=build) instead of making them again.
BPF_OUT		?= $(OUTPUT)
BPF_SRCS	:= $(shell find src -name '*.bpf.c' | LC_ALL=C sort)
BPF_OBJS	:= $(patsubst %.bpf.c,$(BPF_OUT)/bpf/%.bpf.o,$(notdir $(BPF_SRCS)))
SKELS		:= $(patsubst %.bpf.c,$(BPF_OUT)/skel/%.skel.h,$(notdir $(BPF_SRCS)))
vpath %.bpf.c $(sort $(dir $(BPF_SRCS))) tests/bpf

C_SRCS		:= $(filter-out %.bpf.c,$(shell find src -name '*.c' | LC_ALL=C sort))
LIB_SRCS	:= $(filter-out src/commands/main.c,$(C_SRCS))
LIB_OBJS	:= $(patsubst src/%.c,$(OUTPUT)/obj/%.o,$(LIB_SRCS))
MAIN_OBJ	:= $(OUTPUT)/obj/commands/main.o
BIN		:= $(OUTPUT)/mapbench
LIB		:= $(OUTPUT)/libmapbench.a

WARNINGS	:= -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-format-nonliteral \
		   -Wstrict-prototypes -Wmissing-prototypes -Wno-missing-field-initializers
CFLAGS		?= -O2 -g
override CFLAGS	+= -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -Isrc -I$(OUTPUT) -I$(BPF_OUT)/skel \
		   -DMB_VERSION='"$(VERSION)"' -DMB_GIT_REV='"$(GIT_REV)"' -MMD -MP \
		   $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
BPF_CFLAGS	:= -O2 -g -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		   -Wno-unused-function -Isrc -I$(BPF_OUT) -MMD -MP

# pkg-config is asked quietly: this Makefile is parsed before `make run` and `make test` install
# libbpf (deps), and a fresh machine must not see "Package libbpf was not found" first. Without
# libbpf's .pc file, plain -lbpf still links a libbpf installed by hand.
# The results history (src/store/): SQLite always; PostgreSQL's libpq only in the dynamic build
# (its static archive needs Kerberos, LDAP and OpenSSL's, which Debian ships no static form
# of), where --db with a connection string then says it was left out.
ifeq ($(STATIC),1)
LDLIBS		:= -static $(shell $(PKG_CONFIG) --static --libs libbpf 2>/dev/null || \
			echo -lbpf -lelf -lz) -lzstd \
		   $(shell $(PKG_CONFIG) --static --libs sqlite3 2>/dev/null || echo -lsqlite3) \
		   -lpthread -lm
else
override CFLAGS	+= -DMB_HAVE_PG $(shell $(PKG_CONFIG) --cflags libpq 2>/dev/null)
LDLIBS		:= $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null || echo -lbpf) \
		   $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3) \
		   $(shell $(PKG_CONFIG) --libs libpq 2>/dev/null || echo -lpq) -lz -lpthread -lm
endif

# ASan and UBSan, and libFuzzer's coverage (fuzzer-no-link) so that the fuzzers link against
# the same objects. -O1: the sanitizers' own advice, and a third of gcc -O2's build time here.
ifeq ($(SAN),1)
override CFLAGS	+= -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer -fsanitize=fuzzer-no-link
override LDFLAGS += -fsanitize=address,undefined
endif

.DEFAULT_GOAL	:= all
.PHONY: all run test unit e2e deps install uninstall clean fuzz fuzz-smoke fuzz-run soak valgrind \
	catalogue FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BIN)

deps:
	$(Q)./scripts/install-deps.sh -q

$(BPF_OUT)/vmlinux.h: | $(BPF_OUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

# -g makes the BTF that CO-RE and the skeleton need; the DWARF beside it is only stripped
# (--strip-debug keeps .BTF and .BTF.ext), so the embedded objects stay small.
$(BPF_OUT)/bpf/%.bpf.o: %.bpf.c $(BPF_OUT)/vmlinux.h | $(BPF_OUT)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MF $(@:.o=.d) -c $< -o $@
	$(Q)$(LLVM_STRIP) --strip-debug $@

# A .bpf.c that moved leaves a .d naming its old path: nothing makes that path, so it reads as
# changed and the object compiles again from where the file is now (as -MP does for headers).
src/%.bpf.c: ;

$(BPF_OUT)/skel/%.skel.h: $(BPF_OUT)/bpf/%.bpf.o | $(BPF_OUT)/skel
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# Every skeleton exists before the first C file compiles (order only); from then on each
# object's -MMD file names the skeletons it really includes, so touching one family's
# .bpf.c rebuilds that family's objects and the link, nothing else.
$(OUTPUT)/obj/%.o: src/%.c | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# version.o alone holds VERSION and GIT_REV: rebuilt whenever they change, not only when
# src/util/version.c does, so --version and the documents' context name the binary's revision.
$(OUTPUT)/version.txt: FORCE | $(OUTPUT)
	$(Q)echo '$(VERSION) $(GIT_REV)' | cmp -s - $@ || echo '$(VERSION) $(GIT_REV)' > $@

$(OUTPUT)/obj/util/version.o: $(OUTPUT)/version.txt

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(sort $(OUTPUT) $(BPF_OUT) $(BPF_OUT)/bpf $(BPF_OUT)/skel):
	$(Q)mkdir -p $@

FORCE:

# ---- tests ----

# BPF objects only the tests load (e.g. a program the verifier must reject).
TEST_SKELS	:= $(patsubst tests/bpf/%.bpf.c,$(BPF_OUT)/skel/%.skel.h,$(wildcard tests/bpf/*.bpf.c))

UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))

$(OUTPUT)/tests/%: tests/unit/%.c $(LIB) $(TEST_SKELS) | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) -lcmocka $(LDLIBS) -o $@

$(OUTPUT)/tests:
	$(Q)mkdir -p $@

# Each unit test prints its cmocka report only when it fails.
unit: $(UNIT_BINS)
	$(Q)for t in $(UNIT_BINS); do \
		if $$t >$$t.log 2>&1; then \
			echo "  UNIT     $$t: $$(grep -c '^\[       OK' $$t.log) passed"; \
		else \
			cat $$t.log; echo "  UNIT     $$t: FAILED"; exit 1; \
		fi; \
	done

# Tests of the tree rather than of the binary (sources, docs, build rules, output shapes): the
# sanitizer pass has nothing to find in them, so it leaves them out.
E2E_TREE	:= test_layers.sh test_docs.sh test_build.sh test_family_demo.sh test_shape.sh
# test_formats runs every bench once more to compare their formats, which the sanitizers do not
# change; test_noise disturbs a run with a busy loop to see the verdict mark it, and the verdict's
# code runs under the sanitizers in its unit test; test_sweep runs benches the other files run
# too, point after point, and the parsers of the documents it compares (JSON, sweep lists) run
# under the sanitizers in their unit tests and fuzzers. The other files run each bench and each
# format under them, some with a smaller matrix (E2E_SAN=1: tests/e2e/lib.sh), so that make
# test stays < 15 min.
E2E_SAN_SKIP	:= $(E2E_TREE) test_formats.sh test_noise.sh test_sweep.sh
# The e2e files: tests/e2e/test_*.sh, and each family's own in its folder (tests/run-e2e.sh
# finds a file by its name in either place).
ifeq ($(SAN),1)
E2E_FILES	:= $(sort $(filter-out $(E2E_SAN_SKIP),$(notdir $(wildcard tests/e2e/test_*.sh \
			src/families/*/test_*.sh))))
endif

e2e: $(BIN)
	$(Q)MAPBENCH=$(abspath $(BIN)) E2E_SAN=$(SAN) ./tests/run-e2e.sh $(E2E_FILES)

# ---- fuzzing (libFuzzer, clang): every parser of outside input ----

FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS	:= $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(FUZZ_SRCS))
FUZZ_SECONDS	?= 60

$(OUTPUT)/fuzz/%: tests/fuzz/%.c $(LIB) | $(OUTPUT)/fuzz
	$(call msg,FUZZ-CC,$@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer $< $(LIB) $(LDLIBS) -o $@

$(OUTPUT)/fuzz:
	$(Q)mkdir -p $@

# fuzz_cli's dictionary names every bench, option and value of the binary built here (its
# --list and --help), so it is made from that binary, never committed: a new family adds words.
$(OUTPUT)/fuzz/cli.dict: $(BIN) scripts/fuzz-dict.sh | $(OUTPUT)/fuzz
	$(call msg,GEN,$@)
	$(Q)./scripts/fuzz-dict.sh cli $(BIN) > $@.tmp && mv $@.tmp $@

# Each target runs FUZZ_SECONDS from the corpus in tests/fuzz/corpus/<name>, with the dictionary
# $(OUTPUT)/fuzz/<name>.dict (made) or tests/fuzz/<name>.dict (committed) where there is one
# (new inputs go to $(OUTPUT)/corpus, crashes to $(OUTPUT)/crashes); the executions are printed.
# One make target per fuzzer (fuzz-run-<name>), so that -j runs one per CPU.
FUZZ_RUNS	:= $(patsubst $(OUTPUT)/fuzz/%,fuzz-run-%,$(FUZZ_BINS))

fuzz-run: $(FUZZ_RUNS)

fuzz-run-%: $(OUTPUT)/fuzz/% $(OUTPUT)/fuzz/cli.dict
	$(Q)mkdir -p $(OUTPUT)/crashes
	$(Q)f=$(OUTPUT)/fuzz/$*; n=$*; c=$${n#fuzz_}; mkdir -p $(OUTPUT)/corpus/$$c; \
	d=; for dict in $(OUTPUT)/fuzz/$$c.dict tests/fuzz/$$c.dict; do \
		[ -f $$dict ] && d=-dict=$$dict && break; done; \
	if ! $$f $$d -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=$(OUTPUT)/crashes/$$n- \
		$(OUTPUT)/corpus/$$c tests/fuzz/corpus/$$c >$(OUTPUT)/$$n.log 2>&1; then \
		tail -n 30 $(OUTPUT)/$$n.log; echo "  FUZZ     $$n: FAILED (see $(OUTPUT)/crashes)"; \
		exit 1; \
	fi; \
	echo "  FUZZ     $$n: $$(sed -n 's/^stat::number_of_executed_units: *//p' \
		$(OUTPUT)/$$n.log) runs in $(FUZZ_SECONDS) s, no finding"

fuzz:
	$(Q)$(MAKE) --no-print-directory SAN=1 fuzz-run

fuzz-smoke:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) SAN=1 BPF_OUT=$(BPF_OUT) FUZZ_SECONDS=2 fuzz-run

# make test: everything, then everything again under ASan/UBSan, then a short fuzz run.
# The builds run in parallel (one job per CPU); the tests one at a time, as they measure.
JOBS		?= $(shell nproc 2>/dev/null || echo 1)

test: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) all $(UNIT_BINS)
	$(Q)$(MAKE) --no-print-directory unit e2e
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) SAN=1 BPF_OUT=$(OUTPUT) all \
		$(patsubst $(OUTPUT)/%,build-san/%,$(UNIT_BINS) $(FUZZ_BINS))
	$(Q)$(MAKE) --no-print-directory SAN=1 BPF_OUT=$(OUTPUT) unit e2e
	$(Q)$(MAKE) --no-print-directory fuzz-smoke BPF_OUT=$(OUTPUT)

# The whole catalogue of benches as one page (docs/benchmarks.md): the index --list --format md
# prints, then every family's part, src/families/<name>/README.md, in the order of families.def.
catalogue: $(BIN)
	$(call msg,GEN,$(OUTPUT)/docs/benchmarks.md)
	$(Q)./scripts/catalogue.sh $(BIN) $(OUTPUT)/docs/benchmarks.md

# Long-run check, not part of make test: SOAK_SECONDS (1800) of every bench, nothing grows.
SOAK_SECONDS	?= 1800
soak: $(BIN)
	$(Q)MAPBENCH=$(abspath $(BIN)) ./scripts/soak.sh $(SOAK_SECONDS)

# Every bench under valgrind memcheck, not part of make test (slow).
valgrind: $(BIN)
	$(Q)MAPBENCH=$(abspath $(BIN)) ./scripts/valgrind.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BIN)

install: $(BIN)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX)/bin/mapbench)
	$(Q)install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/mapbench

uninstall:
	$(Q)rm -f $(DESTDIR)$(PREFIX)/bin/mapbench

clean:
	$(call msg,CLEAN,build build-san)
	$(Q)rm -rf build build-san build-fuzz

# The tests' BPF objects too: a change to a driver's shared header rebuilds their skeletons.
-include $(wildcard $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(BPF_OBJS:.o=.d) \
	$(patsubst $(BPF_OUT)/skel/%.skel.h,$(BPF_OUT)/bpf/%.bpf.d,$(TEST_SKELS)))
