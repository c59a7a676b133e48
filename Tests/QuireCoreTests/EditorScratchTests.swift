import QuireCore
import XCTest

final class EditorScratchTests: XCTestCase {
    func testScratchNames() {
        for name in [".note.md.swp", ".note.md.swo", ".a.swa", "Sub/.x.md.swp", "note.md~", "4913", "Sub/4913",
                     ".#note.md", "#note.md#", "Deep/Er/#x#"] {
            XCTAssertTrue(EditorScratch.isScratch(name), name)
        }
    }

    func testOrdinaryNames() {
        for name in ["note.md", "swap.swp.md", "a.swp", ".swp", "49130", "#tag.md", "#", "##", "Sub/", "", "x.#y",
                     ".gitignore", ".note.md.swz"] {
            XCTAssertFalse(EditorScratch.isScratch(name), name)
        }
    }
}
