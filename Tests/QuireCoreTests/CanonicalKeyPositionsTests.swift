import QuireTestSupport
import Testing
@testable import QuireCore

/// The one-pass key table (`CanonicalKeyPositions`) finds what a search of the front matter with
/// `NoteFields.equalIgnoringASCIICase` finds: each key's first position, nil where none matches.
struct CanonicalKeyPositionsTests {
    /// Each key's first position by the general path: every entry compared with the spelling.
    static func searched(_ frontMatter: [FrontMatterEntry], _ key: CanonicalKeyPositions.Key) -> Int? {
        frontMatter.firstIndex { NoteFields.equalIgnoringASCIICase($0.key, CanonicalKeyPositions.spellings[key.rawValue]) }
    }

    static func expectSame(_ keys: [String]) {
        let frontMatter = keys.map { FrontMatterEntry(key: $0, value: .null) }
        let positions = CanonicalKeyPositions(frontMatter)
        for key in CanonicalKeyPositions.Key.allCases {
            #expect(positions[key] == searched(frontMatter, key), "\(key) in \(keys)")
        }
    }

    @Test func spellingsAreTheKeysNoteFieldsNames() {
        let spellings = CanonicalKeyPositions.spellings
        #expect(CanonicalKeyPositions.createdAtKeys.map { spellings[$0.rawValue] } == NoteFields.createdAtKeys)
        #expect(CanonicalKeyPositions.updatedAtKeys.map { spellings[$0.rawValue] } == NoteFields.updatedAtKeys)
        for key in NoteFields.tagKeys + NoteFields.canonicalOrder + ["project", "color", "draft", "pinned", "mood", "priority", "aliases"] {
            #expect(spellings.contains(key), "\(key)")
        }
        #expect(spellings.count == CanonicalKeyPositions.Key.allCases.count)
    }

    @Test func findsTheFirstOfEachKeyIgnoringOnlyASCIICase() {
        Self.expectSame([])
        Self.expectSame(["TITLE", "title", "Tags", "tag", "createdat", "CreatedAt", "DATE", "mTime"])
        Self.expectSame(["titlé", "títle", "title ", " title", "tit", "titles", "categories\u{0}", "CATEGORIES"])
        Self.expectSame(["@d", "`d", "iD", "id", "[tags]", "{tags}", "keywords", "KeyWords", "日本", "priority"])
    }

    @Test func findsWhatTheSearchFindsForRandomKeys() {
        var random = SeededGenerator(seed: 35)
        // Spellings changed a byte at a time: case flips, neighbours of letters in ASCII
        // (`@`, `[`, `` ` ``, `{`), bytes outside ASCII, one byte more or less.
        let alphabet: [UInt8] = Array("aAzZ@[`{_-0 ".utf8) + [0xC3, 0xA9, 0x00]
        for _ in 0..<2000 {
            var keys: [String] = []
            for _ in 0..<random.next(0...8) {
                var bytes = Array(CanonicalKeyPositions.spellings[random.next(0...20)].utf8)
                for _ in 0..<random.next(0...2) {
                    let at = random.next(0...bytes.count)
                    switch random.next(0...3) {
                    case 0 where at < bytes.count: bytes[at] ^= 0x20
                    case 1 where at < bytes.count: bytes[at] = alphabet[random.next(0...(alphabet.count - 1))]
                    case 2: bytes.insert(alphabet[random.next(0...(alphabet.count - 1))], at: at)
                    case 3 where at < bytes.count: bytes.remove(at: at)
                    default: break
                    }
                }
                keys.append(String(decoding: bytes, as: UTF8.self))
            }
            Self.expectSame(keys)
        }
    }
}
