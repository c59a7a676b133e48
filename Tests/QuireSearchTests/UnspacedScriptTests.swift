import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// Thai, Lao, Khmer and Burmese put no spaces between words: ICU's dictionary word breaks find
/// them, so a word is findable inside a run of text.
@Suite struct UnspacedScriptTests {
    /// A paragraph of Thai (written for this test) about the Thai script, and words a reader
    /// would look for in it.
    static let thai = """
        ภาษาไทยเป็นภาษาราชการของประเทศไทย คนไทยส่วนใหญ่พูดภาษาไทยเป็นภาษาแม่ \
        ตัวอักษรไทยถูกประดิษฐ์ขึ้นในสมัยพ่อขุนรามคำแหงมหาราช การเขียนภาษาไทยไม่มีการเว้นวรรคระหว่างคำ \
        ทำให้การค้นหาคำในเอกสารเป็นเรื่องยากสำหรับโปรแกรมคอมพิวเตอร์
        """
    static let thaiWords = [
        "ภาษา", "ไทย", "ภาษาไทย", "ราชการ", "ประเทศ", "ประเทศไทย", "คน", "ส่วนใหญ่", "พูด", "แม่",
        "ตัวอักษร", "ประดิษฐ์", "สมัย", "เขียน", "เว้นวรรค", "ระหว่าง", "คำ", "ค้นหา", "เอกสาร",
        "เรื่อง", "ยาก", "โปรแกรม", "คอมพิวเตอร์",
    ]
    /// Lao, Khmer and Burmese: one sentence each ("I like to read books" and the like).
    static let others = [
        ("ຂ້ອຍມັກອ່ານປຶ້ມ", ["ຂ້ອຍ", "ມັກ", "ອ່ານ", "ປຶ້ມ"]),
        ("ខ្ញុំចូលចិត្តអានសៀវភៅ", ["ខ្ញុំ", "ចូលចិត្ត", "អាន", "សៀវភៅ"]),
        ("ကျွန်တော်စာအုပ်ဖတ်ရတာကြိုက်တယ်", ["ကျွန်တော်", "စာအုပ်", "ဖတ်"]),
    ]

    /// The share of `words` a search of `body` finds.
    static func recall(body: String, words: [String]) throws -> (Double, [String]) {
        let catalog = Catalog(notes: [Note(path: "note.md", title: "Note", body: body)])
        var missed: [String] = []
        for word in words where try catalog.run(NoteQuery.parse(word, now: Date())).isEmpty {
            missed.append(word)
        }
        return (Double(words.count - missed.count) / Double(words.count), missed)
    }

    @Test func thaiWordsAreFoundInsideRunningText() throws {
        // Before segmentation each space-separated run was one token: 0 of these 23 were found.
        // Now 22 are; the one missed is part of a compound ICU's dictionary holds as one word
        // (ประเทศไทย, "Thailand"), which a prefix query finds.
        let (recall, missed) = try Self.recall(body: Self.thai, words: Self.thaiWords)
        #expect(missed == ["ประเทศ"])
        #expect(recall > 0.95)
        let catalog = Catalog(notes: [Note(path: "note.md", title: "Note", body: Self.thai)])
        #expect(try catalog.run(NoteQuery.parse("ประเทศ*", now: Date())).count == 1)
        // A word that is not in the text is not found through a longer one.
        #expect(try catalog.run(NoteQuery.parse("แมว", now: Date())).isEmpty)
    }

    @Test func laoKhmerAndBurmeseWordsAreFound() throws {
        for (text, words) in Self.others {
            let (_, missed) = try Self.recall(body: text, words: words)
            #expect(missed == [], "\(text)")
        }
    }

    @Test func otherTextKeepsItsTokens() {
        #expect(Tokenizer.terms(in: "Café au lait, C++ และ ภาษาไทย 2026") == ["cafe", "au", "lait", "c++", "และ", "ภาษา", "ไทย", "2026"])
        #expect(Tokenizer.tokens(in: "xภาษาy").map(\.utf8Range) == [0..<1, 1..<13, 13..<14])
    }
}
