# make kselftest-install INSTALL_PATH=DIR: abiwatch as a kselftest
# collection (scripts/kselftest-install), for runners that run
# run_kselftest.sh and parse its TAP: KernelCI, LKFT, 0-day.
.PHONY: kselftest-install
kselftest-install: abiwatch m32
	@test -n "$(INSTALL_PATH)" || { echo "make kselftest-install INSTALL_PATH=DIR" >&2; exit 2; }
	scripts/kselftest-install "$(INSTALL_PATH)"
