import CLibGit2
import Foundation

/// Which TLS certificates an https transfer trusts beyond the system's authorities: the
/// authorities git's settings name, and certificates the user pinned by fingerprint.
///
/// The authorities come, as for git, from `GIT_SSL_CAINFO` / `GIT_SSL_CAPATH`, else the git
/// config `http.sslCAInfo` / `http.sslCAPath` (repository, global or system), else
/// `SSL_CERT_FILE` / `SSL_CERT_DIR`. Like git's, a file named there replaces the system
/// bundle. libgit2 keeps them process-wide (`GIT_OPT_SET_SSL_CERT_LOCATIONS`); they are set
/// before each https transfer that names any.
public struct TLSTrust: Equatable, Sendable {
    /// `GIT_SSL_CAINFO`: a file of authorities; with `gitDirectory`, beats the git config.
    public var gitFile: String?
    /// `GIT_SSL_CAPATH`: a folder of authorities.
    public var gitDirectory: String?
    /// `SSL_CERT_FILE`: used when neither the variables above nor the git config name any.
    public var fallbackFile: String?
    /// `SSL_CERT_DIR`: likewise, a folder.
    public var fallbackDirectory: String?
    /// Certificates accepted whatever libgit2's verification says (`SHA256:AB:…`, see
    /// `TLSCertificate.normalizedFingerprint`), like entries of ssh's `known_hosts`.
    public var pinnedCertificates: [String]

    /// Reads the four variables from `environment`; nothing is pinned.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, pinnedCertificates: [String] = []) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        gitFile = value("GIT_SSL_CAINFO")
        gitDirectory = value("GIT_SSL_CAPATH")
        fallbackFile = value("SSL_CERT_FILE")
        fallbackDirectory = value("SSL_CERT_DIR")
        self.pinnedCertificates = pinnedCertificates.compactMap(TLSCertificate.normalizedFingerprint)
    }

    /// The file and folder of authorities for a transfer, with the setting that named them;
    /// `config` reads a git config value.
    func locations(config: (String) throws -> String?) throws -> (file: String?, directory: String?, source: String)? {
        if gitFile != nil || gitDirectory != nil { return (gitFile, gitDirectory, "GIT_SSL_CAINFO/GIT_SSL_CAPATH") }
        let file = try config("http.sslCAInfo"), directory = try config("http.sslCAPath")
        if file != nil || directory != nil { return (file, directory, "http.sslCAInfo/http.sslCAPath") }
        if fallbackFile != nil || fallbackDirectory != nil { return (fallbackFile, fallbackDirectory, "SSL_CERT_FILE/SSL_CERT_DIR") }
        return nil
    }

    /// Hands the authorities for a transfer to `url` to libgit2 (only for https); `repository`
    /// supplies the git config, else the user's and system's config files are read.
    func apply(url: String, repository: Repository?) throws {
        guard url.lowercased().hasPrefix("https://") else { return }
        let config: (String) throws -> String? = { name in
            if let repository { return try repository.configString(name) }
            return try Repository.defaultConfigString(name)
        }
        guard let found = try locations(config: config) else { return }
        func expand(_ path: String?) -> String? {
            guard let path, path.hasPrefix("~/") else { return path }
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(String(path.dropFirst(2))).path
        }
        let file = expand(found.file), directory = expand(found.directory)
        let result = quire_set_ssl_cert_locations(file, directory)
        if result < 0 {
            let cause = GitError(function: "git_libgit2_opts", rawCode: result)
            let named = [file, directory].compactMap { $0 }.joined(separator: ", ")
            throw GitError(function: "git_libgit2_opts", code: cause.code, errorClass: cause.errorClass,
                           message: "cannot load the certificate authorities in \(named) (from \(found.source)): \(cause.message)")
        }
    }
}

extension Repository {
    /// Reads a value from the user's and the system's git config (no repository needed).
    static func defaultConfigString(_ name: String) throws -> String? {
        try LibGit2.ensure()
        var config: OpaquePointer?
        let opened = git_config_open_default(&config)
        if opened == GIT_ENOTFOUND.rawValue { return nil }
        try check(opened, "git_config_open_default")
        defer { git_config_free(config) }
        return try configString(name, in: config)
    }

    /// `name` in `config` (borrowed, not freed here); nil when unset.
    static func configString(_ name: String, in config: OpaquePointer?) throws -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        let result = git_config_get_string_buf(&buffer, config, name)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_config_get_string_buf")
        return String(cString: buffer.ptr)
    }
}
