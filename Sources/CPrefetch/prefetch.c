// The prefetch hint is an inline function of the header (include/quire_prefetch.h); this file
// gives the C target a source of its own.
#include "quire_prefetch.h"
