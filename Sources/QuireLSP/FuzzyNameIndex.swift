/// Every note's names (title, aliases, path without `.md`), lowercased, in one flat buffer, for
/// ranking thousands of notes per keystroke without touching their records: scoring walks
/// plain scalars, and only the few best notes are looked at afterwards.
struct FuzzyNameIndex: Sendable {
    private var scalars: [Unicode.Scalar] = []
    /// Where each name starts in `scalars` (one more entry than names: the end).
    private var starts: [Int] = [0]
    /// The note (its index in the directory's sorted view) of each name.
    private var owners: [Int] = []
    /// Whether each name is its note's title (preferred among equal scores).
    private var isTitle: [Bool] = []

    /// One hit: the note's index, which of its names matched best (0 = the title) and the score.
    struct Hit {
        var note: Int
        var name: Int
        var score: Int
    }

    /// Indexes the names of `notes` (in their order).
    init(notes: [SearchableNote]) {
        for (index, note) in notes.enumerated() {
            for (position, name) in note.names.enumerated() {
                scalars.append(contentsOf: name.lowercased().unicodeScalars)
                starts.append(scalars.count)
                owners.append(index)
                isTitle.append(position == 0)
            }
        }
    }

    /// The notes matching `matcher`, best first (ties: the lower index, i.e. the path), at most
    /// `limit` of them, and how many matched; nil when `stop` said so (checked every 4,096 names).
    func rank(_ matcher: FuzzyMatch, limit: Int, stop: () -> Bool) -> (hits: [Hit], total: Int)? {
        var hits: [Hit] = []
        var current: Hit?
        var nameOfNote = 0
        let cancelled: Bool = scalars.withUnsafeBufferPointer { buffer in
            for name in 0..<owners.count {
                if name & 4095 == 0 && stop() { return true }
                let owner = owners[name]
                if current?.note != owner {
                    if let done = current, done.score > Int.min { hits.append(done) }
                    current = Hit(note: owner, name: 0, score: Int.min)
                    nameOfNote = 0
                } else {
                    nameOfNote += 1
                }
                let slice = UnsafeBufferPointer(rebasing: buffer[starts[name]..<starts[name + 1]])
                guard var score = matcher.score(slice) else { continue }
                if isTitle[name] { score += 4 }
                if score > current?.score ?? Int.min { current = Hit(note: owner, name: nameOfNote, score: score) }
            }
            return false
        }
        if cancelled { return nil }
        if let done = current, done.score > Int.min { hits.append(done) }
        let total = hits.count
        hits.sort { $0.score != $1.score ? $0.score > $1.score : $0.note < $1.note }
        return (Array(hits.prefix(limit)), total)
    }
}
