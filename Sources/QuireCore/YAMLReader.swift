import CYAML
import Foundation

/// One top-level key of a YAML front matter with its value and where both lie, in bytes
/// relative to the start of the front-matter text.
struct YAMLEntry: Equatable, Sendable {
    /// How the value is written.
    enum Style: Equatable, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded, flowCollection, blockSequence, blockMapping, alias
    }
    /// The key text.
    var key: String
    /// The typed value.
    var value: FrontMatterValue
    /// The scalar text of the value as YAML read it (nil for collections).
    var scalarText: String?
    /// How the value is written.
    var style: Style
    /// Byte range of the key (including its quotes).
    var keyStart: Int, keyEnd: Int
    /// Byte range of the value node (empty and at `keyEnd` for an empty value).
    var valueStart: Int, valueEnd: Int
    /// The end of the last character that belongs to the value (block collections end early).
    var contentEnd: Int
}

/// What `YAMLReader` found in a front matter.
struct YAMLReadResult: Sendable {
    /// Top-level entries in document order (those read before an error, if any).
    var entries: [YAMLEntry] = []
    /// Problems found; empty when the text is valid YAML holding a mapping.
    var problems: [NoteProblem] = []
    /// Whether the root is a flow mapping (`{a: 1}`), which cannot be edited line by line.
    var flowRoot = false
}

/// Reads front-matter text with libyaml's event parser into typed values and byte spans.
/// libyaml marks count characters; they are mapped to bytes here.
///
/// C memory: the `yaml_parser_t` lives on the stack and is released by the `defer` right after
/// `yaml_parser_initialize`; each event is released by `yaml_event_delete` after it is handled,
/// and every string is copied out of it before that. The input buffer is borrowed, never freed.
enum YAMLReader {
    /// Nesting deeper than this is refused.
    static let maxDepth = 64
    /// At most this many nodes may be produced by alias expansion (alias bombs stop here).
    static let maxAliasNodes = 10_000

    /// Reads `bytes` (valid UTF-8, no BOM). `firstLine` is the file line of the text's first line.
    /// Front matter of the simple shape most notes have is read without libyaml (`SimpleYAML`,
    /// which gives what libyaml gives).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, timeZone: TimeZone) -> YAMLReadResult {
        if let simple = SimpleYAML.read(bytes, timeZone: timeZone) { return simple }
        return readWithLibYAML(bytes, firstLine: firstLine, timeZone: timeZone)
    }

    /// `read` by libyaml's event parser, whatever the shape of the text.
    static func readWithLibYAML(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int,
                                timeZone: TimeZone) -> YAMLReadResult {
        var result = YAMLReadResult()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return result }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            result.problems.append(NoteProblem(kind: .unreadable, line: nil, message: "yaml parser could not start"))
            return result
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, bytes.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        var builder = YAMLTreeBuilder(offsets: CharacterOffsets(bytes), timeZone: timeZone)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let line = Int(parser.problem_mark.line) + firstLine
                let problem = parser.problem.map { String(cString: $0) } ?? "invalid yaml"
                let context = parser.context.map { " " + String(cString: $0) } ?? ""
                result.problems.append(NoteProblem(kind: .invalidYAML, line: line,
                                                   column: Int(parser.problem_mark.column) + 1, message: "invalid yaml: \(problem)\(context)"))
                break
            }
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { break }
            if let problem = builder.handle(&event) {
                var located = problem
                located.line = Int(event.start_mark.line) + firstLine
                result.problems.append(located)
                break
            }
        }
        result.entries = builder.entries
        result.flowRoot = builder.flowRoot
        return result
    }
}

/// Maps libyaml character indexes to byte offsets.
struct CharacterOffsets {
    private var starts: [Int32] = []
    private let byteCount: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        byteCount = bytes.count
        guard bytes.contains(where: { $0 >= 0x80 }) else { return }
        starts.reserveCapacity(bytes.count)
        for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { starts.append(Int32(offset)) }
    }

    /// The byte offset of character `index` (the end of the text past the last character).
    func byteOffset(_ index: Int) -> Int {
        if starts.isEmpty { return min(index, byteCount) }
        return index < starts.count ? Int(starts[index]) : byteCount
    }
}
