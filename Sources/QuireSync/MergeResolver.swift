import Foundation
import QuireCore
import QuireGit

/// Merges a note changed on both sides of a sync (DESIGN.md §4 "The resolver"): front matter
/// key by key against the common ancestor, the body three ways, and where both sides truly
/// collide the side the strategy names wins — with a `MergeDecision` recording what was dropped.
///
/// Deterministic: the same inputs give the same bytes on every device, and with `newest` (or
/// `keep-both`) swapping ours and theirs gives the same merged bytes, because the collision
/// winner depends only on content and commit times, and the merge always starts from its bytes.
public struct MergeResolver: Sendable {
    /// How collisions are settled.
    public var strategy: MergeStrategy
    /// The zone for reading and writing date-only and naive times.
    public var timeZone: TimeZone
    /// The names the decisions give the two sides (and a keep-both copy's title its origin).
    public var sides: MergeSideNames
    /// Why our side wins under `.ours` when it is no strategy the user chose (an edit saved
    /// while a sync ran: `Stamper`; an editor's unsaved buffer: QuireKit's `BufferMerge`);
    /// nil: "the strategy keeps …".
    public var oursWinsBecause: String?

    /// Creates a resolver; `timeZone` matters only for notes with naive or date-only times.
    public init(strategy: MergeStrategy = .newest, timeZone: TimeZone = .current, sides: MergeSideNames = .generic) {
        self.strategy = strategy
        self.timeZone = timeZone
        self.sides = sides
    }

    /// Merges a note changed on both sides. A nil `base` (added on both sides) is merged as an
    /// empty ancestor: identical sides give that content, different ones merge like any other.
    /// Throws only when libgit2's line merge fails.
    public func merge(path: String, base: Data?, ours: MergeSide, theirs: MergeSide) throws -> NoteMergeResult {
        let base = base ?? Data()
        if ours.data == theirs.data || base == theirs.data { return NoteMergeResult(merged: ours.data) }
        if base == ours.data { return NoteMergeResult(merged: theirs.data) }

        var outcome: (merged: Data, decisions: [MergeDecision], winner: MergeWinner)
        if let documents = editableDocuments(base: base, ours: ours.data, theirs: theirs.data) {
            // A side's `updatedAt` dates its edit only where that side changed it: a plain
            // `git commit` leaves the base's, and its commit time tells when it was made.
            let baseUpdatedAt = documents.base.fields(path: path).updatedAt
            func changed(_ date: Date?) -> Date? { date == baseUpdatedAt ? nil : date }
            let ranking = rank(ours: ours, theirs: theirs,
                               oursUpdatedAt: changed(documents.ours.fields(path: path).updatedAt),
                               theirsUpdatedAt: changed(documents.theirs.fields(path: path).updatedAt),
                               dayOnly: Self.hasDayOnlyUpdatedAt(documents.ours) && Self.hasDayOnlyUpdatedAt(documents.theirs))
            let (winner, loser) = ranking.winner == .ours
                ? (documents.ours, documents.theirs) : (documents.theirs, documents.ours)
            do {
                let merge = NoteMerge(path: path, timeZone: timeZone, ranking: ranking, sides: sides)
                let result = try merge.merge(base: documents.base, winner: winner, loser: loser)
                outcome = (result.merged, result.decisions, ranking.winner)
            } catch is CoreError {
                // A surgical edit the front matter refuses: fall back to the whole-file merge.
                outcome = try mergeWholeFile(path: path, base: base, ours: ours, theirs: theirs)
            }
        } else {
            outcome = try mergeWholeFile(path: path, base: base, ours: ours, theirs: theirs)
        }

        var result = NoteMergeResult(merged: outcome.merged, decisions: outcome.decisions)
        if strategy == .keepBoth, !outcome.decisions.isEmpty {
            let (winner, loser) = outcome.winner == .ours ? (ours.data, theirs.data) : (theirs.data, ours.data)
            result.keepBothCopy = keepBothCopy(path: path, loser: loser, winner: winner, from: sides.name(of: outcome.winner.other))
        }
        return result
    }

    /// Whether `changed` differs from `base` by more than a re-stamp of `updatedAt` (or a key
    /// read as it: `updated`, `modified`, …). A note whose front matter cannot be edited counts
    /// any byte change as real.
    public static func isRealChange(base: Data, changed: Data) -> Bool {
        if base == changed { return false }
        guard let base = withoutUpdatedAt(base), let changed = withoutUpdatedAt(changed) else { return true }
        return base != changed
    }

    /// The git blob id of `data` (SHA-1 of `blob <length>\0` and the bytes) as 40 hex digits.
    public static func blobID(_ data: Data) -> String {
        BlobHash.hex(data)
    }

    // MARK: - Internals

    /// The three documents when key-by-key merging applies: both sides have editable YAML front
    /// matter, the base has editable YAML or none, and every body is exact UTF-8.
    private func editableDocuments(base: Data, ours: Data, theirs: Data)
        -> (base: NoteDocument, ours: NoteDocument, theirs: NoteDocument)? {
        let documents = (NoteDocument(data: base, timeZone: timeZone), NoteDocument(data: ours, timeZone: timeZone),
                         NoteDocument(data: theirs, timeZone: timeZone))
        guard documents.1.format == .yaml, documents.2.format == .yaml, documents.0.format != .toml,
              [documents.0, documents.1, documents.2].allSatisfy({ $0.isEditable && Self.hasExactBody($0) })
        else { return nil }
        return documents
    }

    /// Whether the document's body decodes losslessly (so rewriting it keeps every byte).
    private static func hasExactBody(_ document: NoteDocument) -> Bool {
        let body = Data(document.body.utf8)
        return document.serialized().suffix(body.count) == body
    }

    /// Merges the whole file three ways (`BodyMerge`); where both sides changed the same words
    /// the collision winner's (by commit time under `newest`) are kept.
    private func mergeWholeFile(path: String, base: Data, ours: MergeSide, theirs: MergeSide) throws
        -> (merged: Data, decisions: [MergeDecision], winner: MergeWinner) {
        let ranking = rank(ours: ours, theirs: theirs, oursUpdatedAt: nil, theirsUpdatedAt: nil)
        let (winner, loser) = ranking.winner == .ours ? (ours.data, theirs.data) : (theirs.data, ours.data)
        let body = try BodyMerge.merge(base: base, older: loser, newer: winner)
        let decisions = BodyCollisions(body.collisions, lineOffset: 0, sides: sides, winner: ranking.winner)
            .decision(path: path, why: ranking.why).map { [$0] } ?? []
        return (body.merged, decisions, ranking.winner)
    }

    /// The side that wins collisions, and why in words: the side whose change of the note is
    /// newer. A side's edit time is its `updatedAt` where that side changed it (`oursUpdatedAt`,
    /// `theirsUpdatedAt`: nil where it did not), else the time of the commit that carried its
    /// change (`MergeSide.commitTime`). Equal times (or equal day-only `updatedAt`s, `dayOnly`,
    /// then compared by commit time) go to the device whose name sorts last, and sides without
    /// device names to the larger blob id: every device decides alike.
    func rank(ours: MergeSide, theirs: MergeSide, oursUpdatedAt: Date?, theirsUpdatedAt: Date?,
              dayOnly: Bool = false) -> MergeRanking {
        switch strategy {
        case .ours: return MergeRanking(winner: .ours, why: oursWinsBecause ?? "the strategy keeps \(sides.version(of: .ours))")
        case .theirs: return MergeRanking(winner: .theirs, why: "the strategy keeps \(sides.version(of: .theirs))")
        case .newest, .keepBoth: break
        }
        func editTime(_ side: MergeSide, _ updatedAt: Date?) -> (time: Date, words: String) {
            if let updatedAt { return (updatedAt, "updatedAt \(QuireClock.iso8601UTC(updatedAt))") }
            let time = QuireClock.iso8601UTC(side.commitTime)
            return (side.commitTime, side.timeSource.map { "commit time of \($0), \(time)" } ?? "commit time \(time)")
        }
        let mine = editTime(ours, oursUpdatedAt), other = editTime(theirs, theirsUpdatedAt)
        if mine.time != other.time {
            let winner: MergeWinner = mine.time > other.time ? .ours : .theirs
            return MergeRanking(winner: winner, why: "\(sides.version(of: winner)) is newer (\(winner == .ours ? mine.words : other.words))")
        }
        if dayOnly, oursUpdatedAt != nil, theirsUpdatedAt != nil, ours.commitTime != theirs.commitTime {
            let winner: MergeWinner = ours.commitTime > theirs.commitTime ? .ours : .theirs
            return MergeRanking(winner: winner, why: "updatedAt is the same day (\(QuireClock.iso8601UTC(mine.time))); "
                + "\(sides.version(of: winner)) was committed later (\(QuireClock.iso8601UTC(max(ours.commitTime, theirs.commitTime))))")
        }
        let generic = MergeSideNames.generic
        if sides.ours != sides.theirs, sides.ours != generic.ours, sides.theirs != generic.theirs {
            let winner: MergeWinner = Array(sides.ours.utf8).lexicographicallyPrecedes(Array(sides.theirs.utf8)) ? .theirs : .ours
            return MergeRanking(winner: winner, why: "both edits have the same time (\(mine.words)); "
                + "\(sides.version(of: winner)) wins the tie by device name")
        }
        let winner: MergeWinner = Self.blobID(ours.data) > Self.blobID(theirs.data) ? .ours : .theirs
        return MergeRanking(winner: winner, why: "both edits have the same time (\(mine.words)); "
            + "\(sides.version(of: winner)) has the larger blob id")
    }

    /// The loser's bytes with a new `id` (a UUID derived from path and both versions, so every
    /// device names the copy alike), `conflictOf: <old id>` and a title that says where it came
    /// from (`Road map (version from phone)`; the old title, else the file's name, as Obsidian
    /// titles a note); unchanged when its front matter cannot be edited.
    private func keepBothCopy(path: String, loser: Data, winner: Data, from origin: String) -> Data {
        var document = NoteDocument(data: loser, timeZone: timeZone)
        let oldID = document.value(forKey: "id")?.scalarText
        let seed = "quire keep-both\n\(path)\n\(Self.blobID(loser))\n\(Self.blobID(winner))"
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let oldTitle = document.value(forKey: "title")?.scalarText.flatMap { $0.isEmpty ? nil : $0 } ?? name
        do {
            try document.set("id", .string(Self.uuid(from: Data(seed.utf8))))
            if let oldID, !oldID.isEmpty { try document.set("conflictOf", .string(oldID)) }
        } catch {
            return loser
        }
        do {
            try document.set("title", .string("\(oldTitle) (version from \(origin))"))
            return document.serialized()
        } catch {
            return document.serialized()
        }
    }

    /// A lowercase name-based (version 5 style) UUID from the SHA-1 of `seed`.
    static func uuid(from seed: Data) -> String {
        var bytes = Array(SHA1.digest(seed).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x50
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let cuts = [8, 12, 16, 20]
        var result = ""
        for (offset, character) in hex.enumerated() {
            if cuts.contains(offset) { result.append("-") }
            result.append(character)
        }
        return result
    }

    /// Whether the note's update time (its first key of the `updatedAt` family) is a day
    /// without a time (`2026-12-01`).
    private static func hasDayOnlyUpdatedAt(_ document: NoteDocument) -> Bool {
        let text: String
        switch NoteFields.updatedAtKeys.lazy.compactMap({ document.value(forKey: $0) }).first {
        case let .date(_, written)?: text = written
        case let .string(written)?: text = written.trimmingCharacters(in: .whitespaces)
        default: return false
        }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        return text.utf8.count == 10 && text.utf8.enumerated().allSatisfy { offset, byte in
            offset == 4 || offset == 7 ? byte == UInt8(ascii: "-") : digits.contains(byte)
        }
    }

    /// The bytes of `data` without its updated-time keys; nil when its front matter is not
    /// editable YAML.
    private static func withoutUpdatedAt(_ data: Data) -> Data? {
        var document = NoteDocument(data: data)
        guard document.format == .yaml, document.isEditable else { return nil }
        let family = Set(NoteFields.updatedAtKeys.map { $0.lowercased() })
        do {
            for key in document.keys where family.contains(key.lowercased()) { try document.remove(key) }
        } catch {
            return nil
        }
        return document.serialized()
    }
}

/// Which side wins collisions and the words that explain it in a decision.
struct MergeRanking: Sendable {
    var winner: MergeWinner
    var why: String
}
