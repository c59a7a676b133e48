import Foundation
import QuireCore
import QuireSync
import QuireTestSupport
import Testing

private typealias F = MergeFixture

/// A generated note: ordered keys and body lines, rendered with the case's line ending.
private struct NoteModel {
    var keys: [(String, String)]
    var body: [String]

    static let words = ["toy", "cowboy", "hat", "rope", "space", "ranger", "sheriff", "boots"]
    static let times = ["2026-01-01T10:00:00Z", "2026-01-02T10:00:00Z", "2026-01-03T10:00:00Z"]

    func render(newline: String, bom: Bool, broken: Bool) -> String {
        var lines = ["---"] + keys.map { "\($0.0): \($0.1)" }
        if broken { lines.append("title: [unclosed") }
        lines += ["---"] + body
        return (bom ? "\u{FEFF}" : "") + lines.map { $0 + newline }.joined()
    }

    mutating func set(_ key: String, _ value: String?) {
        if let index = keys.firstIndex(where: { $0.0 == key }) {
            if let value { keys[index].1 = value } else { keys.remove(at: index) }
        } else if let value {
            keys.append((key, value))
        }
    }

    mutating func mutate(_ random: inout SeededGenerator) {
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: set("color", ["red", "green", "blue", "yellow"].randomElement(using: &random))
            case 1: set("project", Bool.random(using: &random) ? nil : "Toy Story \(Int.random(in: 1...5, using: &random))")
            case 2, 3:
                var tags = keys.first { $0.0 == "tags" }.map {
                    $0.1.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                } ?? []
                if !tags.isEmpty, Bool.random(using: &random) { tags.remove(at: Int.random(in: 0..<tags.count, using: &random)) }
                if let word = Self.words.randomElement(using: &random), !tags.contains(word) { tags.append(word) }
                set("tags", "[" + tags.joined(separator: ", ") + "]")
            case 4, 5:
                let index = Int.random(in: 0..<body.count, using: &random)
                body[index] = (Self.words.randomElement(using: &random) ?? "") + " \(Int.random(in: 0..<9, using: &random))"
            case 6: body.insert("new " + (Self.words.randomElement(using: &random) ?? ""),
                                at: Int.random(in: 0...body.count, using: &random))
            case 7: if body.count > 1 { body.remove(at: Int.random(in: 0..<body.count, using: &random)) }
            case 8:
                // A comment after a value (issue 13 item 5: comments survive on either side).
                let color = keys.first { $0.0 == "color" }?.1.split(separator: "#").first?.trimmingCharacters(in: .whitespaces)
                set("color", (color ?? "blue") + " # note \(Int.random(in: 0..<9, using: &random))")
            default:
                // A comment line between keys (rendered `# remark N: seen`).
                keys.insert(("# remark \(Int.random(in: 0..<9, using: &random))", "seen"),
                            at: Int.random(in: 1...keys.count, using: &random))
            }
        }
        if Int.random(in: 0..<4, using: &random) > 0 { set("updatedAt", Self.times.randomElement(using: &random)) }
        if Int.random(in: 0..<6, using: &random) == 0 { set("createdAt", "2025-12-0\(Int.random(in: 1...9, using: &random))T00:00:00Z") }
    }
}

/// The two devices of the symmetry test: each names its own side, so a decision's words and a
/// keep-both copy's title do not depend on which side is `ours`.
private let devices = (a: MergeSideNames(ours: "laptop", theirs: "phone"), b: MergeSideNames(ours: "phone", theirs: "laptop"))

@Suite struct MergeSymmetryTests {
    @Test func mergedBytesDoNotDependOnWhichSideIsOurs() throws {
        var random = SeededGenerator(seed: 20_261_129)
        var collisions = 0
        for _ in 0..<250 {
            let base = NoteModel(keys: [("id", "woody"), ("title", "Woody"), ("color", "blue"),
                                        ("createdAt", "2025-12-05T00:00:00Z"), ("updatedAt", "2026-01-01T09:00:00Z"),
                                        ("tags", "[toy, cowboy]")],
                                 body: (1...6).map { "line \($0)" })
            var (ours, theirs) = (base, base)
            ours.mutate(&random)
            theirs.mutate(&random)
            let newline = Int.random(in: 0..<4, using: &random) == 0 ? "\r\n" : "\n"
            let bom = Int.random(in: 0..<6, using: &random) == 0
            let broken = Int.random(in: 0..<8, using: &random) == 0
            let texts = [base, ours, theirs].map { $0.render(newline: newline, bom: bom, broken: broken) }
            let times = (0..<2).map { _ in "2026-02-0\(Int.random(in: 1...2, using: &random))T00:00:00Z" }
            let (a, b) = (F.side(texts[1], at: times[0]), F.side(texts[2], at: times[1]))

            for strategy in [MergeStrategy.newest, .keepBoth] {
                let forward = try F.merge(texts[0], a, b, strategy: strategy, sides: devices.a)
                let backward = try F.merge(texts[0], b, a, strategy: strategy, sides: devices.b)
                #expect(forward.merged == backward.merged, "\(texts)")
                #expect(forward.keepBothCopy == backward.keepBothCopy)
                #expect(forward.decisions.map(\.reason) == backward.decisions.map(\.reason))
                #expect(forward.decisions.map { $0.winner == .ours } == backward.decisions.map { $0.winner == .theirs })
                #expect(!F.text(forward.merged).contains("<<<<<<<"))
                if !broken {
                    #expect(NoteParser.parse(forward.merged, path: "woody.md").problems.isEmpty)
                    #expect(F.text(forward.merged).hasPrefix(bom ? "\u{FEFF}---" + newline : "---" + newline))
                }
                if newline == "\r\n" {
                    #expect(!F.text(forward.merged).replacingOccurrences(of: "\r\n", with: "").contains("\n"))
                    // The keep-both copy's new title and keys keep the note's line ends too.
                    if let copy = forward.keepBothCopy, !broken {
                        #expect(!F.text(copy).replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(F.text(copy))")
                    }
                }
                if strategy == .newest { collisions += forward.decisions.isEmpty ? 0 : 1 }
            }
            let oursFirst = try F.merge(texts[0], a, b, strategy: .ours)
            let theirsSecond = try F.merge(texts[0], b, a, strategy: .theirs)
            #expect(oursFirst.merged == theirsSecond.merged)
        }
        #expect(collisions > 15)
    }
}
