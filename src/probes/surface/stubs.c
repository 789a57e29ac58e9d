#include "surface.h"
const struct aw_probe surface_text_probes[] = { AW_PROBES_END };
