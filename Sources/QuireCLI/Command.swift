/// The static description of a command: its name, help text and options.
struct CommandConfiguration {
    /// The words after `quire`, e.g. `new` or `folder add`.
    var name: String
    /// One line: what it does.
    var abstract: String
    /// The usage line after `quire `, e.g. `new TITLE [--folder F]`.
    var usage: String
    /// A paragraph or two of detail.
    var discussion: String = ""
    /// Example invocations with a comment each.
    var examples: [String] = []
    /// Options the command accepts (besides `--help` and `--vault`).
    var options: [OptionSpec] = []
    /// Whether `-word` arguments are positionals (queries, tag removals).
    var dashPositionals = false
    /// How many positional arguments it takes.
    var positionals: ClosedRange<Int> = 0...0
}

/// A `quire` command: a static configuration, construction from arguments (usage rules), and `run`.
protocol Command: Sendable {
    /// Name, help and options.
    static var configuration: CommandConfiguration { get }
    /// Builds the command from read arguments; throws a usage error for bad combinations.
    init(_ arguments: ParsedArguments) throws
    /// Does the work, delegating to the libraries.
    func run(_ context: CommandContext) throws
}

extension CommandConfiguration {
    /// The full `--help` text.
    func helpText() -> String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: quire \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [OptionSpec.value("--vault", name: "PATH", help: "Use the vault at PATH (default: QUIRE_VAULT, else search upwards from the current directory)."),
                             OptionSpec.flag("--help", "-h", help: "Show this help.")]
        text += "\nOPTIONS:\n"
        let labels = all.map { spec -> String in
            spec.names.joined(separator: ", ") + (spec.valueName.map { " \($0)" } ?? "")
        }
        let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
        for (label, spec) in zip(labels, all) {
            let padded = label.count >= width ? label + "\n" + String(repeating: " ", count: width + 2)
                                              : label + String(repeating: " ", count: width - label.count)
            text += "  \(padded)\(spec.help)\n"
        }
        if !examples.isEmpty {
            text += "\nEXAMPLES:\n"
            for example in examples { text += "  \(example)\n" }
        }
        return text
    }
}
