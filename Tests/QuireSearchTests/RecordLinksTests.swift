import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("A record's links read from its encoding alone")
struct RecordLinksTests {
    /// Front matter of every field a record keeps before its links (tags, project, color, mood,
    /// priority, aliases, dates, extra keys with lists and maps, a bad value that is a problem,
    /// a link in front matter), a line at a time, some left out.
    private static let frontMatterLines = [
        "title: A title", "tags: [one, two]", "project: Work", "color: red", "mood: 3", "priority: 2",
        "aliases: [Other name, Third]", "created: 2024-01-02", "updated: 2024-03-04T05:06:07Z", "draft: true",
        "pinned: true", "extra: [1, two, {a: b}]", "nested: {x: [1, 2], y: {z: true}}", "mood: not a number",
        "related: \"[[Beta]]\"", "id: 20240102", "ratio: 1.5", "when: 2024-05-06", "nothing:", "flag: false",
        "deep: {a: {b: {c: [1, {d: 2.5, e: [x, 2024-01-01T10:00:00Z]}]}}}",
    ]

    private static func text(_ random: inout SeededGenerator) -> String {
        var lines = ["---"] + frontMatterLines.filter { _ in random.next() % 2 == 0 } + ["---"]
        if random.next() % 5 == 0 { lines = [] }
        for _ in 0..<Int(random.next() % 5) {
            lines.append("A line with [[Alpha]] and [b](Beta.md#part) and ![[pic.png|label]] and [[Gamma^block]].")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Random notes encoded as a catalog keeps them: the links read by skipping the fields
    /// before them are the decoded record's, those read at some ordinals (the others skipped
    /// over, one past the end asked too) are those of the decoded record at them, and a record
    /// cut short gives none (no crash).
    @Test func theLinksEqualTheDecodedRecords() throws {
        var random = SeededGenerator(seed: 3502)
        var withLinks = 0
        for index in 0..<300 {
            let note = NoteParser.parse(Data(Self.text(&random).utf8), path: "f\(index % 3)/n\(index).md")
            let record = NoteRecord(note: note)
            var writer = BinaryWriter()
            writer.record(record)
            let bytes = writer.bytes
            let (links, decoded) = try bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { throw CacheError.corrupt("no bytes") }
                var skipping = BinaryReader(base: base, count: buffer.count)
                var whole = BinaryReader(base: base, count: buffer.count)
                return (try skipping.recordLinks(), try whole.record())
            }
            #expect(links == decoded.links && links == record.links, "note \(index)")
            let ordinals = links.indices.filter { _ in random.next() % 2 == 0 } + (random.next() % 4 == 0 ? [links.count + 1] : [])
            let picked = try bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { throw CacheError.corrupt("no bytes") }
                var reader = BinaryReader(base: base, count: buffer.count)
                return try reader.recordLinks(at: ordinals)
            }
            let present = ordinals.filter(links.indices.contains)
            #expect(picked.map(\.ordinal) == present && picked.map(\.link) == present.map { links[$0] }, "note \(index)")
            if !links.isEmpty { withLinks += 1 }
            let cut = Array(bytes.dropLast(max(1, bytes.count / 3)))
            cut.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var reader = BinaryReader(base: base, count: buffer.count)
                #expect(throws: CacheError.self) { try reader.recordLinks() }
            }
        }
        #expect(withLinks > 100)
    }

    /// The other keys of a record (values of every kind, nested) are skipped, not decoded: a
    /// record that decodes whole, one byte of it changed at random, gives the same links when
    /// they are read alone, and a value of an unknown kind among those keys is corrupt either way.
    @Test func skippingTheOtherKeysChecksWhatDecodingChecks() throws {
        var random = SeededGenerator(seed: 3503)
        var compared = 0
        for index in 0..<300 {
            let note = NoteParser.parse(Data(Self.text(&random).utf8), path: "n\(index).md")
            var writer = BinaryWriter()
            writer.record(NoteRecord(note: note))
            var bytes = writer.bytes
            bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            let (links, decoded) = bytes.withUnsafeBufferPointer { buffer -> ([NoteLink]?, NoteRecord?) in
                guard let base = buffer.baseAddress else { return (nil, nil) }
                var skipping = BinaryReader(base: base, count: buffer.count)
                var whole = BinaryReader(base: base, count: buffer.count)
                return (try? skipping.recordLinks(), try? whole.record())
            }
            if let decoded {
                #expect(links == decoded.links, "note \(index)")
                compared += 1
            }
        }
        #expect(compared > 100)
        // `extra: x` with its value's tag (4: a string) made 9, a tag no value has.
        let note = NoteParser.parse(Data("---\nextra: x\n---\n[[Alpha]]\n".utf8), path: "n.md")
        var writer = BinaryWriter()
        writer.record(NoteRecord(note: note))
        let key = Array("extra".utf8)
        let keyAt = try #require((0...(writer.bytes.count - key.count)).first { Array(writer.bytes[$0..<($0 + key.count)]) == key })
        #expect(writer.bytes[keyAt + key.count] == 4)
        writer.bytes[keyAt + key.count] = 9
        writer.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var skipping = BinaryReader(base: base, count: buffer.count)
            var whole = BinaryReader(base: base, count: buffer.count)
            #expect(throws: CacheError.self) { try skipping.recordLinks() }
            #expect(throws: CacheError.self) { try whole.record() }
        }
    }
}
