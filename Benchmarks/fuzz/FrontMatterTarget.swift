import Foundation
@testable import QuireCore

/// Fuzz target for the front-matter reader and surgical writer (QuireCore is compiled with
/// -enable-testing by fuzz.sh, so the target can see the document's bytes and layout). Properties:
/// - `NoteParser.parse` never crashes;
/// - `NoteDocument(data:)` and `NoteDocument(yamlFile:)` serialize to the input, byte for byte;
/// - on an editable document, a `set`/`remove` that succeeds leaves a document that reads
///   without errors, keeps the body bytes and every other key's value; one that throws leaves
///   the document untouched.
enum FuzzTarget {
    static let utc = TimeZone(identifier: "UTC") ?? .current

    static func run(_ data: Data) {
        _ = NoteParser.parse(data, path: "fuzz/note.md", timeZone: utc)
        let document = NoteDocument(data: data, timeZone: utc)
        guard document.serialized() == data else { fuzzFailure("load + serialize changed the bytes") }
        guard NoteDocument(yamlFile: data, timeZone: utc).serialized() == data else {
            fuzzFailure("load + serialize of a bare yaml file changed the bytes")
        }
        guard document.isEditable else { return }
        var keys: [String] = []
        for entry in document.entries where !keys.contains(entry.key) && keys.count < 3 { keys.append(entry.key) }
        keys += ["title", "tags", "fuzzNew"]
        let values = candidateValues(data)
        for (index, key) in keys.enumerated() {
            let value = values[(index + data.count) % values.count]
            var edited = document
            do {
                try edited.set(key, value)
                verify(edited, against: document, key: key, action: "set \(key) = \(value)")
                guard edited.problems.isEmpty else { fuzzFailure("set \(key) left problems \(edited.problems)") }
            } catch {
                guard edited.serialized() == data else { fuzzFailure("a failed set \(key) changed the document") }
            }
            var removed = document
            do {
                try removed.remove(key)
                verify(removed, against: document, key: key, action: "remove \(key)")
                guard !removed.entries.contains(where: { $0.key == key }) else { fuzzFailure("remove \(key) kept it") }
            } catch {
                guard removed.serialized() == data else { fuzzFailure("a failed remove \(key) changed the document") }
            }
        }
    }

    /// Values to write: fixed shapes plus a string taken from the input itself.
    static func candidateValues(_ data: Data) -> [FrontMatterValue] {
        let sample = String(decoding: data.suffix(24), as: UTF8.self)
        return [
            .string("Fuzz: title #1"), .string(sample), .int(42), .bool(true), .null,
            .list([.string("a"), .string(sample)]), .list([]),
            .map([FrontMatterEntry(key: "k", value: .string(sample))]),
            .date(Date(timeIntervalSince1970: 1_790_000_000), text: ""), .float(1.5),
        ]
    }

    /// The edit kept the body bytes, reads back without new errors, and left other keys alone.
    static func verify(_ edited: NoteDocument, against original: NoteDocument, key: String, action: String) {
        let oldBody = Array(original.bytes[original.layout.bodyStart...])
        let newBody = Array(edited.bytes[edited.layout.bodyStart...])
        guard oldBody == newBody else { fuzzFailure("\(action) changed the body") }
        let reread = NoteDocument(data: edited.serialized(), timeZone: utc)
        guard reread.isEditable else { fuzzFailure("\(action) made the front matter unreadable: \(reread.problems)") }
        // set/remove may match the key case-insensitively: leave every spelling of it out.
        let before = original.frontMatter.filter { $0.key.lowercased() != key.lowercased() }
        let after = reread.frontMatter.filter { $0.key.lowercased() != key.lowercased() }
        guard before.count == after.count,
              zip(before, after).allSatisfy({ $0.key == $1.key && NoteDocument.readsBack($0.value, as: $1.value) }) else {
            fuzzFailure("\(action) changed other keys: \(before) -> \(after)")
        }
        _ = NoteParser.parse(edited.serialized(), path: "fuzz/note.md", timeZone: utc)
    }
}
