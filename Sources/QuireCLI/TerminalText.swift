import Foundation
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
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    /// The columns one scalar takes: 0 for combining marks and joiners, 2 for wide ones.
    static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if scalar.properties.generalCategory == .nonspacingMark || value == 0x200D || (0xFE00...0xFE0F).contains(value) {
            return 0
        }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian wide and emoji scalars.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
    ]

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
