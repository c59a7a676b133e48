import Foundation

/// What an import did, entry by entry: what was written, what was already there, what failed
/// and why. Entries are numbered from 0 in the order of the input (array index, JSON Lines line
/// index, or the file's place in the sorted walk of a folder).
public struct ImportReport: Sendable, Equatable {
    /// One note written.
    public struct Imported: Sendable, Equatable {
        /// The entry's index in the input.
        public var index: Int
        /// The note's vault-relative path.
        public var path: String
        /// The note's id (nil for a note kept without one, e.g. a copied file without front matter).
        public var id: String?
    }

    /// One entry left out because the vault already holds it.
    public struct Skipped: Sendable, Equatable {
        /// The entry's index in the input.
        public var index: Int
        /// The duplicate id (nil when the same file was found at the same path).
        public var id: String?
        /// The path of the note already holding it.
        public var existingPath: String
        /// The earlier entry of this import it repeats (nil: the note was in the vault before).
        public var earlierIndex: Int? = nil
    }

    /// One entry that could not be imported.
    public struct Failed: Sendable, Equatable {
        /// The entry's index in the input.
        public var index: Int
        /// Why, in one lowercase sentence.
        public var reason: String
        /// The source file for a folder import (nil for JSON entries).
        public var source: String?
    }

    /// One attachment copied (folder imports).
    public struct Copied: Sendable, Equatable {
        /// The source file, relative to the imported folder.
        public var source: String
        /// The vault-relative path written.
        public var path: String
    }

    /// Notes written, in input order.
    public var imported: [Imported] = []
    /// Entries already in the vault, in input order.
    public var skipped: [Skipped] = []
    /// Entries that failed, in input order.
    public var failed: [Failed] = []
    /// Attachments copied (folder imports), in walk order.
    public var attachments: [Copied] = []
    /// Attachments already present with the same bytes (folder imports).
    public var attachmentsUnchanged = 0
    /// Values of imported notes left where they were, byte for byte, because quire's key cannot
    /// hold them without loss (folder imports; a Hugo `keywords` mapping), in input order.
    public var kept: [KeptValue] = []

    /// An empty report.
    public init() {}

    /// How many entries the input held.
    public var total: Int { imported.count + skipped.count + failed.count }
}

/// How far an import got, for a progress line: `done` of `total` entries handled.
public typealias ImportProgress = @Sendable (_ done: Int, _ total: Int) -> Void
