import Foundation
import QuireCore
import QuireGit

/// `quire remote [URL]` — shows or sets the remote (`origin` in `.git/config`).
struct RemoteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remote",
        abstract: "Show or set the remote the vault syncs with (origin, in .git/config).",
        usage: "remote [URL]",
        discussion: """
        URL is a path or file:// URL, ssh://user@host/path, user@host:path, https://host/path or
        git://host/path. It is stored as the git remote 'origin', so the git CLI sees it too.
        Credentials in a URL are never printed.
        """,
        examples: ["quire remote git@github.com:me/notes.git", "quire remote https://gitea.example.com/me/notes.git",
                   "quire remote /mnt/usb/notes.git", "quire remote"],
        positionals: 0...1)

    let url: String?

    init(_ arguments: ParsedArguments) throws {
        url = arguments.positionals.first
        if let url, url.trimmingCharacters(in: .whitespaces).isEmpty { throw CLIError.usage("the URL is empty") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let repository = try Repository.open(at: vault.root)
        guard let url else {
            guard let remote = try repository.remote(named: "origin") else {
                throw CLIError("this vault has no remote yet",
                               hint: "set one with 'quire remote URL' (e.g. git@github.com:me/notes.git)")
            }
            context.output.line("origin  \(Credentials.redact(remote.url))")
            return
        }
        let stored = Self.normalize(url, context: context)
        if try repository.remote(named: "origin") != nil {
            try repository.setRemoteURL(named: "origin", url: stored)
        } else {
            try repository.createRemote(named: "origin", url: stored)
        }
        context.output.line("origin  \(Credentials.redact(stored))")
    }

    /// A relative local path becomes absolute (so it works from any folder); URLs stay as given.
    static func normalize(_ url: String, context: CommandContext) -> String {
        if url.contains("://") || url.hasPrefix("/") { return url }
        if let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") { return url }  // user@host:path
        return context.absoluteURL(url).path
    }
}
