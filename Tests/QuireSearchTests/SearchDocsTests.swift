import Foundation
import Testing
@testable import QuireSearch

/// Docs/search.md's command examples go through the parser, so the docs cannot drift from it:
/// every `quire list|search` line of a shell block parses, a line saying "the same as" parses
/// to the same query, and every `$ quire …` error example fails with the message shown under it.
@Suite struct SearchDocsTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/search.md").standardized

    /// The words of a shell command line: single quotes literal, double quotes with `\` escapes.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { word = (word ?? "") + String(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let done = word { words.append(done) }
        return words
    }

    /// The query arguments of `quire list|search …` (options and a pipe removed).
    static func queryArguments(_ command: String) -> [String] {
        let words = shellWords(command.components(separatedBy: " | ")[0]).dropFirst(2)
        var arguments: [String] = []
        var skipValue = false
        for word in words {
            if skipValue { skipValue = false; continue }
            if ["--sort", "--limit", "--format"].contains(word) { skipValue = true; continue }
            if ["--paths", "--json", "--reverse", "-0"].contains(word) { continue }
            arguments.append(word)
        }
        return arguments
    }

    func parse(_ command: String) throws(QueryError) -> NoteQuery {
        try NoteQuery.parse(arguments: Self.queryArguments(command), now: Self.now)
    }

    @Test func shellSplitting() {
        #expect(Self.shellWords(#"quire list 'title:"road map" woody' -x"#) == ["quire", "list", #"title:"road map" woody"#, "-x"])
        #expect(Self.shellWords(#"quire list project:"Toy Story 5" ''"#) == ["quire", "list", "project:Toy Story 5", ""])
    }

    @Test func everyExampleParsesAsDocumented() throws {
        let lines = try String(contentsOf: Self.docs, encoding: .utf8).components(separatedBy: "\n")
        var inShell = false
        var examples = 0
        var errors = 0
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            if inShell, line.hasPrefix("quire list ") || line.hasPrefix("quire search ") {
                let parts = line.components(separatedBy: "  # ")
                let query = try parse(parts[0].trimmingCharacters(in: .whitespaces))
                examples += 1
                if parts.count > 1, let same = parts[1].components(separatedBy: "the same as: ").dropFirst().first {
                    #expect(try parse(same).root == query.root, "line \(index + 1)")
                }
            }
            if line.hasPrefix("$ quire list ") || line.hasPrefix("$ quire search ") {
                let shown = lines[index + 1]
                do {
                    _ = try parse(String(line.dropFirst(2)))
                    Issue.record("line \(index + 1) parses, but the docs show an error")
                } catch {
                    #expect(shown.hasPrefix("quire: error: bad query: "), "line \(index + 2)")
                    #expect(shown.contains(error.message), "line \(index + 2): \(error.message)")
                }
                errors += 1
            }
        }
        #expect(examples >= 10)
        #expect(errors >= 2)
    }
}
