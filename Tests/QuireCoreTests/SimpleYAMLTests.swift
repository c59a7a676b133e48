import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

/// `SimpleYAML` reads the front matter most notes have without libyaml: whatever it accepts it
/// must read exactly as libyaml does (values, styles and byte spans), and it must decline the rest.
@Suite struct SimpleYAMLTests {
    /// Keys: plain ones and odd ones (quoted, spaced, non-ASCII, numeric, complex, long).
    static let keys: [String] = [
        "title", "tags", "createdAt", "updated_at", "a-b", "x", "_private", "Key9", "true", "null", "id",
        "\"quoted key\"", "'single key'", "a b", "日本", "-x", "123", "? complex", "k#x", "[a]", "&anchor k",
        String(repeating: "k", count: 600),
    ]

    /// What follows a key: the colon with or without spaces, a tab, a space before it.
    static let colons: [String] = [": ", ": ", ": ", ":  ", ":", ":\t", " : ", ":: "]

    /// One-line values of every kind, with quoting, escapes, comments, indicators and Unicode.
    static let values: [String] = [
        "Hello world", "plain", "1.10", "42", "-5", "+3", "0x1F", "0o17", "1e5", ".inf", "-.Inf", "3.", "007",
        "true", "False", "null", "~", "yes", "2024-01-02", "2024-04-06T08:13:07+01:00", "2024-04-06 08:13",
        "a: b", "a:b", "a :", "value #comment", "x#y", "#x", "'single'", "'it''s'", "''", "\"double\"", "\"\"",
        "\"esc \\\" \\n\"", "\"tab\there\"", "'unclosed", "\"unclosed", "\"a\" b", "&anchor v", "*anchor",
        "!!str 5", "!!int 7", "!custom x", "[a, b]", "[a,b]", "[\"#Tag\", b]", "[]", "[ ]", "[a, [b]]", "{a: 1}",
        "[a: b]", "[a, ]", "['x', \"y\", 3, 2024-01-02]", "[a b, c]", "[a #b]", "[a]x", "café", "日本語のタイトル",
        "emoji 🎉", "nbsp\u{A0}here", "http://x.org/a?b=c", "a]", "a,b", "a}", "-", "- a", "-a", "value  ",
        "%x", "@x", "`x`", "?", ":x", "a\u{85}b", "a\u{2028}b", "\u{FEFF}x", "a\u{7F}", "trailing\t", "a\rb",
    ]

    /// Values that take lines of their own after the key.
    static let blocks: [String] = [
        "\n- a\n- b", "\n  - a\n  - b", "\n  - 'q'\n  - \"d\"", "\n  - a\n - b", "\n  - [x]", "\n  -\n",
        "\n  - a: b", "\n  - a\n    continued", "\n  - 1\n  - 2024-01-02", "\n    - deep", "\n- - nested",
        "\n  key: nested", "\n  plain continued", "\n|\n  literal", " |\n  literal\n  text", " >-\n  folded\n  text",
        " \"multi\n  line\"", " plain\n  continued", "\n-a", "\n\t- tab",
    ]

    /// Whole lines between entries.
    static let extras: [String] = ["# comment", "", "  indented: x", "\t", "---", "...", "  ", "- stray"]

    static func randomFrontMatter(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...7, using: &random) {
            let roll = Int.random(in: 0..<20, using: &random)
            if roll == 0 {
                text += (extras.randomElement(using: &random) ?? "") + "\n"
                continue
            }
            // Mostly plain keys and ordinary values: most of the texts should be of the simple shape.
            let key = roll < 17 ? keys[Int.random(in: 0..<10, using: &random)] : keys.randomElement(using: &random) ?? "k"
            text += key
            if roll % 4 == 1 {
                text += ":" + (blocks.randomElement(using: &random) ?? "")
            } else {
                let value = roll < 14 ? values[Int.random(in: 0..<20, using: &random)]
                    : values.randomElement(using: &random) ?? ""
                text += (roll < 15 ? ": " : colons.randomElement(using: &random) ?? ": ") + value
            }
            text += "\n"
        }
        if Int.random(in: 0..<6, using: &random) == 0 { text.removeLast() }  // no line break at the end
        return text
    }

    @Test func readsWhatLibYAMLReadsOrDeclines() {
        var random = SeededGenerator(seed: 6)
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
        var (accepted, declined) = (0, 0)
        for round in 0..<6000 {
            let text = Self.randomFrontMatter(&random)
            var bytes = text
            bytes.withUTF8 { bytes in
                let libyaml = YAMLReader.readWithLibYAML(bytes, firstLine: 2, timeZone: zone)
                guard let simple = SimpleYAML.read(bytes, timeZone: zone) else {
                    declined += 1
                    return
                }
                accepted += 1
                #expect(libyaml.problems.isEmpty, "round \(round): libyaml refused what was read: \(text)")
                #expect(!libyaml.flowRoot, "round \(round): \(text)")
                #expect(simple.entries == libyaml.entries, "round \(round): \(text)")
            }
        }
        // Both ways are taken often enough for the comparison to mean something.
        #expect(accepted > 1000, "accepted \(accepted)")
        #expect(declined > 1000, "declined \(declined)")
    }

    @Test func readsTheUsualFrontMatterWithoutLibYAML() throws {
        var text = "id: 7bfb\ntitle: Anbisoka fanefa\ncreatedAt: 2024-04-06T08:13:07+01:00\ntags: [ideas, \"#x\"]\n"
            + "project: Toy Story 5\ndraft: false\naliases:\n  - One\n  - 'Two'\nempty:\n"
        let result = try #require(text.withUTF8 { SimpleYAML.read($0, timeZone: TimeZone(secondsFromGMT: 0) ?? .current) })
        #expect(result.entries.map(\.key) == ["id", "title", "createdAt", "tags", "project", "draft", "aliases", "empty"])
        #expect(result.entries[3].value == .list([.string("ideas"), .string("#x")]))
        #expect(result.entries[5].value == .bool(false))
        #expect(result.entries[6].value == .list([.string("One"), .string("Two")]))
        #expect(result.entries[7].value == .null)
    }
}
