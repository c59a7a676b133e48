import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// One heading rule (`NoteAnchors.headingIndex`): `check` and the site export decide alike which
/// heading a link names, in the forms Obsidian vaults write (`Part 1 Basics` for
/// `Part 1: Basics`, a `?` left out) and GitHub's anchors.
@Suite final class HeadingRuleTests {
    private let kit: KitVault

    init() throws { kit = try KitVault() }
    deinit { kit.remove() }

    @Test func checkAndExportAgreeOnEveryHeadingLink() throws {
        try kit.write("""
            # Target
            ## Part 1: Basics
            ## How large can each remote vault be?
            ## The `quire` command
            ## Smileys & Emotion
            ## Notes
            ## Notes
            ![[pic.png]]^figure-1

            """, to: "target.md")
        try kit.write("png", to: "pic.png")
        let links = ["[[target#Part 1 Basics]]", "[[target#How large can each remote vault be]]",
                     "[[target#The quire command]]", "[[target#The `quire` command]]", "[[target#Smileys & Emotion]]",
                     "[a](target.md#part-1-basics)", "[b](target.md#notes-1)", "[[target#Target#Part 1 Basics]]",
                     "[[target#Nowhere]]", "[[target#Part 2 Basics]]"]
        try kit.write(links.joined(separator: "\n") + "\n[[target#^figure-1]]\n", to: "source.md")

        let fresh = try FreshCatalog.open(vault: kit.vault, rules: GitIgnoreRules.of(kit.vault, environment: kit.environment),
                                          environment: kit.environment, walk: true)
        let report = try VaultCheck.run(vault: kit.vault, catalog: fresh.store.catalog, skipped: fresh.skipped)
        let missing = Set(report.problems.filter { $0.path == "source.md" }.compactMap(\.line))
        #expect(missing == [9, 10], "\(report.problems.map(\.message).joined(separator: "\n"))")

        let site = kit.root.deletingLastPathComponent().appendingPathComponent(kit.root.lastPathComponent + "-site")
        defer { try? FileManager.default.removeItem(at: site) }
        _ = try SiteExport.run(vault: kit.vault, rules: nil, options: SiteExportOptions(destination: site))
        let sourcePage = try String(contentsOf: site.appendingPathComponent("notes/source.html"), encoding: .utf8)
        let targetPage = try String(contentsOf: site.appendingPathComponent("notes/target.html"), encoding: .utf8)
        let fragments = sourcePage.components(separatedBy: "href=\"target.html#").dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }
        #expect(fragments.count == links.count)
        // A link check accepts leads to an id on the target page; one it reports leads nowhere.
        for (line, fragment) in zip(1..., fragments) {
            #expect(targetPage.contains("id=\"\(fragment)\"") == !missing.contains(line), "line \(line): #\(fragment)")
        }
    }
}
