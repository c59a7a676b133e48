import Foundation
import QuireRender
#if canImport(Glibc)
import Glibc
#endif

/// Text measured and cut in terminal columns: the width of the terminal, how many columns a
/// string takes (wide East Asian characters and emoji take two), and cutting with `…`.
enum TerminalText {
    /// The terminal width for output: `COLUMNS` when set to a number, else the window size of
    /// standard output when it is a terminal, else nil (no limit: output goes to a file or pipe).
    static func columns(environment: [String: String], output: Output) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        guard output.stdoutIsTerminal else { return nil }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The columns `text` takes.
    static func width(_ text: String) -> Int { DisplayWidth.of(text) }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    static func cut(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var start = prefix(text, columns: columns - 1)
        while start.last?.isWhitespace == true { start.removeLast() }
        return start + "…"
    }

    /// The longest start of `text` that takes at most `columns` columns.
    static func prefix(_ text: String, columns: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = width(String(character))
            if used + characterWidth > columns { break }
            result.append(character)
            used += characterWidth
        }
        return result
    }

    /// `text` with every control character written as an escape (`\n`, `\t`, `\r`, `\x1b`,
    /// `\u{85}`), so that a name or a title never breaks a line of output or sends the terminal
    /// a command (an escape sequence in a file name synced from another device).
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                let hex = String(scalar.value, radix: 16)
                result += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
            }
        }
        return result
    }

    /// A path as output shows it: as it is, or — when it holds a control character — in double
    /// quotes with each written as an escape (`"a\nb.md"`), `"` and `\` escaped too, as git quotes
    /// such paths.
    static func quotedPath(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: isControl) else { return path }
        return "\"" + visible(path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")) + "\""
    }

    /// C0 and C1 control characters and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// `text` padded with spaces to `columns` columns.
    static func pad(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }
}
