/// The attachments of a vault as a `FolderWatch` knows them: every regular file that is not a
/// note, outside hidden folders, by path (by its bytes: `ExactPath`). Kept up to date from the
/// watch's events, so a command asks the watcher for them instead of walking the vault; listed
/// in `PathOrder`, as the walk lists them. The ignore rules are not applied here.
struct AttachmentSet {
    private var paths: Set<ExactPath> = []
    /// The paths in `PathOrder`, kept until the set changes.
    private var ordered: [String]? = []

    /// The number of attachments.
    var count: Int { paths.count }

    /// Counts `path` as an attachment when `isAttachment`, else forgets it.
    mutating func set(_ path: String, isAttachment: Bool) {
        let changed = isAttachment ? paths.insert(ExactPath(path)).inserted : paths.remove(ExactPath(path)) != nil
        if changed { ordered = nil }
    }

    /// Forgets every attachment in `folder` and below it.
    mutating func removeAll(within folder: String) {
        let before = paths.count
        paths = paths.filter { !ExactPath.isWithin($0.string, folder) }
        if paths.count != before { ordered = nil }
    }

    /// Forgets every attachment.
    mutating func removeAll() {
        paths = []
        ordered = []
    }

    /// Every attachment, in `PathOrder`.
    mutating func list() -> [String] {
        if let ordered { return ordered }
        let sorted = paths.map(\.string).sorted { PathOrder.precedes($0, $1) }
        ordered = sorted
        return sorted
    }
}
