import Foundation
import Testing

@Suite("quire rm: the trash never collides")
struct TrashCollisionTests {
    /// Two notes with one title removed in the same second (QUIRE_NOW is fixed): both kept,
    /// restored newest first.
    @Test func twoRemovalsOfOnePathInOneSecondAreBothKept() throws {
        let vault = try TestVault()
        #expect(try vault.run(["new", "Same", "--body", "first"]).stdout == "same.md\n")
        let first = try vault.run(["rm", "Same"])
        #expect(first.code == 0)
        #expect(first.stdout == "moved same.md to .quire/local/trash/20261129T120000Z/same.md (never committed)\n")
        #expect(try vault.run(["new", "Same", "--body", "second"]).stdout == "same.md\n")
        let second = try vault.run(["rm", "Same"])
        #expect(second.code == 0)
        #expect(second.stdout == "moved same.md to .quire/local/trash/20261129T120000Z-2/same.md (never committed)\n")
        #expect(try vault.read(".quire/local/trash/20261129T120000Z/same.md").hasSuffix("first\n"))
        #expect(try vault.read(".quire/local/trash/20261129T120000Z-2/same.md").hasSuffix("second\n"))
        #expect(try vault.run(["restore", "same.md"]).code == 0)
        #expect(try vault.read("same.md").hasSuffix("second\n"))
    }
}
