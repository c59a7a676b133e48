import Foundation
import QuireCore
import QuireGit

/// `quire remote`: the remote a vault syncs with (the git remote `origin`, so the git CLI sees
/// it too) and the https certificates this device trusts by fingerprint. URLs given back are
/// redacted: credentials in a URL are never shown.
public enum VaultRemote {
    /// The name of the remote quire syncs with.
    static let name = "origin"
    /// The device's own settings (`pinnedCertificates`), never synced.
    static let localConfigPath = ".quire/local/config.yml"

    /// The URL of the vault's remote, redacted; `KitError.noRemote` when it has none.
    public static func url(of vault: Vault) throws -> String {
        guard let remote = try Repository.open(at: vault.root).remote(named: name) else { throw KitError.noRemote }
        return redacted(remote.url)
    }

    /// Whether setting the remote to `url` would replace a different one: the current URL
    /// (redacted) when `origin` exists with another URL, else nil.
    public static func replaced(by url: String, in vault: Vault) throws -> String? {
        guard let remote = try Repository.open(at: vault.root).remote(named: name), remote.url != url else { return nil }
        return redacted(remote.url)
    }

    /// Sets the vault's remote to `url` (as given: make a relative local path absolute first);
    /// returns it redacted.
    @discardableResult
    public static func set(_ url: String, in vault: Vault) throws -> String {
        let repository = try Repository.open(at: vault.root)
        if try repository.remote(named: name) != nil {
            try repository.setRemoteURL(named: name, url: url)
        } else {
            try repository.createRemote(named: name, url: url)
        }
        return redacted(url)
    }

    /// `url` (or a message holding URLs) with every password or token replaced, fit to show
    /// (`Credentials.redact`).
    public static func redacted(_ url: String) -> String {
        Credentials.redact(url)
    }

    /// A SHA-256 fingerprint (`SHA256:3F:A0:…`, or 64 hex digits in any common spelling) in its
    /// normal form; nil when `text` is not one.
    public static func normalizedFingerprint(_ text: String) -> String? {
        TLSCertificate.normalizedFingerprint(text)
    }

    /// Trusts the https certificate with `fingerprint` (normal form) from now on: adds it to
    /// `pinnedCertificates` in `.quire/local/config.yml` (once; the rest of the file is kept).
    public static func pinCertificate(_ fingerprint: String, in vault: Vault) throws {
        let existing = try? Data(contentsOf: vault.url(for: localConfigPath))
        var config = try VaultConfig(data: existing ?? Data("# this device only\n".utf8), path: localConfigPath)
        var pins = TransferSettings.pinnedCertificates(config)
        guard !pins.contains(fingerprint) else { return }
        pins.append(fingerprint)
        try config.set("pinnedCertificates", .list(pins.map { .string($0) }))
        try vault.write(config.serialized(), to: localConfigPath)
    }
}
