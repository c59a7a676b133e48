import CYAML
import Foundation

/// Builds typed values from libyaml events without recursion (nesting is bounded), counts the
/// nodes produced by aliases (alias bombs stop early) and records the byte spans of the root
/// mapping's entries.
struct YAMLTreeBuilder {
    private struct Frame {
        var isMapping: Bool
        var flow: Bool
        var anchor: String?
        var start: Int
        var items: [FrontMatterValue] = []
        var entries: [FrontMatterEntry] = []
        var key: String?
        var nodes = 1
    }

    private struct Anchored {
        var value: FrontMatterValue
        var nodes: Int
        var text: String?
    }

    private struct PendingEntry {
        var key: String
        var keyStart: Int
        var keyEnd: Int
        var valueStart: Int?
        var style = YAMLEntry.Style.plain
        var contentEnd = 0
    }

    private let offsets: CharacterOffsets
    private let timeZone: TimeZone
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var aliasNodes = 0
    private var pending: PendingEntry?
    /// Root entries completed so far.
    private(set) var entries: [YAMLEntry] = []
    /// Whether the root is a flow mapping.
    private(set) var flowRoot = false

    init(offsets: CharacterOffsets, timeZone: TimeZone) {
        self.offsets = offsets
        self.timeZone = timeZone
    }

    /// Consumes one event; returns a problem (line filled in by the caller) to stop reading.
    mutating func handle(_ event: inout yaml_event_t) -> NoteProblem? {
        let start = offsets.byteOffset(Int(event.start_mark.index))
        let end = offsets.byteOffset(Int(event.end_mark.index))
        switch event.type {
        case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let flow = isMapping ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            if stack.isEmpty {
                guard isMapping else { return notAMapping }
                flowRoot = flow
            }
            guard stack.count < YAMLReader.maxDepth else {
                return NoteProblem(kind: .tooLarge, line: nil,
                                   message: "front matter is nested deeper than \(YAMLReader.maxDepth) levels")
            }
            noteValueStart(start, style: flow ? .flowCollection : isMapping ? .blockMapping : .blockSequence)
            stack.append(Frame(isMapping: isMapping, flow: flow, anchor: Self.text(anchor), start: start))
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
            guard let frame = stack.popLast() else { return nil }
            let value = frame.isMapping ? FrontMatterValue.map(frame.entries) : .list(frame.items)
            if let anchor = frame.anchor { anchors[anchor] = Anchored(value: value, nodes: frame.nodes, text: nil) }
            if frame.flow { extendContent(to: end) }
            if stack.isEmpty { return nil }
            return complete(value, text: nil, nodes: frame.nodes, start: frame.start, end: end)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = scalar.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
            } ?? ""
            let style: YAMLEntry.Style
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            var value = style == .plain ? ScalarResolver.resolve(plain: text, timeZone: timeZone) : .string(text)
            if let tag = Self.text(scalar.tag) {
                value = ScalarResolver.resolve(tagged: text, tag: tag, timeZone: timeZone) ?? .string(text)
            }
            if let anchor = Self.text(scalar.anchor) { anchors[anchor] = Anchored(value: value, nodes: 1, text: text) }
            noteValueStart(start, style: style)
            // An empty plain scalar (`-` alone on its line) still reaches its mark, after the indicator.
            extendContent(to: style == .plain && text.isEmpty ? start : end)
            return complete(value, text: text, nodes: 1, start: start, end: end)
        case YAML_ALIAS_EVENT:
            guard let name = Self.text(event.data.alias.anchor), let anchored = anchors[name] else {
                return NoteProblem(kind: .invalidYAML, line: nil, message: "invalid yaml: unknown alias")
            }
            aliasNodes += anchored.nodes
            guard aliasNodes <= YAMLReader.maxAliasNodes else {
                return NoteProblem(kind: .aliasLimit, line: nil,
                                   message: "aliases expand to more than \(YAMLReader.maxAliasNodes) values")
            }
            noteValueStart(start, style: .alias)
            extendContent(to: end)
            return complete(anchored.value, text: anchored.text, nodes: anchored.nodes, start: start, end: end)
        default:
            break
        }
        return nil
    }

    private var notAMapping: NoteProblem {
        NoteProblem(kind: .notAMapping, line: nil, message: "front matter is not a mapping of keys to values")
    }

    /// Records that the value of the root entry being read reaches at least `end`.
    private mutating func extendContent(to end: Int) {
        guard let contentEnd = pending?.contentEnd, end > contentEnd else { return }
        pending?.contentEnd = end  // in place: no copy of the entry and its key
    }

    /// Records where a root entry's value begins (the first node event after its key).
    private mutating func noteValueStart(_ start: Int, style: YAMLEntry.Style) {
        guard stack.count == 1, pending != nil, pending?.valueStart == nil else { return }
        pending?.valueStart = start
        pending?.style = style
    }

    /// Attaches a finished node to its parent (the frame on top, changed where it lies: no copy).
    private mutating func complete(_ value: FrontMatterValue, text: String?, nodes: Int,
                                   start: Int, end: Int) -> NoteProblem? {
        guard !stack.isEmpty else {
            if case .null = value { return nil }
            return notAMapping
        }
        let top = stack.count - 1
        let isRoot = top == 0
        stack[top].nodes += nodes
        if !stack[top].isMapping {
            stack[top].items.append(value)
        } else if let key = stack[top].key {
            stack[top].entries.append(FrontMatterEntry(key: key, value: value))
            stack[top].key = nil
            if isRoot, let entry = pending { finishRootEntry(entry, value: value, text: text, end: end) }
        } else {
            let key = text ?? FrontMatterRenderer.flow(value)
            stack[top].key = key
            if isRoot { pending = PendingEntry(key: key, keyStart: start, keyEnd: end) }
        }
        return nil
    }

    private mutating func finishRootEntry(_ entry: PendingEntry, value: FrontMatterValue, text: String?, end: Int) {
        var valueStart = entry.valueStart ?? entry.keyEnd
        var valueEnd = end
        var contentEnd = entry.contentEnd
        let empty = entry.style == .plain && (text ?? "").isEmpty
        if empty || contentEnd < valueStart {
            valueStart = entry.keyEnd
            valueEnd = entry.keyEnd
            contentEnd = entry.keyEnd
        }
        let isScalar: Bool
        switch entry.style {
        case .plain, .singleQuoted, .doubleQuoted, .literal, .folded: isScalar = true
        default: isScalar = false
        }
        entries.append(YAMLEntry(key: entry.key, value: value, scalarText: isScalar ? text : nil,
                                 style: entry.style, keyStart: entry.keyStart, keyEnd: entry.keyEnd,
                                 valueStart: valueStart, valueEnd: valueEnd, contentEnd: contentEnd))
        pending = nil
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
