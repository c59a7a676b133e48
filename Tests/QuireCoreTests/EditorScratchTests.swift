import QuireCore
import Testing

@Suite struct EditorScratchTests {
    @Test func scratchNames() {
        for name in [".note.md.swp", ".note.md.swo", ".a.swa", "Sub/.x.md.swp", "note.md~", "4913", "Sub/4913",
                     ".#note.md", "#note.md#", "Deep/Er/#x#",
                     // vim's other swap names, and its write test when 4913 is taken
                     ".n.md.swx", ".n.md.swo", ".n.md.svz", ".n.md.saa", ".n.md.sva", "5036", "5159", "Sub/9833",
                     // emacs's numbered backups, Kate, gedit, LibreOffice, JetBrains, VS Code
                     "n.md.~1~", ".n.md.kate-swp", ".goutputstream-2X7QF3", ".~lock.report.odt#",
                     "Sub/n.md___jb_tmp___", "n.md___jb_old___", "n.md.vsctmp"] {
            #expect(EditorScratch.isScratch(name), "\(name)")
        }
    }

    @Test func ordinaryNames() {
        for name in ["note.md", "swap.swp.md", "a.swp", ".swp", "49130", "#tag.md", "#", "##", "Sub/", "", "x.#y",
                     ".gitignore", ".note.md.swz", "logo.svg", "data.sav", ".n.md.swq", ".n.md.sw", "5000",
                     "04913", "4914", "kate-swp.md", "goutputstream-1", ".~lock.", "~lock.a#", "jb_tmp.md"] {
            #expect(!EditorScratch.isScratch(name), "\(name)")
        }
    }
}
