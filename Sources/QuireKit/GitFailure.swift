import QuireGit

/// A failure of git work (a libgit2 call, a fetch, a push) as a front end tells it to a user:
/// what it means, and the detail to show. Front ends never see QuireGit's `GitError`: they ask
/// `GitFailure(error)` and map `kind` to a message and an exit code (the CLI's
/// `SyncErrorTranslator`). The meaning is libgit2's result code and error class
/// (`GitError.category`) and what QuireGit decided in its callbacks (`GitError.reason`).
public struct GitFailure: Error, Equatable, Sendable {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The URL names no transport libgit2 knows (`foo://…`).
        case unknownTransport
        /// libgit2 could not be loaded: not installed, or another version than quire was built
        /// against.
        case libraryUnavailable
        /// The remote could not be reached (the local commit is kept).
        case offline
        /// The server's TLS certificate or ssh host key was refused.
        case certificateRefused(CertificateProblem)
        /// Credentials were missing or refused.
        case authenticationFailed(CredentialProblem)
        /// The remote repository does not exist, or the server refuses it; `serverAdvice` is
        /// what the user can do when the server's words tell.
        case repositoryNotFound(serverAdvice: String?)
        /// The remote refused the push.
        case pushRejected
        /// The server refused the pushed branch for a reason of its own (a hook, a protection
        /// rule); its words are in the detail. Not retried.
        case pushRefusedByServer
        /// The vault's folder is not (in) a git repository (`.quire/` without `.git/`).
        case notARepository
        /// A lock file of git's is held (`.git/index.lock`): another git command is running, or
        /// one crashed and left it (a stale lock quire itself removes only once it is old).
        case gitLocked
        /// Any other git failure.
        case other
    }

    /// Why a certificate or host key was refused.
    public enum CertificateProblem: Equatable, Sendable {
        /// A TLS certificate nothing trusts; its fingerprint (`SHA256:AB:…`) can be pinned.
        case untrustedCertificate(fingerprint: String)
        /// The ssh host is known with another key.
        case changedHostKey
        /// Anything else (an unknown ssh host, …).
        case other
    }

    /// What was wrong with the credentials, and over which transport.
    public enum CredentialProblem: Equatable, Sendable {
        /// No credential of any kind was there to offer.
        case missing(ssh: Bool)
        /// Credentials were offered and the server refused every one.
        case refused(ssh: Bool)
        /// The server said no without saying why.
        case unknown
        /// An https server answered with a refusal (401, 403) that no credential callback was
        /// asked about: the account, or no account, may not do this (a push to a read-only mirror).
        case httpRefused
    }

    /// What went wrong.
    public var kind: Kind
    /// libgit2's message and the function that failed: `message (git_remote_fetch)`.
    public var detail: String

    /// Creates a failure.
    public init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The failure `error` is, when it is a git error; nil for any other error.
    public init?(_ error: Error) {
        guard let error = error as? GitError else { return nil }
        self.init(classifying: error)
    }

    init(classifying error: GitError) {
        detail = "\(error.message) (\(error.function))"
        switch error.reason {
        case .unsupportedTransport:
            kind = .unknownTransport
            return
        case .libraryUnavailable:
            kind = .libraryUnavailable
            return
        default:
            break
        }
        if error.code == .notFound && (error.function == "git_repository_open_ext" || error.function == "git_repository_open") {
            kind = .notARepository
            return
        }
        if error.code == .locked {
            kind = .gitLocked
            return
        }
        let ssh = error.errorClass == "ssh"
        switch error.category {
        case .offline:
            kind = .offline
        case .authentication where error.code == .certificate:
            switch error.reason {
            case .untrustedCertificate(let fingerprint): kind = .certificateRefused(.untrustedCertificate(fingerprint: fingerprint))
            case .changedHostKey: kind = .certificateRefused(.changedHostKey)
            default: kind = .certificateRefused(.other)
            }
        case .authentication:
            switch error.reason {
            case .noCredentials: kind = .authenticationFailed(.missing(ssh: ssh))
            case .credentialsRefused: kind = .authenticationFailed(.refused(ssh: ssh))
            default: kind = .authenticationFailed(error.errorClass == "http" ? .httpRefused : .unknown)
            }
        case .repositoryNotFound:
            kind = .repositoryNotFound(serverAdvice: error.serverAdvice)
        case .pushRejected:
            kind = error.reason == .refusedByServer ? .pushRefusedByServer : .pushRejected
        case .other:
            kind = .other
        }
    }
}
