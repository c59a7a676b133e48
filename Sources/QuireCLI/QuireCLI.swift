import Foundation
import QuireCore
import QuireKit

/// The `quire` command line: reads arguments, runs one command, reports errors, returns the exit code.
public enum QuireCLI {
    /// The program version printed by `--version`.
    public static let version = "0.1.0"

    /// Every command, in the order `quire --help` lists them.
    static let commands: [Command.Type] = CommandRegistry.all

    /// Runs `quire` with the arguments after the program name; returns the process exit code.
    public static func main(arguments: [String], environment: [String: String],
                            currentDirectory: String) -> Int32 {
        let output = Output(environment: environment)
        // Last of all, once the answer is out: the cache files a command writes behind it.
        defer { WritesBehind.shared.finish() }
        defer { output.flush() }
        var arguments = arguments
        var vaultPath: String?
        do {
            vaultPath = try extractVaultOption(&arguments)
        } catch let error as CLIError {
            return report(error, configuration: nil, output: output)
        } catch {
            return report(CLIError("\(error)"), configuration: nil, output: output)
        }
        guard let first = arguments.first else {
            output.write(overview())
            return ExitCode.ok.rawValue
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let command = lookup(Array(arguments.dropFirst())) {
                output.write(command.type.configuration.helpText())
            } else {
                output.write(overview())
            }
            return ExitCode.ok.rawValue
        }
        if first == Completer.commandName {
            // Hidden: the candidates for the completion scripts, one per line; never an error.
            let context = CommandContext(environment: environment, currentDirectory: currentDirectory,
                                         vaultOption: vaultPath, output: output)
            for candidate in Completer(Array(arguments.dropFirst())).candidates(context) { output.line(candidate) }
            return ExitCode.ok.rawValue
        }
        if first == "--version" || first == "version" {
            output.line("quire \(version)")
            return ExitCode.ok.rawValue
        }
        guard let (type, consumed) = lookup(arguments) else {
            return unknownCommand(arguments, output: output)
        }
        let rest = Array(arguments.dropFirst(consumed))
        let configuration = type.configuration
        let beforeDashes = rest.prefix { $0 != "--" }
        // Where dash words are positionals (`quire tag NOTE -h` removes the tag h), -h asks for help
        // only as the first argument.
        let shortHelp = configuration.dashPositionals ? beforeDashes.first == "-h" : beforeDashes.contains("-h")
        if beforeDashes.contains("--help") || shortHelp {
            output.write(configuration.helpText())
            return ExitCode.ok.rawValue
        }
        do {
            let reader = ArgumentReader(options: configuration.options,
                                        dashPositionals: configuration.dashPositionals)
            let parsed = try reader.read(rest)
            let count = parsed.positionals.count
            if count < configuration.positionals.lowerBound {
                throw CLIError.usage("missing argument")
            }
            if count > configuration.positionals.upperBound {
                throw CLIError.usage("unexpected argument '\(parsed.positionals[configuration.positionals.upperBound])'")
            }
            let command = try type.init(parsed)
            let context = CommandContext(environment: environment, currentDirectory: currentDirectory,
                                         vaultOption: vaultPath, output: output)
            output.quiet = parsed.has("--quiet") && configuration.options.contains { $0.names.contains("--quiet") }
            try command.run(context)
            if context.exitCode != .ok { output.releaseHeld() }
            return context.exitCode.rawValue
        } catch {
            return report(ErrorTranslator.translate(error), configuration: configuration, output: output)
        }
    }

    /// `quire WORD …` where WORD names no command: a word that only starts commands (`quire
    /// folder`) lists them; any other word is a usage error suggesting the closest names.
    static func unknownCommand(_ arguments: [String], output: Output) -> Int32 {
        let first = arguments.first ?? ""
        let group = commands.map { $0.configuration }.filter { $0.name.hasPrefix(first + " ") }
        if !group.isEmpty {
            if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
                let listing = group.map { "  quire \($0.usage)\n      \($0.abstract)\n" }.joined()
                output.write("quire \(first) commands:\n" + listing)
                return ExitCode.ok.rawValue
            }
            let names = group.map { "quire \($0.name)" }.joined(separator: ", ")
            let error = CLIError.usage("unknown command 'quire \(first) \(arguments[1])'", hint: "the \(first) commands are: \(names)")
            return report(error, configuration: nil, output: output)
        }
        let names = Set(commands.compactMap { $0.configuration.name.split(separator: " ").first.map(String.init) })
        let close = EditDistance.closest(to: first, among: names.sorted(), limit: 3)
        let hint = close.isEmpty ? "run 'quire --help' to see the commands"
            : "did you mean " + close.map { "'quire \($0)'" }.joined(separator: ", ") + "? ('quire --help' lists the commands)"
        return report(CLIError.usage("unknown command '\(first)'", hint: hint), configuration: nil, output: output)
    }

    /// Finds the command named by the first one or two words.
    static func lookup(_ words: [String]) -> (type: Command.Type, consumed: Int)? {
        if words.count >= 2, let type = commands.first(where: { $0.configuration.name == "\(words[0]) \(words[1])" }) {
            return (type, 2)
        }
        if let type = commands.first(where: { $0.configuration.name == words[0] }) {
            return (type, 1)
        }
        return nil
    }

    /// Removes `--vault PATH` / `--vault=PATH` (before any `--`) and returns its value.
    static func extractVaultOption(_ arguments: inout [String]) throws -> String? {
        var result: String?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == "--vault" {
                guard index + 1 < arguments.count else {
                    throw CLIError.usage("option '--vault' needs a value (PATH)")
                }
                result = arguments[index + 1]
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--vault=") {
                result = String(argument.dropFirst("--vault=".count))
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        return result
    }

    static func report(_ error: CLIError, configuration: CommandConfiguration?, output: Output) -> Int32 {
        // A URL in a message (libgit2's own words included) never shows its token or password.
        output.failure("quire: error: \(VaultRemote.redacted(error.message))")
        if let hint = error.hint { output.failure("hint: \(VaultRemote.redacted(hint))") }
        if error.showUsage {
            if let configuration {
                output.failure("usage: quire \(configuration.usage)")
                output.failure("hint: see 'quire \(configuration.name) --help'")
            } else if error.hint == nil {
                output.failure("hint: see 'quire --help'")
            }
        }
        return error.code.rawValue
    }

    static func overview() -> String {
        var text = """
        quire \(version) — plain-text notes in a git work tree, searchable and synced.

        USAGE: quire [--vault PATH] <command> [options]

        COMMANDS:

        """
        let width = (commands.map { $0.configuration.name.count }.max() ?? 0) + 2
        for type in commands {
            let name = type.configuration.name
            text += "  \(name)\(String(repeating: " ", count: width - name.count))\(type.configuration.abstract)\n"
        }
        text += """

        Run 'quire <command> --help' for a command's options and examples.
        Exit codes: 0 ok (also: no match), 1 failure, 2 usage error, 3 offline, 4 authentication failed,
        5 remote repository not found, 6 push rejected, 7 vault locked by another quire (or git),
        8 an encrypted remote failed verification (tampered, swapped, missing or rolled back; nothing changed),
        130/143 a sync stopped at a safe point (run 'quire sync' again) or a clone stopped by Ctrl-C/SIGTERM.

        """
        return text
    }
}
