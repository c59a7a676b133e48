/// The slots' paths packed apart from their records, as a snapshot stores them (the sections
/// `pathOffsets` and `pathBytes`): `count + 1` u64 offsets into the paths' UTF-8 bytes, one
/// path after another in slot order. A command that wants the paths of many slots (a search of
/// 37,000 hits among 100,000 notes) reads a few megabytes here instead of touching the page of
/// every record. Every snapshot writer takes the column from here, built from the encoded
/// records (each starts with its path: `BinaryWriter.record`).
struct PathColumn {
    /// Where each slot's path starts in `bytes`, and where the last one ends.
    private(set) var offsets: [UInt64] = [0]
    /// The paths' UTF-8 bytes.
    private(set) var bytes: [UInt8] = []

    /// An empty column (`append(records:offsets:)` fills it).
    init() {}

    /// Appends the paths of records encoded in `records`, each at its offset in `offsets`.
    mutating func append(records: UnsafeRawBufferPointer, offsets recordOffsets: UnsafeBufferPointer<UInt64>) {
        for offset in recordOffsets { append(path: RecordTable.path(in: records, at: Int(offset))) }
    }

    /// The column of a record table's paths.
    init(_ records: RecordTable) {
        offsets.reserveCapacity(records.count + 1)
        for index in 0..<records.count { append(path: records.pathBytes(index)) }
    }

    /// Appends one slot's path (its UTF-8 bytes).
    mutating func append(path: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: path)
        offsets.append(UInt64(bytes.count))
    }
}
