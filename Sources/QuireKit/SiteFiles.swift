import Foundation
import QuireCore

/// The files of a site export: the destination's checks, the attachments of the vault, the
/// staging folder and the final swap.
enum SiteFiles {
    /// Vault paths gathered while pages are rendered (the attachments they link to).
    final class Collected {
        var paths = Set<String>()
    }

    /// Refuses a destination that is a file, the vault or a folder holding it, or a non-empty
    /// folder without the marker of a site quire wrote.
    static func check(destination: URL, vault: Vault, marker: String) throws {
        let target = destination.resolvingSymlinksInPath().path
        let root = vault.root.standardizedFileURL.resolvingSymlinksInPath().path
        if root == target || root.hasPrefix(target.hasSuffix("/") ? target : target + "/") {
            throw SiteExportError.destinationHoldsVault(destination.path)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw SiteExportError.destinationNotAFolder(destination.path) }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: destination.path)
        } catch {
            throw SiteExportError.readFailed(path: destination.path, reason: error.localizedDescription)
        }
        if !contents.isEmpty && !FileManager.default.fileExists(atPath: destination.appendingPathComponent(marker).path) {
            throw SiteExportError.destinationNotEmpty(destination.path)
        }
    }

    /// The vault paths of files that are not notes, outside hidden folders, ignored paths and the
    /// destination, sorted; a symbolic link that leads out of the vault or into a hidden folder
    /// is left out (`Vault.mayFollowLink`).
    static func attachments(of vault: Vault, ignore: ((String, Bool) -> Bool)?, skipping destination: URL) throws -> [String] {
        let root = vault.root.standardizedFileURL
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        let skipped = destination.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey]) else {
            return []
        }
        var found: [String] = []
        for case let url as URL in walker {
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(rootPath) else { continue }
            let path = String(full.dropFirst(rootPath.count))
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            let isDirectory = values?.isDirectory ?? false
            if Vault.isHidden(name: url.lastPathComponent) || full == skipped || ignore?(path, isDirectory) == true {
                if isDirectory { walker.skipDescendants() }
                continue
            }
            guard !isDirectory, !path.lowercased().hasSuffix(".md") else { continue }
            if values?.isSymbolicLink == true, !vault.mayFollowLink(at: full) { continue }
            found.append(path)
        }
        return found.sorted()
    }

    /// A new, empty folder beside `destination` to build the site in.
    static func staging(for destination: URL) throws -> URL {
        let parent = destination.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).quire-export-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw SiteExportError.writeFailed(path: staging.path, reason: error.localizedDescription)
        }
        return staging
    }

    /// Writes `text` to site path `path` in `staging`.
    static func write(_ text: String, to path: String, in staging: URL) throws {
        let url = staging.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } catch {
            throw SiteExportError.writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Copies the attachment at vault path `attachment` to site path `path` in `staging` (read
    /// through `Vault.readData`: never through a link into a hidden folder).
    static func copy(_ attachment: String, of vault: Vault, to path: String, in staging: URL) throws {
        let data: Data
        do {
            data = try vault.readData(attachment)
        } catch CoreError.readFailed(_, let reason) {
            throw SiteExportError.readFailed(path: attachment, reason: reason)
        } catch {
            throw SiteExportError.readFailed(path: attachment, reason: String(describing: error))
        }
        let url = staging.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            throw SiteExportError.writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Moves the finished site into place: the files of the old site (if any) that are not the
    /// export's (`isOwn` says which are) carried into the new one, the old site aside, the new one
    /// in, the old one removed. If anything fails, the old site is put back as it was. Returns the
    /// number of files kept.
    static func replace(_ destination: URL, with staging: URL, isOwn: (String) -> Bool) throws -> Int {
        let manager = FileManager.default
        var carried: [String] = []
        var kept = 0
        func putBack() {
            for path in carried.reversed() {
                try? manager.moveItem(at: staging.appendingPathComponent(path), to: destination.appendingPathComponent(path))
            }
        }
        var old: URL?
        if manager.fileExists(atPath: destination.path) {
            do {
                let foreign = try foreignEntries(under: "", of: destination, staging: staging, isOwn: isOwn)
                kept = foreign.files
                for path in foreign.entries {
                    let target = staging.appendingPathComponent(path)
                    try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try manager.moveItem(at: destination.appendingPathComponent(path), to: target)
                    carried.append(path)
                }
            } catch {
                putBack()
                if let error = error as? SiteExportError { throw error }
                throw SiteExportError.writeFailed(path: destination.path, reason: error.localizedDescription)
            }
            let aside = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).quire-old-\(UUID().uuidString.prefix(8))")
            do {
                try manager.moveItem(at: destination, to: aside)
            } catch {
                putBack()
                throw SiteExportError.writeFailed(path: destination.path, reason: error.localizedDescription)
            }
            old = aside
        }
        do {
            try manager.moveItem(at: staging, to: destination)
        } catch {
            if let old { try? manager.moveItem(at: old, to: destination) }
            putBack()
            throw SiteExportError.writeFailed(path: destination.path, reason: error.localizedDescription)
        }
        // The new site is in place; an old one that cannot be removed stays as a hidden folder
        // beside it (nothing is lost), and the export still succeeded.
        if let old { try? manager.removeItem(at: old) }
        return kept
    }

    /// The entries under site path `folder` of the old site in `site` that are not the export's:
    /// a folder holding nothing of the export's (and not in the new site) whole, else file by
    /// file. A file the new site writes is the export's too. `files` counts the files kept.
    private static func foreignEntries(under folder: String, of site: URL, staging: URL,
                                       isOwn: (String) -> Bool) throws -> (entries: [String], files: Int, whole: Bool) {
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: site.appendingPathComponent(folder).path)
        } catch {
            throw SiteExportError.readFailed(path: site.appendingPathComponent(folder).path, reason: error.localizedDescription)
        }
        var result: (entries: [String], files: Int, whole: Bool) = ([], 0, true)
        for name in names.sorted(by: ExactPath.precedes) {
            let path = folder.isEmpty ? name : folder + "/" + name
            let type = try? manager.attributesOfItem(atPath: site.appendingPathComponent(path).path)[.type] as? FileAttributeType
            let newType = try? manager.attributesOfItem(atPath: staging.appendingPathComponent(path).path)[.type] as? FileAttributeType
            if type == .typeDirectory {
                if newType != nil && newType != .typeDirectory { throw SiteExportError.inTheWay(path) }
                let inner = try foreignEntries(under: path, of: site, staging: staging, isOwn: isOwn)
                if inner.whole && newType == nil {
                    result.entries.append(path)
                } else {
                    result.entries += inner.entries
                    result.whole = false
                }
                result.files += inner.files
            } else if isOwn(path) || newType == .typeRegular {
                result.whole = false
            } else if newType != nil {
                throw SiteExportError.inTheWay(path)
            } else {
                result.entries.append(path)
                result.files += 1
            }
        }
        return result
    }
}
