import QuireCore

extension JSON.Style {
    /// `--json` output: two spaces a level, whole doubles as integers (`"score": 2`).
    static let output = JSON.Style(indent: 2, wholeDoublesAsIntegers: true)
    /// A value on one line (a front-matter value in a table cell), doubles as in `output`.
    static let outputLine = JSON.Style(indent: nil, wholeDoublesAsIntegers: true)
}
