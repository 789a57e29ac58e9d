// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel module's state as a snapshot records it (kmodule.h). */
#include "kmodule.h"
#include "util.h"

#include <string.h>

/* /proc/modules: one module a line, its name the first word
 * (kernel/module/procfs.c m_show()). */
bool aw_kmodule_listed(const char *modules, size_t len, const char *module)
{
	size_t n = strlen(module);
	const char *end = modules ? modules + len : NULL;
	for (const char *line = modules; line && line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t linelen = nl ? (size_t)(nl - line) : (size_t)(end - line);
		if (linelen > n && strncmp(line, module, n) == 0 && line[n] == ' ')
			return true;
		line = nl ? nl + 1 : end;
	}
	return false;
}

enum aw_kmodule_state aw_kmodule_state(bool listed, bool config_known, const char *value)
{
	if (listed)
		return AW_KMOD_LOADED;
	if (!config_known || (value && strcmp(value, "m") == 0))
		return AW_KMOD_NOT_LOADED;
	if (value && strcmp(value, "y") == 0)
		return AW_KMOD_BUILT_IN;
	return AW_KMOD_NOT_BUILT;
}

static const char *const words[] = {
	[AW_KMOD_LOADED] = "loaded",
	[AW_KMOD_NOT_LOADED] = "not loaded",
	[AW_KMOD_BUILT_IN] = "built in",
	[AW_KMOD_NOT_BUILT] = "not built",
};

char *aw_kmodule_format(enum aw_kmodule_state st, const char *option, const char *value)
{
	const char *word = st > AW_KMOD_UNKNOWN && st <= AW_KMOD_NOT_BUILT ? words[st] : "unknown";
	if (!option)
		return xstrdup(word);
	if (st == AW_KMOD_NOT_LOADED && !value)
		return xasprintf("%s (CONFIG_%s: configuration unknown)", word, option);
	return value ? xasprintf("%s (CONFIG_%s=%s)", word, option, value)
		     : xasprintf("%s (CONFIG_%s absent)", word, option);
}

enum aw_kmodule_state aw_kmodule_parse(const char *recorded, const char **how)
{
	if (how)
		*how = "";
	for (enum aw_kmodule_state st = AW_KMOD_LOADED; recorded && st <= AW_KMOD_NOT_BUILT; st++) {
		size_t n = strlen(words[st]);
		if (strncmp(recorded, words[st], n) == 0 && (recorded[n] == '\0' || recorded[n] == ' ')) {
			if (how)
				*how = recorded[n] ? recorded + n + 1 : "";
			return st;
		}
	}
	return AW_KMOD_UNKNOWN;
}

bool aw_kmodule_present(enum aw_kmodule_state st)
{
	return st == AW_KMOD_LOADED || st == AW_KMOD_BUILT_IN;
}
