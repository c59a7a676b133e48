/// Text written into a systemd unit file, quoted and escaped as systemd.syntax(7) and
/// systemd.service(5) read it back: a vault path holding a newline, a trailing backslash, `%`,
/// `$`, quotes or spaces comes back as it was, and no line of the unit is cut or continued.
enum SystemdText {
    /// One argument of a command line (`ExecStart=`): as is when plain; else in double quotes,
    /// with `\` and `"` escaped, control characters as C escapes (`\n`, `\x1b`), and `%` and `$`
    /// doubled (systemd's specifiers and variables).
    static func argument(_ word: String) -> String {
        quoted(word, variables: true)
    }

    /// The executable, the first word of a command line (where systemd expands no variable), or
    /// nil when systemd refuses its name: control characters, quotes and backslashes ("Executable
    /// name contains special characters").
    static func executable(_ path: String) -> String? {
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || "\"'\\".unicodeScalars.contains($0) }) else {
            return nil
        }
        return quoted(path, variables: false)
    }

    /// `text` for a value systemd takes as it is (`Description=`) or a comment line: control
    /// characters and backslashes as C escapes (so no line ends in a lone `\`, which would join
    /// it to the next), `%` doubled where specifiers are expanded.
    static func shown(_ text: String, specifiers: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "%" where specifiers: result += "%%"
            default: result += controlEscape(scalar) ?? String(scalar)
            }
        }
        return result
    }

    private static func quoted(_ word: String, variables: Bool) -> String {
        let plain = "/._-+=,:@"
        if !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || plain.contains($0)) }) { return word }
        var result = "\""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "%": result += "%%"
            case "$" where variables: result += "$$"
            default: result += controlEscape(scalar) ?? String(scalar)
            }
        }
        return result + "\""
    }

    /// A control character as a C escape systemd reads (`\n`, `\t`, `\r`, else `\xNN`); nil for others.
    private static func controlEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0..<0x20, 0x7F:
            let digits = String(scalar.value, radix: 16)
            return "\\x" + (digits.count < 2 ? "0" : "") + digits
        default: return nil
        }
    }
}
