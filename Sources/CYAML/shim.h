#ifndef QUIRE_CYAML_SHIM_H
#define QUIRE_CYAML_SHIM_H
#include <yaml.h>
#endif
