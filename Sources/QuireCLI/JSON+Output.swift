import QuireCore

extension JSON.Style {
    /// `--json` output: two spaces a level, whole doubles as integers (`"score": 2`).
    static let output = JSON.Style(indent: 2, wholeDoublesAsIntegers: true)
    /// A value on one line (a front-matter value in a table cell), doubles as in `output`.
    static let outputLine = JSON.Style(indent: nil, wholeDoublesAsIntegers: true)
}

extension Output {
    /// A `--json` array of `count` elements nested `level` containers deep, byte for byte as
    /// `JSON.array` rendered `.output` there, each element made by `element` and written in
    /// turn: no tree of the whole array is held (`quire graph --json` at 100,000 notes).
    func jsonArray(count: Int, level: Int, element: (Int) -> JSON) {
        guard count > 0 else { return write("[]") }
        let indent = String(repeating: " ", count: 2 * (level + 1))
        write("[")
        for index in 0..<count {
            write((index > 0 ? ",\n" : "\n") + indent)
            write(bytes: element(index).encoded(.output, level: level + 1))
        }
        write("\n" + String(repeating: " ", count: 2 * level) + "]")
    }
}
