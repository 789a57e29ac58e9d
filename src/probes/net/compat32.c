// stub
#include "net.h"
const struct aw_probe net_compat32_probes[] = { AW_PROBES_END };
