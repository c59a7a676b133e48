extension NoteResolver {
    /// The notes whose title is `title` as a NOTE argument matches titles: trimmed,
    /// case-insensitively. Sorted by path.
    public func notes(titled title: String) -> [Note] {
        let wanted = title.trimmingCharacters(in: .whitespaces).lowercased()
        return notes.filter { $0.title.lowercased() == wanted }.sorted { $0.path < $1.path }
    }
}
