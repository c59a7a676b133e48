import Foundation
import QuireCore
import QuireKit

/// `quire remote [URL]` — shows or sets the remote (`origin` in `.git/config`);
/// `--pin-certificate` trusts the https server's certificate by fingerprint.
struct RemoteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remote",
        abstract: "Show or set the remote the vault syncs with (origin, in .git/config).",
        usage: "remote [URL [--replace] [--encrypt]] [--pin-certificate SHA256:…]",
        discussion: """
        URL is a path or file:// URL, ssh://user@host/path, user@host:path, https://host/path or
        git://host/path. It is stored as the git remote 'origin', so the git CLI sees it too.
        Credentials in a URL are never printed. A vault that already syncs with another URL keeps
        it unless you agree: on a terminal quire asks; elsewhere (a script) it refuses with exit
        code 2 unless --replace is given.
        An https server whose certificate this device does not trust (self-signed, or issued for an
        IP address) is refused with the certificate's SHA-256 fingerprint; --pin-certificate trusts
        exactly that certificate from then on (stored in .quire/local/config.yml, this device only).
        Compare it first with the server's: openssl x509 -noout -fingerprint -sha256 -in cert.pem.
        --encrypt makes URL (an empty repository) an encrypted remote: the host then holds only
        sealed packs and a sealed manifest, and can read no note, title, tag, path or message. It
        asks for a new passphrase twice on a terminal (QUIRE_PASSPHRASE in scripts; never on the
        command line); other devices join with 'quire clone URL DIR' and that passphrase. A lost
        passphrase can be replaced from a device that still syncs; with none, nothing can be
        recovered (Docs/sync.md, "Encrypted remotes").
        """,
        examples: ["quire remote git@github.com:me/notes.git", "quire remote https://gitea.example.com/me/notes.git",
                   "quire remote /mnt/usb/notes.git", "quire remote git@github.com:me/notes.git --encrypt", "quire remote",
                   "quire remote --pin-certificate SHA256:3F:A0:…"],
        options: [.value("--pin-certificate", name: "FINGERPRINT",
                         help: "Trust the https certificate with this SHA-256 fingerprint (as quire sync showed it)."),
                  .flag("--replace", help: "Replace an origin that has another URL without asking."),
                  .flag("--encrypt", help: "Make URL an end-to-end encrypted remote (asks for a new passphrase).")],
        positionals: 0...1)

    let url: String?
    let pin: String?
    let replace: Bool
    let encrypt: Bool

    init(_ arguments: ParsedArguments) throws {
        url = arguments.positionals.first
        if let url, url.trimmingCharacters(in: .whitespaces).isEmpty { throw CLIError.usage("the URL is empty") }
        pin = try Self.fingerprint(arguments.value("--pin-certificate"))
        replace = arguments.has("--replace")
        if replace && url == nil { throw CLIError.usage("--replace goes with a URL") }
        encrypt = arguments.has("--encrypt")
        if encrypt && url == nil { throw CLIError.usage("--encrypt goes with a URL") }
    }

    /// The value of `--pin-certificate` in its normal form; a usage error when it is not one.
    static func fingerprint(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard let fingerprint = VaultRemote.normalizedFingerprint(text) else {
            throw CLIError.usage("'\(text)' is not a SHA-256 fingerprint",
                                 hint: "give the 64 hex digits quire showed, e.g. SHA256:3F:A0:…")
        }
        return fingerprint
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        if let pin {
            try VaultRemote.pinCertificate(pin, in: vault)
            context.output.line("pinned \(pin) for this vault's remote (.quire/local/config.yml)")
            if url == nil { return }
        }
        guard let url else {
            context.output.line("origin  \(try VaultRemote.url(of: vault))" + (try VaultRemote.isEncrypted(vault) ? "  (encrypted)" : ""))
            return
        }
        let normalized = Self.normalize(url, context: context)
        if !replace, let current = try VaultRemote.replaced(by: normalized, in: vault) {
            try Self.confirmReplacing(current, with: VaultRemote.redacted(normalized), output: context.output)
        }
        if encrypt {
            let passphrase = try PassphraseReader(environment: context.environment, output: context.output)
                .fresh(variable: PassphraseReader.current)
            let shown = try VaultRemote.setEncrypted(normalized, in: vault, passphrase: passphrase, environment: context.environment)
            context.output.line("origin  \(shown)  (encrypted)")
            return
        }
        context.output.line("origin  \(try VaultRemote.set(normalized, in: vault))")
    }

    /// Asks on a terminal whether to replace origin's `current` URL; refuses (exit 2) when no
    /// terminal can answer or the answer is not yes.
    static func confirmReplacing(_ current: String, with new: String, output: Output) throws {
        guard isatty(0) == 1, output.stderrIsTerminal else {
            throw CLIError("this vault already syncs with \(current)",
                           hint: "add --replace to sync with \(new) instead", code: .usage)
        }
        output.promptOnError("this vault syncs with \(current); replace it with \(new)? [y/N] ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else {
            throw CLIError("origin left as it was (\(current))", code: .usage)
        }
    }

    /// A relative local path becomes absolute (so it works from any folder); URLs stay as given.
    static func normalize(_ url: String, context: CommandContext) -> String {
        if url.contains("://") || url.hasPrefix("/") { return url }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") { return url }  // user@host:path
        return context.absoluteURL(url).path
    }
}
