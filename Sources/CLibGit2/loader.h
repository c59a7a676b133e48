#ifndef QUIRE_CLIBGIT2_LOADER_H
#define QUIRE_CLIBGIT2_LOADER_H
#include "CLibGit2.h"

/* The names of the functions forwarded (functions.c), checked when the library is loaded. */
extern const char *const quire_git_function_names[];
extern const int quire_git_function_count;

/* The address of libgit2's function `name`, looked up once and kept in `*slot`. */
void *quire_git_function(void **slot, const char *name);
#endif
