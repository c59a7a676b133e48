import Foundation
import QuireCore
import QuireGit

/// One key-by-key merge of a note whose three versions all have editable front matter. It
/// works from the merge base: each key's lines changed on one side only are taken from that
/// side byte for byte (`FrontMatterBlocks`), whichever side is newer; keys changed on both sides
/// are merged by value with surgical edits of the winner's lines, so formatting, comments, key
/// order and key forms survive. Front matter that cannot be cut into keys line by line starts
/// from the collision winner's bytes and takes the loser's changes by value.
struct NoteMerge {
    let path: String
    let timeZone: TimeZone
    let ranking: MergeRanking
    /// The devices' names, for the places a decision names.
    var sides: MergeSideNames = .generic

    private static let updatedKeys = Set(NoteFields.updatedAtKeys.map { $0.lowercased() })
    private static let createdKeys = Set(NoteFields.createdAtKeys.map { $0.lowercased() })
    private static let tagKeys = Set(NoteFields.tagKeys.map { $0.lowercased() })

    /// Merges `loser`'s changes against `base` into `winner`. Throws `CoreError` when an edit
    /// is refused (the caller then merges the whole file) and libgit2's errors.
    func merge(base: NoteDocument, winner: NoteDocument, loser: NoteDocument) throws
        -> (merged: Data, decisions: [MergeDecision]) {
        var result = winner
        var decisions: [MergeDecision] = []
        let baseValues = Self.values(base), winnerValues = Self.values(winner), loserValues = Self.values(loser)
        var keys = Self.uniqueKeys(winner)
        keys += Self.uniqueKeys(loser).filter { winnerValues[$0] == nil }
        if let merged = FrontMatterBlocks.merge(base: base, winner: winner, loser: loser) {
            (result, keys) = (merged.document, merged.collided)
            decisions += merged.droppedComments.map { place in
                MergeDecision(path: path, winner: ranking.winner,
                              reason: "both sides changed the comment lines \(place) in the front matter; \(ranking.why)")
            }
        }

        for key in keys {
            let (old, mine, theirs) = (baseValues[key], winnerValues[key], loserValues[key])
            if Self.same(mine, theirs) || Self.same(theirs, old) { continue }
            if Self.same(mine, old) {
                if let theirs { try result.set(key, theirs) } else { try result.remove(key) }
                continue
            }
            // Both sides changed the key, to different values.
            let lowered = key.lowercased()
            if let mine, let theirs, Self.updatedKeys.contains(lowered) || Self.createdKeys.contains(lowered) {
                if let chosen = pickDate(mine, theirs, later: Self.updatedKeys.contains(lowered)) {
                    try result.set(key, chosen)
                }
            } else if let mine, let theirs, Self.tagKeys.contains(lowered),
                      let merged = Self.mergeTags(old, mine, theirs) {
                if merged.map({ $0.lowercased() }) != NoteFields.tags(from: mine).map({ $0.lowercased() }) {
                    if result.tagsKey == key { try result.setTags(merged) }
                    else { try result.set(key, .list(merged.map { .string($0) })) }
                }
            } else if let mine, let theirs, let merged = Self.mergeLists(old, mine, theirs) {
                if !Self.same(.list(merged), mine) { try result.set(key, .list(merged)) }
            } else if case let .string(mineText)? = mine, case let .string(theirsText)? = theirs, case let .string(oldText)? = old,
                      [oldText, mineText, theirsText].contains(where: { $0.contains("\n") }) {
                // A multi-line text (a block scalar) merges as the body does: only the words both
                // sides changed go to the newer side.
                let merged = try BodyMerge.merge(base: Data(oldText.utf8), older: Data(theirsText.utf8), newer: Data(mineText.utf8))
                let text = String(decoding: merged.merged, as: UTF8.self)
                if text != mineText { try result.set(key, .string(text)) }
                if let decision = BodyCollisions(merged.collisions, lineOffset: 0, sides: sides, winner: ranking.winner)
                    .decision(path: path, why: ranking.why, key: key) {
                    decisions.append(decision)
                }
            } else {
                decisions.append(MergeDecision(path: path, winner: ranking.winner,
                                               reason: "both sides changed front-matter key '\(key)'; \(ranking.why)"))
            }
        }
        try settleDates(&result, base: base, winner: winner, loser: loser)

        let body = try BodyMerge.merge(base: Data(base.body.utf8), older: Data(loser.body.utf8), newer: Data(winner.body.utf8))
        if body.merged != Data(result.body.utf8) { result.body = String(decoding: body.merged, as: UTF8.self) }
        if !body.collisions.isEmpty {
            // Lines are counted in the whole merged note: the body starts after the front matter.
            let serialized = result.serialized()
            let offset = serialized.prefix(serialized.count - body.merged.count).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let collisions = BodyCollisions(body.collisions, lineOffset: offset, sides: sides, winner: ranking.winner)
            if let decision = collisions.decision(path: path, why: ranking.why) { decisions.append(decision) }
        }
        return (result.serialized(), decisions)
    }

    /// Where both sides changed the time (in any key of its family): makes the merged
    /// `updatedAt` the later of both sides' and `createdAt` the earlier, in the key and form the
    /// merged note already uses (only when it holds another time). A time changed on one side
    /// only keeps that side's value, as any one-sided change does.
    private func settleDates(_ result: inout NoteDocument, base: NoteDocument, winner: NoteDocument,
                             loser: NoteDocument) throws {
        let (old, mine, theirs) = (base.fields(path: path), winner.fields(path: path), loser.fields(path: path))
        let merged = result.fields(path: path)
        if mine.updatedAt != old.updatedAt, theirs.updatedAt != old.updatedAt,
           let current = merged.updatedAt, let target = [mine.updatedAt, theirs.updatedAt].compactMap({ $0 }).max(),
           abs(current.timeIntervalSince(target)) >= 1 {
            try result.setUpdatedAt(target)
        }
        if mine.createdAt != old.createdAt, theirs.createdAt != old.createdAt,
           let current = merged.createdAt, let target = [mine.createdAt, theirs.createdAt].compactMap({ $0 }).min(),
           abs(current.timeIntervalSince(target)) >= 1 {
            try result.setCreatedAt(target)
        }
    }

    /// The loser's date value when it is later (`later`) or earlier than the winner's; nil to
    /// keep the winner's.
    private func pickDate(_ mine: FrontMatterValue, _ theirs: FrontMatterValue, later: Bool) -> FrontMatterValue? {
        guard let theirDate = NoteFields.date(from: theirs, timeZone: timeZone) else { return nil }
        guard let myDate = NoteFields.date(from: mine, timeZone: timeZone) else { return theirs }
        return (later ? theirDate > myDate : theirDate < myDate) ? theirs : nil
    }

    /// Tags of both sides merged as a set (matched case-insensitively); nil when a value is
    /// neither a list nor a string.
    private static func mergeTags(_ base: FrontMatterValue?, _ mine: FrontMatterValue, _ theirs: FrontMatterValue) -> [String]? {
        func isTagValue(_ value: FrontMatterValue?) -> Bool {
            switch value {
            case let .list(items)?:
                // Lists or mappings inside are more than tags: the key then goes to the newer side whole.
                return !items.contains { if case .list = $0 { return true }; if case .map = $0 { return true }; return false }
            case .string?, .null?, nil: return true
            default: return false
            }
        }
        guard isTagValue(mine), isTagValue(theirs), isTagValue(base) else { return nil }
        return mergeSets(base: base.map(NoteFields.tags(from:)) ?? [], winner: NoteFields.tags(from: mine),
                         loser: NoteFields.tags(from: theirs), identity: { $0.lowercased() })
    }

    /// Two lists merged as sets; nil unless both sides are lists and the base is a list or absent.
    private static func mergeLists(_ base: FrontMatterValue?, _ mine: FrontMatterValue, _ theirs: FrontMatterValue)
        -> [FrontMatterValue]? {
        guard case let .list(mine) = mine, case let .list(theirs) = theirs else { return nil }
        let old: [FrontMatterValue]
        switch base {
        case let .list(items)?: old = items
        case nil, .null?: old = []
        default: return nil
        }
        return mergeSets(base: old, winner: mine, loser: theirs, identity: { $0.yamlText })
    }

    /// The winner's items less those the loser removed, then the loser's additions in its order.
    static func mergeSets<Item>(base: [Item], winner: [Item], loser: [Item], identity: (Item) -> String) -> [Item] {
        let old = Set(base.map(identity)), kept = Set(loser.map(identity))
        var result = winner.filter { !old.contains(identity($0)) || kept.contains(identity($0)) }
        var seen = Set(winner.map(identity))
        for item in loser where !old.contains(identity(item)) && seen.insert(identity(item)).inserted {
            result.append(item)
        }
        return result
    }

    /// Each key's first value.
    private static func values(_ document: NoteDocument) -> [String: FrontMatterValue] {
        var values: [String: FrontMatterValue] = [:]
        for entry in document.frontMatter where values[entry.key] == nil { values[entry.key] = entry.value }
        return values
    }

    /// The keys in document order, each once.
    private static func uniqueKeys(_ document: NoteDocument) -> [String] {
        var seen = Set<String>()
        return document.keys.filter { seen.insert($0).inserted }
    }

    /// Whether two values (or absences) are the same; NaN equals NaN.
    private static func same(_ left: FrontMatterValue?, _ right: FrontMatterValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case let (left?, right?): return left == right || left.yamlText == right.yamlText
        default: return false
        }
    }
}
