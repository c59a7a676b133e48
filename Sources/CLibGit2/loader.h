#ifndef QUIRE_CLIBGIT2_LOADER_H
#define QUIRE_CLIBGIT2_LOADER_H
#include "CLibGit2.h"

/* The address of libgit2's function `name`, looked up once and kept in `*slot`. */
void *quire_git_function(void **slot, const char *name);
#endif
