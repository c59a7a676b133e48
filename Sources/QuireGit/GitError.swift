import CLibGit2

/// An error reported by libgit2 (or by QuireGit on its behalf), with the failing function,
/// a named code, libgit2's error class and its message.
public struct GitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The libgit2 result codes QuireGit tells apart.
    public enum Code: Equatable, Sendable {
        /// `GIT_ENOTFOUND`: the object, reference or path does not exist.
        case notFound
        /// `GIT_EEXISTS`: something already exists where it should be created.
        case exists
        /// `GIT_EAMBIGUOUS`: a short id matches several objects.
        case ambiguous
        /// `GIT_EBAREREPO`: the operation needs a work tree.
        case bareRepository
        /// `GIT_EUNBORNBRANCH`: HEAD points at a branch with no commit yet.
        case unbornBranch
        /// `GIT_EUNMERGED`: a merge in progress prevents the operation.
        case unmerged
        /// `GIT_ENONFASTFORWARD`: a reference update was not a fast-forward.
        case nonFastForward
        /// `GIT_EINVALIDSPEC`: a name or refspec is malformed.
        case invalidSpec
        /// `GIT_ECONFLICT`: checkout conflicts with local changes.
        case conflict
        /// `GIT_ELOCKED`: a lock file prevents the operation.
        case locked
        /// `GIT_EMODIFIED`: a reference changed under us.
        case modified
        /// `GIT_EAUTH`: authentication failed.
        case auth
        /// `GIT_ECERTIFICATE`: the server's certificate or host key was refused.
        case certificate
        /// `GIT_EEOF`: the connection ended early.
        case endOfFile
        /// `GIT_EUSER`: a callback stopped the operation.
        case user
        /// The server refused to update a reference during a push.
        case pushRejected
        /// A network operation passed its deadline and was abandoned.
        case timedOut
        /// Any other negative result code.
        case other(Int)

        init(rawCode: Int32) {
            switch rawCode {
            case GIT_ENOTFOUND.rawValue: self = .notFound
            case GIT_EEXISTS.rawValue: self = .exists
            case GIT_EAMBIGUOUS.rawValue: self = .ambiguous
            case GIT_EBAREREPO.rawValue: self = .bareRepository
            case GIT_EUNBORNBRANCH.rawValue: self = .unbornBranch
            case GIT_EUNMERGED.rawValue: self = .unmerged
            case GIT_ENONFASTFORWARD.rawValue: self = .nonFastForward
            case GIT_EINVALIDSPEC.rawValue: self = .invalidSpec
            case GIT_ECONFLICT.rawValue: self = .conflict
            case GIT_ELOCKED.rawValue: self = .locked
            case GIT_EMODIFIED.rawValue: self = .modified
            case GIT_EAUTH.rawValue: self = .auth
            case GIT_ECERTIFICATE.rawValue: self = .certificate
            case GIT_EEOF.rawValue: self = .endOfFile
            case GIT_EUSER.rawValue: self = .user
            default: self = .other(Int(rawCode))
            }
        }
    }

    /// What the failure means to a user; the CLI maps these to exit codes.
    public enum Category: String, Equatable, Sendable {
        /// The remote could not be reached (exit 3; the local commit is kept).
        case offline
        /// Credentials were missing or refused, or the host key is unknown (exit 4).
        case authentication
        /// The remote repository does not exist (exit 5).
        case repositoryNotFound
        /// The remote refused the push (exit 6).
        case pushRejected
        /// Anything else (exit 1).
        case other
    }

    /// What QuireGit saw when it knows more than the code says (it decided in a callback).
    public enum Reason: Equatable, Sendable {
        /// No credential of any kind was there to offer.
        case noCredentials
        /// Credentials were offered and the server refused every one.
        case credentialsRefused
        /// The ssh host is not in known_hosts.
        case unknownHostKey
        /// The ssh host is in known_hosts with another key.
        case changedHostKey
        /// The TLS certificate is not trusted; its fingerprint (`SHA256:AB:…`) can be pinned.
        case untrustedCertificate(fingerprint: String)
        /// The remote's address names a transport libgit2 does not have (`foo://…`): checked by
        /// QuireGit before the transfer, not read from libgit2's message.
        case unsupportedTransport
        /// libgit2 itself could not be loaded (`dlopen`: not installed, or another version).
        case libraryUnavailable
        /// The server refused a pushed reference for a reason of its own (a hook, a protected
        /// branch: its status for the reference, not a non-fast-forward libgit2 found): pushing
        /// again after a fetch is refused the same way.
        case refusedByServer
    }

    /// The libgit2 function (or QuireGit operation) that failed, e.g. `git_remote_fetch`.
    public var function: String
    /// The named result code.
    public var code: Code
    /// libgit2's error class name (e.g. `net`, `ssh`, `os`), `none` when libgit2 gave none.
    public var errorClass: String
    /// The message from `git_error_last()`, or a description of the code when it was NULL.
    public var message: String
    /// What exactly was refused, when QuireGit knows (nil for errors libgit2 reported alone).
    public var reason: Reason?

    /// Creates an error value.
    public init(function: String, code: Code, errorClass: String = "none", message: String, reason: Reason? = nil) {
        self.function = function
        self.code = code
        self.errorClass = errorClass
        self.message = message
        self.reason = reason
    }

    /// Reads `git_error_last()` right away for a failing result code.
    init(function: String, rawCode: Int32) {
        let code = Code(rawCode: rawCode)
        var className = "none"
        var text = "\(function) failed with code \(rawCode)"
        if let last = git_error_last() {
            className = GitError.className(last.pointee.klass)
            if let cMessage = last.pointee.message {
                text = String(cString: cMessage)
            }
        }
        self.init(function: function, code: code, errorClass: className, message: text)
    }

    /// A readable one-line description.
    public var description: String { "\(function): \(message)" }

    /// What the failure means to a user (offline, authentication, not found, rejected, other),
    /// decided by libgit2's result code and error class. Only where libgit2 passes on nothing
    /// but text — a server's own refusal, an HTTP status — is the message read, through the
    /// small table in `ServerMessage`.
    public var category: Category {
        switch code {
        case .auth, .certificate: return .authentication
        case .pushRejected, .nonFastForward: return .pushRejected
        case .timedOut: return .offline
        case .notFound where isTransfer: return .repositoryNotFound
        default: break
        }
        // The classes of libgit2's transports: the socket (net; a refused connect is os, with
        // errno's text), TLS (ssl), ssh and http. For a remote on a local path, os is the disk
        // under it failing (a USB stick pulled out): unreachable too.
        guard isTransfer, ["net", "os", "ssl", "ssh", "http"].contains(errorClass) else { return .other }
        return ServerMessage.category(of: message) ?? .offline
    }

    /// What the user can do about a server's refusal, when its words tell (e.g. a git daemon's).
    public var serverAdvice: String? {
        isTransfer ? ServerMessage.advice(of: message) : nil
    }

    /// Whether the failure happened while talking to a remote (fetch, push, clone, or one of
    /// QuireGit's callbacks during them).
    private var isTransfer: Bool {
        function.hasPrefix("git_remote") || function == "git_clone" || function == "credentials"
            || function == "certificate_check"
    }

    static func className(_ klass: Int32) -> String {
        let names = ["none", "nomemory", "os", "invalid", "reference", "zlib", "repository",
                     "config", "regex", "odb", "index", "object", "net", "tag", "tree", "indexer",
                     "ssl", "submodule", "thread", "stash", "checkout", "fetchhead", "merge", "ssh",
                     "filter", "revert", "callback", "cherrypick", "describe", "rebase",
                     "filesystem", "patch", "worktree", "sha", "http", "internal"]
        let index = Int(klass)
        return index >= 0 && index < names.count ? names[index] : "class\(index)"
    }
}

/// Throws a `GitError` for a negative libgit2 result; returns the (non-negative) result.
@discardableResult
func check(_ result: Int32, _ function: String) throws -> Int32 {
    if result < 0 { throw GitError(function: function, rawCode: result) }
    return result
}
