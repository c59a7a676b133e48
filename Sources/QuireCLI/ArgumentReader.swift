/// One option a command accepts.
struct OptionSpec {
    /// Every spelling, e.g. `["--json"]` or `["--null", "-0"]`. The first is the canonical name.
    var names: [String]
    /// The placeholder of its value, or nil for a flag.
    var valueName: String?
    /// One line of help.
    var help: String
    /// Whether the option may be given more than once.
    var repeatable: Bool = false

    /// `-q/--quiet` (sync, clone, index, import, migrate): nothing on success; `Output.quiet`.
    static let quiet = flag("--quiet", "-q", help: "Print nothing on success: no report, no progress, no warnings (errors still go to standard error).")

    static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: nil, help: help)
    }

    static func value(_ names: String..., name: String, help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: names, valueName: name, help: help, repeatable: repeatable)
    }
}

/// The arguments of one command invocation after reading the options.
struct ParsedArguments {
    /// Canonical names of the flags given.
    var flags: Set<String> = []
    /// Values of the options given, by canonical name, in order.
    var values: [String: [String]] = [:]
    /// Positional arguments in order.
    var positionals: [String] = []

    func has(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// Reads command-line arguments against a command's option list.
///
/// `--` ends the options; `--name=value` and `--name value` both work. An argument that starts with
/// `-` and is no known option is a usage error, unless the command takes dash positionals (queries
/// read `-term` as a negation, `quire tag` reads `-t` as a removal).
struct ArgumentReader {
    let options: [OptionSpec]
    let dashPositionals: Bool

    func read(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                if dashPositionals && !argument.hasPrefix("--") {
                    parsed.positionals.append(argument)
                    continue
                }
                throw CLIError.usage("unknown option '\(name)'")
            }
            let canonical = spec.names[0]
            guard spec.valueName != nil else {
                if inlineValue != nil { throw CLIError.usage("option '\(canonical)' takes no value") }
                parsed.flags.insert(canonical)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw CLIError.usage("option '\(canonical)' needs a value (\(spec.valueName ?? "VALUE"))")
            }
            if !spec.repeatable, parsed.values[canonical] != nil {
                throw CLIError.usage("option '\(canonical)' given more than once")
            }
            parsed.values[canonical, default: []].append(value)
        }
        return parsed
    }
}
