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
    /// destination, sorted; a symbolic link that leads out of the vault is left out.
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
            if url.lastPathComponent.hasPrefix(".") || full == skipped || ignore?(path, isDirectory) == true {
                if isDirectory { walker.skipDescendants() }
                continue
            }
            guard !isDirectory, !path.lowercased().hasSuffix(".md") else { continue }
            if values?.isSymbolicLink == true, (try? vault.resolveSafePath(path)) == nil { continue }
            if values?.isSymbolicLink == true {
                let target = url.resolvingSymlinksInPath().path
                guard target.hasPrefix(rootPath) else { continue }
            }
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

    /// Copies the attachment at vault path `attachment` to site path `path` in `staging`.
    static func copy(_ attachment: String, of vault: Vault, to path: String, in staging: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: vault.url(for: attachment))
        } catch {
            throw SiteExportError.readFailed(path: attachment, reason: error.localizedDescription)
        }
        let url = staging.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            throw SiteExportError.writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Moves the finished site into place: the old site (if any) aside, the new one in, the old
    /// one removed. If the new one cannot be moved in, the old one is put back.
    static func replace(_ destination: URL, with staging: URL) throws {
        let manager = FileManager.default
        var old: URL?
        if manager.fileExists(atPath: destination.path) {
            let aside = destination.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.lastPathComponent).quire-old-\(UUID().uuidString.prefix(8))")
            do {
                try manager.moveItem(at: destination, to: aside)
            } catch {
                throw SiteExportError.writeFailed(path: destination.path, reason: error.localizedDescription)
            }
            old = aside
        }
        do {
            try manager.moveItem(at: staging, to: destination)
        } catch {
            if let old { try? manager.moveItem(at: old, to: destination) }
            throw SiteExportError.writeFailed(path: destination.path, reason: error.localizedDescription)
        }
        // The new site is in place; an old one that cannot be removed stays as a hidden folder
        // beside it (nothing is lost), and the export still succeeded.
        if let old { try? manager.removeItem(at: old) }
    }
}
