import Foundation

/// The places of a note's text where the older side's words lost (`BodyMerge.Collision`), as one
/// decision: its reason names each place by line and quotes both sides' words
/// (`line 14: '(chair)' from laptop lost to '(joins late)' from phone`), and its `lost` text
/// holds what was dropped, for `quire conflicts`.
struct BodyCollisions {
    let collisions: [BodyMerge.Collision]
    /// Lines before the text the collisions count from (the front matter's).
    let lineOffset: Int
    let sides: MergeSideNames
    /// The side whose words were kept.
    let winner: MergeWinner

    /// Places named in a reason; the rest are counted.
    static let namedPlaces = 3
    /// Characters quoted of each side's words.
    static let quoteLength = 60
    /// Characters of dropped text a decision keeps (the whole losing version stays restorable).
    static let lostLength = 4_000

    init(_ collisions: [BodyMerge.Collision], lineOffset: Int, sides: MergeSideNames, winner: MergeWinner) {
        self.collisions = collisions
        self.lineOffset = lineOffset
        self.sides = sides
        self.winner = winner
    }

    /// The decision, nil when nothing collided. `why`: the ranking's words; `key`: the
    /// front-matter key whose multi-line value the places are in (lines counted in the value).
    func decision(path: String, why: String, key: String? = nil) -> MergeDecision? {
        guard !collisions.isEmpty else { return nil }
        let (loser, kept) = (sides.name(of: winner.other), sides.name(of: winner))
        var places = collisions.prefix(Self.namedPlaces).map { collision -> String in
            let line = "line \(collision.line + lineOffset)"
            if collision.lost.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return "\(line): \(loser) removed what \(kept) changed to \(Self.quote(collision.kept))"
            }
            return "\(line): \(Self.quote(collision.lost)) from \(loser) lost to \(Self.quote(collision.kept)) from \(kept)"
        }
        if collisions.count > Self.namedPlaces { places.append("and \(collisions.count - Self.namedPlaces) more places") }
        let lost = collisions.map { "line \($0.line + lineOffset): \($0.lost.trimmingCharacters(in: .whitespaces))" }.joined(separator: "\n")
        let what = key.map { "the same words of front-matter key '\($0)'" } ?? "the same words"
        return MergeDecision(path: path, winner: winner,
                             reason: "both sides changed \(what) (\(places.joined(separator: "; "))); \(why)",
                             lost: lost.count <= Self.lostLength ? lost : String(lost.prefix(Self.lostLength)) + "…")
    }

    /// `'words'`, on one line and shortened.
    static func quote(_ text: String) -> String {
        var flat = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\r\n", with: " / ").replacingOccurrences(of: "\n", with: " / ")
        if flat.count > quoteLength { flat = String(flat.prefix(quoteLength - 1)) + "…" }
        return "'\(flat)'"
    }
}
