// SPDX-License-Identifier: GPL-2.0-or-later
/* Mapping placement and stack growth, measured (layout.h). */
#include "layout.h"
#include "lib/procfs.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif


/* A PROT_NONE page at addr unless something is there already; NULL
 * when none was placed. */
static void *spacer_at(char *addr)
{
	void *p = mmap(addr, aw_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (p != addr) { /* a kernel without MAP_FIXED_NOREPLACE takes it as a hint */
		munmap(p, aw_page_size());
		return NULL;
	}
	return p;
}

int mm_count_aligned(size_t len, int tries, unsigned long align)
{
	char *maps[64];
	void *below[64], *above[64];
	int made = 0, aligned = 0, rc = 0;

	if (tries > 64)
		tries = 64;
	for (; made < tries; made++) {
		maps[made] = mmap(NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (maps[made] == MAP_FAILED) {
			rc = -errno;
			break;
		}
		/* Right next to it on both sides (top-down and bottom-up
		 * layouts), so that the next mapping of the same gap moves by a
		 * page, whatever small holes elsewhere would take a spacer. */
		below[made] = spacer_at(maps[made] - aw_page_size());
		above[made] = spacer_at(maps[made] + len);
		if ((uintptr_t)maps[made] % align == 0)
			aligned++;
	}
	for (int i = 0; i < made; i++) {
		munmap(maps[i], len);
		if (below[i])
			munmap(below[i], aw_page_size());
		if (above[i])
			munmap(above[i], aw_page_size());
	}
	return rc ? rc : aligned;
}

const char *mm_alignment_word(int aligned, int tries, char *buf, size_t size)
{
	if (aligned >= tries - 1)
		return "aligned";
	if (aligned <= 2)
		return "unaligned";
	snprintf(buf, size, "mixed (%d of %d)", aligned, tries);
	return buf;
}

int mm_alignment_of(unsigned long a, unsigned long b, unsigned long pmd, char *word, size_t wsize,
		    char *note, size_t nsize, int *first)
{
	int na = mm_count_aligned(a, MM_ALIGN_TRIES, pmd);
	int nb = na < 0 ? na : mm_count_aligned(b, MM_ALIGN_TRIES, pmd);

	*first = na;
	if (nb < 0)
		return nb;
	snprintf(note, nsize, "%d of %d mappings of %lu B and %d of %d of %lu B start on a %lu B boundary",
		 na, MM_ALIGN_TRIES, a, nb, MM_ALIGN_TRIES, b, pmd);
	char mixed[48];
	snprintf(word, wsize, "%s", mm_alignment_word(na + nb, 2 * MM_ALIGN_TRIES, mixed, sizeof(mixed)));
	return 0;
}

/* In a child: touch one byte at addr.  True when the child lived. */
static bool reaches(uintptr_t addr)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		/* A fault is the answer, not a crash to report. */
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		sigaction(SIGSEGV, &dfl, NULL);
		sigaction(SIGBUS, &dfl, NULL);
		*(volatile char *)addr = 1;
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Room for the stack to grow the whole span: RLIMIT_STACK also stops it. */
static void raise_stack_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < MM_GAP_SPAN + 2 * aw_page_size()) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > MM_GAP_SPAN + 2 * aw_page_size() ?
			MM_GAP_SPAN + 2 * aw_page_size() : rl.rlim_max;
		setrlimit(RLIMIT_STACK, &rl);
	}
}

long mm_stack_guard_gap(int prot)
{
	/* neighbour page | gap of MM_GAP_SPAN | stack page */
	size_t total = aw_page_size() + MM_GAP_SPAN + aw_page_size();
	char *r = mmap(NULL, total + aw_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return -errno;
	munmap(r, total + aw_page_size());
	char *neighbour = r + aw_page_size(), *low = neighbour + aw_page_size(), *top = low + MM_GAP_SPAN;
	void *n = mmap(neighbour, aw_page_size(), prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (n == MAP_FAILED)
		return -errno;
	void *s = mmap(top, aw_page_size(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_FIXED_NOREPLACE, -1, 0);
	if (s == MAP_FAILED) {
		int err = errno;
		munmap(n, aw_page_size());
		return -err;
	}
	raise_stack_limit();
	/* The lowest page reached, in pages above low: in [lo, hi]. */
	size_t lo = 0, hi = MM_GAP_SPAN / aw_page_size();
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (reaches((uintptr_t)low + mid * aw_page_size()))
			hi = mid;
		else
			lo = mid + 1;
	}
	munmap(s, aw_page_size());
	munmap(n, aw_page_size());
	return lo == MM_GAP_SPAN / aw_page_size() ? MM_GAP_BEYOND : (long)(lo * aw_page_size());
}
