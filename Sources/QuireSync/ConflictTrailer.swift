import Foundation
import QuireGit

/// How a decision is written on a merge commit: one trailer line each,
/// `Quire-Conflict: winner=<ours|theirs> path=<percent-encoded path> reason=<text>`. A decision of
/// a merge the git CLI made (`DriverDecisions`) names that merge after the winner:
/// `winner=<…> merge=<commit> path=…`; a decision of a pending merge whose incoming side is not
/// the commit's parent (the git CLI committed the kept edit) names that side:
/// `winner=<…> theirs=<commit> path=…` (versions before these skip such lines). The text a
/// decision dropped in a few places of a note goes before the path, percent-encoded:
/// `winner=<…> lost=<text> path=…` (versions that do not know it read past it).
enum ConflictTrailer {
    static let key = "Quire-Conflict"

    static func line(for decision: MergeDecision, merge: OID? = nil, theirs: OID? = nil) -> String {
        let reason = decision.reason.replacingOccurrences(of: "\n", with: " ")
        var names = (merge.map { " merge=\($0.hex)" } ?? "") + (theirs.map { " theirs=\($0.hex)" } ?? "")
        if let lost = decision.lost { names += " lost=" + encode(lost) }
        return "\(key): winner=\(decision.winner.rawValue)\(names) path=\(encode(decision.path)) reason=\(reason)"
    }

    /// The merge commit a trailer names (`merge=`), if any.
    static func merge(in value: String) -> OID? { commit("merge", in: value) }

    /// The incoming side a trailer names (`theirs=`), if any.
    static func theirs(in value: String) -> OID? { commit("theirs", in: value) }

    private static func commit(_ name: String, in value: String) -> OID? {
        guard let pathRange = value.range(of: " path="),
              let range = value.range(of: " \(name)=", range: value.startIndex..<pathRange.lowerBound) else { return nil }
        return OID(hex: String(value[range.upperBound...].prefix(40)))
    }

    static func parse(_ value: String) -> MergeDecision? {
        guard value.hasPrefix("winner="), let pathRange = value.range(of: " path="),
              let reasonRange = value.range(of: " reason=", range: pathRange.upperBound..<value.endIndex) else { return nil }
        let winnerEnd = value.range(of: " ", range: value.startIndex..<pathRange.lowerBound)?.lowerBound ?? pathRange.lowerBound
        let winnerText = String(value[value.index(value.startIndex, offsetBy: 7)..<winnerEnd])
        guard let winner = MergeWinner(rawValue: winnerText),
              let path = String(value[pathRange.upperBound..<reasonRange.lowerBound]).removingPercentEncoding else { return nil }
        var lost: String?
        if let range = value.range(of: " lost=", range: value.startIndex..<pathRange.lowerBound) {
            lost = String(value[range.upperBound..<pathRange.lowerBound]).removingPercentEncoding
        }
        return MergeDecision(path: path, winner: winner, reason: String(value[reasonRange.upperBound...]), lost: lost)
    }

    private static func encode(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: " %;=")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
