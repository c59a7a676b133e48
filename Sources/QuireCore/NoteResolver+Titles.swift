extension NoteResolver {
    /// The notes whose title is `title` as a NOTE argument matches titles: trimmed,
    /// case-insensitively. Sorted by path.
    public func notes(titled title: String) -> [Note] {
        let wanted = title.trimmingCharacters(in: .whitespaces).lowercased()
        return notes.filter { $0.title.lowercased() == wanted }.sorted { $0.path < $1.path }
    }

    /// Groups of two or more notes with a title of their own (not the file name standing in)
    /// sharing it case-insensitively, each group sorted by path, the groups by their first path:
    /// a title such notes share cannot name one of them.
    public static func sharedTitles(_ notes: [Note]) -> [[Note]] {
        var byTitle: [String: [Note]] = [:]
        for note in notes where note.hasTitle { byTitle[note.title.lowercased(), default: []].append(note) }
        return byTitle.values.filter { $0.count > 1 }
            .map { $0.sorted { $0.path < $1.path } }
            .sorted { $0[0].path < $1[0].path }
    }
}
