/// What `quire undo` did (`Syncer.undo`).
public struct UndoReport: Equatable, Sendable {
    /// The name of the backup the vault went back to (`n000001-20261129T120100Z`).
    public var backup: String
    /// Files whose uncommitted edit was kept with the undone sync's change taken out of it
    /// (three ways), still uncommitted.
    public var editsKept: [String]

    /// Creates a report.
    public init(backup: String, editsKept: [String]) {
        self.backup = backup
        self.editsKept = editsKept
    }
}
