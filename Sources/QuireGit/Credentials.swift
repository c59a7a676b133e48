import Foundation

/// Where credentials for fetch and push come from. Secrets are read when needed and never
/// stored in errors or messages.
public struct Credentials: Sendable {
    /// The home directory for `~/.ssh` and `~/.git-credentials` (default: `$HOME`).
    public var homeDirectory: URL
    /// A private key named in the vault's local config, tried after the agent and before the
    /// default keys.
    public var sshKeyPath: String?
    /// Whether to ask the ssh agent first (only when `SSH_AUTH_SOCK` is set).
    public var useSSHAgent: Bool
    /// An https token (default: `QUIRE_GIT_TOKEN`).
    public var token: String?
    /// The user name sent with the token when the URL names none (default: `QUIRE_GIT_USER`,
    /// else `quire`).
    public var tokenUser: String?
    /// The known_hosts file ssh host keys are checked against (default: `~/.ssh/known_hosts`).
    public var knownHostsPath: URL

    /// Credentials from the environment: `$HOME`, `SSH_AUTH_SOCK`, `QUIRE_GIT_TOKEN`,
    /// `QUIRE_GIT_USER`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, sshKeyPath: String? = nil) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        homeDirectory = home
        self.sshKeyPath = sshKeyPath
        useSSHAgent = environment["SSH_AUTH_SOCK"].map { !$0.isEmpty } ?? false
        token = environment["QUIRE_GIT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        tokenUser = environment["QUIRE_GIT_USER"].flatMap { $0.isEmpty ? nil : $0 }
        knownHostsPath = home.appendingPathComponent(".ssh/known_hosts")
    }

    /// One way to authenticate, tried in order.
    enum Method: Equatable {
        case sshAgent
        case sshKey(privateKey: String, publicKey: String?)
        /// `kind` (token, password) and `origin` say what and where from, for messages.
        case userPassword(user: String, password: String, kind: String, origin: String)

        /// What was offered, for a message: "the token for quire (QUIRE_GIT_TOKEN)". A user
        /// name that is `urlUser`, the one written in the remote's URL, may be a token: it is
        /// named only as that.
        func offered(home: URL, urlUser: String? = nil) -> String {
            switch self {
            case .sshAgent: return "the keys in ssh-agent"
            case .sshKey(let privateKey, _):
                let prefix = home.path + "/"
                return privateKey.hasPrefix(prefix) ? "~/" + privateKey.dropFirst(prefix.count) : privateKey
            case .userPassword(let user, _, let kind, let origin):
                return "the \(kind) for \(user == urlUser ? "the user named in the URL" : user) (\(origin))"
            }
        }
    }

    /// The ssh methods to try: the agent, then the configured key, `id_ed25519`, `id_rsa`.
    func sshMethods() -> [Method] {
        var methods: [Method] = useSSHAgent ? [.sshAgent] : []
        var keys: [String] = []
        if let sshKeyPath {
            keys.append(sshKeyPath.hasPrefix("~/")
                ? homeDirectory.appendingPathComponent(String(sshKeyPath.dropFirst(2))).path : sshKeyPath)
        }
        keys.append(homeDirectory.appendingPathComponent(".ssh/id_ed25519").path)
        keys.append(homeDirectory.appendingPathComponent(".ssh/id_rsa").path)
        let files = FileManager.default
        for key in keys where files.fileExists(atPath: key) {
            let publicKey = key + ".pub"
            methods.append(.sshKey(privateKey: key, publicKey: files.fileExists(atPath: publicKey) ? publicKey : nil))
        }
        return methods
    }

    /// The https methods for `url`: the token, then a matching `~/.git-credentials` line, then
    /// the configured git credential helper.
    func passwordMethods(url: String, userFromURL: String?) -> [Method] {
        var methods: [Method] = []
        if let token {
            methods.append(.userPassword(user: userFromURL ?? tokenUser ?? "quire", password: token, kind: "token", origin: "QUIRE_GIT_TOKEN"))
        }
        methods += storedMethods(url: url, userFromURL: userFromURL)
        if let helper = CredentialHelper.fill(url: url, user: userFromURL, home: homeDirectory) {
            methods.append(.userPassword(user: helper.user, password: helper.password,
                                         kind: "password", origin: "git credential helper"))
        }
        return methods
    }

    /// Matching lines of `~/.git-credentials`.
    private func storedMethods(url: String, userFromURL: String?) -> [Method] {
        var methods: [Method] = []
        let store = homeDirectory.appendingPathComponent(".git-credentials")
        guard let target = URLComponents(string: url),
              let text = try? String(contentsOf: store, encoding: .utf8) else { return methods }
        for line in text.split(whereSeparator: \.isNewline) {
            guard let entry = URLComponents(string: String(line)), entry.host == target.host,
                  entry.scheme == target.scheme, let password = entry.password else { continue }
            if let port = entry.port, port != target.port { continue }
            let user = (entry.user ?? userFromURL ?? "quire").removingPercentEncoding ?? "quire"
            methods.append(.userPassword(user: user, password: password.removingPercentEncoding ?? password,
                                         kind: "password", origin: "~/.git-credentials"))
        }
        return methods
    }

    /// `text` (a URL, or a message holding URLs) with the secrets of every URL in it replaced by
    /// `***`: a password (`https://user:***@host/…`) and, for http and https, a user name given
    /// without one, the form hosts document for a token (`https://***@host/…`). The one rule for
    /// every URL quire shows or stores. A scp-like ssh address (`git@host:path`) is left as it is.
    public static func redact(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            let schemeStart = rest[..<separator.lowerBound].lastIndex { !isSchemeCharacter($0) }
                .map { rest.index(after: $0) } ?? rest.startIndex
            let scheme = rest[schemeStart..<separator.lowerBound].lowercased()
            let authority = rest[separator.upperBound...].prefix { !"/?#".contains($0) && !$0.isWhitespace }
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            guard let at = authority.lastIndex(of: "@") else { continue }
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                result += userInfo[..<colon] + ":***"
            } else if scheme == "http" || scheme == "https" {
                result += "***"
            } else {
                result += userInfo
            }
            rest = rest[at...]
        }
        return result + rest
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+.-".contains(character))
    }
}
