import Foundation
import Testing

/// A quire command editing a note while a sync (the daemon's) replaces the same file: the edit is
/// made again on the new content instead of writing over it (found by `chaos.py --daemons`).
@Suite struct EditBesideSyncTests {
    @Test func anEditIsRedoneOnWhatTheSyncWrote() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Shared", body: "Old body.\n"), to: "shared.md")
        let device = Device(name: "laptop", vault: vault)
        let (run, stopped) = try device.runStopping(at: "before-note-write", ["set", "shared.md", "color=red"]) {
            // The sync's update lands between the command's read and its write.
            try vault.write(noteText("title: Shared", body: "Body from the other device.\n"), to: "shared.md")
        }
        #expect(stopped)
        #expect(run.code == 0, "\(run.stderr)")
        let text = try vault.read("shared.md")
        #expect(text.contains("Body from the other device.") && text.contains("color: red"), "\(text)")
    }
}
