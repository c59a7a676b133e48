import Foundation
import QuireCore
import QuireRender

/// The files an export wrote, recorded in the site's marker folder (`_quire/manifest.json`, a
/// JSON array of site paths) so that the next export removes exactly those and keeps every other
/// file in the folder: a `CNAME`, a `.nojekyll`, `.well-known/`, notes of the vault kept in
/// `docs/`.
struct SiteManifest: Equatable {
    /// The manifest's site path.
    static let path = SiteLayout.assetFolder + "/manifest.json"

    /// The site paths of the files the export wrote, the manifest and the marker among them.
    var files: Set<String>

    /// The files under `folder` (a finished staging folder), by site path.
    static func listing(_ folder: URL) throws -> SiteManifest {
        let root = folder.standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else {
            throw SiteExportError.readFailed(path: folder.path, reason: "cannot list the folder")
        }
        var files = Set<String>()
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true {
            let full = url.standardizedFileURL.path
            if full.hasPrefix(prefix) { files.insert(String(full.dropFirst(prefix.count))) }
        }
        return SiteManifest(files: files)
    }

    /// The manifest of the site in `destination`; nil when it has none (no site, a site written
    /// by a quire older than the manifest) or it cannot be read as one.
    static func read(in destination: URL) -> SiteManifest? {
        guard let data = FileManager.default.contents(atPath: destination.appendingPathComponent(path).path),
              let entries = (try? JSON.parse(data))?.array else { return nil }
        var files = Set<String>()
        for entry in entries {
            // A path leading out of the site, or anything else, makes the whole file suspect.
            guard let file = entry.string, isSitePath(file) else { return nil }
            files.insert(file)
        }
        return SiteManifest(files: files)
    }

    /// The manifest as written: its paths sorted by bytes, one a line.
    var text: String {
        let sorted = files.sorted { ExactPath.precedes($0, $1) }
        return JSON.array(sorted.map { .string($0) }).rendered(JSON.Style(indent: 2)) + "\n"
    }

    /// Whether site path `path` is one a quire without a manifest wrote: its three pages, the
    /// files of `_quire/`, a page under `notes/` and a copied attachment under `files/` — never
    /// a hidden file or a Markdown file (neither is ever written by an export).
    static func isOlderSiteFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0.hasPrefix(".") }), !path.lowercased().hasSuffix(".md") else { return false }
        if parts.count == 1 { return ["index.html", "tags.html", "search.html"].contains(path) }
        switch parts[0] {
        case Substring(SiteLayout.assetFolder), "files": return true
        case "notes": return path.hasSuffix(".html")
        default: return false
        }
    }

    /// Whether `path` is a relative path that stays inside the site.
    static func isSitePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
