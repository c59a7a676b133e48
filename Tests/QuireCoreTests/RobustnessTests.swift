import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

@Suite struct RobustnessTests {
    @Test func aliasBombStopsQuickly() {
        var yaml = "---\na0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            yaml += "a\(level): &a\(level) [\(refs)]\n"
        }
        yaml += "---\nbody\n"
        // The alias limit, not the clock, shows nothing was expanded (timing is Benchmarks' job).
        let note = TestSupport.parse(yaml)
        #expect(note.problems.map(\.kind) == [.aliasLimit])
        #expect(note.body == "body\n")
        var document = TestSupport.document(yaml)
        #expect(throws: CoreError.self) { try document.set("a0", .null) }
        #expect(document.serialized() == Data(yaml.utf8))
    }

    @Test func smallAliasesWork() {
        let note = TestSupport.parse("---\nbase: &b [x, y]\ncopy: *b\n---\n")
        #expect(note.value(forKey: "copy") == .list([.string("x"), .string("y")]))
        #expect(note.problems.isEmpty)
    }

    @Test func deepNestingIsBounded() {
        let depth = 10_000
        let yaml = "---\nk: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n---\n"
        let note = TestSupport.parse(yaml)
        #expect(note.problems.map(\.kind) == [.tooLarge])
        #expect(note.problems.first?.line == 2)
    }

    @Test func binaryFile() {
        var bytes = Array("---\ntitle: x\n---\n".utf8)
        bytes += [0, 1, 2, 0xFF, 0xFE]
        let note = NoteParser.parse(Data(bytes), path: "bin.md")
        #expect(note.problems.map(\.kind) == [.binary])
        #expect(note.title == "bin")
        var document = NoteDocument(data: Data(bytes))
        #expect(document.serialized() == Data(bytes))
        #expect(throws: CoreError.self) { try document.set("title", .string("y")) }
    }

    @Test func invalidUTF8() {
        let frontMatter = Array("---\ntitle: ".utf8) + [0xC3, 0x28] + Array("\n---\nok\n".utf8)
        let bad = NoteParser.parse(Data(frontMatter), path: "a.md")
        #expect(bad.problems == [NoteProblem(kind: .notUTF8, line: 2, message: "front matter is not valid utf-8")])
        #expect(bad.body == "ok\n")
        var document = NoteDocument(data: Data(frontMatter))
        #expect(document.serialized() == Data(frontMatter))
        #expect(throws: CoreError.self) { try document.set("title", .string("y")) }
        let body = Array("---\ntitle: fine\n---\nbad ".utf8) + [0xFF] + Array(" byte\n".utf8)
        let note = NoteParser.parse(Data(body), path: "b.md")
        #expect(note.title == "fine")
        #expect(note.problems.map(\.kind) == [.notUTF8])
        #expect(note.body == "bad \u{FFFD} byte\n")
        #expect(note.words == 2)
    }

    @Test func invalidYAMLReportsLine() {
        let note = TestSupport.parse("---\ntitle: ok\nbad: [\n---\nbody\n")
        #expect(note.problems.count == 1)
        #expect(note.problems.first?.kind == .invalidYAML)
        #expect(note.problems.first?.line == 4)
        #expect(note.title == "ok")
        #expect(note.body == "body\n")
        let tabs = TestSupport.parse("---\ntitle: a\n\tindented: b\n---\n")
        #expect(tabs.problems.first?.kind == .invalidYAML)
    }

    @Test func hugeFrontMatterIsNotParsed() {
        let big = "---\n" + String(repeating: "k: vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\n", count: 25_000) + "---\nbody\n"
        let note = TestSupport.parse(big)
        #expect(note.problems.map(\.kind) == [.tooLarge])
        #expect(note.body == "body\n")
    }

    /// A 50 MB body parses whole (how fast is measured in Benchmarks/, not here: the machines
    /// are noisy).
    @Test func hugeBodyParses() {
        let line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit 日本.\n"
        let body = String(repeating: line, count: 50 * 1024 * 1024 / line.utf8.count)
        let data = Data(("---\ntitle: Big\n---\n" + body).utf8)
        let note = NoteParser.parse(data, path: "big.md")
        #expect(note.title == "Big")
        #expect(note.words == body.utf8.count / line.utf8.count * 10)
    }

    @Test func duplicateKeysUseTheFirst() {
        let note = TestSupport.parse("---\ntitle: one\ntitle: two\n---\n")
        #expect(note.title == "one")
        #expect(note.frontMatter.count == 1)
        #expect(note.problems == [NoteProblem(kind: .badValue, line: 3, message: "duplicate key 'title' (the first one is used)")])
        let lists = TestSupport.parse("---\ntags: [a]\nother: 1\ntags: [b]\nTAGS: [c]\n---\n")
        #expect(lists.tags == ["a"])
        #expect(lists.frontMatter.map(\.key) == ["tags", "other", "TAGS"])
        #expect(lists.problems.map(\.line) == [4])
    }

    @Test func arbitraryBytesNeverCrash() {
        var generator = SeededGenerator(seed: 42)
        let pieces = ["---\n", "...\n", "+++\n", "a: ", "[", "]", "{", "}", "&x ", "*x", "\r\n", "\u{FEFF}", "é", "- ",
                      "'", "\"", "|\n", ">-\n", "  ", "#", ":", "\n", "!!int ", "? ", "日"]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 30) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let data = Data(text.utf8)
            _ = NoteParser.parse(data, path: "f.md")
            var document = NoteDocument(data: data)
            #expect(document.serialized() == data)
            if (try? document.set("k", .string("v"))) != nil {
                #expect(document.value(forKey: "k") == .string("v"), "\(text.debugDescription)")
                #expect(document.note(path: "f.md").problems.filter { $0.kind != .badValue }.isEmpty)
            }
        }
    }
}

@Suite struct DateBoundsTests {
    @Test func absurdEpochsAreNotDates() {
        let note = TestSupport.parse("---\ncreated: 1e300\nupdated: 99999999999999999\n---\n")
        #expect(note.createdAt == nil)
        #expect(note.updatedAt == nil)
        #expect(note.problems.map(\.kind) == [.badValue, .badValue])
        #expect(QuireClock.iso8601UTC(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
    }
}
