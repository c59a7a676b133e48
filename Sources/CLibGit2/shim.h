#ifndef QUIRE_CLIBGIT2_SHIM_H
#define QUIRE_CLIBGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/merge.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one typed wrapper per option used. */
static inline int quire_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}
#endif
