import Testing
@testable import QuireSearch

@Suite struct TokenizerTests {
    @Test func foldsCaseAndDiacritics() {
        #expect(Tokenizer.terms(in: "Café NAÏVE Über Ångström résumé") == ["cafe", "naive", "uber", "angstrom", "resume"])
        #expect(Tokenizer.terms(in: "Straße ZOË") == ["strasse", "zoe"])
    }

    @Test func splitsOnPunctuationAndKeepsDigits() {
        #expect(Tokenizer.terms(in: "e-mail, don't x86_64 v2.0!") == ["e", "mail", "don", "t", "x86", "64", "v2", "0"])
        #expect(Tokenizer.terms(in: "  ...  ").isEmpty)
    }

    @Test func cjkCharactersAreTokensOfTheirOwn() {
        #expect(Tokenizer.terms(in: "東京タワー") == ["東", "京", "タ", "ワ", "ー"])
        #expect(Tokenizer.terms(in: "hello世界world") == ["hello", "世", "界", "world"])
        #expect(Tokenizer.terms(in: "한국어 text") == ["한", "국", "어", "text"])
    }

    @Test func rangesPointIntoTheSource() {
        let text = "Le café, 東京!"
        let tokens = Tokenizer.tokens(in: text)
        let bytes = Array(text.utf8)
        let pieces = tokens.map { String(decoding: bytes[$0.utf8Range], as: UTF8.self) }
        #expect(pieces == ["Le", "café", "東", "京"])
        #expect(tokens.map(\.isCJK) == [false, false, true, true])
    }

    @Test func combiningMarksStayWithTheirLetter() {
        #expect(Tokenizer.terms(in: "cafe\u{301} nai\u{308}ve") == ["cafe", "naive"])
    }

    @Test func symbolsAndEmojiAreTokensOfTheirOwn() {
        #expect(Tokenizer.terms(in: "🔥Hot🔥🔥 takes") == ["🔥", "hot", "🔥", "🔥", "takes"])
        #expect(Tokenizer.terms(in: "5€ → ©2026") == ["5", "€", "→", "©", "2026"])
        // The variation selector and the joiner belong to no token; a skin tone is a symbol.
        #expect(Tokenizer.terms(in: "❤️ 👨‍👩‍👧 👍🏽") == ["❤", "👨", "👩", "👧", "👍", "🏽"])
        #expect(Tokenizer.tokens(in: "a❤️b").map(\.utf8Range) == [0..<1, 1..<4, 7..<8])
        // Punctuation, ASCII or not, is still no token.
        #expect(Tokenizer.terms(in: "!!! — @ ... « » … •").isEmpty)
    }

    @Test func plusAndSharpSuffixesStayWithTheirWord() {
        #expect(Tokenizer.terms(in: "C++ and C#, F#. g++/clang") == ["c++", "and", "c#", "f#", "g++", "clang"])
        #expect(Tokenizer.terms(in: "(**C++**) `C#` C+-style") == ["c++", "c#", "c+", "style"])
        #expect(Tokenizer.terms(in: "a+b i+=1 x++y C#x 18+ C+++") == ["a", "b", "i", "1", "x", "y", "c", "x", "18", "c"])
        #expect(Tokenizer.terms(in: "C++") == ["c++"])
        #expect(Tokenizer.terms(in: ".NET node.js") == [".net", "node", "js"])
    }

    @Test func aDotThatBeginsAWordStaysWithIt() {
        #expect(Tokenizer.terms(in: "Use .NET, (**.NET**) and ~/.config/.gitignore") == ["use", ".net", ".net", "and", ".config", ".gitignore"])
        // Not where the dot ends a word or a sentence, nor before a digit or a second dot.
        #expect(Tokenizer.terms(in: "file.md end.Next 0.5 .5 ...and") == ["file", "md", "end", "next", "0", "5", "5", "and"])
        let tokens = Tokenizer.tokens(in: "a .NET b")
        #expect(tokens.map(\.utf8Range) == [0..<1, 2..<6, 7..<8])
    }
}

@Suite struct CaseFoldingTests {
    /// A single note answers a filter through the same attribute terms the index holds:
    /// case-insensitive, canonically equal, nested values under a tag or folder.
    @Test func filtersCompareCaseInsensitivelyWithNestedValues() {
        func note(tag: String? = nil, folder: String = "", project: String? = nil, mood: Int? = nil) -> NoteRecord {
            var record = NoteRecord(path: folder.isEmpty ? "a.md" : folder + "/a.md")
            record.folder = folder
            record.tags = tag.map { [$0] } ?? []
            record.project = project
            record.mood = mood
            return record
        }
        #expect(note(tag: "Work").matches(.tag("work")))
        #expect(note(tag: "WORK/Meetings").matches(.tag("work")))
        #expect(!note(project: "WORK/Meetings").matches(.project("work")))
        #expect(note(project: "Toy Story 5").matches(.project("toy story 5")))
        #expect(!note(tag: "Worker").matches(.tag("work")))
        #expect(!note(tag: "wor").matches(.tag("work")))
        #expect(note(tag: "Café").matches(.tag("café")))
        #expect(note(tag: "cafe\u{301}").matches(.tag("café")))
        #expect(note(folder: "ZOË/Trip").matches(.folder("zoë")))
        #expect(!note(folder: "ZOËtrip").matches(.folder("zoë")))
        #expect(!note(tag: "Cafe").matches(.tag("café")))
        #expect(note(tag: "日本").matches(.tag("日本")))
        #expect(note(mood: 4).matches(.mood(.greaterOrEqual, 4)) && !note(mood: 3).matches(.mood(.greaterOrEqual, 4)))
        #expect(!note().matches(.mood(.less, 5)))
        #expect(note().matches(.draft(false)) && !note().matches(.draft(true)))
    }

    /// Words of ASCII and Latin letters are folded from a table: it must give what Foundation
    /// gives for the whole word, for every such letter and for mixed words.
    @Test func latinWordsFoldAsFoundationFoldsThem() {
        let letters = (0x80..<0x240).compactMap(Unicode.Scalar.init).filter(Tokenizer.isWordScalar)
        #expect(letters.count > 350)
        func foundation(_ word: String) -> String {
            word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        for letter in letters {
            let word = "Ab" + String(Character(letter)) + "Z9"
            #expect(Tokenizer.terms(in: word) == [foundation(word)], "U+\(String(letter.value, radix: 16))")
        }
        var random = SystemRandomNumberGenerator()
        let ascii = Array("abcXYZ019".unicodeScalars)
        for _ in 0..<2000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                scalars.append(Bool.random(using: &random) ? letters.randomElement(using: &random) ?? "a"
                                                          : ascii.randomElement(using: &random) ?? "a")
            }
            let word = String(scalars)
            #expect(Tokenizer.terms(in: word) == [foundation(word)], "\(word)")
        }
    }
}

/// Scanning eight ASCII bytes at a time must give the tokens of the byte-by-byte scan.
struct TokenizerChunkTests {
    static func tokensBothWays(_ text: String) -> (eight: [[Int]], single: [[Int]]) {
        func tokens(_ eightAtATime: Bool) -> [[Int]] {
            var found: [[Int]] = []
            Tokenizer.scan(text, eightAtATime: eightAtATime) { _, range, isASCII, isCJK in
                found.append([range.lowerBound, range.upperBound, isASCII ? 1 : 0, isCJK ? 1 : 0])
            }
            return found
        }
        return (tokens(true), tokens(false))
    }

    @Test func everyASCIIByteSeparatesOrJoinsAsBefore() {
        for byte in UInt8(0)..<0x80 {
            for offset in 0..<9 {
                let character = String(UnicodeScalar(byte))
                let text = String(repeating: "a", count: offset) + character + "bc dé" + String(repeating: character, count: 9) + "Xy"
                let (eight, single) = Self.tokensBothWays(text)
                #expect(eight == single, "byte \(byte) at \(offset)")
            }
        }
        #expect(Self.tokensBothWays("abcdefgh ijklmnop qr").eight == [[0, 8, 1, 0], [9, 17, 1, 0], [18, 20, 1, 0]])
    }

    @Test func mixedTextTokenizesTheSameBothWays() {
        let pieces = ["a", "Z", "7", "word", "Longer", " ", "\n", ",", "-", "_", "@", "[", "`", "{", "é", "Ü",
                      "naïve", "e\u{301}", "日本", "テキスト", "한국", "—", "\u{3000}", "ß", "Ω", "٣", "\u{12}",
                      "+", "#", "C++", "c#", "🔥", "❤️", "\u{FE0F}", "€", ".", ".NET", "(", "/"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &random) { text += pieces.randomElement(using: &random) ?? "" }
            let (eight, single) = Self.tokensBothWays(text)
            #expect(eight == single, "\(text.debugDescription)")
        }
    }
}
