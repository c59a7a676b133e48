import Foundation
import QuireTestSupport
import Testing
@testable import QuireSync

/// The merge checked on random edits of both sides (issue 31): from a base of prose, lists, a
/// table and code, each side makes random edits — a word replaced, a word added, a line
/// replaced, added or deleted — each carrying a unique marker. For every case:
/// (a) every edit of a side that overlaps no edit of the other survives (different lines, and
///     different words of one line, adjacent or not);
/// (b) the merge made on either device (sides swapped, names swapped) gives the same bytes;
/// (c) every marker missing from the result is in the decision's dropped text;
/// (d) the result repeats no run of text neither side repeated.
/// `QUIRE_MERGE_CASES` sets how many cases run (Benchmarks/merge-fuzz.sh runs thousands).
@Suite struct MergeGenerativeTests {
    @Test func randomEditsOnBothSidesKeepEveryEditThatOverlapsNothing() throws {
        let cases = Int(ProcessInfo.processInfo.environment["QUIRE_MERGE_CASES"] ?? "") ?? 300
        var failures: [String] = []
        for seed in 0..<cases {
            var generated = MergeCase(seed: UInt64(seed))
            if let failure = try generated.check() { failures.append(failure) }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}

/// One generated case (see `MergeGenerativeTests`).
struct MergeCase {
    /// A side's edit: which base line (and word) it touched and the marker it wrote.
    struct Edit {
        enum Kind { case replaceWord, addWord, replaceLine, insertLine, deleteLine }
        var kind: Kind
        var line: Int
        var word: Int = -1
        var marker: String = ""
    }

    var random: SeededGenerator
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
    }

    static let words = ["river", "lantern", "budget", "meeting", "garden", "orbit", "velvet", "harbor", "signal", "maple",
                        "copper", "thunder", "pixel", "saddle", "quartz", "ember", "falcon", "glacier", "hollow", "island",
                        "jasmine", "kettle", "ledger", "marble", "nectar", "oyster", "pepper", "quiver", "raven", "summit"]

    /// The base text: paragraphs, a list, a table and a fenced code block, lines of 4–12 words.
    mutating func base() -> [String] {
        var lines: [String] = ["# Notes \(seed)", ""]
        let count = random.next(12...30)
        for index in 0..<count {
            let sentence = (0..<random.next(4...12)).map { _ in Self.words[random.next(0...(Self.words.count - 1))] }
            switch index % 9 {
            case 3: lines.append("- " + sentence.joined(separator: " "))
            case 5: lines.append("| " + sentence.prefix(3).joined(separator: " | ") + " |")
            case 7: lines += ["```", "let " + sentence.joined(separator: "_") + " = 1", "```"]
            default: lines.append(sentence.joined(separator: " ") + ".")
            }
            if index % 4 == 3 { lines.append("") }
        }
        return lines
    }

    /// `count` random edits of `lines` by side `name`, on distinct lines unless `shared` lines are
    /// given to pick from first (to make collisions and same-line edits likely).
    mutating func edits(of lines: [String], side name: String, count: Int, preferring shared: [Int]) -> [Edit] {
        var result: [Edit] = []
        var used = Set<Int>()
        for number in 0..<count {
            var line = shared.isEmpty || random.next(0...2) == 0 ? random.next(0...(lines.count - 1)) : shared[random.next(0...(shared.count - 1))]
            var tries = 0
            // Lines that occur twice (blank lines, fences) are left alone: a diff may align an
            // edit of one with the other, which says nothing of the merge.
            while (used.contains(line) || lines.filter({ $0 == lines[line] }).count > 1) && tries < 40 {
                line = random.next(0...(lines.count - 1))
                tries += 1
            }
            if used.contains(line) || lines.filter({ $0 == lines[line] }).count > 1 { continue }
            used.insert(line)
            let marker = "zq\(name)\(number)x\(seed)"
            let wordCount = lines[line].split(separator: " ").count
            switch random.next(0...9) {
            case 0...3 where wordCount >= 2: result.append(Edit(kind: .replaceWord, line: line, word: random.next(0...(wordCount - 1)), marker: marker))
            case 4...5 where wordCount >= 1: result.append(Edit(kind: .addWord, line: line, word: random.next(0...(wordCount - 1)), marker: marker))
            case 6: result.append(Edit(kind: .replaceLine, line: line, marker: marker))
            case 7: result.append(Edit(kind: .deleteLine, line: line))
            default: result.append(Edit(kind: .insertLine, line: line, marker: marker))
            }
        }
        return result
    }

    /// `lines` with `edits` applied.
    static func apply(_ edits: [Edit], to lines: [String]) -> [String] {
        var result: [[String]] = lines.map { [$0] }
        for edit in edits {
            var words = lines[edit.line].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch edit.kind {
            case .replaceWord:
                words[edit.word] = edit.marker
                result[edit.line] = [words.joined(separator: " ")]
            case .addWord:
                words.insert(edit.marker, at: edit.word)
                result[edit.line] = [words.joined(separator: " ")]
            case .replaceLine: result[edit.line] = ["Now \(edit.marker) here."]
            case .deleteLine: result[edit.line] = []
            case .insertLine: result[edit.line] = [lines[edit.line], "Added \(edit.marker)."]
            }
        }
        return result.flatMap { $0 }
    }

    /// Whether `edit` (one of `own`) overlaps an edit of `other`. Each side's edits form hunks as
    /// a diff sees them: edits of consecutive lines are one hunk, and an added line joins the
    /// hunk of the line before or after it. Two hunks overlap when they change a common line, or
    /// one adds lines strictly inside the lines the other changed; adding lines at one place on
    /// both sides overlaps nothing (both are kept). Within one line changed on both sides only by
    /// word edits, words overlap when the same word is replaced, words are added before the same
    /// word, or (where a diff may align either way) a word is added beside the one the other
    /// replaced.
    static func overlaps(_ edit: Edit, own: [Edit], _ other: [Edit], lines: [String]) -> Bool {
        let mine = hunk(of: edit, in: own), theirs = other.map { hunk(of: $0, in: other) }
        for (index, their) in theirs.enumerated() {
            let collide: Bool
            switch (mine.isEmpty, their.isEmpty) {
            case (true, true): collide = false
            case (true, false): collide = their.lowerBound < mine.lowerBound && mine.lowerBound < their.upperBound
            case (false, true): collide = mine.lowerBound < their.lowerBound && their.lowerBound < mine.upperBound
            case (false, false): collide = mine.overlaps(their)
            }
            guard collide else { continue }
            let wordEdits: Set<Edit.Kind> = [.replaceWord, .addWord]
            let otherEdit = other[index]
            guard mine.count == 1, their.count == 1, wordEdits.contains(edit.kind), wordEdits.contains(otherEdit.kind) else { return true }
            if !wordBetween(edit, otherEdit, in: lines[edit.line]) { return true }
        }
        return false
    }

    /// Whether a word (letters or digits, not `|` or `-`) of the base line stands between the
    /// places two word edits touch: a replaced item, or the gap before the item a word is added at.
    static func wordBetween(_ one: Edit, _ two: Edit, in line: String) -> Bool {
        let items = line.split(separator: " ", omittingEmptySubsequences: false)
        func between(_ a: Edit, _ b: Edit) -> Range<Int> {
            switch (a.kind, b.kind) {
            case (.replaceWord, .replaceWord): return (a.word + 1)..<max(a.word + 1, b.word)
            case (.addWord, .addWord): return a.word..<max(a.word, b.word)
            case (.replaceWord, _): return (a.word + 1)..<max(a.word + 1, b.word)
            default: return a.word..<max(a.word, b.word)
            }
        }
        let (first, second) = one.word < two.word || (one.word == two.word && one.kind == .addWord) ? (one, two) : (two, one)
        if one.word == two.word && one.kind == two.kind { return false }
        return between(first, second).contains { index in
            index < items.count && items[index].contains { $0.isLetter || $0.isNumber }
        }
    }

    /// The base lines the hunk holding `edit` changes (empty at a point for added lines alone).
    static func hunk(of edit: Edit, in edits: [Edit]) -> Range<Int> {
        let changed = Set(edits.filter { $0.kind != .insertLine }.map(\.line))
        var low: Int, high: Int
        if edit.kind == .insertLine {
            // Lines added after line `line`: between it and the next.
            guard changed.contains(edit.line) || changed.contains(edit.line + 1) else { return (edit.line + 1)..<(edit.line + 1) }
            (low, high) = changed.contains(edit.line) ? (edit.line, edit.line + 1) : (edit.line + 1, edit.line + 2)
        } else {
            (low, high) = (edit.line, edit.line + 1)
        }
        // Grow over consecutive changed lines.
        while changed.contains(low - 1) { low -= 1 }
        while changed.contains(high) { high += 1 }
        return low..<high
    }

    /// Runs the case; nil when every property holds, else what failed.
    mutating func check() throws -> String? {
        let base = base()
        let shared = (0..<3).map { _ in random.next(0...(base.count - 1)) }
        let laptopEdits = edits(of: base, side: "L", count: random.next(1...4), preferring: shared)
        let phoneEdits = edits(of: base, side: "P", count: random.next(1...4), preferring: shared)
        let times = ["2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z"]
        let laptopTime = times[random.next(0...1)], phoneTime = times[random.next(0...1)]
        func note(_ lines: [String], _ updated: String) -> Data {
            Data(("---\nid: 6f1c2a9e-0000-4000-8000-000000000001\nupdatedAt: \(updated)\n---\n" + lines.joined(separator: "\n") + "\n").utf8)
        }
        let baseData = note(base, "2026-12-01T09:00:00Z")
        let laptop = note(Self.apply(laptopEdits, to: base), laptopTime)
        let phone = note(Self.apply(phoneEdits, to: base), phoneTime)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let onLaptop = try MergeResolver(strategy: .newest, sides: MergeSideNames(ours: "laptop", theirs: "phone"))
            .merge(path: "n.md", base: baseData, ours: MergeSide(data: laptop, commitTime: time), theirs: MergeSide(data: phone, commitTime: time))
        let onPhone = try MergeResolver(strategy: .newest, sides: MergeSideNames(ours: "phone", theirs: "laptop"))
            .merge(path: "n.md", base: baseData, ours: MergeSide(data: phone, commitTime: time), theirs: MergeSide(data: laptop, commitTime: time))
        let merged = String(decoding: onLaptop.merged, as: UTF8.self)
        let describe = "seed \(seed)\n--- base\n\(String(decoding: baseData, as: UTF8.self))--- laptop\n"
            + "\(String(decoding: laptop, as: UTF8.self))--- phone\n\(String(decoding: phone, as: UTF8.self))--- merged\n\(merged)"
        if onLaptop.merged != onPhone.merged {
            return "(b) not symmetric: \(describe)--- on phone\n\(String(decoding: onPhone.merged, as: UTF8.self))"
        }
        let lost = onLaptop.decisions.compactMap(\.lost).joined(separator: "\n")
        for (edits, others) in [(laptopEdits, phoneEdits), (phoneEdits, laptopEdits)] {
            for edit in edits where !edit.marker.isEmpty && !merged.contains(edit.marker) {
                if !Self.overlaps(edit, own: edits, others, lines: base) { return "(a) lost a non-overlapping edit \(edit): \(describe)" }
                if !lost.contains(edit.marker) { return "(c) dropped \(edit.marker) without a record: \(describe)\n--- lost\n\(lost)" }
            }
        }
        if DuplicateRuns.found(in: Array(onLaptop.merged), sides: [Array(laptop), Array(phone)]) {
            return "(d) a run repeated: \(describe)"
        }
        return nil
    }
}
