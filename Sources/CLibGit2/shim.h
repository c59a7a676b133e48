#ifndef QUIRE_CLIBGIT2_SHIM_H
#define QUIRE_CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/merge.h>
#endif
