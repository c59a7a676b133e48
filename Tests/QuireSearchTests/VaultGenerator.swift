import Foundation
import QuireCore
import QuireSearch
import QuireTestSupport

/// Generates varied notes: accents, CJK, nested tags, projects with spaces, folders, dates,
/// unknown keys, missing fields.
struct VaultGenerator {
    static let vocabulary = [
        "apple", "apply", "applied", "banana", "band", "bandana", "cafe", "Café", "CAFÉ", "naïve",
        "naive", "Über", "uber", "résumé", "resume", "toy", "story", "woody", "buzz", "space",
        "ranger", "garden", "garage", "note", "notes", "notebook", "alpha", "beta", "gamma",
        "delta", "river", "rivers", "e-mail", "don't", "x86", "2026", "v2", "ångström", "zoë",
        "東京", "タワー", "日本語", "中文", "한국어", "the", "a", "of", "and", "Straße",
    ]
    static let tags = ["work", "Work/Meetings", "work/meetings/weekly", "home", "ideas", "idea",
                       "Toy/Story", "music", "reading", "日本"]
    static let projects = ["Toy Story 5", "toy story 5", "Quire", "Garden", "Zoë's Plan"]
    static let folders = ["", "Drafts", "Drafts/Old", "Journal", "journal/2026", "Projects/Toy Story", "Drafts2"]
    static let colors = ["red", "Blue", "green"]
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    mutating func chance(_ percent: UInt64) -> Bool {
        random.next() % 100 < percent
    }

    mutating func words(_ count: Int) -> String {
        var parts: [String] = []
        for _ in 0..<count {
            var word = pick(Self.vocabulary)
            if chance(5) { word += pick([",", ".", "!", ":"]) }
            parts.append(word)
        }
        return parts.joined(separator: chance(20) ? "  " : " ")
    }

    mutating func note(index: Int) -> Note {
        let folder = pick(Self.folders)
        let name = String(format: "note-%04d", index) + (chance(10) ? " café" : "")
        let path = folder.isEmpty ? "\(name).md" : "\(folder)/\(name).md"
        var note = Note(path: path, folder: folder)
        note.title = chance(85) ? words(Int(random.next() % 4) + 1) : name
        note.hasTitle = true
        var tags: [String] = []
        for _ in 0..<Int(random.next() % 4) {
            let tag = pick(Self.tags)
            if !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.append(tag) }
        }
        note.tags = tags
        if chance(60) { note.project = pick(Self.projects) }
        note.draft = chance(30)
        note.pinned = chance(10)
        if chance(50) { note.color = pick(Self.colors) }
        if chance(70) { note.mood = Int(random.next() % 5) + 1 }
        if chance(40) { note.priority = chance(50) ? .int(Int(random.next() % 4)) : .string(pick(["high", "Low"])) }
        if chance(20) { note.aliases = [words(2)] }
        if chance(90) { note.createdAt = Self.start.addingTimeInterval(Double(random.next() % 30_000_000)) }
        if chance(90) {
            note.updatedAt = (note.createdAt ?? Self.start).addingTimeInterval(Double(random.next() % 5_000_000))
        }
        note.body = (0..<Int(random.next() % 4)).map { _ in words(Int(random.next() % 40)) }.joined(separator: "\n\n")
        note.words = Tokenizer.terms(in: note.body).count
        var entries: [FrontMatterEntry] = [FrontMatterEntry(key: "title", value: .string(note.title))]
        if chance(40) { entries.append(FrontMatterEntry(key: "status", value: .string(pick(["Done", "todo", "waiting"])))) }
        if chance(30) { entries.append(FrontMatterEntry(key: "rating", value: pick([.int(3), .float(4.5), .int(1)]))) }
        if chance(30) {
            entries.append(FrontMatterEntry(key: "Topics", value: .list([.string(pick(["Swift", "git"])), .string("notes")])))
        }
        if chance(10) { entries.append(FrontMatterEntry(key: "reviewed", value: .bool(chance(50)))) }
        if chance(20) {
            let due = Self.start.addingTimeInterval(Double(random.next() % 20_000_000))
            entries.append(FrontMatterEntry(key: "due", value: pick([.date(due, text: "due"), .string("2026-04-01"), .string("soon")])))
        }
        note.frontMatter = entries
        if chance(5) { note.problems = [NoteProblem(kind: .invalidYAML, line: 2, message: "bad yaml")] }
        return note
    }

    mutating func notes(count: Int) -> [Note] {
        (0..<count).map { note(index: $0) }
    }
}
