# The command-line fuzz target (tests/fuzz/fuzz_cli.c) includes
# src/cmd/run.c and selects probes, so it links the families and the
# commands it calls besides the core.
FUZZ_CLI_SRCS := $(filter src/probes/%,$(SRCS)) src/cmd/list.c src/cmd/usage.c
build/fuzz/fuzz_cli: $(FUZZ_CLI_SRCS:%.c=build/fuzzobj/%.o)
build/fuzz/fuzz_cli: FUZZ_LINK += $(FUZZ_CLI_SRCS)
