// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect's work (bisect.h): the strategy the command line chose,
 * run.  The strategies call nothing here, so the search has no circle. */
#include "bisect.h"
#include "bisect_strategy.h"
#include "core/status.h"

/* In the order they are asked: --step is --git's too. */
static const struct bisect_strategy *const strategies[] = {
	&bisect_git_step,
	&bisect_git,
	&bisect_list,
};

int session_bisect(struct bisect *b, char **kernels, size_t nkernels)
{
	for (size_t i = 0; i < sizeof(strategies) / sizeof(*strategies); i++)
		if (strategies[i]->chosen(b))
			return strategies[i]->run(b, kernels, nkernels);
	return AW_EXIT_USAGE; /* not reached: the list takes what --git does not */
}
