#ifndef QUIRE_CLIBGIT2_H
#define QUIRE_CLIBGIT2_H
/* libgit2 for QuireGit, loaded on first use (loader.c): its API as declared by its headers. */
#include <git2.h>
#include <git2/sys/merge.h>

/* Loads libgit2.so (once, from any thread): NULL when it is loaded, else what went wrong
   (dlopen's message, in static storage). QuireGit calls it before its first libgit2 call. */
const char *quire_git_load(void);

/* The file name loaded, e.g. "libgit2.so.1.5". */
const char *quire_git_library_name(void);

/* git_libgit2_opts is variadic, which Swift cannot call: one typed wrapper per option used. */
int quire_set_ssl_cert_locations(const char *file, const char *path);
/* Whether every object read is hashed again to check its id (libgit2's default: yes). */
int quire_set_strict_hash_verification(int enabled);
/* The largest tree libgit2's object cache keeps (its default: 4 KB). */
int quire_set_tree_cache_limit(size_t bytes);
/* The size of one mapped window of a pack file, and how much of all packs stays mapped. */
int quire_set_pack_window_limits(size_t window, size_t mapped);
#endif
