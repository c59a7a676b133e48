import Foundation

/// A JSON value with ordered object keys, so output is deterministic and keys read in a fixed order.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    static func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }

    /// Renders the value; `pretty` indents with two spaces.
    func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(into out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                out += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            } else {
                out += "null"
            }
        case .string(let value): JSONValue.escape(value, into: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, into: &out, indent: indent) { index, out, inner in
                items[index].write(into: &out, indent: inner)
            }
        case .object(let pairs):
            writeContainer(open: "{", close: "}", count: pairs.count, into: &out, indent: indent) { index, out, inner in
                JSONValue.escape(pairs[index].0, into: &out)
                out += inner == nil ? ":" : ": "
                pairs[index].1.write(into: &out, indent: inner)
            }
        }
    }

    private func writeContainer(open: String, close: String, count: Int, into out: inout String, indent: Int?,
                                element: (Int, inout String, Int?) -> Void) {
        out += open
        guard count > 0 else { out += close; return }
        let inner = indent.map { $0 + 2 }
        for index in 0..<count {
            if index > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: " ", count: inner) }
            element(index, &out, inner)
        }
        if let indent { out += "\n" + String(repeating: " ", count: indent) }
        out += close
    }

    private static func escape(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                out += String(format: "\\u%04x", control.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
