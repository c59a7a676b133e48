/// A set of terminal text attributes, shown as ANSI SGR codes when color is on.
public struct TerminalStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    /// Creates a style from its bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let bold = TerminalStyle(rawValue: 1 << 0)
    public static let dim = TerminalStyle(rawValue: 1 << 1)
    public static let italic = TerminalStyle(rawValue: 1 << 2)
    public static let underline = TerminalStyle(rawValue: 1 << 3)
    public static let strike = TerminalStyle(rawValue: 1 << 4)
    /// Headings (magenta).
    public static let heading = TerminalStyle(rawValue: 1 << 5)
    /// Links (blue).
    public static let link = TerminalStyle(rawValue: 1 << 6)
    /// Code (cyan).
    public static let code = TerminalStyle(rawValue: 1 << 7)
    /// Done task items (green).
    public static let done = TerminalStyle(rawValue: 1 << 8)

    /// The SGR parameters, e.g. `1;35`; empty for no style.
    var codes: String {
        var parts: [String] = []
        if contains(.bold) { parts.append("1") }
        if contains(.dim) { parts.append("2") }
        if contains(.italic) { parts.append("3") }
        if contains(.underline) { parts.append("4") }
        if contains(.strike) { parts.append("9") }
        if contains(.heading) { parts.append("35") } else if contains(.link) { parts.append("34") } else if contains(.code) {
            parts.append("36")
        } else if contains(.done) { parts.append("32") }
        return parts.joined(separator: ";")
    }
}

/// A run of text in one style.
struct StyledSpan: Equatable {
    var text: String
    var style: TerminalStyle
}

/// One output line: spans, written with or without ANSI codes.
struct StyledLine: Equatable {
    var spans: [StyledSpan] = []

    init(_ spans: [StyledSpan] = []) { self.spans = spans }

    var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    func prefixed(by prefix: [StyledSpan]) -> StyledLine { StyledLine(prefix + spans) }

    /// The line as text; each styled run is opened and reset on its own, so a line never leaks a
    /// style into the next. Trailing blanks are dropped.
    func rendered(color: Bool) -> String {
        var merged: [StyledSpan] = []
        for span in spans where !span.text.isEmpty {
            if let last = merged.last, last.style == span.style {
                merged[merged.count - 1].text += span.text
            } else {
                merged.append(span)
            }
        }
        while let last = merged.last, last.text.allSatisfy({ $0 == " " }) { merged.removeLast() }
        if let last = merged.last, last.text.last == " " {
            var trimmed = last.text
            while trimmed.last == " " { trimmed.removeLast() }
            merged[merged.count - 1].text = trimmed
        }
        return merged.map { span in
            let codes = span.style.codes
            return color && !codes.isEmpty ? "\u{1B}[\(codes)m\(span.text)\u{1B}[0m" : span.text
        }.joined()
    }
}
