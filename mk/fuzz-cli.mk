# The command-line fuzz target (tests/fuzz/fuzz_cli.c) parses run's
# command line and selects probes, so it links the families and the
# commands it calls besides the core (which holds session/).
FUZZ_CLI_SRCS := $(filter src/probes/%,$(SRCS)) src/cmd/run.c src/cmd/list.c src/cmd/usage.c
build/fuzz/fuzz_cli: $(FUZZ_CLI_SRCS:%.c=build/fuzzobj/%.o)
build/fuzz/fuzz_cli: FUZZ_LINK += $(FUZZ_CLI_SRCS)
