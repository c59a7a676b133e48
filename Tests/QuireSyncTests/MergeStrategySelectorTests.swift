import QuireSync
import Testing

@Suite struct MergeStrategySelectorTests {
    let selector = MergeStrategySelector(rules: [
        (pattern: "Journal/**", strategy: .ours),
        (pattern: "Drafts/*", strategy: .keepBoth),
        (pattern: "**/inbox-?.md", strategy: .theirs),
        (pattern: "*.md", strategy: .newest),
        (pattern: "Archive/", strategy: .theirs),
    ], fallback: .keepBoth)

    @Test func firstMatchingRuleWins() {
        #expect(selector.strategy(for: "Journal/2026/01-02.md") == .ours)
        #expect(selector.strategy(for: "Journal/today.md") == .ours)
        #expect(selector.strategy(for: "Drafts/woody.md") == .keepBoth)
        #expect(selector.strategy(for: "Drafts/old/woody.md") == .newest)
        #expect(selector.strategy(for: "inbox-1.md") == .theirs)
        #expect(selector.strategy(for: "Work/Deep/inbox-2.md") == .theirs)
        #expect(selector.strategy(for: "Work/Deep/inbox-22.md") == .newest)
        #expect(selector.strategy(for: "Projects/toy.md") == .newest)
        #expect(selector.strategy(for: "Archive/scan.pdf") == .theirs)
        #expect(selector.strategy(for: "Other/scan.pdf") == .keepBoth)
        #expect(selector.strategy(for: "JournalX/a.md") == .newest)
    }

    @Test func emptyRulesUseTheFallback() {
        #expect(MergeStrategySelector(rules: []).strategy(for: "a.md") == .newest)
        #expect(MergeStrategy(rawValue: "keep-both") == .keepBoth)
    }
}
