import Foundation

/// File names from titles. Rules: Unicode letters and digits are kept (NFC, lowercased), so
/// "Café" stays "café" and CJK stays as written; apostrophes vanish ("Woody's" → "woodys");
/// every other run of characters becomes one `-`; no leading or trailing `-` or `.`; at most
/// `maxBytes` bytes of UTF-8 before `.md`; an empty result is `untitled`.
/// "Woody's Last Ride!" → `woodys-last-ride.md`.
public enum Slug {
    /// The longest slug, in UTF-8 bytes, before the `.md` extension.
    public static let maxBytes = 80

    /// The slug of `title` (no extension).
    public static func slug(forTitle title: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in title.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" || scalar == "\u{2018}" { continue }
            let properties = scalar.properties
            let keep = properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            guard keep, scalar.value >= 0x30 else {
                pendingDash = true
                continue
            }
            if pendingDash, !slug.isEmpty { slug.append("-") }
            pendingDash = false
            if slug.utf8.count + String(scalar).utf8.count > maxBytes { break }
            slug.unicodeScalars.append(scalar)
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "untitled" : slug
    }

    /// `slug(forTitle:)` + `.md`.
    public static func fileName(forTitle title: String) -> String {
        slug(forTitle: title) + ".md"
    }
}
