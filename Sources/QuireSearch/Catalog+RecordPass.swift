import QuireCore

extension Catalog {
    /// Calls `body` with every live note's metadata, in slot order, keeping none of the records
    /// it decodes (`RecordTable.transientRecord`): what a resident process that derives its own
    /// compact tables from every note uses, so that the catalog does not hold every record
    /// decoded beside them (at 100,000 notes that was most of the language server's memory).
    public func forEachRecord(_ body: (NoteRecord) throws -> Void) rethrows {
        for document in 0..<base.count where baseLive[document] { try body(base.records.transientRecord(document)) }
        for document in 0..<delta.count { try body(delta.records.transientRecord(document)) }
    }

    /// Calls `body` with the first fields of every live note's record (`recordHeads`' fields:
    /// path, folder, id, title, tags, project, flags, dates, words…), in slot order, keeping none
    /// of them: what counts over every note (tags, projects, folders, `quire stats`) reads,
    /// without an array of every note's fields sorted by path.
    public func forEachRecordHead(_ body: (NoteRecord) throws -> Void) rethrows {
        for document in 0..<base.count where baseLive[document] { try body(base.records.head(document)) }
        for document in 0..<delta.count { try body(delta.records.head(document)) }
    }

    /// How many records the catalog keeps decoded (loaded ones are decoded on first use).
    public var keptRecordCount: Int { base.records.keptCount + delta.records.keptCount }

    /// Takes the pages of the loaded snapshot read so far (paths and records of every note after
    /// a walk is compared, or after `forEachRecord`) out of the process's resident memory: they
    /// stay in the system's page cache and are read from it again when next used. What a
    /// resident process calls after such a pass; a short command has no need to.
    public func releaseReadPages() {
        base.releaseReadPages()
        delta.releaseReadPages()
    }
}
