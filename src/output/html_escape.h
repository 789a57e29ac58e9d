/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text written into an HTML page: what both the report and its series
 * section need, so that neither has to call into the other. */
#ifndef ABIWATCH_OUTPUT_HTML_ESCAPE_H
#define ABIWATCH_OUTPUT_HTML_ESCAPE_H

#include <stdio.h>

/* text (NULL: nothing) with < > & " ' as their entities. */
void aw_html_escape(FILE *out, const char *text);

#endif
