import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

/// `NoteParser.body(of:)` gives the body `parse` gives, without reading the rest.
@Suite struct NoteBodyTests {
    static let pieces: [[UInt8]] = [
        Array("---\n".utf8), Array("---\r\n".utf8), Array("+++\n".utf8), Array("title: A\n".utf8),
        Array("tags: [a, b]\n".utf8), Array("...\n".utf8), Array("\u{FEFF}".utf8), Array("# Heading\n".utf8),
        Array("Body text café 日本\n".utf8), Array("\r\n".utf8), Array("\n".utf8), [0xFF, 0xFE], [0xC3], [0x00],
        Array("title = \"T\"\n".utf8), Array("  indented: x\n".utf8), Array("---".utf8),
    ]

    @Test func theBodyIsParsesBody() {
        var random = SeededGenerator(seed: 0xB0D7)
        var binary = 0
        var withFrontMatter = 0
        for round in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.next(0...9) { bytes += Self.pieces[random.next(0...(Self.pieces.count - 1))] }
            let data = Data(bytes)
            let note = NoteParser.parse(data, path: "n.md")
            #expect(NoteParser.body(of: data) == note.body, "round \(round): \(bytes)")
            if bytes.contains(0) { binary += 1 }
            if note.format != .none { withFrontMatter += 1 }
        }
        #expect(binary > 100 && withFrontMatter > 100)
    }
}
