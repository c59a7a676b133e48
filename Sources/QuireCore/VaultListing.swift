/// An entry of the vault the walk leaves out, and why; `quire check` lists them.
public struct VaultSkip: Equatable, Sendable {
    /// Why an entry is not read.
    public enum Reason: String, Sendable {
        /// A folder that cannot be listed (permissions): its notes are not seen.
        case unreadableFolder = "folder cannot be read"
        /// A symlink that leads outside the vault (never followed).
        case symlinkOutside = "symlink leads outside the vault (not followed)"
        /// A symlink that leads into `.git/`, `.quire/` or another hidden folder (never followed).
        case symlinkHidden = "symlink leads into a hidden folder (not followed)"
        /// A symlink whose target does not exist.
        case brokenSymlink = "symlink target does not exist"
        /// A `*.md` name that is not a regular file (a FIFO, socket or device).
        case notAFile = "not a regular file"
        /// A note, folder or attachment whose name is not valid UTF-8 (a Latin-1 name copied from
        /// an old disk): no path of it can be written in a note, a link or the index.
        case invalidName = "name is not valid UTF-8 (rename it)"
    }

    /// The vault-relative path.
    public var path: String
    /// Why it is left out.
    public var reason: Reason

    /// Creates a skip record.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }
}

/// What a walk of the vault found.
public struct VaultListing: Sendable {
    /// Note paths in `PathOrder` (a folder tree's order).
    public var notes: [String] = []
    /// Each note's stamp, when asked for (nil for a note reached through a symlink or one that
    /// vanished during the walk: a caller looks at it again).
    public var stamps: [FileStamp?] = []
    /// Folder paths, sorted.
    public var folders: [String] = []
    /// Entries left out for a reason the user may want to know.
    public var skipped: [VaultSkip] = []
    /// The files that are not notes (images, PDFs…), in `PathOrder`, when asked for.
    public var attachments: [String] = []
    /// How many folders were read from the disk; the others were unchanged since the last walk
    /// and their entries came from `.quire/cache/folder-listings`.
    public var foldersRead = 0
}
