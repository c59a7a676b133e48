import QuireCore

extension Catalog {
    /// The front-matter keys notes may have: the canonical keys (`NoteRecord.canonicalKeys`)
    /// and every other key some note of the catalog has, sorted, each once. Reads only the keys
    /// the records keep at hand (`extraFrontMatter`), not every note's full front matter.
    public func frontMatterKeys() -> [String] {
        var keys = NoteRecord.canonicalKeys
        for record in records {
            for entry in record.extraFrontMatter { keys.insert(entry.key) }
        }
        return keys.sorted()
    }

    /// Whether `key` is a canonical key or some note of the catalog has it; stops at the first.
    public func hasFrontMatterKey(_ key: String) -> Bool {
        NoteRecord.canonicalKeys.contains(key)
            || records.contains { record in record.extraFrontMatter.contains { $0.key == key } }
    }
}
