import QuireGit
import Testing

/// `GitError.category` decides by libgit2's result code and error class; text only for what
/// libgit2 passes on as text (`ServerMessage`). The messages below are libgit2 1.5.1's and
/// real servers' own, as seen against the loopback servers of the end-to-end tests.
struct GitErrorCategoryTests {
    @Test func codesAndClassesDecide() {
        let cutTLS = GitError(function: "git_remote_push", code: .other(-1), errorClass: "ssl",
                              message: "SSL error: 0xffffffff - ERROR - Generic error")
        #expect(cutTLS.category == .offline)
        let refused = GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "os",
                               message: "failed to connect to 127.0.0.1: Connection refused")
        #expect(refused.category == .offline)
        let cut = GitError(function: "git_remote_fetch", code: .endOfFile, errorClass: "net", message: "early EOF")
        #expect(cut.category == .offline)
        #expect(GitError(function: "git_remote_fetch", code: .auth, errorClass: "http", message: "x").category == .authentication)
        #expect(GitError(function: "git_clone", code: .notFound, errorClass: "repository", message: "x").category == .repositoryNotFound)
        // Outside a transfer, a network class means nothing special; inside one, other classes neither.
        #expect(GitError(function: "git_commit_create", code: .other(-1), errorClass: "net", message: "eof").category == .other)
        #expect(GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "odb", message: "not found").category == .other)
        #expect(GitError(function: "git_libgit2_opts", code: .other(-1), errorClass: "ssl", message: "x").category == .other)
    }

    @Test func serversSayingNoAreReadFromTheirWords() {
        let ssh = GitError(function: "git_remote_fetch", code: .endOfFile, errorClass: "ssh",
                           message: "fatal: '/srv/absent.git' does not appear to be a git repository")
        #expect(ssh.category == .repositoryNotFound)
        let daemon = GitError(function: "git_remote_push", code: .other(-1), errorClass: "net",
                              message: "remote error: access denied or repository not exported: /vault.git")
        #expect(daemon.category == .repositoryNotFound)
        let http = GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "http",
                            message: "unexpected http status code: 404")
        #expect(http.category == .repositoryNotFound)
        let denied = GitError(function: "git_remote_fetch", code: .endOfFile, errorClass: "ssh",
                              message: "ERROR: Permission to me/notes.git denied to alice.")
        #expect(denied.category == .authentication)
    }
}
