extension Catalog {
    /// Whether any note's `createdAt` or `updatedAt` comes from elsewhere than its front matter
    /// (git's history, or its file's time where the history has none): only then can git's
    /// history moving on change what the catalog holds for a note whose file did not change.
    /// Read from the records' flag bytes, no record decoded.
    public var hasNotesDatedElsewhere: Bool {
        for document in 0..<capacity where isLive(document) {
            let dated = document < base.count ? base.records.isDatedElsewhere(document)
                : delta.records.isDatedElsewhere(document - base.count)
            if dated { return true }
        }
        return false
    }
}
