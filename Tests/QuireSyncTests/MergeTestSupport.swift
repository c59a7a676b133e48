import Foundation
import QuireSync

/// Helpers shared by the merge tests (named `Merge…` so they stay with them).
enum MergeFixture {
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    static func side(_ text: String, at time: String = "2026-01-01T00:00:00Z") -> MergeSide {
        MergeSide(data: Data(text.utf8), commitTime: date(time))
    }

    static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    static func merge(_ base: String?, _ ours: MergeSide, _ theirs: MergeSide, path: String = "woody.md",
                      strategy: MergeStrategy = .newest, sides: MergeSideNames = .generic) throws -> NoteMergeResult {
        try MergeResolver(strategy: strategy, timeZone: utc, sides: sides)
            .merge(path: path, base: base.map { Data($0.utf8) }, ours: ours, theirs: theirs)
    }

    static func text(_ data: Data?) -> String {
        data.map { String(decoding: $0, as: UTF8.self) } ?? "<nil>"
    }
}
