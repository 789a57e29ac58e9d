# abiwatch: GNU Make, no configure step.
#   make            build ./abiwatch
#   make run        install what building and running need, build abiwatch
#                   and its 32-bit helpers, and run every probe here
#   make check      install what is missing, build, and run every test
#   make asan       build build/asan/abiwatch with ASan+UBSan
#   make bench      timing figures (never part of check)
#   make install    PREFIX=/usr/local DESTDIR=  (mk/install.mk)
#   make deb        Debian packages in build/deb (mk/deb.mk, docs/debian.md)

.DEFAULT_GOAL := all
CC       ?= cc
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes
override CFLAGS += -std=gnu11 $(WARN) -Isrc -D_GNU_SOURCE
# libarchive reads linux-image .debs (vm/deb.c), zlib /proc/config.gz
# (lib/kconfig.c).
LDLIBS   := -lcap -ljson-c -larchive -lz

# Every C file under src/ belongs to the program: adding a probe file
# needs no Makefile change.  Files in a family's m32/ folder are its
# 32-bit helper instead (see below).
# src/vm/init/ is the guest's /init, a program of its own (see below).
M32_SRCS := $(shell find src -path '*/m32/*.c' | LC_ALL=C sort)
VMINIT_SRCS := $(shell find src/vm/init -name '*.c' 2>/dev/null | LC_ALL=C sort)
SRCS     := $(filter-out $(M32_SRCS) $(VMINIT_SRCS),$(shell find src -name '*.c' | LC_ALL=C sort))
OBJS     := $(SRCS:%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:%.c=build/asan/%.o)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
UNIT_ASAN_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit-asan/%)
# The unit tests link the program's objects except main().
LIB_OBJS  := $(filter-out build/obj/src/main.o,$(OBJS))
LIB_ASAN_OBJS := $(filter-out build/asan/src/main.o,$(ASAN_OBJS))

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CORE := $(filter-out src/main.c src/probes/% src/cmd/%,$(SRCS))
# What a target links; a target may add to it (mk/fuzz-cli.mk).
FUZZ_LINK = $(FUZZ_CORE)
FUZZ_SECONDS ?= 600

# A family's 32-bit helper: src/probes/FAMILY/m32/*.c, linked statically
# with gcc -m32 into build/m32/abiwatch-FAMILY-m32, which probes find with
# aw_helper_path().  Static, so that it runs wherever the kernel runs
# 32-bit programs (also in a VM's initramfs).  Every helper links the
# probe protocol's writer (lib/wire.h) and what it needs, nothing else.
M32_FAMILIES := $(sort $(foreach f,$(M32_SRCS),$(word 3,$(subst /, ,$(f)))))
M32_BINS := $(M32_FAMILIES:%=build/m32/abiwatch-%-m32)
M32_CFLAGS := -m32 -static -std=gnu11 -O2 -g $(WARN) -Isrc -D_GNU_SOURCE
M32_SHARED := src/lib/wire.c src/lib/errname.c src/lib/util.c src/lib/procfs.c src/lib/elf.c

# -MMD: a helper that includes a file of its family's (its pure logic)
# is rebuilt when that file changes.
define M32_RULE
build/m32/abiwatch-$(1)-m32: $(filter src/probes/$(1)/m32/%,$(M32_SRCS)) $(M32_SHARED)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(M32_CFLAGS) -MMD -MP -MF $$@.d -o $$@ $$(filter src/probes/$(1)/m32/%.c,$$^) \
		$$(M32_SHARED)
endef
$(foreach f,$(M32_FAMILIES),$(eval $(call M32_RULE,$(f))))

# cookiefs: the FUSE filesystem with chosen cookie policies, for tests.
COOKIEFS := tools/cookiefs/cookiefs
$(COOKIEFS): tools/cookiefs/cookiefs.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(shell pkg-config --cflags fuse3) $(LDFLAGS) -o $@ $< \
		$(shell pkg-config --libs fuse3)

.PHONY: all run check check-long asan unit deps clean bench fuzz fuzz-build selftest m32 tools vm
all: abiwatch m32 tools vm
tools: $(COOKIEFS)

m32: $(M32_BINS)

# What `abiwatch vm` puts in a guest's initramfs: abiwatch linked
# statically (the guest has no libraries), and /init, a small static
# program of its own from src/vm/init/.  Both are found beside the
# abiwatch binary (build/static/, build/vm/) or in ../libexec/abiwatch/.
# libarchive's archive is linked for the parts vm/deb.c enables: the ar
# and tar readers and the filters whose libraries follow it (xz/lzma,
# bzip2, zstd, gzip); the other formats' libraries (xml2, nettle, acl,
# lz4) are never pulled in.
STATIC_LDLIBS := -static -lcap -ljson-c -larchive -llzma -lbz2 -lzstd -lz
VMINIT_CFLAGS := -static -std=gnu11 -O2 -g $(WARN) -Isrc -D_GNU_SOURCE

build/static/abiwatch: $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(STATIC_LDLIBS)

# What /init links of lib/: files that need no library.
VMINIT_SHARED := src/lib/pace.c src/lib/steady.c
build/vm/abiwatch-init: $(VMINIT_SRCS) $(VMINIT_SHARED)
	@mkdir -p $(dir $@)
	$(CC) $(VMINIT_CFLAGS) -MMD -MP -MF $@.d -o $@ $(filter %.c,$^)

vm: build/static/abiwatch build/vm/abiwatch-init

abiwatch: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -MMD -MP -c -o $@ $<

build/asan/abiwatch: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

asan: build/asan/abiwatch

# Test binaries also link the misbehaving probes of tests/fixtures.
FIXTURES  := build/obj/tests/fixtures/selftest_family.o
ASAN_FIXTURES := build/asan/tests/fixtures/selftest_family.o
TEST_CFLAGS := -Itests

build/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

build/asan/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) $(ASAN_FLAGS) -MMD -MP -c -o $@ $<

# diff's test also links a family whose observations follow the machine.
SIZED_FIXTURES := build/obj/tests/fixtures/sized_family.o build/asan/tests/fixtures/sized_family.o
build/unit/test_diff: build/obj/tests/fixtures/sized_family.o
build/unit-asan/test_diff: build/asan/tests/fixtures/sized_family.o

build/unit/%: tests/unit/%.c $(LIB_OBJS) $(FIXTURES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

build/unit-asan/%: tests/unit/%.c $(LIB_ASAN_OBJS) $(ASAN_FIXTURES)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# abiwatch with the selftest family, for command-line tests of crashes
# and timeouts.
build/abiwatch-selftest: $(OBJS) $(FIXTURES)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/asan/abiwatch-selftest: $(ASAN_OBJS) $(ASAN_FIXTURES)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

selftest: build/abiwatch-selftest build/asan/abiwatch-selftest

unit: $(UNIT_BINS) $(UNIT_ASAN_BINS)

# libFuzzer needs clang; the targets link only the core, not the probes.
# Each source is compiled once for all of them (fuzzer-no-link: coverage
# without libFuzzer's main), and each target links what it needs.
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Isrc -D_GNU_SOURCE
build/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(FUZZ_CORE:%.c=build/fuzzobj/%.o)
	@mkdir -p $(dir $@)
	@# What the target includes (a family's parser as source) makes it stale too.
	clang $(FUZZ_CFLAGS) -MM -MP -MT $@ -MF $@.d $<
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(FUZZ_LINK:%.c=build/fuzzobj/%.o) $(LDLIBS)

include mk/fuzz-cli.mk
include mk/lava.mk
include mk/kselftest.mk
include mk/install.mk
include mk/deb.mk

fuzz-build: $(FUZZ_TARGETS)

# A long run of every fuzz target (or of those FUZZ_ONLY names, as in
# FUZZ_ONLY="assume diff"), growing the corpus in tests/fuzz/corpus;
# a crashing input is kept as build/fuzz/NAME-crash-*.
FUZZ_ONLY ?=
FUZZ_RUN := $(if $(FUZZ_ONLY),$(FUZZ_ONLY:%=build/fuzz/fuzz_%),$(FUZZ_TARGETS))
fuzz: fuzz-build
	@for t in $(FUZZ_RUN); do n=$${t##*/fuzz_}; \
		echo "fuzzing $$n for $(FUZZ_SECONDS) s"; \
		mkdir -p tests/fuzz/corpus/$$n; \
		$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=build/fuzz/$$n- \
			tests/fuzz/corpus/$$n || exit 1; done

# What each purpose installs: scripts/install-deps and the README.
deps:
	@scripts/install-deps check

# Everything `abiwatch run` uses: the program and its 32-bit helpers.
run:
	@scripts/install-deps run
	@$(MAKE) --no-print-directory abiwatch m32
	./abiwatch run

check: deps
	@$(MAKE) --no-print-directory -j$(shell nproc) all asan unit selftest fuzz-build
	tests/run

# make check's assertions with more of everything: the ASan twins of the
# isolation tests and longer kill campaigns (tests/run, kill.sh and
# dirent_kill_hostile.sh say what).  About three times make check's time.
check-long: deps
	@$(MAKE) --no-print-directory -j$(shell nproc) all asan unit selftest fuzz-build
	ABIWATCH_TEST_LONG=1 KILL_ROUNDS=30 KILL_MIDFLIGHT_ROUNDS=10 KILL_SWEEP=60 \
		DIRENT_KILL_FRACTIONS="10 35 60 85 97" tests/run

bench: abiwatch m32 vm
	tests/bench

clean:
	rm -rf build abiwatch $(COOKIEFS)

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d) build/vm/abiwatch-init.d $(FIXTURES:.o=.d) $(ASAN_FIXTURES:.o=.d) $(SIZED_FIXTURES:.o=.d) $(M32_BINS:=.d) $(FUZZ_TARGETS:=.d) $(SRCS:%.c=build/fuzzobj/%.d)
