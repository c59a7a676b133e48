#ifndef QUIRE_CCMARK_SHIM_H
#define QUIRE_CCMARK_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
