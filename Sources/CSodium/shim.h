#ifndef QUIRE_CSODIUM_SHIM_H
#define QUIRE_CSODIUM_SHIM_H
#include <sodium.h>
#endif
