// SPDX-License-Identifier: GPL-2.0-or-later
/* ELF files written by hand (elf.h), after elf(5) and the System V
 * x86_64 psABI: the ELF header, the program headers right after it, the
 * code at CODE_OFF; with overlap, the text spans TEXT_LEN and a data
 * PT_LOAD starts at DATA_OFF, in the text's second page (as the data of
 * old ARM binaries started in their text's last page), so that the
 * page the code runs in keeps its permissions. */
#include "elf.h"

#include <elf.h>
#include <string.h>

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

bool pelf_supported(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

size_t pelf_build(const struct pelf_spec *spec, unsigned char *buf, size_t size)
{
	if (!pelf_supported() || size < PELF_SIZE)
		return 0;
	memset(buf, 0, PELF_SIZE);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)(void *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(void *)(buf + sizeof(*eh));
	unsigned long base = spec->dyn ? 0 : spec->base;
	const unsigned char *code = spec->stop ? code_stop : code_stop + CODE_EXIT_AT;
	size_t code_len = spec->stop ? sizeof(code_stop) : sizeof(code_stop) - CODE_EXIT_AT;
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
	if (spec->stack != PELF_STACK_NONE)
		ph[n++] = (Elf64_Phdr){
			.p_type = PT_GNU_STACK,
			.p_flags = PF_R | PF_W | (spec->stack == PELF_STACK_RWX ? PF_X : 0),
			.p_align = 16,
		};
	eh->e_phnum = (Elf64_Half)n;
	memcpy(buf + CODE_OFF, code, code_len);
	if (spec->overlap)
		memset(buf + DATA_OFF, 0x5a, DATA_LEN);
	return spec->overlap ? DATA_OFF + DATA_LEN : CODE_OFF + code_len;
}
