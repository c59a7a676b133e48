/// Where each key `NoteFields.apply` reads (the canonical keys and the keys other tools write
/// for them) first stands in a note's front matter, matched without regard to the case of ASCII
/// letters (`NoteFields.equalIgnoringASCIICase`): found in one pass over the note's keys, each
/// packed lowercased into two words and compared with every spelling's, instead of a search of
/// the whole front matter, string by string, for each of the twenty keys asked about.
struct CanonicalKeyPositions {
    /// The keys asked about.
    enum Key: Int, CaseIterable {
        case id, title, createdAt, created, date, updatedAt, updated, modified, lastmod, mtime
        case tags, tag, keywords, categories, project, color, draft, pinned, mood, priority, aliases
    }

    /// The keys read as `createdAt` and `updatedAt`, as `NoteFields.createdAtKeys` and
    /// `updatedAtKeys` list them.
    static let createdAtKeys: [Key] = [.createdAt, .created, .date]
    static let updatedAtKeys: [Key] = [.updatedAt, .updated, .modified, .lastmod, .mtime]

    /// Each key as it is spelled (`Key` order).
    static let spellings = [
        "id", "title", "createdAt", "created", "date", "updatedAt", "updated", "modified", "lastmod", "mtime",
        "tags", "tag", "keywords", "categories", "project", "color", "draft", "pinned", "mood", "priority", "aliases",
    ]

    /// A key of at most 16 bytes, its ASCII capitals lowercased, in two little-endian words
    /// (zeros past its end), with its length.
    struct Packed: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
    }

    /// Each spelling packed (`Key` order).
    private static let packedSpellings: [Packed] = spellings.compactMap(pack)

    /// Each key's first position, -1 where the front matter has none.
    private var positions: [Int]

    /// The positions of `frontMatter`'s keys.
    init(_ frontMatter: [FrontMatterEntry]) {
        positions = [Int](repeating: -1, count: Key.allCases.count)
        let spellings = Self.packedSpellings
        for (index, entry) in frontMatter.enumerated() {
            let count = entry.key.utf8.count
            guard count >= 2, count <= 10, let key = Self.pack(entry.key) else { continue }
            for (which, spelling) in spellings.enumerated() where spelling == key {
                if positions[which] < 0 { positions[which] = index }
                break
            }
        }
    }

    /// Where `key` first stands, if anywhere.
    subscript(key: Key) -> Int? {
        let position = positions[key.rawValue]
        return position >= 0 ? position : nil
    }

    /// `text` packed, nil when it is longer than 16 bytes.
    static func pack(_ text: String) -> Packed? {
        var text = text
        return text.withUTF8 { bytes -> Packed? in
            guard bytes.count <= 16 else { return nil }
            var packed = Packed(count: bytes.count)
            for (offset, byte) in bytes.enumerated() {
                let lowered = UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                if offset < 8 {
                    packed.low |= lowered << UInt64(offset * 8)
                } else {
                    packed.high |= lowered << UInt64((offset - 8) * 8)
                }
            }
            return packed
        }
    }
}
