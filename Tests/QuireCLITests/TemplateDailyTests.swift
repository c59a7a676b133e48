import Foundation
import Testing

@Suite("quire new --template, quire daily")
struct TemplateDailyTests {
    @Test func newFromATemplateFillsVariablesAndAddsMissingKeys() throws {
        let vault = try TestVault()
        try vault.write("""
        ---
        title: {{title}}
        project: {{studio}}
        mood: {{mood}}
        tags: [pitch]
        # a comment the template keeps
        ---
        # {{title}}

        Made on {{date}} at {{time}} ({{weekday}}), id {{id}}. {{unknown}} stays.

        """, to: ".quire/templates/pitch.md")
        let run = try vault.run(["new", "Robots: the return", "--template", "pitch", "--var", "studio=Pixar Animation",
                                 "--var", "mood=4", "--tag", "robots", "--body", "Appended."])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "robots-the-return.md\n")
        #expect(run.stderr == "quire: warning: the template's {{unknown}} names no variable; it is left as written\n")
        let text = try vault.read("robots-the-return.md")
        let id = try #require(text.range(of: #"\nid: ([0-9a-f-]{36})\n"#, options: .regularExpression)).lowerBound
        let idValue = String(text[text.index(id, offsetBy: 5)..<text.index(id, offsetBy: 41)])
        #expect(text == """
        ---
        title: "Robots: the return"
        project: Pixar Animation
        mood: 4
        tags: [pitch, robots]
        # a comment the template keeps
        id: \(idValue)
        createdAt: 2026-11-29T12:00:00+00:00
        updatedAt: 2026-11-29T12:00:00+00:00
        ---
        # Robots: the return

        Made on 2026-11-29 at 12:00 (Sunday), id \(idValue). {{unknown}} stays.
        Appended.

        """)
        let list = try vault.run(["list", "project:\"Pixar Animation\"", "mood:4", "--paths"])
        #expect(list.stdout == "robots-the-return.md\n")

        let missing = try vault.run(["new", "X", "--template", "nope"])
        #expect(missing.code == 1)
        #expect(missing.stderr.hasPrefix("quire: error: no template 'nope' in .quire/templates/ (there are: pitch)\n"))
        #expect(try vault.run(["new", "X", "--var", "a=b"]).code == 2)
        #expect(try vault.run(["new", "X", "--template", "pitch", "--var", "novalue"]).code == 2)
        #expect(try vault.run(["new", "X", "--template", "../x"]).code == 1)
        #expect(!vault.exists("x.md"))
    }

    @Test func aTemplateWithoutFrontMatterGetsTheCanonicalOne() throws {
        let vault = try TestVault()
        try vault.write("Notes for {{title}}.\n", to: ".quire/templates/plain.md")
        #expect(try vault.run(["new", "Meeting", "--template", "plain"]).code == 0)
        let lines = try vault.read("meeting.md").components(separatedBy: "\n")
        #expect(lines[0] == "---" && lines[1].hasPrefix("id: "))
        #expect(Array(lines[2...]) == ["title: Meeting", "createdAt: 2026-11-29T12:00:00+00:00",
                                       "updatedAt: 2026-11-29T12:00:00+00:00", "tags: []", "---", "Notes for Meeting.", ""])
    }

    @Test func dailyCreatesOnceThenFindsTheSameNote() throws {
        let vault = try TestVault()
        let first = try vault.run(["daily"])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout == "Journal/2026-11-29.md\n")
        let text = try vault.read("Journal/2026-11-29.md")
        #expect(text.contains("\ntitle: \"2026-11-29\"\n") && text.contains("\ntags: [daily]\n"))
        #expect(try vault.run(["daily", "today", "--no-edit"]).stdout == "Journal/2026-11-29.md\n")
        #expect(try vault.read("Journal/2026-11-29.md") == text)
        #expect(try vault.run(["daily", "yesterday"]).stdout == "Journal/2026-11-28.md\n")
        #expect(try vault.run(["daily", "+2"], subfolder: "Journal").stdout == "2026-12-01.md\n")
        let bad = try vault.run(["daily", "2026-02-30"])
        #expect(bad.code == 2)
        #expect(bad.stderr.hasPrefix("quire: error: not a day: '2026-02-30'\n"))
    }

    @Test func dailyFolderFormatAndTemplateFromTheConfiguration() throws {
        let vault = try TestVault()
        try vault.write(try vault.read(".quire/config.yml") + "daily:\n  folder: Diary\n  format: YYYY/MM/YYYY-MM-DD dddd\n",
                        to: ".quire/config.yml")
        try vault.write("---\ntitle: {{title}}\nmood:\n---\n## {{weekday}} {{date}}, written at {{time}}\n", to: ".quire/templates/daily.md")
        let run = try vault.run(["daily", "2026-11-02"], environment: ["QUIRE_NOW": "2026-11-29T08:15:00Z"])
        #expect(run.stdout == "Diary/2026/11/2026-11-02 Monday.md\n")
        let text = try vault.read("Diary/2026/11/2026-11-02 Monday.md")
        #expect(text.hasPrefix("---\ntitle: 2026-11-02 Monday\nmood:\nid: "))
        #expect(text.hasSuffix("createdAt: 2026-11-29T08:15:00+00:00\nupdatedAt: 2026-11-29T08:15:00+00:00\n---\n## Monday 2026-11-02, written at 08:15\n"))
    }

    @Test func dailyOpensTheEditorOnATerminal() throws {
        let vault = try TestVault()
        let editor = try TestVault.script("printf 'Dear diary.\\n' >> \"$1\"")
        let driver = Harness.packageRoot.appendingPathComponent("Tests/Servers/pty-editor.py")
        var environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"), extra: ["TERM": "xterm"])
        environment["EDITOR"] = editor
        environment.removeValue(forKey: "VISUAL")
        let run = try ChaosSupport.capture(["python3", driver.path, "60", "--", Harness.binary.path, "daily"],
                                           in: vault.root, environment: environment, withErrors: true)
        #expect(run.code == 0, "\(run.output)")
        #expect(try vault.read("Journal/2026-11-29.md").hasSuffix("---\nDear diary.\n"))
    }
}
