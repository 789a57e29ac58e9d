# abiwatch: GNU Make, no configure step.
#   make            build ./abiwatch
#   make run        install what is missing, build, and run every probe here
#   make check      install what is missing, build, and run every test
#   make asan       build build/asan/abiwatch with ASan+UBSan
#   make bench      timing figures (never part of check)

CC       ?= cc
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes
override CFLAGS += -std=gnu11 $(WARN) -Isrc -D_GNU_SOURCE
LDLIBS   := -lcap -ljson-c

# Every C file under src/ belongs to the program: adding a probe file
# needs no Makefile change.
SRCS     := $(shell find src -name '*.c' | LC_ALL=C sort)
OBJS     := $(SRCS:%.c=build/obj/%.o)
ASAN_OBJS := $(SRCS:%.c=build/asan/%.o)
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)
# The unit tests link the program's objects except main().
LIB_OBJS  := $(filter-out build/obj/src/main.o,$(OBJS))

.PHONY: all run check asan unit deps clean bench
all: abiwatch

abiwatch: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -MMD -MP -c -o $@ $<

build/asan/abiwatch: $(ASAN_OBJS)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

asan: build/asan/abiwatch

build/unit/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

unit: $(UNIT_BINS)

deps:
	@scripts/install-deps

run: deps
	@$(MAKE) --no-print-directory abiwatch
	./abiwatch run

check: deps
	@$(MAKE) --no-print-directory abiwatch asan unit
	tests/run

bench: abiwatch
	tests/bench

clean:
	rm -rf build abiwatch

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d)
