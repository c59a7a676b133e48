import QuireCore

extension Catalog {
    /// Every front-matter key some note of the catalog has (canonical keys only where a note
    /// has them), sorted, each once.
    public func frontMatterKeys() -> [String] {
        var keys = Set<String>()
        for record in records {
            for entry in record.frontMatter { keys.insert(entry.key) }
        }
        return keys.sorted()
    }

    /// Whether some note of the catalog has the front-matter key `key`; stops at the first.
    public func hasFrontMatterKey(_ key: String) -> Bool {
        records.contains { record in record.frontMatter.contains { $0.key == key } }
    }
}
