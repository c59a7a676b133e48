import Foundation
import Testing
@testable import QuireCore

/// "No hidden path component" is one rule (`Vault.hiddenComponent`), the one links obey too.
@Suite struct HiddenPathTests {
    @Test func aComponentStartingWithADotIsHidden() {
        #expect(Vault.hiddenComponent(of: ".git/config") == ".git")
        #expect(Vault.hiddenComponent(of: "notes/.drafts/a.md") == ".drafts")
        #expect(Vault.hiddenComponent(of: "notes/..b/a.md") == "..b")
        #expect(Vault.hiddenComponent(of: "notes/v1.2/a.md") == nil)
        #expect(Vault.hiddenComponent(of: "") == nil)
        #expect(Vault.isHidden(name: Array(".obsidian".utf8)))
        #expect(!Vault.isHidden(name: "a.md"))
        // Links: followable exactly where the path has no hidden component.
        for relative in ["a.md", "x/.y/a.md", ".quire/config.yml", "x/y.z/a.md"] {
            #expect(Vault.isFollowable(target: "/v/" + relative, root: "/v") == (Vault.hiddenComponent(of: relative) == nil),
                    "\(relative)")
        }
    }
}
