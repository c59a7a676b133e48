import Foundation
import QuireCore

/// Where things are in a generated site, and relative links between its files. Pages of notes
/// live under `notes/` and copied attachments under `files/`, each at its vault path, so no
/// note or attachment can take the name of the site's own files (`index.html`, `tags.html`,
/// `search.html`, `_quire/`).
public enum SiteLayout {
    /// The folder of the stylesheet, the script and the search index.
    public static let assetFolder = "_quire"

    /// The site path of a note's page (`notes/Drafts/woody.html` for `Drafts/woody.md`). A
    /// page name that `.html` would take past 255 bytes (a note named near the limit) keeps the
    /// longest prefix that fits with `-` and 16 hex digits of the whole name's hash, so it is
    /// written and stays apart from other long names sharing the prefix.
    public static func page(ofNote path: String) -> String {
        let stem = path.lowercased().hasSuffix(".md") ? String(path.dropLast(3)) : path
        var components = stem.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = components.last, last.utf8.count + 5 > SafeFileName.maxBytes {
            let digest = String(ContentHash.hash(Data(last.utf8)), radix: 16)
            let tag = "-" + String(repeating: "0", count: 16 - digest.count) + digest
            components[components.count - 1] = SafeFileName.prefix(last, bytes: SafeFileName.maxBytes - 5 - tag.utf8.count) + tag
        }
        return "notes/" + components.joined(separator: "/") + ".html"
    }

    /// The site path of a copied attachment.
    public static func file(ofAttachment path: String) -> String { "files/" + path }

    /// The URL of site path `target` (optionally with a `#fragment`) from the page at site path
    /// `page`: relative and percent-encoded, so the site works from any folder and from `file://`.
    public static func href(to target: String, from page: String, fragment: String? = nil) -> String {
        let from = page.split(separator: "/").dropLast().map(String.init)
        let to = target.split(separator: "/").map(String.init)
        var common = 0
        while common < min(from.count, to.count - 1), from[common] == to[common] { common += 1 }
        let path = (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
        let encoded = path.isEmpty ? "" : HTMLText.urlPath(path)
        guard let fragment, !fragment.isEmpty else { return encoded }
        return encoded + "#" + HTMLText.urlPath(fragment)
    }

    /// The way up from the page at site path `page` to the site's root (`""`, `"../"`, …).
    public static func root(from page: String) -> String {
        String(repeating: "../", count: max(0, page.split(separator: "/").count - 1))
    }
}
