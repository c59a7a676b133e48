/// The failures libgit2 reports only as text, mapped to what they mean. libgit2 gives a result
/// code and error class for everything it decides itself (a refused connection, a cut TLS
/// stream, `GIT_EAUTH`, `GIT_ECERTIFICATE`, `GIT_ENOTFOUND`); these are the cases where the
/// decision was the server's and only its words reach us, or where libgit2 folds a fact into
/// its message. Matched case-insensitively, first row wins; keep it short.
enum ServerMessage {
    private static let gitDaemon = "a git daemon serves only exported repositories (git-daemon-export-ok or --export-all)"
        + " and takes pushes only with --enable=receive-pack"

    private static let table: [(text: String, category: GitError.Category, advice: String?)] = [
        // This device's disk filled up while a fetch wrote the pack (class os, ENOSPC's text
        // appended): not the remote being unreachable.
        ("no space left on device", .other, nil),
        // git upload-pack / receive-pack over ssh, on stderr (libgit2: class ssh, GIT_EEOF).
        ("does not appear to be a git repository", .repositoryNotFound, nil),
        // GitHub, GitLab, Gitea over ssh.
        ("repository not found", .repositoryNotFound, nil),
        // git daemon's ERR line for a missing, unexported or read-only repository
        // ("access denied or repository not exported"); libgit2: "remote error: …", class net.
        ("not exported", .repositoryNotFound, gitDaemon),
        ("service not enabled", .repositoryNotFound, gitDaemon),
        // ssh hosts refusing an account (GitHub "Permission to … denied", gitolite "DENIED").
        ("denied", .authentication, nil),
        // libssh2 cannot use a key file it was given.
        ("private key", .authentication, nil),
        // libgit2's http transport keeps the status only in its text.
        ("unexpected http status code: 404", .repositoryNotFound, nil),
        ("unexpected http status code: 401", .authentication, nil),
        ("unexpected http status code: 403", .authentication, nil),
        ("authentication replays", .authentication, nil),
        // An https URL answered by a web server that is not serving a git repository there.
        ("content-type", .repositoryNotFound, nil),
    ]

    /// The meaning of `message`, or nil when no row matches.
    static func category(of message: String) -> GitError.Category? {
        row(message)?.category
    }

    /// What the user can do about `message`, when its row knows more than its category.
    static func advice(of message: String) -> String? {
        row(message)?.advice
    }

    private static func row(_ message: String) -> (text: String, category: GitError.Category, advice: String?)? {
        let text = message.lowercased()
        return table.first { text.contains($0.text) }
    }
}
