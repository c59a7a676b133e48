import Foundation
import Testing
@testable import QuireCore

@Suite struct SafeFileNameTests {
    @Test func titlesBecomeNamesEveryOSTakes() {
        #expect(SafeFileName.fileName(forTitle: "Woody's last ride") == "Woody's last ride.md")
        #expect(SafeFileName.fileName(forTitle: "Q: what now?") == "Q what now.md")
        #expect(SafeFileName.fileName(forTitle: "a/b\\c*d\"e<f>g|h") == "a b c d e f g h.md")
        #expect(SafeFileName.fileName(forTitle: "See [[x]] #tag ^block") == "See x tag block.md")
        #expect(SafeFileName.fileName(forTitle: "tab\there\u{7}bell") == "tab here bell.md")
        #expect(SafeFileName.fileName(forTitle: "...hidden") == "hidden.md")
        #expect(SafeFileName.fileName(forTitle: "Ends with dots... ") == "Ends with dots.md")
        #expect(SafeFileName.fileName(forTitle: "CON") == "CON_.md")
        #expect(SafeFileName.fileName(forTitle: "nul.txt") == "nul.txt_.md")
        #expect(SafeFileName.fileName(forTitle: "lpt9") == "lpt9_.md")
        #expect(SafeFileName.fileName(forTitle: "Console") == "Console.md")
        #expect(SafeFileName.fileName(forTitle: "???") == "Untitled.md")
        #expect(SafeFileName.fileName(forTitle: "Cafe\u{301}") == "Café.md")
        #expect(SafeFileName.fileName(forTitle: "日本語 ノート") == "日本語 ノート.md")
    }

    @Test func longTitlesKeepWithin255BytesAtACharacterBoundary() {
        let name = SafeFileName.fileName(forTitle: String(repeating: "é", count: 200))
        #expect(name.utf8.count <= SafeFileName.maxBytes)
        #expect(name.utf8.count == 255)
        #expect(name.hasSuffix("é.md"))
        let numbered = FreeFileName.first(stem: SafeFileName.stem(forTitle: String(repeating: "x", count: 300)),
                                          ext: ".md", taken: [String(repeating: "x", count: 252) + ".md"])
        #expect(numbered.utf8.count == SafeFileName.maxBytes)
        #expect(numbered.hasSuffix("x-2.md"))
    }

    @Test func stylesAndTheirConfigKey() throws {
        #expect(FileNameStyle.slug.fileName(forTitle: "Woody's Last Ride!") == "woodys-last-ride.md")
        #expect(FileNameStyle.title.fileName(forTitle: "Woody's Last Ride!") == "Woody's Last Ride!.md")
        #expect(FileNameStyle.title.fits("Woody-3.md", title: "Woody"))
        #expect(!FileNameStyle.title.fits("Woody-x.md", title: "Woody"))
        #expect(!FileNameStyle.title.fits("Woody-1.md", title: "Woody"))
        #expect(try VaultConfig(data: Data("version: 1\n".utf8)).fileNameStyle() == .slug)
        #expect(try VaultConfig(data: Data("fileNames: title\n".utf8)).fileNameStyle() == .title)
        #expect(try VaultConfig.initial(fileNames: .title).fileNameStyle() == .title)
        #expect(throws: CoreError.self) { try VaultConfig(data: Data("fileNames: titles\n".utf8)).fileNameStyle() }
    }
}
