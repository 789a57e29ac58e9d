// SPDX-License-Identifier: GPL-2.0-or-later
/* ELF files written by hand (tinyelf.h), after elf(5) and the System V
 * x86_64 psABI: the ELF header, the program headers right after it, the
 * code at CODE_OFF; with overlap, the text spans TEXT_LEN and a data
 * PT_LOAD starts at DATA_OFF, in the text's second page (as the data of
 * old ARM binaries started in their text's last page), so that the
 * page the code runs in keeps its permissions. */
#include "tinyelf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define CODE_OFF 0x200
#define TEXT_LEN 0x1800 /* two pages, the second shared with the data */
#define DATA_OFF 0x1800
#define DATA_LEN 0x100

/* getpid; kill(pid, SIGSTOP); exit(0) */
static const unsigned char code_stop[] = {
	0xb8, 0x27, 0x00, 0x00, 0x00, /* mov $39 (getpid), %eax */
	0x0f, 0x05,                   /* syscall */
	0x89, 0xc7,                   /* mov %eax, %edi */
	0xbe, 0x13, 0x00, 0x00, 0x00, /* mov $19 (SIGSTOP), %esi */
	0xb8, 0x3e, 0x00, 0x00, 0x00, /* mov $62 (kill), %eax */
	0x0f, 0x05,                   /* syscall */
	0x31, 0xff,                   /* xor %edi, %edi */
	0xb8, 0x3c, 0x00, 0x00, 0x00, /* mov $60 (exit), %eax */
	0x0f, 0x05,                   /* syscall */
};
#define CODE_EXIT_AT 21 /* code_stop from the xor: exit(0) alone */

/* timer_create(CLOCK_MONOTONIC, NULL, &id on the stack); exit(id) or
 * exit(128 + errno) */
static const unsigned char code_timer_id[] = {
	0x48, 0x83, 0xec, 0x10,       /* sub $16, %rsp */
	0xbf, 0x01, 0x00, 0x00, 0x00, /* mov $1 (CLOCK_MONOTONIC), %edi */
	0x31, 0xf6,                   /* xor %esi, %esi (no sigevent) */
	0x48, 0x89, 0xe2,             /* mov %rsp, %rdx (the id's place) */
	0xb8, 0xde, 0x00, 0x00, 0x00, /* mov $222 (timer_create), %eax */
	0x0f, 0x05,                   /* syscall */
	0x85, 0xc0,                   /* test %eax, %eax */
	0x75, 0x05,                   /* jnz failed (+5) */
	0x8b, 0x3c, 0x24,             /* mov (%rsp), %edi: the id */
	0xeb, 0x09,                   /* jmp out (+9) */
	0xf7, 0xd8,                   /* failed: neg %eax: the errno */
	0x05, 0x80, 0x00, 0x00, 0x00, /* add $128, %eax */
	0x89, 0xc7,                   /* mov %eax, %edi */
	0xb8, 0x3c, 0x00, 0x00, 0x00, /* out: mov $60 (exit), %eax */
	0x0f, 0x05,                   /* syscall */
};

static const unsigned char *program(enum aw_tinyelf_code code, size_t *len)
{
	switch (code) {
	case AW_TINYELF_STOP:
		*len = sizeof(code_stop);
		return code_stop;
	case AW_TINYELF_TIMER_ID:
		*len = sizeof(code_timer_id);
		return code_timer_id;
	default:
		*len = sizeof(code_stop) - CODE_EXIT_AT;
		return code_stop + CODE_EXIT_AT;
	}
}

bool aw_tinyelf_supported(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

size_t aw_tinyelf_build(const struct aw_tinyelf_spec *spec, unsigned char *buf, size_t size)
{
	if (!aw_tinyelf_supported() || size < AW_TINYELF_SIZE)
		return 0;
	memset(buf, 0, AW_TINYELF_SIZE);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)(void *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(void *)(buf + sizeof(*eh));
	unsigned long base = spec->dyn ? 0 : spec->base;
	size_t code_len;
	const unsigned char *code = program(spec->code, &code_len);
	int n = 0;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_ident[EI_OSABI] = ELFOSABI_SYSV;
	eh->e_type = spec->dyn ? ET_DYN : ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = base + CODE_OFF;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);

	/* text: the headers and the code, read and execute */
	size_t text = spec->overlap ? TEXT_LEN : CODE_OFF + code_len;
	ph[n++] = (Elf64_Phdr){
		.p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0, .p_vaddr = base,
		.p_paddr = base, .p_filesz = text, .p_memsz = text, .p_align = 0x1000,
	};
	if (spec->overlap) /* data in the same page: its mapping meets the text's */
		ph[n++] = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = DATA_OFF,
			.p_vaddr = base + DATA_OFF, .p_paddr = base + DATA_OFF, .p_filesz = DATA_LEN,
			.p_memsz = DATA_LEN, .p_align = 0x1000,
		};
	if (spec->stack != AW_TINYELF_STACK_NONE)
		ph[n++] = (Elf64_Phdr){
			.p_type = PT_GNU_STACK,
			.p_flags = PF_R | PF_W | (spec->stack == AW_TINYELF_STACK_RWX ? PF_X : 0),
			.p_align = 16,
		};
	eh->e_phnum = (Elf64_Half)n;
	memcpy(buf + CODE_OFF, code, code_len);
	if (spec->overlap)
		memset(buf + DATA_OFF, 0x5a, DATA_LEN);
	return spec->overlap ? DATA_OFF + DATA_LEN : CODE_OFF + code_len;
}

int aw_tinyelf_write(const struct aw_tinyelf_spec *spec, const char *path)
{
	unsigned char buf[AW_TINYELF_SIZE];
	size_t len = aw_tinyelf_build(spec, buf, sizeof(buf));
	if (len == 0)
		return -ENOEXEC;
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0755);
	int rc = fd < 0 ? -errno : write(fd, buf, len) == (ssize_t)len ? 0 : -EIO;
	if (fd >= 0)
		close(fd);
	return rc;
}
