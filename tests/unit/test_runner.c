// SPDX-License-Identifier: GPL-2.0-or-later
/* The runner against probes that behave, crash, hang, lie and leak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/probe.h"
#include "fixtures/selftest_family.h"
#include "core/runner.h"
#include "core/vm_guest.h"
#include "core/env.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static struct aw_probe_result *run_named(struct aw_run *run, const char *name)
{
	struct aw_probe_ref ref = { &aw_selftest_family, NULL };
	for (size_t i = 0; i < AW_SELFTEST_NPROBES; i++)
		if (strcmp(aw_selftest_probes[i].name, name) == 0)
			ref.probe = &aw_selftest_probes[i];
	assert_non_null(ref.probe);
	struct aw_runner_opts opts = { 0 };
	aw_run_probes(&ref, 1, &opts, run);
	return &run->probes[0];
}

static void test_good(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "good");
	assert_int_equal(r->status, AW_ST_PASS);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	assert_int_equal(r->items[1].status, AW_ST_PASS);
	assert_string_equal(r->items[1].text, "forty\ntwo");
	assert_int_equal(aw_run_exit_status(&run), 0);
	aw_run_free(&run);
}

static void test_crash_is_an_error(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "crashes");
	assert_int_equal(r->status, AW_ST_ERROR);
	assert_non_null(strstr(r->reason, "signal 11"));
	assert_int_equal(r->end.how, AW_END_SIGNAL);
	assert_int_equal(r->end.code, 11);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	assert_int_equal(r->items[1].status, AW_ST_ERROR);
	assert_int_equal(aw_run_exit_status(&run), 1);
	aw_run_free(&run);
}

static void test_hang_times_out(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "hangs");
	/* Its second try, alone, timed out too: blocked, not starved. */
	assert_int_equal(r->status, AW_ST_TIMEOUT);
	assert_true(strncmp(r->reason, "no result within ", 17) == 0);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	assert_int_equal(r->items[1].status, AW_ST_TIMEOUT);
	assert_true(r->nnotes >= 1 && strstr(r->notes[0], "ran again alone"));
	aw_run_free(&run);
}

static void test_undeclared_item_is_an_error(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "lies");
	assert_int_equal(r->status, AW_ST_ERROR);
	assert_non_null(strstr(r->reason, "undeclared item"));
	aw_run_free(&run);
}

static void test_unreported_items_are_errors(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "silent");
	assert_int_equal(r->status, AW_ST_PASS);
	assert_int_equal(r->items[0].status, AW_ST_ERROR);
	assert_int_equal(aw_run_exit_status(&run), 1);
	aw_run_free(&run);
}

static void test_leftover_child_does_not_block(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	/* Waiting for the child would run into the probe's timeout. */
	struct aw_probe_result *r = run_named(&run, "leaves_a_child");
	assert_int_equal(r->status, AW_ST_PASS);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	aw_run_free(&run);
}

static void test_isolation(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	char before[256], after[256];
	gethostname(before, sizeof(before));
	struct aw_probe_result *r = run_named(&run, "isolated");
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	gethostname(after, sizeof(after));
	assert_string_equal(before, after);
	assert_int_not_equal(access("/dev/shm" AW_SELFTEST_SHM, F_OK), 0);
	aw_run_free(&run);
}

static void test_unmet_need_is_a_skip(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "needs_file");
	assert_int_equal(r->status, AW_ST_SKIP);
	assert_non_null(strstr(r->reason, "/nonexistent/abiwatch-test"));
	assert_int_equal(r->items[0].status, AW_ST_SKIP);
	assert_int_equal(aw_run_exit_status(&run), 4);
	aw_run_free(&run);
}

static void test_own_fuse_mount_is_aborted(void **state)
{
	(void)state;
	char *cookiefs = realpath("tools/cookiefs/cookiefs", NULL);
	if (!cookiefs)
		skip();
	setenv("ABIWATCH_COOKIEFS", cookiefs, 1);
	free(cookiefs);
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "fuse_hang");
	assert_int_equal(r->status, AW_ST_TIMEOUT);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	bool aborted = false, left = false;
	for (size_t i = 0; i < r->nnotes; i++) {
		aborted |= strstr(r->notes[i], "aborted 1 FUSE connection") != NULL;
		left |= strstr(r->notes[i], "did not exit") != NULL;
	}
	assert_true(aborted);
	assert_false(left);
	aw_run_free(&run);
}

static void test_worse_report_wins(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	struct aw_probe_result *r = run_named(&run, "fails_then_passes");
	assert_int_equal(r->items[0].status, AW_ST_FAIL);
	assert_string_equal(r->items[0].text, "broken");
	aw_run_free(&run);
}

/* The environment variable alone never makes a host a guest: the kernel
 * command line must be the one abiwatch vm boots with as well. */
static void test_host_is_no_vm_guest(void **state)
{
	(void)state;
	char buf[8192] = "";
	FILE *f = fopen("/proc/cmdline", "re");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	bool booted_by_vm = strstr(buf, "rdinit=/init ") || strstr(buf, "rdinit=/init\n");
	unsetenv("ABIWATCH_IN_VM");
	assert_false(aw_in_vm_guest());
	setenv("ABIWATCH_IN_VM", "1", 1);
	assert_int_equal(aw_in_vm_guest(), booted_by_vm);
	unsetenv("ABIWATCH_IN_VM");
}

/* An item that needs the VM guest is the runner's to skip elsewhere,
 * with the cause's words, before the probe starts; the probe sees it so
 * and leaves it; its other items run. */
static void test_item_needs_guest(void **state)
{
	(void)state;
	struct aw_run run = { 0 };
	unsetenv("ABIWATCH_IN_VM");
	struct aw_probe_result *r = run_named(&run, "guest_item");
	assert_int_equal(r->nitems, 3);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	assert_int_equal(r->items[1].status, AW_ST_SKIP);
	assert_string_equal(r->items[1].text, "needs vm: it changes the machine");
	assert_int_equal(r->items[2].status, AW_ST_PASS);
	assert_string_equal(r->items[2].text, "unmet host");
	aw_run_free(&run);
}


/* ---- several probes at a time ---- */

/* What the probes below share: memory the test maps before the run,
 * which every probe's process inherits.  running: how many run now;
 * arrivals: how many side-by-side probes have started, ever. */
struct meeting {
	int running, arrivals;
};
static struct meeting *meeting;

/* A probe that waits (at most 5 s) until the other of its pair has
 * started: the first two to arrive are a pair, the next two another.
 * arrivals only grows, so neither can miss the other, however short its
 * stay; one at a time, the first of a pair waits in vain. */
static void side_by_side_run(struct aw_ctx *ctx)
{
	__atomic_add_fetch(&meeting->running, 1, __ATOMIC_SEQ_CST);
	int ticket = __atomic_add_fetch(&meeting->arrivals, 1, __ATOMIC_SEQ_CST);
	int pair_end = (ticket + 1) / 2 * 2;
	bool met = false;
	for (int i = 0; i < 500 && !met; i++) {
		met = __atomic_load_n(&meeting->arrivals, __ATOMIC_SEQ_CST) >= pair_end;
		if (!met)
			usleep(10000);
	}
	aw_expect(ctx, "met", met, "the other of its pair did not start within 5 s");
	__atomic_sub_fetch(&meeting->running, 1, __ATOMIC_SEQ_CST);
}

static void lonely_run(struct aw_ctx *ctx)
{
	int most = __atomic_add_fetch(&meeting->running, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 20; i++) {
		int now = __atomic_load_n(&meeting->running, __ATOMIC_SEQ_CST);
		most = now > most ? now : most;
		usleep(10000);
	}
	aw_expect(ctx, "met", most == 1, "%d probes ran beside it", most - 1);
	__atomic_sub_fetch(&meeting->running, 1, __ATOMIC_SEQ_CST);
}

static const struct aw_item meet_items[] = {
	AW_CHECK_ITEM("met", "what it met was what it should"),
	AW_ITEMS_END,
};

static const struct aw_probe jobs_probes[] = {
	{ .name = "a", .summary = "a", .run = side_by_side_run, .items = meet_items },
	{ .name = "b", .summary = "b", .run = side_by_side_run, .items = meet_items },
	{ .name = "lonely", .summary = "alone", .run = lonely_run, .items = meet_items,
	  .alone = "the test says so" },
	{ .name = "c", .summary = "c", .run = side_by_side_run, .items = meet_items },
	{ .name = "d", .summary = "d", .run = side_by_side_run, .items = meet_items },
	{ .name = "late", .summary = "ends first", .run = lonely_run, .items = meet_items,
	  .alone = "the test says so" },
};
static const struct aw_probe *const jobs_tables[] = { jobs_probes, NULL };
static const struct aw_family jobs_family = { .name = "jobs", .summary = "jobs",
					      .tables = jobs_tables };

/* ---- deadlines on a loaded machine ---- */

/* Hangs on its first try only (meeting counts the tries). */
static void hangs_first_run(struct aw_ctx *ctx)
{
	if (__atomic_add_fetch(&meeting->arrivals, 1, __ATOMIC_SEQ_CST) == 1)
		for (;;)
			pause();
	aw_pass(ctx, "met");
}

/* Works for ever: on a loaded machine, what starving looks like. */
static void spins_run(struct aw_ctx *ctx)
{
	(void)ctx;
	for (volatile unsigned long x = 0;; x++)
		;
}

/* Blocked for ever: a hang, however loaded the machine. */
static void sleeps_run(struct aw_ctx *ctx)
{
	(void)ctx;
	for (;;)
		pause();
}

static void passes_run(struct aw_ctx *ctx)
{
	aw_pass(ctx, "met");
}

static const struct aw_probe time_probes[] = {
	{ .name = "hangs_first", .summary = "hangs once", .run = hangs_first_run, .items = meet_items,
	  .timeout_s = 1 },
	{ .name = "spins", .summary = "spins", .run = spins_run, .items = meet_items, .timeout_s = 1 },
	{ .name = "sleeps", .summary = "sleeps", .run = sleeps_run, .items = meet_items, .timeout_s = 1 },
	{ .name = "passes", .summary = "passes", .run = passes_run, .items = meet_items },
};
static const struct aw_probe *const time_tables[] = { time_probes, NULL };
static const struct aw_family time_family = { .name = "deadline", .summary = "deadlines",
					      .tables = time_tables };

static void run_timed(const char *const *names, size_t n, const struct aw_runner_opts *opts,
		      struct aw_run *run)
{
	struct aw_probe_ref refs[8];
	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++) {
		refs[i] = (struct aw_probe_ref){ &time_family, NULL };
		for (size_t j = 0; j < AW_ARRAY_SIZE(time_probes); j++)
			if (strcmp(time_probes[j].name, names[i]) == 0)
				refs[i].probe = &time_probes[j];
		assert_non_null(refs[i].probe);
	}
	aw_run_probes(refs, n, opts, run);
}

static int map_meeting(void **state)
{
	(void)state;
	meeting = mmap(NULL, sizeof(*meeting), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	return meeting == MAP_FAILED ? -1 : 0;
}

/* A CPU hog of the test's own: two busy loops per CPU, which die with
 * the test (PR_SET_PDEATHSIG) and are killed at its end. */
static pid_t hog[64];
static size_t nhog;

static void start_hog(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (long i = 0; i < 2 * (cpus > 0 ? cpus : 1) && nhog < AW_ARRAY_SIZE(hog); i++) {
		pid_t pid = fork();
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (volatile unsigned long x = 0;; x++)
				;
		}
		if (pid > 0)
			hog[nhog++] = pid;
	}
}

static int stop_hog(void **state)
{
	(void)state;
	for (size_t i = 0; i < nhog; i++) {
		kill(hog[i], SIGKILL);
		waitpid(hog[i], NULL, 0);
	}
	nhog = 0;
	if (meeting && meeting != MAP_FAILED)
		munmap(meeting, sizeof(*meeting));
	meeting = NULL;
	return 0;
}

/* A probe that ran out of its own time gets a second try, alone, which
 * is its result; the first is a note. */
static void test_timeout_is_tried_again_alone(void **state)
{
	(void)state;
	static const char *const names[] = { "hangs_first" };
	struct aw_runner_opts opts = { 0 };
	struct aw_run run = { 0 };
	run_timed(names, 1, &opts, &run);
	struct aw_probe_result *r = &run.probes[0];
	assert_int_equal(r->status, AW_ST_PASS);
	assert_int_equal(r->items[0].status, AW_ST_PASS);
	assert_int_equal(meeting->arrivals, 2);
	assert_true(r->nnotes == 1 && strstr(r->notes[0], "ran again alone: the first try had no result"));
	aw_run_free(&run);
}

/* The user's --timeout is a bound: no second try. */
static void test_user_timeout_is_final(void **state)
{
	(void)state;
	static const char *const names[] = { "hangs_first" };
	struct aw_runner_opts opts = { .timeout_s = 0.5 };
	struct aw_run run = { 0 };
	run_timed(names, 1, &opts, &run);
	assert_int_equal(run.probes[0].status, AW_ST_TIMEOUT);
	assert_string_equal(run.probes[0].reason, "no result within 0.5 s");
	assert_int_equal(meeting->arrivals, 1);
	aw_run_free(&run);
}

/* Under a CPU hog, a probe that works but never ends is starved (a skip
 * for the cause load, and env.load says so); one that is blocked still
 * timed out, since no load explains a hang. */
static void test_loaded_machine_starves_a_working_probe(void **state)
{
	(void)state;
	if (access("/proc/pressure/cpu", R_OK) != 0)
		skip(); /* no PSI: the host's load is not measured (a guest's pace is) */
	start_hog();
	static const char *const names[] = { "spins", "sleeps" };
	struct aw_runner_opts opts = { 0 };
	struct aw_run run = { 0 };
	aw_env_collect(&run.env);
	run_timed(names, 2, &opts, &run);
	struct aw_probe_result *spins = &run.probes[0], *sleeps = &run.probes[1];
	assert_int_equal(spins->status, AW_ST_SKIP);
	if (strncmp(spins->reason, "needs load: starved: no result within ", 38) != 0)
		fail_msg("spins: %s", spins->reason);
	assert_non_null(strstr(spins->reason, "while the machine was loaded"));
	assert_int_equal(spins->items[0].status, AW_ST_SKIP);
	assert_string_equal(spins->items[0].text, spins->reason);
	assert_int_equal(sleeps->status, AW_ST_TIMEOUT);
	const char *load = aw_env_get(&run.env, "load");
	assert_non_null(load);
	assert_string_equal(load, "starved 1 of 2 probes: deadline.spins");
	aw_run_free(&run);
}

/* A run given a budget (a guest's) settles what is running when it is up,
 * and what has not started, as starved, and ends. */
static void test_budget_starves_the_rest(void **state)
{
	(void)state;
	static const char *const names[] = { "passes", "sleeps", "passes" };
	struct aw_runner_opts opts = { .budget_s = 0.5 };
	struct aw_run run = { 0 };
	run_timed(names, 3, &opts, &run);
	assert_int_equal(run.probes[0].status, AW_ST_PASS);
	assert_int_equal(run.probes[1].status, AW_ST_SKIP);
	assert_non_null(strstr(run.probes[1].reason, "needs load: starved: no result when the run's time was up"));
	assert_int_equal(run.probes[2].status, AW_ST_SKIP);
	assert_non_null(strstr(run.probes[2].reason, "needs load: starved: not started"));
	assert_int_equal(run.probes[2].items[0].status, AW_ST_SKIP);
	aw_run_free(&run);
}

static void note_order(const struct aw_probe_result *r, void *arg)
{
	char *order = arg;
	strcat(order, r->ref.probe->name);
	strcat(order, " ");
}

/* With --jobs 2: a and b run together, then lonely alone, then c and d
 * together, then late alone; results are handed on in the run's order. */
static void test_jobs_side_by_side_and_alone(void **state)
{
	(void)state;
	meeting = mmap(NULL, sizeof(*meeting), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	assert_true(meeting != MAP_FAILED);
	struct aw_probe_ref refs[6];
	for (size_t i = 0; i < 6; i++)
		refs[i] = (struct aw_probe_ref){ &jobs_family, &jobs_probes[i] };
	char order[128] = "";
	struct aw_runner_opts opts = { .jobs = 2, .probe_done = note_order, .arg = order };
	struct aw_run run = { 0 };
	aw_run_probes(refs, 6, &opts, &run);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(run.probes[i].status, AW_ST_PASS);
		if (run.probes[i].items[0].status != AW_ST_PASS)
			fail_msg("%s: %s", jobs_probes[i].name, run.probes[i].items[0].text);
	}
	assert_string_equal(order, "a b lonely c d late ");
	assert_int_equal(meeting->running, 0);
	assert_int_equal(meeting->arrivals, 4);
	aw_run_free(&run);
	munmap(meeting, sizeof(*meeting));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_crash_is_an_error),
		cmocka_unit_test(test_hang_times_out),
		cmocka_unit_test(test_undeclared_item_is_an_error),
		cmocka_unit_test(test_unreported_items_are_errors),
		cmocka_unit_test(test_leftover_child_does_not_block),
		cmocka_unit_test(test_isolation),
		cmocka_unit_test(test_unmet_need_is_a_skip),
		cmocka_unit_test(test_worse_report_wins),
		cmocka_unit_test(test_own_fuse_mount_is_aborted),
		cmocka_unit_test(test_host_is_no_vm_guest),
		cmocka_unit_test(test_item_needs_guest),
		cmocka_unit_test(test_jobs_side_by_side_and_alone),
		cmocka_unit_test_setup_teardown(test_timeout_is_tried_again_alone, map_meeting, stop_hog),
		cmocka_unit_test_setup_teardown(test_user_timeout_is_final, map_meeting, stop_hog),
		cmocka_unit_test_setup_teardown(test_loaded_machine_starves_a_working_probe, map_meeting,
						stop_hog),
		cmocka_unit_test_setup_teardown(test_budget_starves_the_rest, map_meeting, stop_hog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
