// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether KVM runs guests here: a guest of a few instructions is run. */
#include "kvm.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Long mode with paging, as a kernel runs: nested KVM that runs real
 * mode but hangs once paging is on is what CI machines have.  Page tables
 * at 0x1000.., one 2 MiB page mapping 0, the code at 0x8000. */
#define KVM_MEM (2u << 20)

static void seg64(struct kvm_segment *s, unsigned type, unsigned selector, unsigned l)
{
	memset(s, 0, sizeof(*s));
	s->base = 0;
	s->limit = 0xffffffff;
	s->selector = (unsigned short)selector;
	s->present = 1;
	s->type = (unsigned char)type;
	s->dpl = 0;
	s->db = l ? 0 : 1;
	s->s = 1;
	s->l = (unsigned char)l;
	s->g = 1;
}

/* In a child, in 64-bit mode: count down from 2^20 ("mov ecx, 0x100000;
 * dec ecx; jnz"), then "mov al, 42; out 0x10, al; hlt".  Natively the
 * loop takes a millisecond or two; the parent gives up long before an
 * emulated one (1000 times slower) ends. */
static __attribute__((noreturn)) void kvm_child(int report)
{
	static const unsigned char code[] = { 0xb9, 0x00, 0x00, 0x10, 0x00, 0xff, 0xc9, 0x75, 0xfc,
					      0xb0, 42, 0xe6, 0x10, 0xf4 };
	char msg[160] = "";
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm = -1, vcpu = -1;

	if (kvm < 0) {
		snprintf(msg, sizeof(msg), "/dev/kvm: %s", strerror(errno));
		goto out;
	}
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		snprintf(msg, sizeof(msg), "/dev/kvm speaks another KVM API version");
		goto out;
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0) {
		snprintf(msg, sizeof(msg), "KVM_CREATE_VM: %s", strerror(errno));
		goto out;
	}
	unsigned char *mem = mmap(NULL, KVM_MEM, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		snprintf(msg, sizeof(msg), "mmap: %s", strerror(errno));
		goto out;
	}
	memcpy(mem + 0x8000, code, sizeof(code));
	uint64_t *pml4 = (uint64_t *)(mem + 0x1000), *pdpt = (uint64_t *)(mem + 0x2000),
		 *pd = (uint64_t *)(mem + 0x3000);
	pml4[0] = 0x2000 | 3;           /* present, writable */
	pdpt[0] = 0x3000 | 3;
	pd[0] = 0 | 3 | (1u << 7);      /* a 2 MiB page */
	struct kvm_userspace_memory_region region = {
		.slot = 0, .guest_phys_addr = 0, .memory_size = KVM_MEM,
		.userspace_addr = (uintptr_t)mem,
	};
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) != 0) {
		snprintf(msg, sizeof(msg), "KVM_SET_USER_MEMORY_REGION: %s", strerror(errno));
		goto out;
	}
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	int size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (vcpu < 0 || size <= 0) {
		snprintf(msg, sizeof(msg), "KVM_CREATE_VCPU: %s", strerror(errno));
		goto out;
	}
	struct kvm_run *run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	struct kvm_sregs sregs;
	struct kvm_regs regs = { .rip = 0x8000, .rsp = KVM_MEM, .rflags = 2 };
	if (run == MAP_FAILED || ioctl(vcpu, KVM_GET_SREGS, &sregs) != 0) {
		snprintf(msg, sizeof(msg), "KVM vcpu set-up: %s", strerror(errno));
		goto out;
	}
	sregs.cr3 = 0x1000;
	sregs.cr4 = 1u << 5;                                  /* PAE */
	sregs.cr0 = 1u | 2u | 0x10u | 0x20u | (1u << 16) | (1u << 18) | (1u << 31); /* PE..PG */
	sregs.efer = (1u << 8) | (1u << 10);                  /* LME, LMA */
	seg64(&sregs.cs, 11, 8, 1);
	seg64(&sregs.ds, 3, 16, 0);
	sregs.es = sregs.fs = sregs.gs = sregs.ss = sregs.ds;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) != 0 || ioctl(vcpu, KVM_SET_REGS, &regs) != 0) {
		snprintf(msg, sizeof(msg), "KVM vcpu set-up: %s", strerror(errno));
		goto out;
	}
	if (ioctl(vcpu, KVM_RUN, 0) != 0) {
		snprintf(msg, sizeof(msg), "KVM_RUN: %s", strerror(errno));
		goto out;
	}
	if (run->exit_reason != KVM_EXIT_IO || run->io.port != 0x10 ||
	    ((unsigned char *)run)[run->io.data_offset] != 42) {
		snprintf(msg, sizeof(msg), "a 64-bit KVM test guest stopped with exit reason %u "
			 "instead of at its OUT instruction", run->exit_reason);
		goto out;
	}
	msg[0] = '\0';
out:
	(void)!write(report, msg, strlen(msg) + 1);
	_exit(0);
}

/* The loop's time limit: 100 times what a real CPU needs. */
#define KVM_TEST_S 0.25

char *aw_kvm_unusable(void)
{
	if (access("/dev/kvm", R_OK | W_OK) != 0)
		return xasprintf("/dev/kvm: %s", strerror(errno));
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return xasprintf("pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return xasprintf("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(3);
		kvm_child(p[1]);
	}
	close(p[1]);
	int status;
	bool done = aw_wait_until(pid, aw_now() + KVM_TEST_S, &status) == 1;
	if (!done)
		aw_kill_reap(pid);
	char msg[161] = "";
	ssize_t n = read(p[0], msg, sizeof(msg) - 1);
	close(p[0]);
	if (!done)
		return xasprintf("a KVM test guest's 2^20-step loop did not end within %g s: KVM here "
				 "emulates rather than runs guests (nested), slower than TCG", KVM_TEST_S);
	if (n <= 0)
		return xstrdup("the KVM test ended without an answer");
	msg[n] = '\0';
	return msg[0] ? xstrdup(msg) : NULL;
}
