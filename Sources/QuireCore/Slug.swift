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

    /// The first of `base.md`, `base-2.md`, `base-3.md`, ... whose name (compared
    /// case-insensitively) is not in `taken`; a long base is cut so the name keeps within
    /// `SafeFileName.maxBytes`.
    public static func available(base: String, taken: Set<String>) -> String {
        let lowered = Set(taken.map { $0.lowercased() })
        func named(_ suffix: String) -> String {
            SafeFileName.prefix(base, bytes: SafeFileName.maxBytes - suffix.utf8.count) + suffix
        }
        var candidate = named(".md")
        var number = 2
        while lowered.contains(candidate.lowercased()) {
            candidate = named("-\(number).md")
            number += 1
        }
        return candidate
    }
}
