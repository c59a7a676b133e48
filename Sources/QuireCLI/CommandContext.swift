import Foundation
import QuireCore

/// What a running command can reach: the environment, the current directory, output, the clock,
/// and (found on first use) the vault.
final class CommandContext {
    let environment: [String: String]
    let currentDirectory: URL
    let vaultOption: String?
    let output: Output
    /// Set by commands that succeed but report a finding (e.g. `quire check` → 1).
    var exitCode: ExitCode = .ok
    /// Whether opening the vault may say that a migration is available (`quire migrate`, which
    /// reports it itself, turns it off).
    var announcesMigrations = true
    private var cachedVault: Vault?
    private var cachedPrefix: (root: URL, prefix: String)?

    init(environment: [String: String], currentDirectory: String, vaultOption: String?, output: Output) {
        self.environment = environment
        self.currentDirectory = URL(fileURLWithPath: currentDirectory, isDirectory: true).standardizedFileURL
        self.vaultOption = vaultOption
        self.output = output
    }

    /// The current time (`QUIRE_NOW` in tests).
    func now() throws -> Date {
        try QuireClock.now(environment: environment)
    }

    /// The vault this command works on: `--vault`, else `QUIRE_VAULT`, else found upwards from here.
    func vault() throws -> Vault {
        if let cachedVault { return cachedVault }
        let vault: Vault
        if let explicit = vaultOption ?? environment["QUIRE_VAULT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                vault = try Vault(at: absoluteURL(explicit))
            } catch CoreError.vaultNotFound {
                throw CLIError("not a quire vault (\(absoluteURL(explicit).path))",
                               hint: "--vault and QUIRE_VAULT name a vault's root folder, the one holding .quire/; 'quire init' makes one")
            }
        } else {
            vault = try Vault.locate(startingAt: currentDirectory, environment: environment)
        }
        cachedVault = vault
        if announcesMigrations, let version = vault.formatVersion, version < VaultConfig.currentVersion {
            output.error("quire: note: this vault's format is version \(version); 'quire migrate' brings it to version"
                         + " \(VaultConfig.currentVersion) ('quire migrate --dry-run' shows the changes)")
        }
        return vault
    }

    /// An absolute URL for a path given on the command line.
    func absoluteURL(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return currentDirectory.appendingPathComponent(path).standardizedFileURL
    }

    /// A vault-relative path shown relative to the current directory, as git prints paths.
    /// Cheap when run from the vault root or a folder inside it (the common cases, and the ones
    /// that print thousands of paths).
    func displayPath(_ vaultRelative: String, vault: Vault) -> String {
        TerminalText.quotedPath(rawDisplayPath(vaultRelative, vault: vault))
    }

    /// `displayPath` without quotes or escapes, byte for byte (`--null` output, for `xargs -0`).
    func rawDisplayPath(_ vaultRelative: String, vault: Vault) -> String {
        let prefix = displayPrefix(vault)
        if prefix.isEmpty { return vaultRelative }
        if vaultRelative.hasPrefix(prefix) { return String(vaultRelative.dropFirst(prefix.count)) }
        let absolute = vault.root.appendingPathComponent(vaultRelative).standardizedFileURL.path
        return PathDisplay.relative(absolute, from: currentDirectory.path)
    }

    /// The vault folder the current directory is (`""` at the root), or nil outside the vault
    /// or inside a hidden folder (`.git/`, `.quire/`), where no note lives.
    func currentFolder(in vault: Vault) -> String? {
        let prefix = displayPrefix(vault)
        guard prefix != "\u{0}" else { return nil }
        let folder = String(prefix.dropLast())
        return Vault.hiddenComponent(of: folder) == nil ? folder : nil
    }

    /// The current directory relative to the vault root with a trailing `/` (`""` at the root),
    /// or a marker that matches no vault path when the current directory is outside the vault.
    func displayPrefix(_ vault: Vault) -> String {
        // Compared as URLs: `URL.path` decodes the URL each time, and this runs once per printed path.
        if let cachedPrefix, cachedPrefix.root == vault.root { return cachedPrefix.prefix }
        let root = vault.root.path
        let here = currentDirectory.resolvingSymlinksInPath().path
        let prefix: String
        if here == root {
            prefix = ""
        } else if here.hasPrefix(root + "/") {
            prefix = String(here.dropFirst(root.count + 1)) + "/"
        } else {
            prefix = "\u{0}"
        }
        cachedPrefix = (vault.root, prefix)
        return prefix
    }
}

/// Relative path arithmetic for display.
enum PathDisplay {
    /// `path` relative to the directory `base` (both absolute), using `..` where needed.
    static func relative(_ path: String, from base: String) -> String {
        let target = path.split(separator: "/", omittingEmptySubsequences: true)
        let origin = base.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < target.count, common < origin.count, target[common] == origin[common] { common += 1 }
        let ups = Array(repeating: "..", count: origin.count - common)
        let rest = target[common...].map(String.init)
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
