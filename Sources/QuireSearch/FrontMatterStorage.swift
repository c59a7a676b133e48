import QuireCore

/// A note's full front matter as the catalog keeps it: the entries themselves, or their encoded
/// form inside a mapped cache file, decoded only when asked for (most commands never ask).
struct FrontMatterStorage: Equatable, Sendable {
    private enum Source: Sendable {
        case entries([FrontMatterEntry])
        case encoded(ColumnMemory, offset: Int, count: Int)
    }

    private let source: Source

    init(_ entries: [FrontMatterEntry]) {
        source = .entries(entries)
    }

    /// Entries encoded by `BinaryWriter.entries` at `offset` in `memory` (kept alive here).
    init(memory: ColumnMemory, offset: Int, count: Int) {
        source = .encoded(memory, offset: offset, count: count)
    }

    /// The entries (an undecodable encoding, which validation rules out, gives none).
    var entries: [FrontMatterEntry] {
        switch source {
        case .entries(let entries):
            return entries
        case .encoded(let memory, let offset, let count):
            var reader = BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self) + offset, count: count)
            do throws(CacheError) {
                return try reader.entries()
            } catch {
                return []
            }
        }
    }

    static func == (lhs: FrontMatterStorage, rhs: FrontMatterStorage) -> Bool {
        lhs.entries == rhs.entries
    }
}
