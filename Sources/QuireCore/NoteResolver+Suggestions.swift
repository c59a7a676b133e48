extension NoteResolver {
    /// The names of notes (titles, aliases and file names) closest to a NOTE argument that
    /// named none, nearest first (see `EditDistance.closest`, here through `NearNames.closest(to:among:limit:)`).
    public func suggestions(for query: String, limit: Int = 3) -> [String] {
        var names: [String] = []
        names.reserveCapacity(notes.count * 2)
        for note in notes {
            names.append(note.title)
            names += note.aliases
            let stem = NoteParser.stem(of: note.path)
            if stem != note.title { names.append(stem) }
        }
        return NearNames.closest(to: query, among: names, limit: limit)
    }
}
