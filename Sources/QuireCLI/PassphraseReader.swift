import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads passphrases for encrypted remotes: from an environment variable when it is set (scripts
/// and tests: `QUIRE_PASSPHRASE`, `QUIRE_NEW_PASSPHRASE`), else from the terminal with echo off
/// (the prompt on standard error). Never from the command line, where `ps` and the shell's
/// history would keep it.
struct PassphraseReader {
    /// The command's environment.
    let environment: [String: String]
    /// Where prompts go.
    let output: Output

    /// The variable for the passphrase in use.
    static let current = "QUIRE_PASSPHRASE"
    /// The variable for a new passphrase (`quire key passphrase`).
    static let new = "QUIRE_NEW_PASSPHRASE"

    /// The passphrase in use: `$QUIRE_PASSPHRASE`, else asked once on the terminal.
    func existing(prompt: String = "passphrase: ") throws -> String {
        if let value = environment[Self.current] { return value }
        return try ask(prompt, variable: Self.current)
    }

    /// A new passphrase: `$variable`, else asked twice on the terminal (the two must match).
    /// An empty one is refused.
    func fresh(variable: String, prompt: String = "new passphrase: ") throws -> String {
        let passphrase: String
        if let value = environment[variable] {
            passphrase = value
        } else {
            passphrase = try ask(prompt, variable: variable)
            let again = try ask("repeat it: ", variable: variable)
            guard again == passphrase else {
                throw CLIError("the two passphrases differ; nothing was changed", hint: "type the same passphrase twice")
            }
        }
        guard !passphrase.isEmpty else {
            throw CLIError("the new passphrase is empty; nothing was changed", hint: "choose a passphrase of several words", code: .usage)
        }
        return passphrase
    }

    /// One line read from the terminal with echo off; refuses when standard input is no terminal.
    private func ask(_ prompt: String, variable: String) throws -> String {
        guard isatty(0) == 1 else {
            throw CLIError("a passphrase is needed and there is no terminal to ask on",
                           hint: "run it on a terminal, or set \(variable) in the environment (never on the command line)",
                           code: .usage)
        }
        // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
        var saved = termios()
        let hasSettings = tcgetattr(0, &saved) == 0
        if hasSettings {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(0, TCSAFLUSH, &silent)
        }
        output.promptOnError(prompt)
        defer {
            if hasSettings { _ = tcsetattr(0, TCSAFLUSH, &saved) }
            output.promptOnError("\n")
        }
        guard let line = readLine(strippingNewline: true) else {
            throw CLIError("no passphrase was typed (end of input); nothing was changed", code: .usage)
        }
        return line
    }
}
