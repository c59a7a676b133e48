import Foundation
import QuireLSP
#if canImport(Glibc)
import Glibc
#endif

/// `quire lsp` — the language server over standard input and output (Docs/editors.md).
struct LSPCommand: Command {
    static let configuration = CommandConfiguration(
        name: "lsp",
        abstract: "Run the language server (LSP over standard input and output) for editors.",
        usage: "lsp",
        discussion: """
        Speaks the Language Server Protocol 3.17 on standard input and output, for Neovim,
        VS Code, Helix, Emacs (eglot), Sublime Text and Zed (setup: Docs/editors.md). The vault
        is the one holding the editor's workspace folder, else --vault, QUIRE_VAULT or the
        current directory's. It offers link, tag and front-matter completion, diagnostics,
        symbols, sync conflict actions, and stamps updatedAt when the editor saves a note.
        Log lines go to standard error; standard output carries protocol messages only. Exits
        0 after the client's 'shutdown' and 'exit', 1 when the input ends without them.
        """,
        examples: ["quire lsp"])

    init(_ arguments: ParsedArguments) throws {}

    func run(_ context: CommandContext) throws {
        // A client that goes away must not kill the server mid-write: the write fails instead.
        signal(SIGPIPE, SIG_IGN)
        // --vault fixes the vault whatever folder the editor opens (as QUIRE_VAULT does).
        var environment = context.environment
        if let explicit = context.vaultOption { environment["QUIRE_VAULT"] = context.absoluteURL(explicit).path }
        let options = LanguageServerOptions(environment: environment, fallbackDirectory: context.currentDirectory,
                                            log: { line in FileHandle.standardError.write(Data(("quire lsp: " + line + "\n").utf8)) })
        let server = LanguageServer(input: STDIN_FILENO, output: STDOUT_FILENO, options: options)
        if server.run() != 0 { context.exitCode = .failure }
    }
}
