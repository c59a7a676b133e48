import Foundation
import QuireCore
import QuireGit

/// Merges a configuration file changed on both sides, so that no copy of it is ever written
/// beside it (where a tool would read it as config, or its rules would stop applying):
/// line lists (`.gitignore`, `.gitattributes`, `.quireignore`) line by line as ordered sets,
/// YAML under `.quire/` key by key like front matter, JSON under `.obsidian/` key by key where
/// every side is a JSON object. Otherwise, and where both sides changed one key, the newer side
/// (commit time, then the larger blob id) wins and the decision is recorded: the other version
/// stays in the conflict store (`quire conflicts show`).
struct ConfigFileMerge {
    /// How a configuration file merges.
    enum Kind {
        case lineList
        case yaml
        case json
    }

    let path: String
    let kind: Kind
    /// `ours` or `theirs` settle collisions that way; `newest` and `keep-both` by time (a
    /// config file is never kept twice).
    let strategy: MergeStrategy
    /// The names the decisions give the two sides.
    var sides: MergeSideNames = .generic

    /// The kind of configuration file at `path`, or nil for any other file.
    static func kind(of path: String) -> Kind? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if [".gitignore", ".gitattributes", ".quireignore"].contains(name) { return .lineList }
        if path.hasPrefix(".quire/"), name.hasSuffix(".yml") || name.hasSuffix(".yaml") { return .yaml }
        if path.hasPrefix(".obsidian/"), name.hasSuffix(".json") { return .json }
        return nil
    }

    /// Merges the blobs of a configuration file at one path on both sides (`base` nil when it
    /// was added on both) and stores the result; nil when `path` is no configuration file.
    static func merge(path: String, base: TreeEntry?, ours: (entry: TreeEntry, time: Date), theirs: (entry: TreeEntry, time: Date),
                      strategy: MergeStrategy, sides: MergeSideNames = .generic,
                      repository: Repository) throws -> (entry: TreeEntry, decisions: [MergeDecision])? {
        guard let kind = kind(of: path) else { return nil }
        let result = try ConfigFileMerge(path: path, kind: kind, strategy: strategy, sides: sides)
            .merge(base: try base.map { try repository.blobData($0.id) } ?? Data(),
                   ours: MergeSide(data: try repository.blobData(ours.entry.id), commitTime: ours.time),
                   theirs: MergeSide(data: try repository.blobData(theirs.entry.id), commitTime: theirs.time))
        let entry = TreeEntry(path: path, id: try repository.writeBlob(result.merged), kind: ours.entry.kind)
        return (entry, result.decisions)
    }

    /// The merged bytes and the decisions that dropped text.
    func merge(base: Data, ours: MergeSide, theirs: MergeSide) throws -> NoteMergeResult {
        if ours.data == theirs.data || base == theirs.data { return NoteMergeResult(merged: ours.data) }
        if base == ours.data { return NoteMergeResult(merged: theirs.data) }
        let ranking = MergeResolver(strategy: strategy == .keepBoth ? .newest : strategy, sides: sides)
            .rank(ours: ours, theirs: theirs, oursUpdatedAt: nil, theirsUpdatedAt: nil)
        let (winner, loser) = ranking.winner == .ours ? (ours.data, theirs.data) : (theirs.data, ours.data)
        switch kind {
        case .lineList:
            return NoteMergeResult(merged: Self.mergeLines(base: base, winner: winner, loser: loser))
        case .yaml:
            let documents = [base, winner, loser].map { NoteDocument(yamlFile: $0) }
            if documents.allSatisfy({ $0.format == .yaml && $0.isEditable }) {
                do {
                    let merged = try NoteMerge(path: path, timeZone: .current, ranking: ranking)
                        .merge(base: documents[0], winner: documents[1], loser: documents[2])
                    return NoteMergeResult(merged: merged.merged, decisions: merged.decisions)
                } catch is CoreError {
                    // A surgical edit refused: the newer file whole, as for unreadable YAML.
                }
            }
        case .json:
            if let merged = JSONObjectMerge.merge(base: base, winner: winner, loser: loser) {
                return NoteMergeResult(merged: merged.data, decisions: merged.collided.map { key in
                    MergeDecision(path: path, winner: ranking.winner, reason: "both sides changed key '\(key)'; \(ranking.why)")
                })
            }
        }
        return NoteMergeResult(merged: winner, decisions: [MergeDecision(
            path: path, winner: ranking.winner, reason: "both sides changed the file and it cannot be merged key by key; \(ranking.why)")])
    }

    /// The winner's lines less those the loser removed, then the lines the loser added, in its
    /// order; every line ends with the winner's line break.
    static func mergeLines(base: Data, winner: Data, loser: Data) -> Data {
        let newline = winner.firstRange(of: Data("\r\n".utf8)) != nil ? "\r\n" : "\n"
        func lines(_ data: Data) -> [String] {
            // At "\r\n" too: a CRLF line break is one `Character`, never equal to "\n" (a CRLF
            // file was one line, and merging two such files put both side by side).
            String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
                .reversed().drop(while: \.isEmpty).reversed()
        }
        let merged = NoteMerge.mergeSets(base: lines(base), winner: lines(winner), loser: lines(loser), identity: { $0 })
        return Data(merged.map { $0 + newline }.joined().utf8)
    }
}
