import Foundation

extension NoteResolver {
    /// The shortest query matched as letters in order (`vtr` → "Vim tricks").
    public static let minimumFuzzyLength = 3

    /// The last steps of resolution, after the exact ones: the notes whose title contains every
    /// word of `query` (case- and accent-insensitively), else — for a query of at least
    /// `minimumFuzzyLength` characters — those whose title holds its letters in order. One
    /// match is the note; several throw `CoreError.ambiguousNote` listing them; none gives nil.
    public func partialMatch(_ query: String) throws -> Note? {
        let words = Self.fold(query).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        let titles = notes.map { Self.fold($0.title) }
        let containing = notes.indices.filter { index in words.allSatisfy { titles[index].contains($0) } }
        if let note = try unique(containing.map { notes[$0] }, query) { return note }
        let letters = Array(words.joined().unicodeScalars)
        guard letters.count >= Self.minimumFuzzyLength else { return nil }
        let fuzzy = notes.indices.filter { Self.holdsInOrder(letters, titles[$0]) }
        return try unique(fuzzy.map { notes[$0] }, query)
    }

    /// Lowercased, without accents: how partial matching compares text. ASCII text (most
    /// titles) is only lowercased, which is all the folding does to it, without Foundation's
    /// folding of each character (a NOTE argument folds every title of the vault).
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether `text` holds `letters` in this order (not necessarily side by side).
    static func holdsInOrder(_ letters: [Unicode.Scalar], _ text: String) -> Bool {
        var next = 0
        for scalar in text.unicodeScalars where next < letters.count && scalar == letters[next] { next += 1 }
        return next == letters.count
    }
}
