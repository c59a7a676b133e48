import CLibGit2
#if canImport(Glibc)
import Glibc
#endif

extension TrackedFolders {
    /// What the pass over a folder's index entries could say.
    enum TrackedPass {
        /// The folder holds its tracked files and subfolders and nothing else: what changed.
        case judged(Found)
        /// A tracked subfolder is no folder, a file cannot be looked at, or a changed name is
        /// not UTF-8: the full status decides.
        case cannotJudge
        /// The folder holds other entries (untracked, ignored, a nested `.git`), or the
        /// listing changed meanwhile: list it name by name.
        case needsListing
    }

    /// One folder judged in index order, without looking each listed name up: `fstatat` of each
    /// tracked file by its index name (a missing one is deleted) and of each tracked subfolder,
    /// then a count of the folder's entries. When the folder holds exactly as many entries as
    /// its tracked files and subfolders that exist, it holds nothing else (names in a folder are
    /// unique), so there is nothing untracked to find.
    static func statTracked(_ folder: Folder, path: String, descriptor: Int32) -> TrackedPass {
        var found = Found()
        let prefix = path.isEmpty ? "" : path + "/"
        var present = 0
        for (position, entry) in folder.entries.enumerated() {
            let name = entry.path + folder.nameOffset
            var status = stat()
            if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) != 0 {
                guard errno == ENOENT else { return .cannotJudge }
            } else {
                present += 1
                if !folder.racy[position] && matches(entry, status) { continue }
            }
            // Changed, racily clean or deleted: named to the status, which needs its exact bytes.
            guard let text = String(validatingCString: name) else { return .cannotJudge }
            found.changed.append(prefix + text)
        }
        for subfolder in folder.subfolders {
            var status = stat()
            guard fstatat(descriptor, subfolder, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return .needsListing }
            guard status.st_mode & S_IFMT == S_IFDIR else { return .cannotJudge }
            present += 1
        }
        // The entries of the folder, less `.`, `..` and the repository's own `.git` at the root.
        let listed = duplicate(descriptor).flatMap(countEntries) ?? -1
        var repository = stat()
        let own = path.isEmpty && fstatat(descriptor, ".git", &repository, AT_SYMLINK_NOFOLLOW) == 0 ? 1 : 0
        return listed - own == present ? .judged(found) : .needsListing
    }

    /// A second descriptor of the same open folder (its listing read apart from the caller's).
    private static func duplicate(_ descriptor: Int32) -> Int32? {
        let copy = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return copy >= 0 ? copy : nil
    }

    /// How many entries the folder open at `descriptor` lists, `.` and `..` left out; nil when
    /// it cannot be read. Takes the descriptor over (closed here).
    private static func countEntries(_ descriptor: Int32) -> Int? {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(stream) }
        var count = 0
        while let item = readdir(stream) {
            let isDot = withUnsafePointer(to: &item.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 3) { name in
                    name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
                }
            }
            if !isDot { count += 1 }
        }
        return count
    }
}
