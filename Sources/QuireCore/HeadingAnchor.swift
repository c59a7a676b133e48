/// Heading anchors as GitHub and Hugo make them: lowercased, punctuation dropped, spaces turned
/// into hyphens (`## Act Two: the Fall` → `act-two-the-fall`, `Smileys & Emotion` →
/// `smileys--emotion`); a repeated one gets `-1`, `-2`, …. The ids of the site export's
/// headings, and one of the forms `NoteAnchors.headingIndex` accepts.
public struct HeadingAnchor: Sendable {
    private var used: [String: Int] = [:]

    /// A fresh set of anchors (one per page).
    public init() {}

    /// The slug of a heading's text (letters and digits of every script are kept).
    public static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " || scalar == "-" {
                slug.append("-")
            } else if scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                        || scalar.properties.generalCategory == .nonspacingMark {
                slug.unicodeScalars.append(scalar)
            }
        }
        return slug.isEmpty ? "section" : slug
    }

    /// The anchor of the next heading with this text: its slug, made unique on the page.
    public mutating func next(_ text: String) -> String {
        let base = Self.slug(text)
        guard let count = used[base] else {
            used[base] = 0
            return base
        }
        var candidate = "\(base)-\(count + 1)"
        var next = count + 1
        while used[candidate] != nil {
            next += 1
            candidate = "\(base)-\(next)"
        }
        used[base] = next
        used[candidate] = 0
        return candidate
    }
}
