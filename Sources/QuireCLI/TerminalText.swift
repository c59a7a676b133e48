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

    /// `text` padded with spaces to `columns` columns.
    static func pad(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - width(text)))
    }
}
