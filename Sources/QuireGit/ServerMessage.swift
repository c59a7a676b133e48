/// The failures libgit2 reports only as text, mapped to what they mean. libgit2 gives a result
/// code and error class for everything it decides itself (a refused connection, a cut TLS
/// stream, `GIT_EAUTH`, `GIT_ECERTIFICATE`, `GIT_ENOTFOUND`); these are the cases where the
/// decision was the server's and only its words reach us, or where libgit2 folds a fact into
/// its message. Matched case-insensitively, first row wins; keep it short.
enum ServerMessage {
    private static let table: [(text: String, category: GitError.Category)] = [
        // git upload-pack / receive-pack over ssh, on stderr (libgit2: class ssh, GIT_EEOF).
        ("does not appear to be a git repository", .repositoryNotFound),
        // GitHub, GitLab, Gitea over ssh.
        ("repository not found", .repositoryNotFound),
        // git daemon's ERR line for a missing, unexported or read-only repository
        // ("access denied or repository not exported"); libgit2: "remote error: …", class net.
        ("not exported", .repositoryNotFound),
        ("service not enabled", .repositoryNotFound),
        // ssh hosts refusing an account (GitHub "Permission to … denied", gitolite "DENIED").
        ("denied", .authentication),
        // libssh2 cannot use a key file it was given.
        ("private key", .authentication),
        // libgit2's http transport keeps the status only in its text.
        ("unexpected http status code: 404", .repositoryNotFound),
        ("unexpected http status code: 401", .authentication),
        ("unexpected http status code: 403", .authentication),
        ("authentication replays", .authentication),
        // An https URL answered by a web server that is not serving a git repository there.
        ("content-type", .repositoryNotFound),
    ]

    /// The meaning of `message`, or nil when no row matches.
    static func category(of message: String) -> GitError.Category? {
        let text = message.lowercased()
        return table.first { text.contains($0.text) }?.category
    }
}
