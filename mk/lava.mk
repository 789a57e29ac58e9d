# make lava-check: boot a Debian cloud kernel under a real LAVA instance
# started here (lava-server, PostgreSQL, lava-worker: see docs/lava.md),
# run abiwatch through the LAVA test shell and check the results read back.
# Opt-in, not part of check: it needs root, Debian's lava-server,
# lava-dispatcher and lavacli packages, and about two minutes.
# ABIWATCH_LAVA_ARGS="mqueue" limits the guest's run to some probes.
.PHONY: lava-check
lava-check: abiwatch m32 vm
	lava/check
