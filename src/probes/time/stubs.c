#include "time.h"
const struct aw_probe time_compat_probes[] = { AW_PROBES_END };
