import Foundation
import QuireCore

/// Fuzz target for QuireCore's `JSON` reader and writer (the import, the language server's
/// messages, `--json`). Properties:
/// - `JSON.parse` never crashes, whatever the bytes or their nesting, and a refusal points
///   inside the input (offset within it, line from 1);
/// - what it reads, written compact, reads back to text written the same, byte for byte (a
///   fixed point after the first writing, which turns an overflowing 1e999 into null);
/// - written indented, or with whole doubles as integers, it reads back to an equal value.
enum FuzzTarget {
    static func run(_ data: Data) {
        let value: JSON
        do throws(JSONSyntaxError) {
            value = try JSON.parse(data)
        } catch {
            guard error.offset >= 0, error.offset <= data.count, error.line >= 1 else {
                fuzzFailure("a refusal points outside the input: \(error) at \(error.offset) of \(data.count)")
            }
            return
        }
        let compact = value.encoded(.compact)
        guard let again = try? JSON.parse(compact) else { fuzzFailure("compact text does not read back") }
        guard again.encoded(.compact) == compact else { fuzzFailure("compact text is not a fixed point") }
        for style in [JSON.Style(indent: 2), JSON.Style(indent: nil, wholeDoublesAsIntegers: true)] {
            guard let read = try? JSON.parse(again.encoded(style)) else { fuzzFailure("\(style) text does not read back") }
            guard read == again else { fuzzFailure("\(style) text reads back to another value") }
        }
    }
}
